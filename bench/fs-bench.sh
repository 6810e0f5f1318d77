#!/usr/bin/env bash
# Filesystem benchmark: an assetfs mount of a generated library of small photos against the same
# work done on plain files, side by side in one run, so every figure is a ratio to an anchor
# measured back to back with it on the same (possibly busy) machine.
#
#   bash bench/fs-bench.sh                  # from the package root: build, library, warm, timings, table
#   BENCH_QUICK=1 bash bench/fs-bench.sh    # 20 albums x 50 photos, 2 runs: CI-like time
#
# Environment:
#   BENCH_QUICK       1: a small library and fewer runs
#   BENCH_ALBUMS      albums in the library (default 100; quick 20)
#   BENCH_PHOTOS      photos per album (default 100; quick 50)
#   BENCH_RUNS        timed repetitions of every measurement, sides alternating; medians reported
#                     (default 3; quick 2)
#   BENCH_SKIP_BUILD  1: use the binary already built instead of running `swift build -c release`
#   BENCH_SCRATCH     the build folder (default bench/out/build: not .build, whose lock `swift test` holds)
#   BENCH_STRICT      1: exit 1 when a target is missed (default: report only)
#
# What is measured (the source's page cache is warm throughout; nothing is dropped):
#   mount        `assetfs -o cache=... SOURCE MNT` from start to return (it returns once the mount is
#                ready), and the daemon's VmRSS/VmHWM (/proc/PID/status) right after mount and at the end
#   listing      `find MNT | wc -l` and `ls -lR MNT` cold (first thing after a fresh mount) and warm
#                (everything stat'ed once before), against the same on SOURCE
#   originals    every original.jpg read through the mount against the same files in SOURCE (each side
#                read once before timing)
#   renditions   every thumbnail.jpg and fullscreen.jpg read after a fresh REMOUNT (nothing in the
#                kernel's caches, nothing rendered: the mount's renders counter must stay 0) against the
#                same bytes copied once into plain files (read once before timing)
# "Everything cached": `assetfs warm --fullscreen` with the same -o options runs before any mount.
# Also printed: the daemon's CPU time (utime + stime) for each pass through the mount. Wall times of
# FUSE round trips swing with the machine's load far more than the plain-file anchors do; CPU less.
#
# Generated files live in bench/out/fs/ (gitignored): the library is cached there between runs
# (20 plasma base images, each copy made unique by a COM segment), and so is the rendition cache.
set -euo pipefail
export LC_ALL=C   # a '.' in $EPOCHREALTIME and in printf's numbers

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
OUT="$ROOT/bench/out/fs"
START=$SECONDS

log() { printf 'fs-bench: %s\n' "$*" >&2; }
die() { printf 'fs-bench: error: %s\n' "$*" >&2; exit 1; }

QUICK=${BENCH_QUICK:-0}
if [[ $QUICK == 1 ]]; then
    ALBUMS=${BENCH_ALBUMS:-20}; PHOTOS=${BENCH_PHOTOS:-50}; RUNS=${BENCH_RUNS:-2}
else
    ALBUMS=${BENCH_ALBUMS:-100}; PHOTOS=${BENCH_PHOTOS:-100}; RUNS=${BENCH_RUNS:-3}
fi
[[ $ALBUMS =~ ^[1-9][0-9]*$ && $PHOTOS =~ ^[1-9][0-9]*$ && $RUNS =~ ^[1-9][0-9]*$ ]] ||
    die "BENCH_ALBUMS, BENCH_PHOTOS and BENCH_RUNS must be positive integers"
TOTAL=$((ALBUMS * PHOTOS))
BASES=20
TAG="${ALBUMS}x${PHOTOS}"
LIBRARY="$OUT/library-$TAG"          # SOURCE
CACHE="$OUT/cache-$TAG.sqlite"       # the rendition cache every mount and `warm` here uses
PLAIN="$OUT/renditions-$TAG"         # the renditions copied out as plain files
OPTS="cache=$CACHE,cache_size=8G"    # big enough that nothing is evicted; default sizes and quality

