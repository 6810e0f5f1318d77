#!/usr/bin/env bash
# Scale benchmark (issue 9): assetfs over a library of a million small photos against a C walk of
# the same tree (the floor: the least any scanner has to do), side by side in one run, so every
# figure is also a ratio to an anchor measured on the same (possibly busy) machine.
#
#   bash bench/scale-bench.sh                       # 1,000,000 photos (works from any folder)
#   SCALE_PHOTOS=100000 bash bench/scale-bench.sh   # a quicker look
#
# Environment:
#   SCALE_PHOTOS      photos in albums of 100 (default 1000000; a multiple of 100, at least 1000)
#   SCALE_BIG         photos in the one big album, album-big, on top of those (default 10000; 0: none)
#   SCALE_WALKER      at (default: readdir + fstatat/openat relative to each folder) or nftw: the floor
#   SCALE_TIMEOUT     seconds any one step may take before it is cut short and reported TIMEOUT
#                     (default 900)
#   SCALE_STORM       the album `ls -lR` storms: big (default, album-big) or small (an album of 100)
#   SCALE_READERS     parallel `ls -lR` processes in the storm, each over its share of the album's
#                     asset folders (default 16: many renders asked for at once)
#   SCALE_THUMBS      new thumbnails fetched during the storm (default 40; one every 0.1 s)
#   SCALE_COLD        0: no cold rows even as root (drop_caches empties every process's page cache:
#                     on a machine shared with builds, only the warm rows compare)
#   SCALE_METADATA    1: the photos say when, where, what and who, as a family's ten years of
#                     photos do (scale-gen --metadata, bench/scale-meta.c: dates in trips and
#                     everyday days over 2015-2024, GPS near real cities on a third, keywords on a
#                     tenth, 300 named people in MWG face regions on 15 %, ratings on a twentieth);
#                     the library is then pictures-P-B-meta
#   SCALE_FIND_MOUNT  0: no `find MNT` over the whole mount (at a million, 10 million entries and
#                     about 270 s; groups/, events/ and dates/ are still walked)
#   BENCH_SKIP_BUILD  1: use the binary already built instead of running `swift build -c release`
#   BENCH_SCRATCH     the build folder (default bench/out/build)
#   BENCH_STRICT      1: exit 1 when a target is missed (default: report only)
#
# The library is generated once into bench/out/scale/pictures-P-B/ (gitignored) and reused: one tiny
# JPEG (64x48, ~1.2 KB, made by cjpeg) copied by bench/scale-gen.c, each copy a picture of its own
# (four bytes of its scan data number it: content ids, and so the views, tell every photo apart;
# the older library-P-B/ differed by a COM segment only, one picture a million times). Photos are album-NNNNN/IMG_NNNN.jpg and
# album-big/IMG_NNNNN.jpg (with SCALE_METADATA, an Exif and an XMP APP1 after SOI too). The floor is bench/scale-walk.c (mode 1: stat every entry; mode 2: also
# open every file and read its first 2 bytes), compiled here with gcc.
#
# What is measured, in this order ("cold": `sync; echo 3 > /proc/sys/vm/drop_caches` right before,
# as root; not root or SCALE_COLD=0, cold rows say n/a). Every mount is `assetfs -f -o cache=FILE SOURCE MNT` in the
# background, its time taken from the command's start until `ls MNT/groups` lists every album:
#   floor        walk mode 1 and 2, cold then warm (warm: median of 3); `find SOURCE | wc -l`;
#                `ls -f` / `ls -l` of SOURCE and of SOURCE/album-big
#   first mount  a fresh cache file: cold, then warm (another fresh file); on the warm one, the time
#                until every view is complete (bench/views-complete.py), the daemon's CPU and VmHWM
#                then, the catalog's size; the time until every photo has its content id (issue 32),
#                the daemon's CPU and bytes read until then, and a `find groups/` run once the
#                properties are read, while the ids are made (against the views' uncached one)
#   views        on a fresh remount each: `ls -l` of each view's top folder and first subfolder,
#                `find groups/`, `find events/` and `find dates/`, each twice (uncached, cached), per entry
#   remount      the cache file of the warm first mount: cold (then `ls -f`/`ls -l` of the big album
#                cold), then warm, and on that last mount: `assetfs locate` (bench/lib.sh's
#                locate_figures: one file a call against anchors, 1,000 files in one call), `ls -f groups`, `ls -f`/`ls -l` of the big
#                album and of an album of 100, `find MNT | wc -l`, new thumbnails idle and during an
#                `ls -lR` storm (SCALE_READERS processes, which render every thumbnail and fullscreen of
#                an album), one photo
#                added to an album and removed, 1,000 photos copied in as a new album and that album
#                deleted (each: time until the mount shows it, polled with `ls -f`; the daemon's CPU;
#                its peak RSS meanwhile; each change starts with the daemon idle, and its CPU and RSS
#                are followed until the daemon is idle again: no CPU tick in two 0.5 s windows running)
#   memory       the daemon's VmRSS / VmHWM (/proc/PID/status) at each step; VmHWM over every daemon
# SOURCE is restored afterwards (what was added is removed, also on errors and interrupts).
set -euo pipefail
export LC_ALL=C   # a '.' in $EPOCHREALTIME and in printf's numbers

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
OUT="$ROOT/bench/out/scale"
START=$SECONDS
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)

log() { printf 'scale-bench: %s\n' "$*" >&2; }
die() { printf 'scale-bench: error: %s\n' "$*" >&2; exit 1; }

PHOTOS=${SCALE_PHOTOS:-1000000}
BIG=${SCALE_BIG:-10000}
PER_ALBUM=100
WALKER=${SCALE_WALKER:-at}
STEP_TIMEOUT=${SCALE_TIMEOUT:-900}
STORM=${SCALE_STORM:-big}
THUMBS=${SCALE_THUMBS:-40}
READERS=${SCALE_READERS:-16}
[[ $PHOTOS =~ ^[1-9][0-9]*$ ]] && ((PHOTOS % PER_ALBUM == 0 && PHOTOS >= 1000)) ||
    die "SCALE_PHOTOS must be a multiple of $PER_ALBUM, at least 1000"
[[ $BIG =~ ^[0-9]+$ && $STEP_TIMEOUT =~ ^[1-9][0-9]*$ && $THUMBS =~ ^[1-9][0-9]*$ && $READERS =~ ^[1-9][0-9]*$ ]] ||
    die "SCALE_BIG, SCALE_TIMEOUT, SCALE_THUMBS and SCALE_READERS must be positive integers"
[[ $WALKER == at || $WALKER == nftw ]] || die "SCALE_WALKER is at or nftw"
[[ $STORM == big || $STORM == small ]] || die "SCALE_STORM is big or small"
METADATA=${SCALE_METADATA:-0}
[[ $METADATA == 0 || $METADATA == 1 ]] || die "SCALE_METADATA is 0 or 1"
((BIG > 0)) || [[ $STORM == small ]] || STORM=small

ALBUMS=$((PHOTOS / PER_ALBUM))
EXPECT_ALBUMS=$((ALBUMS + (BIG > 0 ? 1 : 0)))
TOTAL=$((PHOTOS + BIG))
# the least `find MNT` lists: root, groups; album: dir + poster; photo: dir + 3 files (today's mount
# also has thumbnails/ and fullscreen/ views: 4 + 4 per album + 6 per photo)
MIN_MNT=$((2 + 2 * EXPECT_ALBUMS + 4 * TOTAL))
EXPECT_SRC=$((1 + EXPECT_ALBUMS + TOTAL))
LIBRARY="$OUT/pictures-$PHOTOS-$BIG" GEN_FLAGS=()
if ((METADATA)); then LIBRARY+=-meta GEN_FLAGS=(--metadata); fi
STAMP="$LIBRARY.complete-v1"
# a library generated elsewhere may be linked here (with its stamp): walked and mounted where it is
if [[ -L $LIBRARY ]]; then LIBRARY=$(readlink -f "$LIBRARY"); fi
ADD_ALBUM=$(printf 'album-%05d' $((ALBUMS / 2)))          # where one photo is added
ADD_NAME=ZZ_scale_added                                   # …as ADD_NAME.jpg
NEW_ALBUM=ZZ-scale-new-album                              # 1,000 photos copied in as this album
NEW_COUNT=1000

