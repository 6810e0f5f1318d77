#!/usr/bin/env bash
# Shared renditions (issue 32): a library of N photos each copied twice (an album and Takeout's
# `Photos from 2020/`), mounted, every asset's thumbnail read: renders and cache bytes with this
# build against a build without sharing (main's), and what the background rendition digests
# cost (time, CPU, bytes read) per copy.
#
#   bash bench/shared-bench.sh                   # 200 photos (400 files)
#   SHARED_PHOTOS=1000 bash bench/shared-bench.sh
#
# Environment:
#   SHARED_PHOTOS     distinct photos (default 200), each in Album/ and Photos from 2020/
#   SHARED_SIZE       their pixel size (default 2000x1500, ~0.45 MB)
#   SHARED_BASELINE   a build without sharing (default /work/main/.build/release/assetfs if there;
#                     none: this build only)
#   BENCH_SKIP_BUILD  1: use the binary already built; BENCH_SCRATCH: the build folder (bench/lib.sh)
#
# The library (bench/out/shared/library-N-SIZE/, reused) is one JPEG (cjpeg, quality 85) made N
# pictures by two bytes in the middle of its scan data, each file then copied with cp (byte-
# identical). Measured per build, on a fresh cache: the time from the mount's start until every
# file has its content id, then (this build) until every file has its rendition digest, with the
# daemon's CPU time and bytes read (rchar) over that span: the digests' cost; then `cat` of every
# asset's thumbnail (2N): the renders and cache hits the daemon counts, and the cache's entries
# and bytes once unmounted.
set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
OUT="$ROOT/bench/out/shared"
mkdir -p "$OUT"
log() { printf 'shared-bench: %s\n' "$*" >&2; }
die() { printf 'shared-bench: error: %s\n' "$*" >&2; exit 1; }
source "$ROOT/bench/lib.sh"
for tool in convert cjpeg sqlite3 getfattr fusermount3; do command -v $tool >/dev/null || die "$tool is missing"; done

PHOTOS=${SHARED_PHOTOS:-200}
SIZE=${SHARED_SIZE:-2000x1500}
BASELINE=${SHARED_BASELINE:-/work/main/.build/release/assetfs}
build_release_copy

LIB="$OUT/library-$PHOTOS-$SIZE"
if [[ ! -f $LIB/.complete ]]; then
    rm -rf "$LIB"
    mkdir -p "$LIB/Album" "$LIB/Photos from 2020"
    convert -size "$SIZE" plasma: -seed 5 ppm:- | cjpeg -quality 85 >"$OUT/base.jpg"
    python3 - "$OUT/base.jpg" "$LIB/Album" "$PHOTOS" <<'PY'
import os, sys
base, folder, count = open(sys.argv[1], 'rb').read(), sys.argv[2], int(sys.argv[3])
middle = base.find(b'\xff\xda') + (len(base) - base.find(b'\xff\xda')) // 2
for i in range(count):
    data = bytearray(base)
    data[middle], data[middle + 1] = 1 + i % 254, 1 + i // 254 % 254
    open(os.path.join(folder, 'IMG_%04d.jpg' % i), 'wb').write(data)
PY
    cp "$LIB/Album/"*.jpg "$LIB/Photos from 2020/"
    touch "$LIB/.complete"
fi
FILES=$((PHOTOS * 2))
FILE_BYTES=$(stat -c %s "$LIB/Album/IMG_0000.jpg")

MNT="$OUT/mnt"
mkdir -p "$MNT"
fusermount3 -u "$MNT" 2>/dev/null || true
cleanup() { fusermount3 -u "$MNT" 2>/dev/null || true; }
trap cleanup EXIT