# Targets
READ_RATIO_TARGET=0.5     # rendition and original reads ≥ 0.5x plain-file throughput
LS_RATIO_TARGET=3.0       # ls -lR (cached) ≤ 3x SOURCE
RSS_TARGET_MIB=64         # daemon RSS < 64 MiB (for 10,000 photos)

# ---------------------------------------------------------------- tools
missing=()
command -v identify >/dev/null && command -v convert >/dev/null || missing+=(imagemagick)
command -v djpeg >/dev/null || missing+=(libjpeg-turbo-progs)
command -v fusermount3 >/dev/null || missing+=(fuse3)
command -v python3 >/dev/null || missing+=(python3)
command -v pgrep >/dev/null || missing+=(procps)
command -v mountpoint >/dev/null || missing+=(util-linux)
if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
[[ -e /dev/fuse ]] || die "/dev/fuse is missing: FUSE cannot mount here"

# ---------------------------------------------------------------- build
mkdir -p "$OUT"
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
build_release_copy

# ---------------------------------------------------------------- helpers
now() { printf '%s' "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f", b - a }'; }
mib() { calc '%.1f' "$1 / 1024"; }            # kB → MiB
# status_kb PID FIELD: VmRSS / VmHWM in kB
status_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }
# daemon CPU (user + system, s) spent on one measurement: cpu_mark before, cpu_note ARRAY after
CPU_TICKS=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }   # (comm has no spaces: "(assetfs)")
CPU_MARK=0
cpu_mark() { CPU_MARK=$(cpu_ticks); }
cpu_note() { local -n into=$1; into+=("$(calc '%.2f' "($(cpu_ticks) - $CPU_MARK) / $CPU_TICKS")"); }

# ---------------------------------------------------------------- the library
# 20 plasma pictures 640x480 at quality 85 (fixed seeds, a few hard-edged shapes each), and
# ALBUMS x PHOTOS copies of them, each made unique by a COM segment right after SOI naming it.
generate_library() {
    local stamp="$LIBRARY.complete-v1"
    [[ -f $stamp ]] && return 0
    log "generating $TOTAL photos in $ALBUMS albums under $LIBRARY"
    local t0; t0=$(now)
    rm -rf "$LIBRARY"
    mkdir -p "$OUT/bases" "$LIBRARY"
    local seed
    # shellcheck disable=SC2016  # the single-quoted script is expanded by the sh that runs it
    for ((seed = 1; seed <= BASES; seed++)); do
        [[ -s $OUT/bases/base-$seed.jpg ]] && continue
        printf '%s\n' "$seed"
    done | xargs -r -P2 -I{} sh -c '
        s={}; x=$((s * 37 % 500)); y=$((s * 53 % 360))
        convert -size 640x480 -seed "$s" plasma:fractal -blur 0x0.6 \
            -fill "rgb($((s * 41 % 256)),$((s * 97 % 256)),$((s * 13 % 256)))" -draw "circle $x,$y $((x + 40)),$((y + 25))" \
            -fill "rgb($((s * 7 % 256)),$((s * 151 % 256)),$((s * 89 % 256)))" -draw "rectangle $((y + 50)),$((x % 300)) $((y + 170)),$((x % 300 + 90))" \
            -quality 85 "jpg:$1/base-$s.jpg.tmp" && mv "$1/base-$s.jpg.tmp" "$1/base-$s.jpg"' _ "$OUT/bases"
    python3 - "$LIBRARY" "$ALBUMS" "$PHOTOS" "$OUT/bases" "$BASES" <<'PY'
import os, struct, sys
library, albums, photos, bases_dir, bases = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
base = [open(os.path.join(bases_dir, f"base-{s}.jpg"), "rb").read() for s in range(1, bases + 1)]
for b in base:
    assert b[:2] == b"\xff\xd8", "a base image is not a JPEG"
for a in range(albums):
    folder = os.path.join(library, f"album-{a:03d}")
    os.makedirs(folder, exist_ok=True)
    for i in range(photos):
        data = base[(a * photos + i + a) % bases]
        comment = f"assetfs fs-bench album {a:03d} photo {i:04d}".encode()
        segment = b"\xff\xfe" + struct.pack(">H", len(comment) + 2) + comment
        with open(os.path.join(folder, f"IMG_{i:04d}.jpg"), "wb") as f:
            f.write(data[:2] + segment + data[2:])
PY
    # every file distinct, and still a JPEG that libjpeg decodes
    local dupes
    dupes=$(find "$LIBRARY" -name '*.jpg' -print0 | xargs -0 md5sum | awk '{ print $1 }' | sort | uniq -d | wc -l)
    [[ $dupes == 0 ]] || die "$dupes duplicate files in the generated library"
    djpeg -outfile /dev/null "$LIBRARY/album-000/IMG_0000.jpg" || die "a generated file does not decode"
    djpeg -outfile /dev/null "$LIBRARY/album-$(printf %03d $((ALBUMS - 1)))/IMG_$(printf %04d $((PHOTOS - 1))).jpg"
    touch "$stamp"
    log "generated in $(since "$t0") s"
}