# Targets (issue 9)
T_REMOUNT=2.0        # s, command start → `ls MNT/groups` complete
T_RSS_MIB=256        # daemon RSS at every moment
T_FIRST_RATIO=1.5    # first mount ≤ 1.5x the floor (stat + first 2 bytes), same cache state
T_ADD_S=1.0          # one photo visible within 1 s…
T_ADD_CPU_MS=50      # …for under 50 ms of daemon CPU
T_NEW_S=3.0          # 1,000 photos visible within 3 s
T_BIGLS_S=0.5        # ls of the 10,000-photo album, cold

# ---------------------------------------------------------------- tools
missing=()
command -v gcc >/dev/null || missing+=(gcc)
command -v cjpeg >/dev/null && command -v djpeg >/dev/null || missing+=(libjpeg-turbo-progs)
command -v fusermount3 >/dev/null || missing+=(fuse3)
command -v python3 >/dev/null || missing+=(python3)
command -v mountpoint >/dev/null || missing+=(util-linux)
command -v timeout >/dev/null || missing+=(coreutils)
if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
[[ -e /dev/fuse ]] || die "/dev/fuse is missing: FUSE cannot mount here"
[[ -d /opt/swift/usr/bin ]] && PATH="/opt/swift/usr/bin:$PATH"

mkdir -p "$OUT"
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"

# ---------------------------------------------------------------- helpers
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f", b - a }'; }
isnum() { [[ $1 =~ ^-?[0-9]+([.][0-9]+)?$ ]]; }
mib() { if isnum "$1"; then calc '%.1f' "$1 / 1024"; else printf '%s' "$1"; fi; }   # kB → MiB
status_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null || true; }
CLK_TCK=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }   # comm "(assetfs)": no spaces
ms_since_ticks() { calc '%.0f' "($(cpu_ticks "$DPID") - $1) * 1000 / $CLK_TCK"; }
fmt_s() { if isnum "$1"; then calc '%.3f' "$1"; else printf '%s' "$1"; fi; }
ratio() { if isnum "$1" && isnum "$2" && awk -v b="$2" 'BEGIN { exit !(b > 0) }'; then calc '%.2f' "$1 / $2"; else printf -- '-'; fi; }
load1() { cut -d' ' -f1 /proc/loadavg; }   # the machine is shared: said beside the figures
max_of() { printf '%s\n' "$@" | { grep -E '^[0-9]+$' || true; } | sort -n | tail -1; }

COLD=0
if [[ ${SCALE_COLD:-1} == 1 && $(id -u) == 0 ]] && [[ -w /proc/sys/vm/drop_caches ]]; then COLD=1; fi
drop_caches() {
    ((COLD)) || return 0
    sync
    echo 3 >/proc/sys/vm/drop_caches
}

# timed OUTFILE CMD...: runs CMD under `timeout`, stdout to OUTFILE; sets ELAPSED (s, or TIMEOUT/FAIL)
ELAPSED=0
timed() {
    local out=$1 t0=$EPOCHREALTIME rc=0
    shift
    timeout -k 10 "$STEP_TIMEOUT" "$@" >"$out" 2>>"$TMP/steps.err" || rc=$?
    ELAPSED=$(since "$t0")
    if ((rc == 124 || rc == 137)); then ELAPSED=TIMEOUT; log "timed out after $STEP_TIMEOUT s: $*"
    elif ((rc != 0)); then ELAPSED=FAIL; log "failed ($rc): $*"; fi
}

# ---------------------------------------------------------------- scratch, daemon, cleanup
TMP=$(mktemp -d "${TMPDIR:-/tmp}/assetfs-scale-bench.XXXXXX")
MNT="$TMP/mnt"
mkdir "$MNT"
DPID=""
DLOG="$OUT/daemon.log"
: >"$DLOG"
HWM_ALL=()      # VmHWM of every daemon, kB
ADD_FILE="$LIBRARY/$ADD_ALBUM/$ADD_NAME.jpg"
NEW_DIR="$LIBRARY/$NEW_ALBUM"

