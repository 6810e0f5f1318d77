#!/usr/bin/env bash
# Content ids and `assetfs locate` (issue 32): what computing every id costs at a first mount, and
# what locating a file costs.
#
#   bash bench/ids-bench.sh                    # 10,000 photos
#   IDS_PHOTOS=100000 bash bench/ids-bench.sh
#
# Environment:
#   IDS_PHOTOS        photos, in albums of 100 (default 10000)
#   IDS_LOCATE        files located in one `assetfs locate` call (default 1000)
#   IDS_SIZE          the photos' pixel size (default 640x480, ~55 KB; 160x120 is ~5 KB)
#   IDS_ATTRIBUTE     the attribute waited for (default id); `date` with a build without ids
#                     (BENCH_SCRATCH of another branch) gives the properties alone, a baseline
#                     (locate is then not measured)
#   BENCH_SKIP_BUILD  1: use the binary already built; BENCH_SCRATCH: the build folder (bench/lib.sh)
#
# The library (bench/out/ids/library-N-SIZE/, reused) is one JPEG (cjpeg, quality 85) copied N times,
# each copy's picture made its own by two bytes in the middle of its scan data (the file's index,
# no 0xFF), so every photo has an id of its own and all are read whole, as a JPEG's id reads its
# scans. Measured: the time from the mount's start until the last photo's user.assetfs.id is
# there (ids are read with the properties, in the background, in photo order), the daemon's CPU
# time and bytes read meanwhile (/proc/PID/stat, /proc/PID/io), `find MNT/groups | wc -l` while
# the ids are read, the catalog's size per photo, then `assetfs locate` (bench/lib.sh's
# locate_figures: one file per call against anchors, and IDS_LOCATE files in one call).
set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
OUT="$ROOT/bench/out/ids"
mkdir -p "$OUT"
log() { printf 'ids-bench: %s\n' "$*" >&2; }
die() { printf 'ids-bench: error: %s\n' "$*" >&2; exit 1; }
source "$ROOT/bench/lib.sh"

PHOTOS=${IDS_PHOTOS:-10000}
LOCATE=${IDS_LOCATE:-1000}
build_release_copy

SIZE=${IDS_SIZE:-640x480}
LIB="$OUT/library-$PHOTOS-$SIZE"
if [[ ! -f $LIB/.complete ]]; then
    rm -rf "$LIB"
    mkdir -p "$LIB"
    convert -size "$SIZE" plasma: -seed 3 ppm:- | cjpeg -quality 85 >"$OUT/base.jpg"
    python3 - "$OUT/base.jpg" "$LIB" "$PHOTOS" <<'PY'
import os, sys
base, root, count = open(sys.argv[1], 'rb').read(), sys.argv[2], int(sys.argv[3])
middle = base.find(b'\xff\xda') + (len(base) - base.find(b'\xff\xda')) // 2
for i in range(count):
    folder = os.path.join(root, 'album-%05d' % (i // 100))
    os.makedirs(folder, exist_ok=True)
    data = bytearray(base)
    data[middle], data[middle + 1] = 1 + i % 254, 1 + i // 254 % 254
    open(os.path.join(folder, 'IMG_%04d.jpg' % (i % 100)), 'wb').write(data)
PY
    touch "$LIB/.complete"
fi
LAST_ALBUM=$(printf 'album-%05d' $(((PHOTOS - 1) / 100)))
LAST=$(printf 'IMG_%04d' $(((PHOTOS - 1) % 100)))

MNT="$OUT/mnt"
CACHE="$OUT/cache.sqlite"
mkdir -p "$MNT"
fusermount3 -u "$MNT" 2>/dev/null || true
rm -f "$CACHE"* "${CACHE%.sqlite}".catalog.*
cleanup() { fusermount3 -u "$MNT" 2>/dev/null || true; }
trap cleanup EXIT

start=$EPOCHREALTIME
"$BIN" -f -o cache="$CACHE" "$LIB" "$MNT" 2>"$OUT/daemon.log" &
DAEMON=$!
until [[ -d $MNT/groups/$LAST_ALBUM ]]; do sleep 0.05; done
mounted=$EPOCHREALTIME
find_start=$EPOCHREALTIME
entries=$(find "$MNT/groups" | wc -l)
find_end=$EPOCHREALTIME
ATTRIBUTE=${IDS_ATTRIBUTE:-id}
until getfattr -n "user.assetfs.$ATTRIBUTE" "$MNT/groups/$LAST_ALBUM/$LAST" >/dev/null 2>&1; do sleep 0.1; done
done_at=$EPOCHREALTIME
read -r -a stat <"/proc/$DAEMON/stat"
ticks=$(getconf CLK_TCK)
cpu=$(calc '%.2f' "(${stat[13]} + ${stat[14]}) / $ticks")
read_bytes=$(awk '/^read_bytes/ { print $2 }' "/proc/$DAEMON/io")
rchar=$(awk '/^rchar/ { print $2 }' "/proc/$DAEMON/io")
catalog_bytes=$(stat -c %s "${CACHE%.sqlite}.catalog.sqlite")
library_bytes=$(du -sb "$LIB" | cut -f1)

printf '%-52s %s\n' "photos" "$PHOTOS (library $((library_bytes / 1048576)) MiB)"
printf '%-52s %s\n' "mounted (groups/ listed) after" "$(calc '%.2f s' "$mounted - $start")"
printf '%-52s %s\n' "every $ATTRIBUTE there after" "$(calc '%.2f s' "$done_at - $start")"
printf '%-52s %s\n' "  per photo" "$(calc '%.3f ms' "($done_at - $start) * 1000 / $PHOTOS")"
printf '%-52s %s\n' "daemon CPU until then (scan, properties, ids)" "$cpu s"
printf '%-52s %s\n' "daemon bytes read (rchar; from disk: read_bytes)" "$((rchar / 1048576)) MiB; $((read_bytes / 1048576)) MiB"
printf '%-52s %s\n' "find MNT/groups while ids are read" "$entries entries in $(calc '%.2f s' "$find_end - $find_start")"
printf '%-52s %s\n' "catalog" "$(calc '%.0f bytes a photo' "$catalog_bytes / $PHOTOS")"

[[ $ATTRIBUTE == id ]] || exit 0
mapfile -t files < <(for ((i = 0; i < LOCATE; i++)); do n=$((i * PHOTOS / LOCATE)); printf '%s/album-%05d/IMG_%04d.jpg\n' "$LIB" $((n / 100)) $((n % 100)); done)
locate_figures "$CACHE" "${files[@]}"
printf '%-52s %s\n' "assetfs locate, one file per call (median of 20)" "$LOCATE_ONE ms: $LOCATE_VS"
printf '%-52s %s\n' "assetfs locate, ${#files[@]} files in one call" "$LOCATE_BATCH ms a file ($LOCATE_LINES lines)"