# ---------------------------------------------------------------- mounts
TMP=$(mktemp -d /tmp/assetfs-fs-bench.XXXXXX)
MOUNTS=()
MOUNT_SEQ=0
MNT="" PID=""

# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
    local status=$? m
    for m in "${MOUNTS[@]}"; do
        if mountpoint -q "$m" 2>/dev/null; then
            fusermount3 -u "$m" 2>/dev/null || fusermount3 -uz "$m" 2>/dev/null || true
        fi
    done
    # only empty mountpoints and our own scratch files: never recurse into a (dead) mount
    for m in "${MOUNTS[@]}"; do rmdir "$m" 2>/dev/null || true; done
    rm -rf "$TMP/lists" 2>/dev/null || true
    rm -f "$TMP/warm.txt" "$TMP/warm.err"
    rmdir "$TMP" 2>/dev/null || true
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The daemon serving mountpoint $1: the process of our binary whose command line names it.
daemon_pid() {
    local p
    for p in $(pgrep -f -- "$1" || true); do
        [[ $(readlink "/proc/$p/exe" 2>/dev/null) == "$BIN" ]] && { printf '%s' "$p"; return 0; }
    done
    return 1
}

MOUNT_TIMES=()
RSS_AFTER_MOUNT=()
# mount_library: a fresh mountpoint, a timed mount; sets MNT and PID
mount_library() {
    MOUNT_SEQ=$((MOUNT_SEQ + 1))
    MNT="$TMP/mnt-$MOUNT_SEQ"
    mkdir "$MNT"
    MOUNTS+=("$MNT")
    local t0; t0=$(now)
    "$BIN" -o "$OPTS" "$LIBRARY" "$MNT"
    MOUNT_TIMES+=("$(since "$t0")")
    mountpoint -q "$MNT" || die "assetfs returned but $MNT is not a mount"
    PID=$(daemon_pid "$MNT") || die "no assetfs daemon found for $MNT"
    RSS_AFTER_MOUNT+=("$(status_kb "$PID" VmRSS)")
}

unmount_library() {
    mountpoint -q "$MNT" || die "the mount at $MNT vanished mid-run (was its daemon $PID killed?)"
    fusermount3 -u "$MNT"
    local i
    for ((i = 0; i < 100; i++)); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$PID" 2>/dev/null && die "daemon $PID still running 10 s after unmounting $MNT"
    rmdir "$MNT"
}

# (os.getxattr rather than getfattr: one tool fewer to have installed)
stats_json() { python3 -c 'import os,sys; print(os.getxattr(sys.argv[1], "user.assetfs.stats").decode())' "$1"; }
stat_field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