EDITS=100
EDITED=()
# Puts the photos the verification step edited back as they were (content and mtime).
restore_edits() {
    local i
    for ((i = 0; i < ${#EDITED[@]}; i++)); do
        [[ -f $TMP/edit-$i.jpg ]] && cp -p "$TMP/edit-$i.jpg" "$LIBRARY/${EDITED[i]}.jpg" && rm -f "$TMP/edit-$i.jpg"
    done
    EDITED=()
}

restore_source() {   # only the exact paths this script adds or edits
    rm -f "$ADD_FILE" 2>/dev/null || true
    [[ -d $NEW_DIR ]] && rm -rf "$NEW_DIR"
    restore_edits
    return 0
}

stop_daemon() {
    if [[ -n $DPID ]] && kill -0 "$DPID" 2>/dev/null; then
        local hwm; hwm=$(status_kb "$DPID" VmHWM)
        [[ -n $hwm ]] && HWM_ALL+=("$hwm")
    fi
    if timeout 10 mountpoint -q "$MNT" 2>/dev/null; then
        timeout 60 fusermount3 -u "$MNT" 2>/dev/null || timeout 10 fusermount3 -uz "$MNT" 2>/dev/null || true
    fi
    if [[ -n $DPID ]]; then
        local i
        for ((i = 0; i < 300; i++)); do kill -0 "$DPID" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$DPID" 2>/dev/null; then
            log "daemon $DPID still running 30 s after unmounting: SIGTERM"
            kill -TERM "$DPID" 2>/dev/null || true
            for ((i = 0; i < 100; i++)); do kill -0 "$DPID" 2>/dev/null || break; sleep 0.1; done
            kill -0 "$DPID" 2>/dev/null && { log "daemon $DPID: SIGKILL"; kill -KILL "$DPID" 2>/dev/null || true; }
        fi
        wait "$DPID" 2>/dev/null || true
        DPID=""
    fi
}

# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    [[ -n ${STORM_PID:-} ]] && { kill "$STORM_PID" 2>/dev/null || true; }
    stop_daemon
    restore_source
    rmdir "$MNT" 2>/dev/null || true
    rm -f "$TMP"/*.out "$TMP"/*.err "$TMP"/*.jpg 2>/dev/null || true
    rm -rf "$TMP/new" 2>/dev/null || true
    rmdir "$TMP" 2>/dev/null || true
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# start_daemon CACHE: starts `assetfs -f` in the background and waits until `ls MNT/groups` lists
# every album; sets MOUNT_T (s, command start → listing complete, or TIMEOUT/FAIL), MOUNT_T0 (the
# command's start, EPOCHREALTIME) and DPID
MOUNT_T=0 MOUNT_T0=0
start_daemon() {
    local cache=$1 t0=$EPOCHREALTIME deadline=$((SECONDS + STEP_TIMEOUT)) n=0
    printf '\n==== %s: assetfs -f -o cache=%s %s %s\n' "$(date +%T)" "$cache" "$LIBRARY" "$MNT" >>"$DLOG"
    "$BIN" -f -o "cache=$cache" "$LIBRARY" "$MNT" >>"$DLOG" 2>&1 &
    DPID=$!
    MOUNT_T=FAIL MOUNT_T0=$t0
    while ((SECONDS < deadline)); do
        kill -0 "$DPID" 2>/dev/null || { log "the daemon exited before the mount was ready (see $DLOG)"; DPID=""; return 1; }
        if [[ -d $MNT/groups ]]; then   # a builtin test: no process forked while the daemon works
            n=$(timeout "$STEP_TIMEOUT" ls "$MNT/groups" 2>/dev/null | wc -l) || n=0
            if ((n >= EXPECT_ALBUMS)); then MOUNT_T=$(since "$t0"); break; fi
            sleep 0.05
        else
            sleep 0.01
        fi
    done
    [[ $MOUNT_T != FAIL ]] || { MOUNT_T=TIMEOUT; log "mount not complete after $STEP_TIMEOUT s ($n of $EXPECT_ALBUMS albums listed)"; return 1; }
    [[ $(readlink "/proc/$DPID/exe") == "$BIN" ]] || die "process $DPID is not $BIN"
    return 0
}

# wait_quiet: waits until the daemon spends no CPU (at most 1 clock tick) in two 0.5 s windows running,
# at most STEP_TIMEOUT; sets QUIET_AT (EPOCHREALTIME when the quiet began) and QUIET_RSS (max VmRSS
# sampled meanwhile, kB)
QUIET_AT="" QUIET_RSS=""
wait_quiet() {
    local deadline=$((SECONDS + STEP_TIMEOUT)) calm=0 a b start rss=()
    start=$EPOCHREALTIME
    QUIET_AT=""
    while ((SECONDS < deadline)); do
        a=$(cpu_ticks "$DPID")
        rss+=("$(status_kb "$DPID" VmRSS)")
        sleep 0.5
        b=$(cpu_ticks "$DPID")
        if ((b - a <= 1)); then
            ((calm == 0)) && QUIET_AT=$start
            calm=$((calm + 1))
            ((calm >= 2)) && break
        else
            calm=0
            start=$EPOCHREALTIME
        fi
    done
    ((calm >= 2)) || { log "the daemon was still busy after $STEP_TIMEOUT s"; QUIET_AT=""; }
    QUIET_RSS=$(max_of "${rss[@]}")
    return 0
}

stats_json() { timeout 30 python3 -c 'import os,sys; print(os.getxattr(sys.argv[1], "user.assetfs.stats").decode())' "$MNT" 2>/dev/null || echo '?'; }

# ---------------------------------------------------------------- build, helpers, library
build_release_copy
gcc -O2 -Wall -Wextra -o "$OUT/scale-walk" "$ROOT/bench/scale-walk.c"
gcc -O2 -Wall -Wextra -o "$OUT/scale-gen" "$ROOT/bench/scale-gen.c" "$ROOT/bench/scale-meta.c" -lm
WALK="$OUT/scale-walk"

BASE="$OUT/base-64x48.jpg"
if [[ ! -s $BASE ]]; then
    # a 64x48 picture with smooth and fine detail, as a PPM, then one JPEG by cjpeg
    python3 -c '
import math, sys
w, h = 64, 48
px = bytearray()
for y in range(h):
    for x in range(w):
        v = int(128 + 60 * math.sin(x * 0.31 + y * 0.17) + 40 * math.cos(x * 0.11 - y * 0.29))
        px += bytes((v & 255, (x * 4 + y) & 255, (y * 5 + ((x * x) >> 4)) & 255))
sys.stdout.buffer.write(b"P6\n%d %d\n255\n" % (w, h) + px)' | cjpeg -quality 85 -optimize >"$BASE.tmp"
    mv "$BASE.tmp" "$BASE"
fi

GEN_NOTE=""
if [[ -f $STAMP ]]; then
    GEN_NOTE="reused (generated earlier in $(cat "$STAMP") s)"
    restore_source   # what an interrupted run (SIGKILL: no trap) may have left
else
    # room: a 1.2 KB file takes a 4 KiB block; folders; 20% and 1 GiB to spare (the caches, logs)
    need_kb=$(((TOTAL * 4 + EXPECT_ALBUMS * 4) * 12 / 10 + 1048576))
    avail_kb=$(df -Pk "$OUT" | awk 'NR == 2 { print $4 }')
    avail_inodes=$(df -Pi "$OUT" | awk 'NR == 2 { print $4 }')
    log "disk: $((avail_kb / 1024)) MiB and $avail_inodes inodes free under $OUT; the library needs about $((need_kb / 1024)) MiB and $((TOTAL + EXPECT_ALBUMS)) inodes"
    ((avail_kb > need_kb)) || die "not enough free disk for $TOTAL photos (need ~$((need_kb / 1024)) MiB, have $((avail_kb / 1024)) MiB)"
    [[ ! $avail_inodes =~ ^[0-9]+$ ]] || ((avail_inodes > (TOTAL + EXPECT_ALBUMS) * 11 / 10)) || die "not enough free inodes ($avail_inodes) for $TOTAL photos"
    log "generating $TOTAL photos ($ALBUMS albums of $PER_ALBUM + album-big of $BIG) under $LIBRARY"
    rm -rf "$LIBRARY"
    t0=$EPOCHREALTIME
    "$OUT/scale-gen" "${GEN_FLAGS[@]}" "$LIBRARY" "$BASE" "$PHOTOS" "$PER_ALBUM" "$BIG"
    sync
    GEN_T=$(since "$t0")
    # every picture distinct and a JPEG that libjpeg decodes, perhaps with a warning (djpeg's exit
    # status 2: a number in the scan data can read as a bad Huffman code); a sample: decoding a
    # million is a walk of its own
    for f in "$LIBRARY/album-00000/"*.jpg; do
        djpeg "$f" 2>/dev/null | md5sum || ((PIPESTATUS[0] == 2)) || die "$f does not decode"
    done >"$TMP/pictures.out"
    [[ $(sort -u "$TMP/pictures.out" | wc -l) == "$PER_ALBUM" ]] || die "generated pictures are not distinct"
    printf '%s\n' "$GEN_T" >"$STAMP"
    GEN_NOTE="generated in $GEN_T s (this run)"
    log "generated in $GEN_T s"
fi
log "library: $LIBRARY, $TOTAL photos in $EXPECT_ALBUMS albums; $GEN_NOTE"
"$OUT/scale-gen" --one "$TMP/extra.jpg" "$BASE" "$ADD_NAME"

# ---------------------------------------------------------------- floor
log "floor: $WALKER walk, stat only and stat + 2 bytes, cold and warm"
walk() {   # walk MODE: sets ELAPSED; checks the counts
    timed "$TMP/walk.out" "$WALK" "$1" "$WALKER" "$LIBRARY"
    local want="dirs $EXPECT_ALBUMS files $TOTAL jpegs $([[ $1 == 2 ]] && echo "$TOTAL" || echo 0)"
    [[ $(cat "$TMP/walk.out") == "$want" ]] || { log "walk $1: '$(cat "$TMP/walk.out")', expected '$want'"; ELAPSED=FAIL; }
}
warm_median() {   # warm_median CMD...: median of 3 runs of a function that sets ELAPSED
    local runs=() r
    for r in 1 2 3; do "$@"; runs+=("$ELAPSED"); done
    if isnum "${runs[0]}" && isnum "${runs[1]}" && isnum "${runs[2]}"; then ELAPSED=$(median "${runs[@]}"); else ELAPSED=${runs[0]}; fi
}
W1_COLD=n/a W2_COLD=n/a
if ((COLD)); then drop_caches; walk 1; W1_COLD=$ELAPSED; fi
warm_median walk 1; W1_WARM=$ELAPSED
if ((COLD)); then drop_caches; walk 2; W2_COLD=$ELAPSED; fi
warm_median walk 2; W2_WARM=$ELAPSED
log "floor: stat only $W1_COLD s cold, $W1_WARM s warm; stat + 2 bytes $W2_COLD s cold, $W2_WARM s warm"

find_src() { timed "$TMP/find.out" find "$LIBRARY"; [[ $(wc -l <"$TMP/find.out") == "$EXPECT_SRC" ]] || ELAPSED=FAIL; }
warm_median find_src; FIND_SRC=$ELAPSED
BIG_DIR=album-big; ((BIG > 0)) || BIG_DIR=album-00000
SRC_LSF_BIG_COLD=n/a
if ((COLD)); then drop_caches; timed "$TMP/ls.out" ls -f "$LIBRARY/$BIG_DIR"; SRC_LSF_BIG_COLD=$ELAPSED; fi
timed "$TMP/ls.out" ls -l "$LIBRARY/$BIG_DIR"; SRC_LSL_BIG=$ELAPSED
timed "$TMP/ls.out" ls -f "$LIBRARY/$BIG_DIR"; SRC_LSF_BIG=$ELAPSED
timed "$TMP/ls.out" ls -f "$LIBRARY"; SRC_LSF_ROOT=$ELAPSED
timed "$TMP/ls.out" ls -l "$LIBRARY/album-00001"; SRC_LSL_SMALL=$ELAPSED

# ---------------------------------------------------------------- first mount, remounts
CACHE_A="$OUT/cache-first-cold.sqlite"
CACHE_B="$OUT/cache.sqlite"
# A cache and the catalog beside it (X.sqlite, X.catalog.sqlite), with their WAL files: fresh.
forget_cache() { rm -f "$1" "$1"-* "${1%.sqlite}.catalog.sqlite" "${1%.sqlite}.catalog.sqlite"-*; }
forget_cache "$CACHE_A"
forget_cache "$CACHE_B"

FIRST_COLD=n/a RSS_FIRST_COLD="" HWM_FIRST_COLD=""
if ((COLD)); then
    log "first mount, cold page cache (fresh cache file)"
    drop_caches
    start_daemon "$CACHE_A" || true
    FIRST_COLD=$MOUNT_T
    [[ -n $DPID ]] && { RSS_FIRST_COLD=$(status_kb "$DPID" VmRSS); HWM_FIRST_COLD=$(status_kb "$DPID" VmHWM); }
    stop_daemon
    forget_cache "$CACHE_A"
    log "first mount cold: $FIRST_COLD s"
fi

log "first mount, warm page cache (fresh cache file)"
walk 2 >/dev/null   # the source's metadata and first blocks warm
start_daemon "$CACHE_B" || true
FIRST_WARM=$MOUNT_T
RSS_FIRST_WARM="" HWM_FIRST_WARM=""
[[ -n $DPID ]] && { RSS_FIRST_WARM=$(status_kb "$DPID" VmRSS); HWM_FIRST_WARM=$(status_kb "$DPID" VmHWM); }
# --- views complete (issue 31): on this first mount, until every photo's properties are read and
# placed in the views and the catalog stays unwritten (bench/views-complete.py says how)
VIEWS_DONE="complete=- properties=- ids=- cpu_ms=- hwm_kb="
IDS_FIND=(- - - -) IDS_FIND_AT=- IDS_FIND_END=-
undated_empty() { python3 -c 'import sqlite3, sys; sys.exit(sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True, timeout=30).execute("SELECT EXISTS (SELECT 1 FROM undated)").fetchone()[0])' "${CACHE_B%.sqlite}.catalog.sqlite" 2>/dev/null; }
if [[ -n $DPID ]]; then
    log "first mount warm: $FIRST_WARM s; waiting for the views to be complete"
    python3 "$ROOT/bench/views-complete.py" "${CACHE_B%.sqlite}.catalog.sqlite" "$MNT" "$DPID" "$MOUNT_T0" "$STEP_TIMEOUT" >"$TMP/views.out" &
    VIEWS_PID=$!
    # ids are made after the properties (issue 32): a `find groups/` meanwhile says whether they slow browsing
    until undated_empty || ! kill -0 "$VIEWS_PID" 2>/dev/null; do sleep 1; done
    c0=$(cpu_ticks "$DPID"); IDS_FIND_AT=$(since "$MOUNT_T0")
    timed "$TMP/find.out" find "$MNT/groups"; IDS_FIND=("$(wc -l <"$TMP/find.out")" "$ELAPSED" "$(ms_since_ticks "$c0")" "$(load1)")
    IDS_FIND_END=$(since "$MOUNT_T0")
    log "find groups/ while ids are made: ${IDS_FIND[*]} (entries, s, daemon CPU ms, load), from $IDS_FIND_AT to $IDS_FIND_END s"
    wait "$VIEWS_PID" || true
    VIEWS_DONE=$(cat "$TMP/views.out")
    log "views: $VIEWS_DONE"
fi
LOAD_VIEWS=$(load1)
view_field() { tr ' ' '\n' <<<"$VIEWS_DONE" | awk -F= -v k="$1" '$1 == k { print $2 }'; }
VIEWS_T=$(view_field complete) VIEWS_PROPS_T=$(view_field properties) VIEWS_CPU=$(view_field cpu_ms) VIEWS_HWM=$(view_field hwm_kb)
IDS_T=$(view_field ids) IDS_CPU=$(view_field ids_cpu_ms) IDS_RCHAR=$(view_field ids_rchar) IDS_READ=$(view_field ids_read_bytes)
VIEWS_STATS=$(stats_json)
stop_daemon
CATALOG_BYTES=$(stat -c %s "${CACHE_B%.sqlite}.catalog.sqlite")
log "first mount warm: $FIRST_WARM s"

REMOUNT_COLD=n/a RSS_REMOUNT_COLD="" LSF_BIG_COLD=n/a LSL_BIG_COLD=n/a
if ((COLD)); then
    log "remount, cold page cache (same cache file)"
    drop_caches
    start_daemon "$CACHE_B" || true
    REMOUNT_COLD=$MOUNT_T
    if [[ -n $DPID ]]; then
        RSS_REMOUNT_COLD=$(status_kb "$DPID" VmRSS)
        timed "$TMP/ls.out" ls -f "$MNT/groups/$BIG_DIR"; LSF_BIG_COLD=$ELAPSED
        timed "$TMP/ls.out" ls -l "$MNT/groups/$BIG_DIR"; LSL_BIG_COLD=$ELAPSED
    fi
    stop_daemon
    log "remount cold: $REMOUNT_COLD s; ls -f of $BIG_DIR first: $LSF_BIG_COLD s"
fi

# ---------------------------------------------------------------- views (issue 31), fresh mounts
# Each on a remount of its own (nothing in the kernel's or the daemon's caches): `ls -l` of each
# view's top folder and of its first subfolder (a second level), then `find` of groups/ and, on
# a remount each, of events/ and of dates/, each walked twice (uncached, then cached)
VIEWS_LISTED=() FIND_GROUPS=() FIND_VIEWS=()   # FIND_VIEWS: "VIEW entries uncached cached CPU load"
find_twice() {   # find_twice DIR: prints "entries uncached-s cached-s daemon-CPU-ms-uncached"
    local c0 first n cpu
    c0=$(cpu_ticks "$DPID")
    timed "$TMP/find.out" find "$1"; first=$ELAPSED; n=$(wc -l <"$TMP/find.out")
    cpu=$(ms_since_ticks "$c0")
    timed "$TMP/find.out" find "$1"
    printf '%s %s %s %s %s' "$n" "$first" "$ELAPSED" "$cpu" "$(load1)"
}
if start_daemon "$CACHE_B"; then
    for view in dates events places people tags favorites videos; do
        [[ -d $MNT/$view ]] || continue
        timed "$TMP/ls.out" ls -l "$MNT/$view"
        VIEWS_LISTED+=("$view/|$(($(wc -l <"$TMP/ls.out") - 1))|$ELAPSED")
        sub=$(find "$MNT/$view" -mindepth 1 -maxdepth 1 -type d -print -quit)   # (stat cached by ls -l)
        [[ -n $sub ]] || continue
        timed "$TMP/ls.out" ls -l "$sub"
        VIEWS_LISTED+=("$view/${sub##*/}/|$(($(wc -l <"$TMP/ls.out") - 1))|$ELAPSED")
    done
    LOAD_LISTED=$(load1)
    log "views listed: ${#VIEWS_LISTED[@]} folders"
    if [[ -d $MNT/events ]]; then
        log "find groups/, uncached then cached"
        read -ra FIND_GROUPS <<<"$(find_twice "$MNT/groups")"
        for walked in events dates; do
            stop_daemon
            start_daemon "$CACHE_B" || true
            [[ -n $DPID && -d $MNT/$walked ]] || continue
            log "find $walked/, uncached then cached"
            FIND_VIEWS+=("$walked $(find_twice "$MNT/$walked")")
        done
        log "find groups/ ${FIND_GROUPS[*]}; ${FIND_VIEWS[*]} (entries, uncached s, cached s, CPU ms, load)"
    fi
fi
stop_daemon

log "remount, warm page cache (same cache file); then listings, find, storm, changes on that mount"
walk 2 >/dev/null
start_daemon "$CACHE_B" || die "the warm remount failed: nothing more to measure"
REMOUNT_WARM=$MOUNT_T
RSS_REMOUNT_WARM=$(status_kb "$DPID" VmRSS)
HWM_REMOUNT_WARM=$(status_kb "$DPID" VmHWM)
log "remount warm: $REMOUNT_WARM s, VmRSS $(mib "$RSS_REMOUNT_WARM") MiB"

# --- assetfs locate (issue 32), beside this mount: 1,000 photos spread over the albums
mapfile -t LOCATE_FILES < <(for ((i = 0; i < 1000; i++)); do n=$((i * PHOTOS / 1000)); printf '%s/album-%05d/IMG_%04d.jpg\n' "$LIBRARY" $((n / PER_ALBUM)) $((n % PER_ALBUM)); done)
locate_figures "$CACHE_B" "${LOCATE_FILES[@]}"
LOAD_LOCATE=$(load1)
log "locate: one call $LOCATE_ONE ms ($LOCATE_VS); a batch $LOCATE_BATCH ms a file"

# --- listings
timed "$TMP/ls.out" ls -f "$MNT/groups"; LSF_GROUPS=$ELAPSED
[[ $(($(wc -l <"$TMP/ls.out") - 2)) == "$EXPECT_ALBUMS" ]] || log "ls -f groups: $(($(wc -l <"$TMP/ls.out") - 2)) albums, expected $EXPECT_ALBUMS"
timed "$TMP/ls.out" ls -f "$MNT/groups/$BIG_DIR"; LSF_BIG_FIRST=$ELAPSED
timed "$TMP/ls.out" ls -f "$MNT/groups/$BIG_DIR"; LSF_BIG_AGAIN=$ELAPSED
timed "$TMP/ls.out" ls -l "$MNT/groups/$BIG_DIR"; LSL_BIG=$ELAPSED
timed "$TMP/ls.out" ls -l "$MNT/groups/album-00001"; LSL_SMALL=$ELAPSED

# --- find
wait_quiet
FIND_MNT=skipped FIND_CPU=- FIND_N=1
if [[ ${SCALE_FIND_MOUNT:-1} == 1 ]]; then
    log "find MNT | wc -l"
    c0=$(cpu_ticks "$DPID")
    timed "$TMP/find.out" find "$MNT"; FIND_MNT=$ELAPSED
    FIND_CPU=$(ms_since_ticks "$c0")
    FIND_N=$(wc -l <"$TMP/find.out")
    ((FIND_N >= MIN_MNT)) || log "find MNT: $FIND_N entries, expected at least $MIN_MNT"
fi
RSS_AFTER_FIND=$(status_kb "$DPID" VmRSS)
HWM_AFTER_FIND=$(status_kb "$DPID" VmHWM)
log "find: $FIND_MNT s, $FIND_N entries, VmRSS $(mib "$RSS_AFTER_FIND") MiB"

# --- new thumbnails, idle and during an ls -lR storm
# thumb_path K: the thumbnail of a photo no one asked for yet (K-th; distinct albums and photos)
thumb_path() { printf '%s/groups/album-%05d/IMG_%04d/thumbnail.jpg' "$MNT" $(((ALBUMS / 3 + $1 * 37) % ALBUMS)) $((($1 * 11 + 5) % PER_ALBUM)); }
IDLE=()
for k in 0 1 2 3 4; do timed /dev/null cat "$(thumb_path "$k")"; IDLE+=("$ELAPSED"); done
THUMB_IDLE=$(median "${IDLE[@]}")

STORM_DIR=$BIG_DIR; [[ $STORM == small ]] && STORM_DIR=album-00002
STORM_ENTRIES=$(timeout "$STEP_TIMEOUT" ls -A "$MNT/groups/$STORM_DIR" | wc -l) || true
STORM_CHUNK=$(((STORM_ENTRIES + READERS - 1) / READERS)); ((STORM_CHUNK > 0)) || STORM_CHUNK=1
wait_quiet
log "ls -lR storm of $STORM_DIR ($READERS readers), $THUMBS new thumbnails meanwhile"
c0=$(cpu_ticks "$DPID")
st0=$EPOCHREALTIME
# shellcheck disable=SC2016  # expanded by the bash that runs it
timeout -k 10 "$STEP_TIMEOUT" bash -c 'cd "$1" && ls -A | xargs -d "\n" -P "$2" -n "$3" ls -lR' _ \
    "$MNT/groups/$STORM_DIR" "$READERS" "$STORM_CHUNK" >"$TMP/storm.out" 2>"$TMP/storm.err" &
STORM_PID=$!
sleep 0.3
DURING=() STORM_RSS=()
for ((k = 5; k < 5 + THUMBS; k++)); do
    kill -0 "$STORM_PID" 2>/dev/null || break
    STORM_RSS+=("$(status_kb "$DPID" VmRSS)")
    timed /dev/null cat "$(thumb_path "$k")"; DURING+=("$ELAPSED")
    sleep 0.1
done
while kill -0 "$STORM_PID" 2>/dev/null; do STORM_RSS+=("$(status_kb "$DPID" VmRSS)"); sleep 0.2; done
storm_rc=0; wait "$STORM_PID" || storm_rc=$?
STORM_PID=""
STORM_T=$(since "$st0")
((storm_rc == 124 || storm_rc == 137)) && STORM_T=TIMEOUT
((storm_rc != 0 && storm_rc != 124 && storm_rc != 137)) && log "ls -lR storm exited $storm_rc: $(head -3 "$TMP/storm.err")"
STORM_CPU=$(ms_since_ticks "$c0")
STORM_RSS_MAX=$(max_of "${STORM_RSS[@]}")
HWM_AFTER_STORM=$(status_kb "$DPID" VmHWM)
THUMB_P50=- THUMB_MAX=- THUMB_N=${#DURING[@]}
if ((THUMB_N)); then
    THUMB_P50=$(median "${DURING[@]}")
    THUMB_MAX=$(printf '%s\n' "${DURING[@]}" | sort -g | tail -1)
fi
log "storm: $STORM_T s; new thumbnail idle $THUMB_IDLE s, during the storm p50 $THUMB_P50 s, max $THUMB_MAX s ($THUMB_N)"

# --- changes: wait_listing DIR NAME present|absent|count=N → time until the mount shows it; CPU; peak RSS
# (polled with ls -f every 10 ms; sets CHANGE_T, CHANGE_CPU (ms until visible), CHANGE_CPU3 (ms until
# the daemon is idle again), CHANGE_QUIET (s until then), CHANGE_RSS (kB, max of VmRSS samples and of
# VmHWM if it rose meanwhile))
watch_change() {
    local dir=$1 name=$2 want=$3 t0=$4 c0=$5 hwm0=$6 deadline=$((SECONDS + STEP_TIMEOUT)) seen=0 rss=() n listing
    CHANGE_T=TIMEOUT
    while ((SECONDS < deadline)); do
        rss+=("$(status_kb "$DPID" VmRSS)")
        case $want in
        present) timeout 30 ls -f "$dir" 2>/dev/null | grep -qxF -- "$name" && seen=1 ;;
        absent) # only a listing that succeeds counts (a failing ls lists nothing)
            if listing=$(timeout 30 ls -f "$dir" 2>/dev/null); then grep -qxF -- "$name" <<<"$listing" || seen=1; else LIST_ERRORS=$((LIST_ERRORS + 1)); fi ;;
        count=*) n=$(timeout 30 ls -f "$dir" 2>/dev/null | wc -l) || n=0; ((n >= ${want#count=})) && seen=1 ;;
        esac
        if ((seen)); then CHANGE_T=$(since "$t0"); break; fi
        sleep 0.01
    done
    CHANGE_CPU=$(ms_since_ticks "$c0")
    wait_quiet
    rss+=("$QUIET_RSS")
    CHANGE_CPU3=$(ms_since_ticks "$c0")   # (includes up to 2 ticks of the quiet windows)
    CHANGE_QUIET=TIMEOUT
    [[ -n $QUIET_AT ]] && CHANGE_QUIET=$(awk -v a="$t0" -v b="$QUIET_AT" 'BEGIN { printf "%.2f", b - a }')
    local hwm1; hwm1=$(status_kb "$DPID" VmHWM)
    CHANGE_RSS=$(max_of "${rss[@]}")
    ((${hwm1:-0} > ${hwm0:-0})) && CHANGE_RSS=$hwm1
    return 0
}
LIST_ERRORS=0
change() {   # change LABEL DIR NAME WANT CMD...: runs CMD (on SOURCE) and watches the mount
    local label=$1 dir=$2 name=$3 want=$4 c0 hwm0 t0
    shift 4
    wait_quiet
    c0=$(cpu_ticks "$DPID"); hwm0=$(status_kb "$DPID" VmHWM)
    t0=$EPOCHREALTIME
    "$@"
    watch_change "$dir" "$name" "$want" "$t0" "$c0" "$hwm0"
    log "$label: visible after $CHANGE_T s, daemon CPU $CHANGE_CPU ms ($CHANGE_CPU3 ms until idle again after $CHANGE_QUIET s), peak RSS $(mib "$CHANGE_RSS") MiB"
}
sleep 1
change "one photo added to $ADD_ALBUM" "$MNT/groups/$ADD_ALBUM" "$ADD_NAME" present cp "$TMP/extra.jpg" "$ADD_FILE"
ADD_T=$CHANGE_T ADD_CPU=$CHANGE_CPU ADD_CPU3=$CHANGE_CPU3 ADD_RSS=$CHANGE_RSS ADD_Q=$CHANGE_QUIET
change "that photo removed" "$MNT/groups/$ADD_ALBUM" "$ADD_NAME" absent rm -f "$ADD_FILE"
DEL_T=$CHANGE_T DEL_CPU=$CHANGE_CPU DEL_CPU3=$CHANGE_CPU3 DEL_RSS=$CHANGE_RSS DEL_Q=$CHANGE_QUIET

mkdir -p "$TMP/new"
"$OUT/scale-gen" "$TMP/new" "$BASE" "$NEW_COUNT" "$NEW_COUNT" 0 ZZ-new   # TMP/new/ZZ-new-00000/IMG_*.jpg
change "$NEW_COUNT photos copied in as $NEW_ALBUM" "$MNT/groups/$NEW_ALBUM" "" "count=$((NEW_COUNT + 3))" cp -r "$TMP/new/ZZ-new-00000" "$NEW_DIR"
NEW_T=$CHANGE_T NEW_CPU=$CHANGE_CPU NEW_CPU3=$CHANGE_CPU3 NEW_RSS=$CHANGE_RSS NEW_Q=$CHANGE_QUIET
change "$NEW_ALBUM deleted" "$MNT/groups" "$NEW_ALBUM" absent rm -rf "$NEW_DIR"
RMA_T=$CHANGE_T RMA_CPU=$CHANGE_CPU RMA_CPU3=$CHANGE_CPU3 RMA_RSS=$CHANGE_RSS RMA_Q=$CHANGE_QUIET
rm -rf "$TMP/new"

# ---------------------------------------------------------------- edits found by verification
# EDITS photos edited in place while nothing is mounted (a few bytes appended: a new size and
# mtime); the remount serves the stored tree at once and its background check, which stats every
# file and opens only the changed ones, finds them. Timed from the remount's start until every
# folder was read again (folders_read); each edit must then show in its original's size.
RSS_END=$(status_kb "$DPID" VmRSS)
HWM_END=$(status_kb "$DPID" VmHWM)
stop_daemon
for ((i = 0; i < EDITS; i++)); do
    EDITED[i]=$(printf 'album-%05d/IMG_%04d' $(((i * 97) % ALBUMS)) $(((i * 13) % PER_ALBUM)))
    cp -p "$LIBRARY/${EDITED[i]}.jpg" "$TMP/edit-$i.jpg"
    printf 'assetfs-edit-%04d' "$i" >>"$LIBRARY/${EDITED[i]}.jpg"
done
log "verification: $EDITS photos edited while unmounted, remount"
verify_t0=$EPOCHREALTIME
start_daemon "$CACHE_B" || true
VERIFY_T=TIMEOUT
deadline=$((SECONDS + STEP_TIMEOUT))
while ((SECONDS < deadline)); do
    read_so_far=$(stats_json | python3 -c 'import json,sys; print(json.load(sys.stdin).get("folders_read", 0))' 2>/dev/null || echo 0)
    if ((read_so_far >= EXPECT_ALBUMS + 1)); then VERIFY_T=$(since "$verify_t0"); break; fi
    sleep 0.2
done
VERIFY_FOUND=0
for ((i = 0; i < EDITS; i++)); do
    want=$(stat -c %s "$LIBRARY/${EDITED[i]}.jpg")
    [[ $(stat -c %s "$MNT/groups/${EDITED[i]%%/*}/${EDITED[i]#*/}/original.jpg" 2>/dev/null) == "$want" ]] && VERIFY_FOUND=$((VERIFY_FOUND + 1))
done
log "verification: $VERIFY_T s, $VERIFY_FOUND of $EDITS edits found"
restore_edits

STATS=$(stats_json)
stop_daemon
HWM_MAX=$(max_of "${HWM_ALL[@]}")

# ---------------------------------------------------------------- report
MISSED=0
verdict() {   # verdict VALUE OP TARGET → ok / MISSED / -
    isnum "$1" || { printf -- '-'; return; }
    if awk -v v="$1" -v t="$3" -v op="$2" 'BEGIN { exit !((op == "<=" && v <= t) || (op == "<" && v < t)) }'; then
        printf 'ok'
    else
        printf 'MISSED'
    fi
}
row() { printf '%-50s %11s %11s %8s  %-10s %s\n' "$@"; }
rx() { local r; r=$(ratio "$1" "$2"); [[ $r == - ]] && printf -- '-' || printf '%sx' "$r"; }
per_entry() { if isnum "$1"; then calc '%.2f' "$1 * 1000000 / $2"; else printf '%s' "$1"; fi; }   # s, entries → µs/entry
FIRST_COLD_R=$(ratio "$FIRST_COLD" "$W2_COLD"); FIRST_WARM_R=$(ratio "$FIRST_WARM" "$W2_WARM")
V_FC=$(verdict "$FIRST_COLD_R" "<=" "$T_FIRST_RATIO"); V_FW=$(verdict "$FIRST_WARM_R" "<=" "$T_FIRST_RATIO")
V_RC=$(verdict "$REMOUNT_COLD" "<" "$T_REMOUNT"); V_RW=$(verdict "$REMOUNT_WARM" "<" "$T_REMOUNT")
V_RSS=$(verdict "$(mib "$HWM_MAX")" "<" "$T_RSS_MIB")
V_ADD=$(verdict "$ADD_T" "<=" "$T_ADD_S"); V_ADDC=$(verdict "$ADD_CPU" "<" "$T_ADD_CPU_MS")
V_NEW=$(verdict "$NEW_T" "<=" "$T_NEW_S")
V_BIG=$(verdict "$LSF_BIG_COLD" "<" "$T_BIGLS_S")
for v in "$V_FC" "$V_FW" "$V_RC" "$V_RW" "$V_RSS" "$V_ADD" "$V_ADDC" "$V_NEW" "$V_BIG"; do if [[ $v == MISSED ]]; then MISSED=1; fi; done
FIND_PE_MNT=$(per_entry "$FIND_MNT" "$FIND_N"); FIND_PE_SRC=$(per_entry "$FIND_SRC" "$EXPECT_SRC")
thumb_idle_r=$(rx "$THUMB_P50" "$THUMB_IDLE")

{
echo
echo "assetfs scale-bench: $TOTAL photos (64x48, $(stat -c %s "$LIBRARY/album-00000/"*.jpg | sort -n | sed -n '1p;$p' | uniq | paste -sd- -) B each) in $ALBUMS albums of $PER_ALBUM + $BIG_DIR ($BIG); $(nproc) cores, $(date -u '+%F %T') UTC"
echo "assetfs: $("$BIN" --version) ($BIN); floor: bench/scale-walk.c ($WALKER walk), same run"
echo "library: $LIBRARY, $GEN_NOTE$(if ((METADATA)); then echo "; with metadata (bench/scale-meta.c)"; fi)"
echo "cold: sync; echo 3 > /proc/sys/vm/drop_caches right before ($([[ $COLD == 1 ]] && echo yes || echo "n/a: not root")); warm figures of the floor: median of 3"
echo "load average at the start / end of the run: $LOAD_START / $(cut -d' ' -f1-3 /proc/loadavg) (the machine is shared)"
echo "mount time: \`assetfs -f\` started in the background → \`ls MNT/groups\` lists all $EXPECT_ALBUMS albums"
echo
row "measurement" "assetfs" "floor" "ratio" "target" ""
row "--------------------------------------------------" "-----------" "-----------" "--------" "----------" "------"
row "first mount, cold page cache  (s)" "$(fmt_s "$FIRST_COLD")" "$(fmt_s "$W2_COLD")" "$(rx "$FIRST_COLD" "$W2_COLD")" "<= ${T_FIRST_RATIO}x" "$V_FC (floor: stat + 2 bytes; stat only $(fmt_s "$W1_COLD") s = $(rx "$FIRST_COLD" "$W1_COLD"))"
row "first mount, warm page cache  (s)" "$(fmt_s "$FIRST_WARM")" "$(fmt_s "$W2_WARM")" "$(rx "$FIRST_WARM" "$W2_WARM")" "<= ${T_FIRST_RATIO}x" "$V_FW (floor: stat + 2 bytes; stat only $(fmt_s "$W1_WARM") s = $(rx "$FIRST_WARM" "$W1_WARM"))"
row "remount, cold page cache  (s)" "$(fmt_s "$REMOUNT_COLD")" "$(fmt_s "$W1_COLD")" "$(rx "$REMOUNT_COLD" "$W1_COLD")" "< ${T_REMOUNT} s" "$V_RC (floor: stat only)"
row "remount, warm page cache  (s)" "$(fmt_s "$REMOUNT_WARM")" "$(fmt_s "$W1_WARM")" "$(rx "$REMOUNT_WARM" "$W1_WARM")" "< ${T_REMOUNT} s" "$V_RW (floor: stat only)"
row "daemon VmRSS after first mount cold / warm (MiB)" "$(mib "${RSS_FIRST_COLD:-n/a}")/$(mib "${RSS_FIRST_WARM:-?}")" "" "" "< $T_RSS_MIB MiB" "VmHWM $(mib "${HWM_FIRST_COLD:-n/a}")/$(mib "${HWM_FIRST_WARM:-?}")"
row "daemon VmRSS after remount cold / warm (MiB)" "$(mib "${RSS_REMOUNT_COLD:-n/a}")/$(mib "$RSS_REMOUNT_WARM")" "" "" "< $T_RSS_MIB MiB" "VmHWM (warm) $(mib "$HWM_REMOUNT_WARM")"
row "ls -f groups/ ($EXPECT_ALBUMS albums), after mount  (s)" "$(fmt_s "$LSF_GROUPS")" "$(fmt_s "$SRC_LSF_ROOT")" "$(rx "$LSF_GROUPS" "$SRC_LSF_ROOT")" "" "(floor: ls -f SOURCE, warm)"
row "ls -f $BIG_DIR, cold remount, first  (s)" "$(fmt_s "$LSF_BIG_COLD")" "$(fmt_s "$SRC_LSF_BIG_COLD")" "$(rx "$LSF_BIG_COLD" "$SRC_LSF_BIG_COLD")" "< ${T_BIGLS_S} s" "$V_BIG (floor: ls -f SOURCE/$BIG_DIR, cold)"
row "ls -l $BIG_DIR, cold remount  (s)" "$(fmt_s "$LSL_BIG_COLD")" "$(fmt_s "$SRC_LSL_BIG")" "$(rx "$LSL_BIG_COLD" "$SRC_LSL_BIG")" "" "(floor: ls -l SOURCE/$BIG_DIR)"
row "ls -f $BIG_DIR, warm remount, first / again  (s)" "$(fmt_s "$LSF_BIG_FIRST")/$(fmt_s "$LSF_BIG_AGAIN")" "$(fmt_s "$SRC_LSF_BIG")" "$(rx "$LSF_BIG_FIRST" "$SRC_LSF_BIG")" "" "(floor: ls -f SOURCE/$BIG_DIR, warm)"
row "ls -l $BIG_DIR, warm remount  (s)" "$(fmt_s "$LSL_BIG")" "$(fmt_s "$SRC_LSL_BIG")" "$(rx "$LSL_BIG" "$SRC_LSL_BIG")" "" "(floor: ls -l SOURCE/$BIG_DIR)"
row "ls -l album of $PER_ALBUM, warm remount  (s)" "$(fmt_s "$LSL_SMALL")" "$(fmt_s "$SRC_LSL_SMALL")" "$(rx "$LSL_SMALL" "$SRC_LSL_SMALL")" "" "(floor: ls -l SOURCE/album-00001)"
row "find | wc -l  (s)" "$(fmt_s "$FIND_MNT")" "$(fmt_s "$FIND_SRC")" "$(rx "$FIND_MNT" "$FIND_SRC")" "" "($FIND_N vs $EXPECT_SRC entries; daemon CPU $FIND_CPU ms)"
row "find, per entry  (µs)" "$FIND_PE_MNT" "$FIND_PE_SRC" "$(rx "$FIND_PE_MNT" "$FIND_PE_SRC")" "" "(floor: find SOURCE | wc -l, warm)"
row "views complete after a first mount (warm)  (s)" "$(fmt_s "$VIEWS_T")" "$(fmt_s "$W2_WARM")" "$(rx "$VIEWS_T" "$W2_WARM")" "" "(issue 31; properties all read at $VIEWS_PROPS_T s; floor: stat + 2 bytes, warm; load $LOAD_VIEWS)"
row "  daemon CPU until then  (s, µs per photo)" "$(if isnum "$VIEWS_CPU"; then calc '%.1f' "$VIEWS_CPU / 1000"; else printf -- -; fi)" "" "" "" "$(per_entry "$(if isnum "$VIEWS_CPU"; then calc '%.3f' "$VIEWS_CPU / 1000"; else printf -- -; fi)" "$TOTAL") µs per photo (from the mount command's start)"
row "  daemon VmHWM then  (MiB)" "$(mib "${VIEWS_HWM:-?}")" "" "" "< $T_RSS_MIB MiB" "$(verdict "$(mib "${VIEWS_HWM:-?}")" "<" "$T_RSS_MIB")"
row "  catalog file after it  (MiB, bytes per photo)" "$(mib "$((CATALOG_BYTES / 1024))")" "" "" "" "$((CATALOG_BYTES / TOTAL)) B per photo (WAL not counted)"
row "every photo's id after a first mount (warm)  (s)" "$(fmt_s "$IDS_T")" "$(fmt_s "$VIEWS_PROPS_T")" "$(rx "$IDS_T" "$VIEWS_PROPS_T")" "" "(issue 32; anchor: every photo's properties read, same mount)"
row "  daemon CPU, bytes read until then  (s, MiB)" "$(if isnum "$IDS_CPU"; then calc '%.1f' "$IDS_CPU / 1000"; else printf -- -; fi)" "" "" "" "$(if isnum "$IDS_RCHAR"; then echo "rchar $((IDS_RCHAR / 1048576)) MiB, from disk $((IDS_READ / 1048576)) MiB"; fi) (from the mount command's start)"
pe_during=$(per_entry "${IDS_FIND[1]}" "${IDS_FIND[0]}") pe_after=$(if ((${#FIND_GROUPS[@]} == 5)); then per_entry "${FIND_GROUPS[1]}" "${FIND_GROUPS[0]}"; else echo -; fi)
row "find groups/ while ids are made, per entry  (µs)" "$pe_during" "$pe_after" "$(rx "$pe_during" "$pe_after")" "1x" "(anchor: after, uncached; ${IDS_FIND[0]} entries in ${IDS_FIND[1]} s, from $IDS_FIND_AT to $IDS_FIND_END s after the mount's start; daemon CPU ${IDS_FIND[2]} ms; load ${IDS_FIND[3]})"
row "assetfs locate, one file a call, median of 20  (ms)" "$LOCATE_ONE" "$ANCHOR_TRUE" "$(rx "$LOCATE_ONE" "$ANCHOR_TRUE")" "< 10 ms" "$(verdict "$LOCATE_ONE" "<" 10) ($LOCATE_VS; load $LOAD_LOCATE)"
row "assetfs locate, 1,000 files in one call  (ms a file)" "$LOCATE_BATCH" "" "" "" "($LOCATE_LINES lines)"
for listed in "${VIEWS_LISTED[@]}"; do
    IFS='|' read -r view entries took <<<"$listed"
    row "ls -l $view ($entries entries), fresh mount  (s)" "$(fmt_s "$took")" "$(fmt_s "$SRC_LSL_SMALL")" "$(rx "$took" "$SRC_LSL_SMALL")" "" "(anchor: ls -l SOURCE/album-00001, $PER_ALBUM photos; load ${LOAD_LISTED:-?})"
done
for walked in "${FIND_VIEWS[@]}"; do
    read -ra found <<<"$walked"   # view, then find_twice's five figures
    ((${#found[@]} == 6 && ${#FIND_GROUPS[@]} == 5)) || continue
    v=${found[0]} pe_view=$(per_entry "${found[2]}" "${found[1]}") pe_groups=$(per_entry "${FIND_GROUPS[1]}" "${FIND_GROUPS[0]}")
    row "find $v/ uncached, per entry  (µs)" "$pe_view" "$pe_groups" "$(rx "$pe_view" "$pe_groups")" "1x" "(anchor: groups/, fresh mounts each; ${found[1]} vs ${FIND_GROUPS[0]} entries, ${found[2]} vs ${FIND_GROUPS[1]} s; daemon CPU ${found[4]} vs ${FIND_GROUPS[3]} ms; load ${found[5]} vs ${FIND_GROUPS[4]})"
    pe_view=$(per_entry "${found[3]}" "${found[1]}") pe_groups=$(per_entry "${FIND_GROUPS[2]}" "${FIND_GROUPS[0]}")
    row "find $v/ again (cached), per entry  (µs)" "$pe_view" "$pe_groups" "$(rx "$pe_view" "$pe_groups")" "1x" "(anchor: groups/ again)"
done
row "daemon VmRSS / VmHWM after find  (MiB)" "$(mib "$RSS_AFTER_FIND")/$(mib "$HWM_AFTER_FIND")" "" "" "< $T_RSS_MIB MiB" ""
row "ls -lR storm of $STORM_DIR, $READERS readers  (s)" "$(fmt_s "$STORM_T")" "" "" "" "(renders its thumbnails and fullscreens; daemon CPU $STORM_CPU ms)"
row "new thumbnail during the storm, p50  (s)" "$(fmt_s "$THUMB_P50")" "$(fmt_s "$THUMB_IDLE")" "$thumb_idle_r" "" "(anchor: a new thumbnail idle, median of 5; $THUMB_N fetched during the storm)"
row "new thumbnail during the storm, max = p99  (s)" "$(fmt_s "$THUMB_MAX")" "$(fmt_s "$THUMB_IDLE")" "$(rx "$THUMB_MAX" "$THUMB_IDLE")" "" "(anchor: idle, as above)"
row "daemon peak VmRSS sampled during storm / VmHWM" "$(mib "${STORM_RSS_MAX:-?}")/$(mib "$HWM_AFTER_STORM")" "" "" "< $T_RSS_MIB MiB" ""
row "one photo added: visible after  (s)" "$(fmt_s "$ADD_T")" "" "" "<= ${T_ADD_S} s" "$V_ADD (polled with ls -f every 10 ms)"
row "  daemon CPU until visible / until idle  (ms)" "$ADD_CPU/$ADD_CPU3" "" "" "< ${T_ADD_CPU_MS} ms" "$V_ADDC (idle again after $ADD_Q s; clock ticks: 1000/$CLK_TCK ms resolution)"
row "  daemon peak RSS meanwhile  (MiB)" "$(mib "$ADD_RSS")" "" "" "< $T_RSS_MIB MiB" ""
row "that photo removed: gone after  (s)" "$(fmt_s "$DEL_T")" "" "" "" "CPU until gone/idle $DEL_CPU/$DEL_CPU3 ms, idle after $DEL_Q s, peak RSS $(mib "$DEL_RSS") MiB"
row "$NEW_COUNT photos copied in (cp -r): all visible after (s)" "$(fmt_s "$NEW_T")" "" "" "<= ${T_NEW_S} s" "$V_NEW (from cp's start; CPU until visible/idle $NEW_CPU/$NEW_CPU3 ms, idle after $NEW_Q s, peak RSS $(mib "$NEW_RSS") MiB)"
row "that album deleted (rm -rf): gone after  (s)" "$(fmt_s "$RMA_T")" "" "" "" "CPU until gone/idle $RMA_CPU/$RMA_CPU3 ms, idle after $RMA_Q s, peak RSS $(mib "$RMA_RSS") MiB"
row "verification after $EDITS edits, whole tree  (s)" "$(fmt_s "$VERIFY_T")" "$(fmt_s "$W1_WARM")" "$(rx "$VERIFY_T" "$W1_WARM")" "" "$VERIFY_FOUND of $EDITS edits found (floor: stat only, warm; from the remount's start, at nice 10)"
row "daemon VmRSS at end  (MiB)" "$(mib "$RSS_END")" "" "" "" "VmHWM $(mib "$HWM_END")"
row "daemon VmHWM, max over every daemon of the run (MiB)" "$(mib "${HWM_MAX:-?}")" "" "" "< $T_RSS_MIB MiB" "$V_RSS"
echo
echo "floor walks (s): stat only cold $(fmt_s "$W1_COLD"), warm $(fmt_s "$W1_WARM") | stat + 2 bytes cold $(fmt_s "$W2_COLD"), warm $(fmt_s "$W2_WARM") | find SOURCE $(fmt_s "$FIND_SRC")"
echo "new thumbnails (s): idle ${IDLE[*]} | during the storm ${DURING[*]:-none}"
echo "listings of the mount that failed while polling for a removal: $LIST_ERRORS"
echo "views when complete (folders/members): $(cut -d' ' -f9- <<<"$VIEWS_DONE")"
echo "stats when the views were complete: $VIEWS_STATS"
echo "stats at end: $STATS"
echo "daemon log: $DLOG; total bench time: $((SECONDS - START)) s"
} | tee "$OUT/report.txt"
cp "$OUT/report.txt" "$OUT/report-$PHOTOS-$BIG.txt"

if ((MISSED)) && [[ ${BENCH_STRICT:-0} == 1 ]]; then exit 1; fi
exit 0
