#!/usr/bin/env bash
# Dates benchmark: how fast a mount reads the dates (and the other properties) of 10,000 photos
# in the background, against `exiftool -fast2 -DateTimeOriginal` over the same files, cold and warm
# page cache, in one run; with the daemon's RSS.
#
#   bash bench/dates-bench.sh                 # from the package root: build, corpus, timings, table
#   BENCH_PHOTOS=2000 bash bench/dates-bench.sh
#
# Environment:
#   BENCH_PHOTOS      photos (default 10000); the corpus is generated once and kept in bench/out/dates/
#   BENCH_SKIP_BUILD  1: use the release binary already built (bench/out/build)
#   BENCH_SCRATCH     the build folder (default bench/out/build)
#
# Corpus: copies of the 7 small camera samples of Tests/Fixtures/cameras (3-126 KB, real EXIF and
# MakerNotes), each copy's EXIF dates rewritten in place (same length) to a day of 2000-2027, so the
# timeline has thousands of days; every file distinct.
#
# What is timed:
#   assetfs   a remount of the scanned library with its stored properties cleared (the catalog's
#             `properties` emptied and every photo queued in `undated`, as after a first scan), from
#             the mount returning to the stats attribute counting every date (polled every 20 ms).
#             The background reader runs at nice 10 on one thread; the remount's verification walk
#             (a stat per file) runs beside it, as it does in real use.
#   exiftool  `exiftool -fast2 -DateTimeOriginal -r SOURCE >/dev/null`: one perl process, all files.
# Cold: `sync; echo 3 > /proc/sys/vm/drop_caches` first (needs root; skipped otherwise). Warm: right after.
set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
OUT="$ROOT/bench/out/dates"
log() { printf 'dates-bench: %s\n' "$*" >&2; }
die() { printf 'dates-bench: error: %s\n' "$*" >&2; exit 1; }
PHOTOS=${BENCH_PHOTOS:-10000}
[[ $PHOTOS =~ ^[1-9][0-9]*$ ]] || die "BENCH_PHOTOS must be a positive integer"
command -v exiftool >/dev/null || die "exiftool is missing: apt-get install libimage-exiftool-perl (mount-scripts/bootstrap --deps-only)"
command -v sqlite3 >/dev/null || die "sqlite3 is missing: apt-get install sqlite3"
command -v python3 >/dev/null || die "python3 is missing"
mkdir -p "$OUT"
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
build_release_copy

CORPUS="$OUT/photos-$PHOTOS"
if [[ ! -f $CORPUS/.complete ]]; then
    log "generating $PHOTOS photos in $CORPUS"
    rm -rf "$CORPUS"
    python3 - "$ROOT/Tests/Fixtures/cameras" "$CORPUS" "$PHOTOS" <<'PY'
import os, re, sys
samples, corpus, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = ["Apple_iPhone_XR_1x1.jpg", "Canon_40D_gimp_resized.jpg", "Casio_EX-S1.jpg", "Olympus_C2040Z_exif_dims_mismatch.jpg",
         "Olympus_C750UZ_progressive.jpg", "Samsung_GT-I9000_Galaxy_S.jpg", "Sony_Cybershot_3.jpg"]
blobs = [open(os.path.join(samples, n), "rb").read() for n in names]
date = re.compile(rb"(?:\d{4}|0000):\d\d:\d\d \d\d:\d\d:\d\d")
for i in range(count):
    album = os.path.join(corpus, "%03d" % (i // 500))
    os.makedirs(album, exist_ok=True)
    year, day = 2000 + i % 28, i * 7919 % 365
    month, mday = day // 31 % 12 + 1, day % 28 + 1
    stamp = b"%04d:%02d:%02d %02d:%02d:%02d" % (year, month, mday, i % 24, i % 60, (i * 7) % 60)
    data = date.sub(stamp, blobs[i % len(blobs)])
    with open(os.path.join(album, "IMG_%05d.jpg" % i), "wb") as f:
        f.write(data)
PY
    touch "$CORPUS/.complete"
fi
log "corpus: $PHOTOS photos, $(du -sm "$CORPUS" | cut -f1) MB"

WORK="$OUT/run"
rm -rf "$WORK"; mkdir -p "$WORK/mnt"
CACHE="$WORK/cache.sqlite" CATALOG="$WORK/cache.catalog.sqlite" MNT="$WORK/mnt"
cleanup() { mountpoint -q "$MNT" && fusermount3 -u "$MNT" || true; }
trap cleanup EXIT

now() { echo "$EPOCHREALTIME"; }
dated() { getfattr --only-values -n user.assetfs.stats "$MNT" 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("dates_exif",0)+d.get("dates_mtime",0))'; }
can_drop=0
[[ $(id -u) -eq 0 && -w /proc/sys/vm/drop_caches ]] && can_drop=1
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }

log "first mount (scan, then dates in the background)"
"$BIN" -o "cache=$CACHE" "$CORPUS" "$MNT"
until [[ $(dated) -ge $PHOTOS ]]; do sleep 0.2; done
fusermount3 -u "$MNT"; sleep 0.5

# Times one background read of every date after a remount; sets SECS and RSS_KB/HWM_KB.
assetfs_run() {
    sqlite3 "$CATALOG" "DELETE FROM view_members; DELETE FROM view_folders; DELETE FROM view_suffixes; DELETE FROM properties; INSERT OR IGNORE INTO undated SELECT id FROM photos;"
    [[ $1 == cold ]] && drop
    local start end pid
    "$BIN" -o "cache=$CACHE" "$CORPUS" "$MNT"
    start=$(now)
    until [[ $(dated) -ge $PHOTOS ]]; do sleep 0.02; done
    end=$(now)
    pid=$(pgrep -f "assetfs .*$MNT" | head -1)
    RSS_KB=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
    HWM_KB=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
    SECS=$(calc "%.3f" "$end - $start")
    fusermount3 -u "$MNT"; sleep 0.5
}

exiftool_run() {
    [[ $1 == cold ]] && drop
    local start end
    start=$(now)
    exiftool -fast2 -DateTimeOriginal -r "$CORPUS" >/dev/null
    end=$(now)
    SECS=$(calc "%.3f" "$end - $start")
}

declare -A A E
for cache in cold warm; do
    if [[ $cache == cold && $can_drop == 0 ]]; then log "not root: no cold runs"; continue; fi
    assetfs_run $cache; A[$cache]=$SECS; A[rss_$cache]=$RSS_KB; A[hwm_$cache]=$HWM_KB
    exiftool_run $cache; E[$cache]=$SECS
    log "$cache: assetfs ${A[$cache]} s, exiftool ${E[$cache]} s"
done

printf '\n%-6s %14s %14s %14s %14s %10s\n' cache "assetfs s" "assetfs /s" "exiftool s" "exiftool /s" "ratio"
for cache in cold warm; do
    [[ -n ${A[$cache]:-} ]] || continue
    printf '%-6s %14s %14s %14s %14s %9sx\n' $cache "${A[$cache]}" "$(calc "%.0f" "$PHOTOS / ${A[$cache]}")" \
        "${E[$cache]}" "$(calc "%.0f" "$PHOTOS / ${E[$cache]}")" "$(calc "%.1f" "${E[$cache]} / ${A[$cache]}")"
done
printf '\ndaemon RSS after dating %s photos (warm run): %s MB (peak %s MB)\n' "$PHOTOS" \
    "$(calc "%.1f" "${A[rss_warm]} / 1024")" "$(calc "%.1f" "${A[hwm_warm]} / 1024")"