# ---------------------------------------------------------------- workloads (each sets ELAPSED)
ELAPSED=0
COUNT=0
time_find() { local t0; t0=$(now); COUNT=$(find "$1" | wc -l); ELAPSED=$(since "$t0"); }
time_ls() { local t0; t0=$(now); ls -lR "$1" >/dev/null; ELAPSED=$(since "$t0"); }
# time_read DIR LIST: cat every file of the NUL-separated LIST (paths relative to DIR)
time_read() { local t0; t0=$(now); (cd "$1" && xargs -0 -n 2000 cat <"$2") >/dev/null; ELAPSED=$(since "$t0"); }
read_untimed() { (cd "$1" && xargs -0 -n 2000 cat <"$2") >/dev/null; }
sum_sizes() { (cd "$1" && xargs -0 stat -c %s <"$2") | awk '{ s += $1 } END { print s + 0 }'; }
digest() { (cd "$1" && xargs -0 -n 2000 cat <"$2") | md5sum | awk '{ print $1 }'; }

# ---------------------------------------------------------------- run
generate_library
mkdir -p "$TMP/lists"
SRC_LIST="$TMP/lists/source"
(cd "$LIBRARY" && find . -name '*.jpg' -print0 | sort -z) >"$SRC_LIST"
SRC_BYTES=$(sum_sizes "$LIBRARY" "$SRC_LIST")
log "library: $TOTAL photos, $(calc '%.1f' "$SRC_BYTES / 1048576") MiB; cache $CACHE"

log "assetfs warm --fullscreen (renders only what the cache lacks)"
t0=$(now)
"$BIN" warm --fullscreen -o "$OPTS" "$LIBRARY" >"$TMP/warm.txt" 2>"$TMP/warm.err" ||
    { cat "$TMP/warm.txt" "$TMP/warm.err" >&2; die "assetfs warm failed"; }
WARM_TIME=$(since "$t0")
WARM_LINE=$(tail -1 "$TMP/warm.txt")
log "warm: $WARM_LINE in $WARM_TIME s"

# the source side's caches warm: every entry stat'ed, every byte read; the cache file too
ls -lR "$LIBRARY" >/dev/null
read_untimed "$LIBRARY" "$SRC_LIST"
cat "$CACHE"* >/dev/null 2>&1 || true

# Listings walk groups/ (the same files as the views and dates/, which would only repeat them; the
# dates/ tree also fills in in the background): groups, per album dir + poster, per photo dir + 3 files.
EXPECT_MNT=$((1 + 2 * ALBUMS + 4 * TOTAL))
EXPECT_SRC=$((1 + ALBUMS + TOTAL))

# --- A: cold listing, a fresh mount for each measurement
declare -a FIND_COLD FIND_SRC_A LS_COLD LS_SRC_A CPU_FIND_COLD CPU_LS_COLD CPU_FIND_WARM CPU_LS_WARM CPU_ORIG CPU_REND CPU_REPEAT
log "cold listing: $RUNS x (mount, find; mount, ls -lR)"
for ((r = 0; r < RUNS; r++)); do
    mount_library
    cpu_mark; time_find "$MNT/groups"; FIND_COLD+=("$ELAPSED"); cpu_note CPU_FIND_COLD
    [[ $COUNT == "$EXPECT_MNT" ]] || die "find $MNT: $COUNT entries, expected $EXPECT_MNT"
    unmount_library
    time_find "$LIBRARY"; FIND_SRC_A+=("$ELAPSED")
    [[ $COUNT == "$EXPECT_SRC" ]] || die "find $LIBRARY: $COUNT entries, expected $EXPECT_SRC"
    mount_library
    cpu_mark; time_ls "$MNT/groups"; LS_COLD+=("$ELAPSED"); cpu_note CPU_LS_COLD
    unmount_library
    time_ls "$LIBRARY"; LS_SRC_A+=("$ELAPSED")
done

