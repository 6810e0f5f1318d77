#!/usr/bin/env bash
# `assetfs warm` benchmark: thumbnails of a generated folder of 12 MP photos, against the
# libjpeg-turbo decode floor (`djpeg -scale 1/8`) and libvips (`vipsthumbnail`), side by side in
# one run, so every figure is also a ratio to the floor measured on the same (possibly busy) machine.
#
#   bash bench/warm-bench.sh                   # from the package root: build, corpus, timings, table
#   BENCH_QUICK=1 bash bench/warm-bench.sh     # 40 photos, 1 run: CI-like time
#
# Environment:
#   BENCH_QUICK       1: fewer photos and one run
#   BENCH_PHOTOS      photos in the folder (default 200; quick 40); generated once, cached
#   BENCH_RUNS        timed repetitions, the tools taking turns (order flipped every run); medians
#                     reported, ratios to the floor taken within each run (default 3; quick 1)
#   BENCH_SKIP_BUILD  1: use the binary already built instead of running `swift build -c release`
#   BENCH_SCRATCH     the build folder (default bench/out/build: not .build, whose lock `swift test` holds)
#   BENCH_STRICT      1: exit 1 when a target is missed (default: report only)
#
# Contestants, all on the same files with their page cache warm, all using both cores:
#   floor          djpeg -scale 1/8 -outfile /dev/null, one process per photo, 2 at a time (xargs -P2):
#                  the cheapest decode a thumbnailer of a baseline JPEG can do
#   assetfs warm   `assetfs warm -o cache=FRESH SOURCE` (default thumbnail_size 256, quality 85), a fresh
#                  cache each run: scan, render and store every thumbnail, on all cores
#   vips/photo     vipsthumbnail -s 256 -o DIR/%s_t.jpg[Q=85], one process per photo, 2 at a time
#   vips/batch     vipsthumbnail -s 256 given many files at once, VIPS_CONCURRENCY=1, 2 processes each
#                  taking half the files: libvips without process start-up per photo
# Peak RSS is /usr/bin/time's %M: for the xargs rows, the largest single child.
#
# The corpus lives in bench/out/warm/ (gitignored): 4 ImageMagick plasma pictures 4000x3000 with a few
# hard-edged shapes (fixed seeds), and per photo one of them, flipped one of 4 ways, plus a sensor-like
# Gaussian noise field (sigma 7) at a per-photo offset and a per-photo brightness shift, written by
# cjpeg -quality 90: deterministic, photo-like, every file different, ~3 MB each as a 12 MP camera's.
set -euo pipefail
export LC_ALL=C   # a '.' in $EPOCHREALTIME and in printf's numbers

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
OUT="$ROOT/bench/out/warm"
START=$SECONDS

log() { printf 'warm-bench: %s\n' "$*" >&2; }
die() { printf 'warm-bench: error: %s\n' "$*" >&2; exit 1; }

QUICK=${BENCH_QUICK:-0}
if [[ $QUICK == 1 ]]; then PHOTOS=${BENCH_PHOTOS:-40}; RUNS=${BENCH_RUNS:-1}; else PHOTOS=${BENCH_PHOTOS:-200}; RUNS=${BENCH_RUNS:-3}; fi
[[ $PHOTOS =~ ^[1-9][0-9]*$ && $RUNS =~ ^[1-9][0-9]*$ ]] || die "BENCH_PHOTOS and BENCH_RUNS must be positive integers"
WIDTH=4000 HEIGHT=3000 BASES=4
CORPUS="$OUT/photos-v2-$PHOTOS"   # v2: noise sigma 7, ~3 MB a photo like 12 MP camera files
TARGET_RATE=34        # assetfs warm photos/s on this machine…
TARGET_FLOOR=40       # …where the floor was measured at 40/s: 0.85x the floor
TARGET_RATIO=$(awk -v a=$TARGET_RATE -v b=$TARGET_FLOOR 'BEGIN { printf "%.2f", a / b }')