count() { sqlite3 -readonly "$CATALOG" "$1" 2>/dev/null || echo 0; }
usage() {  # the daemon's CPU seconds and bytes read (rchar) so far
    local stat
    read -r -a stat <"/proc/$DAEMON/stat"
    printf '%s %s\n' "$(calc '%.2f' "(${stat[13]} + ${stat[14]}) / $(getconf CLK_TCK)")" "$(awk '/^rchar/ { print $2 }' "/proc/$DAEMON/io")"
}
stat_of() { getfattr --absolute-names --only-values -n user.assetfs.stats "$MNT" | python3 -c "import json, sys; print(json.load(sys.stdin)['$1'])"; }

# run LABEL BINARY DIGESTS(0|1)
run() {
    local label=$1 bin=$2 digests=$3 cache="$OUT/cache-$1.sqlite"
    CATALOG="${cache%.sqlite}.catalog.sqlite"
    rm -f "$cache"* "${cache%.sqlite}".catalog.*
    local start=$EPOCHREALTIME
    "$bin" -f -o cache="$cache" "$LIB" "$MNT" 2>"$OUT/daemon-$label.log" &
    DAEMON=$!
    until [[ -d "$MNT/groups/Photos from 2020" && -d $MNT/groups/Album ]]; do sleep 0.05; done
    # Polled often: the digests start as soon as the last id is stored.
    until [[ $(count "SELECT count(*) FROM properties WHERE length(content_id) = 16") == "$FILES" ]]; do sleep 0.01; done
    local ids_at=$EPOCHREALTIME ids_usage digest_line=""
    ids_usage=$(usage)
    if ((digests)); then
        until [[ $(count "SELECT count(*) FROM properties WHERE length(rendition_digest) = 16") == "$FILES" ]]; do sleep 0.1; done
        local done_at=$EPOCHREALTIME done_usage
        done_usage=$(usage)
        read -r cpu0 read0 <<<"$ids_usage"
        read -r cpu1 read1 <<<"$done_usage"
        digest_line=$(printf '%s s (%s ms a file), CPU %s s, %s MiB read (%s bytes a file of %s)' \
            "$(calc '%.2f' "$done_at - $ids_at")" "$(calc '%.2f' "($done_at - $ids_at) * 1000 / $FILES")" \
            "$(calc '%.2f' "$cpu1 - $cpu0")" "$(( (read1 - read0) / 1048576 ))" "$(( (read1 - read0) / FILES ))" "$FILE_BYTES")
    fi
    local t0=$EPOCHREALTIME
    cat "$MNT"/groups/*/*/thumbnail.jpg >/dev/null
    local t1=$EPOCHREALTIME
    local renders hits
    renders=$(stat_of renders); hits=$(stat_of cache_hits)
    fusermount3 -u "$MNT"
    wait "$DAEMON" || true
    local entries bytes
    read -r entries bytes < <(sqlite3 -separator ' ' "$cache" "SELECT count(*), total(size) FROM entries")
    read -r cpu0 read0 <<<"$ids_usage"
    printf '%-10s %-28s %s\n' "$label" "content ids there after" "$(calc '%.2f s' "$ids_at - $start") (daemon CPU $cpu0 s, $((read0 / 1048576)) MiB read)"
    [[ -z $digest_line ]] || printf '%-10s %-28s %s\n' "$label" "then rendition digests" "$digest_line"
    printf '%-10s %-28s %s\n' "$label" "cat of $FILES thumbnails" "$(calc '%.2f s' "$t1 - $t0"): renders $renders, cache hits $hits"
    printf '%-10s %-28s %s\n' "$label" "cache once unmounted" "$entries entries, $(calc '%.0f' "$bytes") bytes ($(calc '%.0f' "$bytes / 1024") KiB)"
}

log "library: $PHOTOS photos x 2 copies, $FILE_BYTES bytes each ($LIB)"
if [[ -x $BASELINE ]]; then
    cp "$BASELINE" "$OUT/assetfs-baseline"
    run before "$OUT/assetfs-baseline" 0
else
    log "no baseline build at $BASELINE: this build only"
fi
run after "$BIN" 1