# --- B: warm listing and originals on one mount
log "warm listing and originals: one mount, $RUNS runs each, sides alternating"
mount_library
B_PID=$PID
ls -lR "$MNT/groups" >/dev/null   # everything stat'ed once
declare -a FIND_WARM FIND_SRC LS_WARM LS_SRC ORIG_MNT ORIG_SRC
for ((r = 0; r < RUNS; r++)); do
    cpu_mark; time_find "$MNT/groups"; FIND_WARM+=("$ELAPSED"); cpu_note CPU_FIND_WARM
    time_find "$LIBRARY"; FIND_SRC+=("$ELAPSED")
    cpu_mark; time_ls "$MNT/groups"; LS_WARM+=("$ELAPSED"); cpu_note CPU_LS_WARM
    time_ls "$LIBRARY"; LS_SRC+=("$ELAPSED")
done
ORIG_LIST="$TMP/lists/originals"
(cd "$MNT/groups" && find . -name original.jpg -print0 | sort -z) >"$ORIG_LIST"
[[ $(tr -cd '\0' <"$ORIG_LIST" | wc -c) == "$TOTAL" ]] || die "expected $TOTAL original.jpg files in the mount"
ORIG_BYTES=$(sum_sizes "$MNT/groups" "$ORIG_LIST")
[[ $ORIG_BYTES == "$SRC_BYTES" ]] || die "originals in the mount: $ORIG_BYTES bytes, in SOURCE $SRC_BYTES"
read_untimed "$MNT/groups" "$ORIG_LIST"
read_untimed "$LIBRARY" "$SRC_LIST"
for ((r = 0; r < RUNS; r++)); do
    cpu_mark; time_read "$MNT/groups" "$ORIG_LIST"; ORIG_MNT+=("$ELAPSED"); cpu_note CPU_ORIG
    time_read "$LIBRARY" "$SRC_LIST"; ORIG_SRC+=("$ELAPSED")
done
# the renditions, copied out once into plain files (paths relative to groups/)
REND_LIST="$TMP/lists/renditions"
(cd "$MNT/groups" && find . \( -name thumbnail.jpg -o -name fullscreen.jpg \) -print0 | sort -z) >"$REND_LIST"
REND_COUNT=$(tr -cd '\0' <"$REND_LIST" | wc -c)
[[ $REND_COUNT == $((2 * TOTAL + ALBUMS)) ]] || die "expected $((2 * TOTAL + ALBUMS)) renditions in the mount, found $REND_COUNT"
rm -rf "$PLAIN"
mkdir -p "$PLAIN"
(cd "$MNT/groups" && tar -cf - --null -T "$REND_LIST") | tar -C "$PLAIN" -xf -
REND_BYTES=$(sum_sizes "$PLAIN" "$REND_LIST")
B_STATS=$(stats_json "$MNT")
B_RSS_END=$(status_kb "$B_PID" VmRSS)
B_HWM_END=$(status_kb "$B_PID" VmHWM)
unmount_library

# --- C: renditions after a remount, against plain files
log "renditions: $RUNS x (remount, read all through the mount; read the plain copies)"
read_untimed "$PLAIN" "$REND_LIST"
PLAIN_DIGEST=$(digest "$PLAIN" "$REND_LIST")
declare -a REND_MNT REND_PLAIN C_RENDERS C_HWM
REND_REPEAT=""
for ((r = 0; r < RUNS; r++)); do
    mount_library
    cpu_mark; time_read "$MNT/groups" "$REND_LIST"; REND_MNT+=("$ELAPSED"); cpu_note CPU_REND
    time_read "$PLAIN" "$REND_LIST"; REND_PLAIN+=("$ELAPSED")
    C_STATS=$(stats_json "$MNT")
    C_RENDERS+=("$(stat_field "$C_STATS" renders)")
    if ((r == RUNS - 1)); then
        cpu_mark; time_read "$MNT/groups" "$REND_LIST"; REND_REPEAT=$ELAPSED; cpu_note CPU_REPEAT   # again, from the kernel's page cache
        MNT_DIGEST=$(digest "$MNT/groups" "$REND_LIST")
        [[ $MNT_DIGEST == "$PLAIN_DIGEST" ]] || die "the renditions read after the remount differ from the copies made before it"
        C_STATS=$(stats_json "$MNT")
    fi
    C_HWM+=("$(status_kb "$PID" VmHWM)")
    C_RSS_END=$(status_kb "$PID" VmRSS)
    unmount_library