# ---------------------------------------------------------------- tools
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
find_numpy_python
missing=()
command -v djpeg >/dev/null && command -v cjpeg >/dev/null || missing+=(libjpeg-turbo-progs)
command -v identify >/dev/null && command -v convert >/dev/null || missing+=(imagemagick)
command -v vipsthumbnail >/dev/null || missing+=(libvips-tools)
[[ -x /usr/bin/time ]] || missing+=(time)
[[ -n $PY ]] || missing+=(python3-numpy)
if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
    [[ -n $PY ]] || PY=/usr/bin/python3
fi

# ---------------------------------------------------------------- build
mkdir -p "$OUT"
build_release_copy

# ---------------------------------------------------------------- corpus
generate_corpus() {
    local stamp="$CORPUS.complete-v2"
    [[ -f $stamp ]] && return 0
    log "generating $PHOTOS photos ${WIDTH}x${HEIGHT} (q90) under $CORPUS"
    local t0=$EPOCHREALTIME s
    mkdir -p "$OUT/bases"
    # shellcheck disable=SC2016  # the single-quoted script is expanded by the sh that runs it
    for ((s = 1; s <= BASES; s++)); do
        [[ -s $OUT/bases/base-$s.ppm ]] || printf '%s\n' "$s"
    done | xargs -r -P2 -I{} sh -c '
        s={}; w=$2; h=$3
        convert -size "${w}x${h}" -seed "$s" plasma:fractal -blur 0x1.2 \
            -fill "rgb($((s * 67 % 256)),$((s * 113 % 256)),$((s * 29 % 256)))" \
            -draw "circle $((w * (s + 2) / 9)),$((h * (s + 1) / 7)) $((w * (s + 2) / 9 + w / 12)),$((h * (s + 1) / 7))" \
            -fill "rgb($((s * 191 % 256)),$((s * 37 % 256)),$((s * 151 % 256)))" \
            -draw "rectangle $((w * (7 - s) / 10)),$((h / 10)) $((w * (7 - s) / 10 + w / 7)),$((h / 10 + h / 4))" \
            -fill "rgb(240,235,220)" -draw "polygon $((w / 20)),$((h * 9 / 10)) $((w / 3)),$((h * 6 / 10)) $((w / 2)),$((h * 19 / 20))" \
            -depth 8 "ppm:$1/base-$s.ppm.tmp" && mv "$1/base-$s.ppm.tmp" "$1/base-$s.ppm"' _ "$OUT/bases" "$WIDTH" "$HEIGHT"
    rm -rf "$CORPUS"
    mkdir -p "$CORPUS"
    local part
    for part in 0 1; do
        "$PY" - "$OUT/bases" "$BASES" "$CORPUS" "$PHOTOS" "$part" "$ROOT/bench" <<'PY' &
import subprocess, sys
import numpy as np

bases_dir, bases, corpus, photos, part = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
bench_dir = sys.argv[6]

sys.path.insert(0, bench_dir)
from psnr import parse_ppm  # noqa: E402


def read_ppm(path):
    with open(path, "rb") as f:
        return parse_ppm(f.read(), path)

images = [read_ppm(f"{bases_dir}/base-{s}.ppm") for s in range(1, bases + 1)]
height, width, _ = images[0].shape
margin = 96
rng = np.random.default_rng(20240601)           # the same noise field in both parts
noise = np.clip(rng.normal(0.0, 7.0, (height + margin, width + margin, 3)), -40, 40).astype(np.int16)
for i in range(part, photos, 2):
    base = images[i % bases]
    flip = (i // bases) % 4
    if flip & 1:
        base = base[:, ::-1]
    if flip & 2:
        base = base[::-1]
    local = np.random.default_rng(i)
    dy, dx = (int(v) for v in local.integers(0, margin, 2))
    shift = int(local.integers(-12, 13))
    picture = base.astype(np.int16) + noise[dy:dy + height, dx:dx + width] + shift
    np.clip(picture, 0, 255, out=picture)
    encoder = subprocess.Popen(["cjpeg", "-quality", "90", "-outfile", f"{corpus}/IMG_{i:04d}.jpg"], stdin=subprocess.PIPE)
    encoder.stdin.write(b"P6\n%d %d\n255\n" % (width, height))
    encoder.stdin.write(picture.astype(np.uint8).tobytes())
    encoder.stdin.close()
    if encoder.wait() != 0:
        sys.exit(f"cjpeg failed on photo {i}")
PY
    done
    wait   # (a failing part fails the checks below)
    local count dupes
    count=$(find "$CORPUS" -name '*.jpg' | wc -l)
    [[ $count == "$PHOTOS" ]] || die "generated $count photos, expected $PHOTOS"
    dupes=$(md5sum "$CORPUS"/*.jpg | awk '{ print $1 }' | sort | uniq -d | wc -l)
    [[ $dupes == 0 ]] || die "$dupes duplicate photos in the generated corpus"
    djpeg -scale 1/8 -outfile /dev/null "$CORPUS/IMG_0000.jpg" || die "a generated photo does not decode"
    touch "$stamp"
    log "generated in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
}

# ---------------------------------------------------------------- helpers
TMP=$(mktemp -d /tmp/assetfs-warm-bench.XXXXXX)
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() { rm -rf "$TMP"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM


# timed NAME CMD...: runs CMD under /usr/bin/time, appends its wall time (s, from $EPOCHREALTIME)
# to TIMES_NAME and its peak RSS (KiB) to RSS_NAME
declare -A TIMES RSS
timed() {
    local name=$1; shift
    local t0=$EPOCHREALTIME
    /usr/bin/time -f '%M' -o "$TMP/time.txt" "$@"
    local t1=$EPOCHREALTIME
    TIMES[$name]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }') "
    RSS[$name]+="$(tail -1 "$TMP/time.txt") "
}

VIPS_OUT="$TMP/vips/%s_t.jpg[Q=85]"
fresh_vips_dir() { rm -rf "$TMP/vips" && mkdir "$TMP/vips"; }
count_vips() { find "$TMP/vips" -name '*_t.jpg' | wc -l; }

# ---------------------------------------------------------------- run
generate_corpus
LIST="$TMP/list"
find "$CORPUS" -name '*.jpg' -print0 | sort -z >"$LIST"
mapfile -d '' FILES <"$LIST"
n=${#FILES[@]}
HALF=$(((n + 1) / 2))
BYTES=$(du -cb "${FILES[@]}" | tail -1 | cut -f1)
cat "${FILES[@]}" >/dev/null   # page cache warm for everyone
log "corpus: ${#FILES[@]} photos, $(calc '%.0f' "$BYTES / 1048576") MiB; $RUNS runs, tools taking turns"

# the contestants; one untimed warm-up of each first
floor() { timed floor xargs -0 -a "$LIST" -P2 -n1 djpeg -scale 1/8 -outfile /dev/null; }
assetfs() {
    rm -f "$TMP"/cache.sqlite*
    timed assetfs "$BIN" warm -o "cache=$TMP/cache.sqlite" "$CORPUS" >"$TMP/warm.txt" 2>"$TMP/warm.err" ||
        { cat "$TMP/warm.txt" "$TMP/warm.err" >&2; die "assetfs warm failed"; }
    grep -q "^rendered $n, already cached 0, failed 0" "$TMP/warm.txt" ||
        die "assetfs warm did not render every photo: $(cat "$TMP/warm.txt")"
}
vips_photo() {
    fresh_vips_dir
    timed vips_photo xargs -0 -a "$LIST" -P2 -n1 vipsthumbnail -s 256 -o "$VIPS_OUT"
    [[ $(count_vips) == "$n" ]] || die "vipsthumbnail (one process per photo) wrote $(count_vips) thumbnails, expected $n"
}
vips_batch() {   # 2 processes, each given half the files
    fresh_vips_dir
    timed vips_batch xargs -0 -a "$LIST" -P2 -n "$HALF" env VIPS_CONCURRENCY=1 vipsthumbnail -s 256 -o "$VIPS_OUT"
    [[ $(count_vips) == "$n" ]] || die "vipsthumbnail (batch) wrote $(count_vips) thumbnails, expected $n"
}
floor; assetfs; vips_photo; vips_batch
TIMES=() RSS=()   # the warm-up does not count
# Others share the machine: the load drifts within seconds. So the order flips every run (each tool
# sits next to the floor as often as away from it), and every ratio is taken within one run.
for ((r = 1; r <= RUNS; r++)); do
    log "run $r/$RUNS"
    if ((r % 2)); then floor; assetfs; vips_photo; vips_batch; else vips_batch; vips_photo; assetfs; floor; fi
done
WARM_LINE=$(tail -1 "$TMP/warm.txt")

# ---------------------------------------------------------------- report
# shellcheck disable=SC2086
rate() { calc '%.1f' "$n / $(median ${TIMES[$1]})"; }
# shellcheck disable=SC2086
peak() { calc '%.1f' "$(printf '%s\n' ${RSS[$1]} | sort -n | tail -1) / 1024"; }
# vs_floor NAME: the median over runs of (floor time / NAME's time) in the same run, and its range
vs_floor() {
    local -a f t ratios=()
    read -r -a f <<<"${TIMES[floor]}"
    read -r -a t <<<"${TIMES[$1]}"
    local i
    for ((i = 0; i < ${#t[@]}; i++)); do ratios+=("$(calc '%.3f' "${f[i]} / ${t[i]}")"); done
    printf '%s' "$(calc '%.2f' "$(median "${ratios[@]}")")"
    ((${#ratios[@]} > 1)) && printf ' (%s-%s)' "$(printf '%s\n' "${ratios[@]}" | sort -g | head -1 | xargs printf '%.2f')" \
        "$(printf '%s\n' "${ratios[@]}" | sort -g | tail -1 | xargs printf '%.2f')"
    return 0
}
FLOOR_RATE=$(rate floor)
ASSETFS_RATE=$(rate assetfs)
ASSETFS_VS=$(vs_floor assetfs)
ASSETFS_RATIO=${ASSETFS_VS%% *}
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { exit !(v >= t) }' && printf ok || printf MISSED; }
V_RATIO=$(verdict "$ASSETFS_RATIO" "$TARGET_RATIO")
V_RATE=$(verdict "$ASSETFS_RATE" "$TARGET_RATE")
row() { printf '%-52s %9s %18s %10s  %s\n' "$@"; }
{
echo
echo "assetfs warm-bench: $n photos ${WIDTH}x${HEIGHT} q90 ($(calc '%.0f' "$BYTES / 1048576") MiB), thumbnails 256 px q85, $RUNS runs, medians; $(nproc) cores"
echo
row "contestant" "photos/s" "x floor (range)" "peak RSS" "target"
row "----------------------------------------------------" "---------" "------------------" "----------" "------"
row "floor: djpeg -scale 1/8, 1 process/photo, 2 at a time" "$FLOOR_RATE" "1.00" "$(peak floor) MiB" ""
row "assetfs warm (fresh cache, all cores)" "$ASSETFS_RATE" "$ASSETFS_VS" "$(peak assetfs) MiB" ">= ${TARGET_RATIO}x floor: $V_RATIO; >= $TARGET_RATE/s: $V_RATE"
row "vipsthumbnail -s 256, 1 process/photo, 2 at a time" "$(rate vips_photo)" "$(vs_floor vips_photo)" "$(peak vips_photo) MiB" ""
row "vipsthumbnail -s 256, 2 processes x $HALF files" "$(rate vips_batch)" "$(vs_floor vips_batch)" "$(peak vips_batch) MiB" ""
echo
echo "assetfs warm said: $WARM_LINE"
echo "raw seconds: floor ${TIMES[floor]}| assetfs ${TIMES[assetfs]}| vips/photo ${TIMES[vips_photo]}| vips/batch ${TIMES[vips_batch]}"
echo "total bench time: $((SECONDS - START)) s"
} | tee "$OUT/report-$n.txt"

if [[ ${BENCH_STRICT:-0} == 1 && ( $V_RATIO != ok ) ]]; then exit 1; fi
exit 0