done

# ---------------------------------------------------------------- report
m() { median "$@"; }
MOUNT_T=$(m "${MOUNT_TIMES[@]}")
RSS_MOUNT_KB=$(m "${RSS_AFTER_MOUNT[@]}")
HWM_MAX_KB=$(printf '%s\n' "$B_HWM_END" "${C_HWM[@]}" | sort -n | tail -1)
fc=$(m "${FIND_COLD[@]}"); fsa=$(m "${FIND_SRC_A[@]}"); lc=$(m "${LS_COLD[@]}"); lsa=$(m "${LS_SRC_A[@]}")
fw=$(m "${FIND_WARM[@]}"); fs=$(m "${FIND_SRC[@]}"); lw=$(m "${LS_WARM[@]}"); ls_=$(m "${LS_SRC[@]}")
om=$(m "${ORIG_MNT[@]}"); os=$(m "${ORIG_SRC[@]}"); rm_=$(m "${REND_MNT[@]}"); rp=$(m "${REND_PLAIN[@]}")
mbs() { calc '%.0f' "$1 / 1048576 / $2"; }   # bytes, seconds → MiB/s
ratio() { calc '%.2f' "$1 / $2"; }
# pratio A B: the median over runs of A[i] / B[i], each pair measured back to back (the machine's
# load drifts: a ratio within one run is steadier than a ratio of medians)
pratio() {
    local -n a=$1 b=$2
    local i out=()
    for ((i = 0; i < ${#a[@]}; i++)); do out+=("$(calc '%.4f' "${a[i]} / ${b[i]}")"); done
    calc '%.2f' "$(median "${out[@]}")"
}
MISSED=0
verdict() {   # verdict VALUE OP TARGET → ok / MISSED
    if awk -v v="$1" -v t="$3" -v op="$2" 'BEGIN { exit !((op == ">=" && v >= t) || (op == "<=" && v <= t) || (op == "<" && v < t)) }'; then
        printf 'ok'
    else
        printf 'MISSED'
    fi
}
row() { printf '%-44s %12s %12s %9s  %-10s %s\n' "$@"; }

ORIG_RATIO=$(pratio ORIG_SRC ORIG_MNT); REND_RATIO=$(pratio REND_PLAIN REND_MNT); LS_RATIO=$(pratio LS_WARM LS_SRC)
RSS_END_MIB=$(mib "$HWM_MAX_KB")
v1=$(verdict "$REND_RATIO" ">=" "$READ_RATIO_TARGET"); v2=$(verdict "$ORIG_RATIO" ">=" "$READ_RATIO_TARGET")
v3=$(verdict "$LS_RATIO" "<=" "$LS_RATIO_TARGET"); v4=$(verdict "$RSS_END_MIB" "<" "$RSS_TARGET_MIB")
for v in "$v1" "$v2" "$v3" "$v4"; do [[ $v == ok ]] || MISSED=1; done
renders_total=0; for x in "${C_RENDERS[@]}"; do renders_total=$((renders_total + x)); done
v5=ok; ((renders_total == 0)) || { v5=MISSED; MISSED=1; }

{
echo
echo "assetfs fs-bench: $TOTAL photos ($ALBUMS albums x $PHOTOS, 640x480 q85, $(calc '%.1f' "$SRC_BYTES / 1048576") MiB), $RUNS runs; $(nproc) cores"
echo "figures: medians over runs; ratios: medians of the per-run ratios (each pair measured back to back)"
echo "mount entries: $EXPECT_MNT (find), SOURCE entries: $EXPECT_SRC; renditions: $REND_COUNT files, $(calc '%.1f' "$REND_BYTES / 1048576") MiB"
echo "warm --fullscreen before mounting: $WARM_TIME s ($WARM_LINE)"
echo
row "measurement" "assetfs" "anchor" "ratio" "target" ""
row "--------------------------------------------" "------------" "------------" "---------" "----------" "------"
row "mount (command start → return)" "${MOUNT_T} s" "" "" "" "(median of ${#MOUNT_TIMES[@]})"
row "daemon VmRSS right after mount" "$(mib "$RSS_MOUNT_KB") MiB" "" "" "< $RSS_TARGET_MIB MiB" "$(verdict "$(mib "$RSS_MOUNT_KB")" "<" "$RSS_TARGET_MIB")"
row "daemon VmRSS / VmHWM at end (listing+reads)" "$(mib "$B_RSS_END")/$(mib "$B_HWM_END")" "" "" "" ""
row "daemon VmRSS / VmHWM at end (remount+reads)" "$(mib "$C_RSS_END")/$(mib "${C_HWM[-1]}")" "" "" "" ""
row "daemon peak RSS (VmHWM, max over mounts)" "$RSS_END_MIB MiB" "" "" "< $RSS_TARGET_MIB MiB" "$v4"
row "find | wc -l, cold after mount  (s)" "$fc" "$fsa" "$(pratio FIND_COLD FIND_SRC_A)x" "" "(anchor: find SOURCE)"
row "find | wc -l, warm  (s)" "$fw" "$fs" "$(pratio FIND_WARM FIND_SRC)x" "" "(anchor: find SOURCE)"
row "ls -lR, cold after mount  (s)" "$lc" "$lsa" "$(pratio LS_COLD LS_SRC_A)x" "" "(anchor: ls -lR SOURCE)"
row "ls -lR, warm, everything cached  (s)" "$lw" "$ls_" "${LS_RATIO}x" "<= ${LS_RATIO_TARGET}x" "$v3"
row "originals read, page cache warm  (MiB/s)" "$(mbs "$ORIG_BYTES" "$om")" "$(mbs "$SRC_BYTES" "$os")" "${ORIG_RATIO}x" ">= ${READ_RATIO_TARGET}x" "$v2 (anchor: cat SOURCE)"
row "renditions read after remount  (MiB/s)" "$(mbs "$REND_BYTES" "$rm_")" "$(mbs "$REND_BYTES" "$rp")" "${REND_RATIO}x" ">= ${READ_RATIO_TARGET}x" "$v1 (anchor: cat plain copies)"
row "renditions read again, same mount  (MiB/s)" "$(mbs "$REND_BYTES" "$REND_REPEAT")" "$(mbs "$REND_BYTES" "$rp")" "$(ratio "$rp" "$REND_REPEAT")x" "" "(kernel page cache)"
row "renders during remount reads (stats)" "$renders_total" "" "" "== 0" "$v5"
echo
echo "daemon CPU per pass (s, median; user+system, load-independent unlike the wall times above):"
mc() { calc '%.2f' "$(m "$@")"; }
echo "  find cold $(mc "${CPU_FIND_COLD[@]}"), warm $(mc "${CPU_FIND_WARM[@]}") | ls -lR cold $(mc "${CPU_LS_COLD[@]}"), warm $(mc "${CPU_LS_WARM[@]}") | originals $(mc "${CPU_ORIG[@]}") | renditions after remount $(mc "${CPU_REND[@]}"), again ${CPU_REPEAT[0]}"
echo "stats after listing+originals: $B_STATS"
echo "stats after the last remount:  $C_STATS"
echo "raw seconds: mount ${MOUNT_TIMES[*]} | find cold ${FIND_COLD[*]} / src ${FIND_SRC_A[*]} | ls cold ${LS_COLD[*]} / src ${LS_SRC_A[*]}"
echo "             find warm ${FIND_WARM[*]} / src ${FIND_SRC[*]} | ls warm ${LS_WARM[*]} / src ${LS_SRC[*]}"
echo "             originals ${ORIG_MNT[*]} / src ${ORIG_SRC[*]} | renditions ${REND_MNT[*]} / plain ${REND_PLAIN[*]}"
echo "total bench time: $((SECONDS - START)) s"
} | tee "$OUT/report-$TAG.txt"

if ((MISSED)) && [[ ${BENCH_STRICT:-0} == 1 ]]; then exit 1; fi
exit 0
