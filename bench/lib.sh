# Shared by the benchmarks: a private release build and the arithmetic of the tables.
# Source it after defining log and die, with ROOT and OUT set.

# Builds release into a private folder (a `swift test` elsewhere can hold .build's lock for
# minutes, and others may rebuild .build/release meanwhile) and copies the binary to $OUT/assetfs,
# so a second bench rebuilding cannot swap it mid-run. Sets BIN. BENCH_SKIP_BUILD=1 skips the build.
build_release_copy() {
    local scratch=${BENCH_SCRATCH:-$ROOT/bench/out/build} built=0 attempt
    BIN="$OUT/assetfs"
    if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
        for attempt in 1 2 3 4 5 6; do
            if swift build -c release --static-swift-stdlib --scratch-path "$scratch" >"$OUT/build.log" 2>&1; then built=1; break; fi
            log "swift build -c release failed (attempt $attempt; the tree may be mid-edit), retrying in 30 s"
            sleep 30
        done
        ((built)) || { tail -30 "$OUT/build.log" >&2; die "swift build -c release failed 6 times (see $OUT/build.log)"; }
    fi
    [[ -x $scratch/release/assetfs ]] || die "$scratch/release/assetfs is missing (run without BENCH_SKIP_BUILD=1)"
    cp "$scratch/release/assetfs" "$BIN.new" && mv -f "$BIN.new" "$BIN"
    log "assetfs: $("$BIN" --version)"
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }

# Sets PY to a python3 that has numpy (empty if none): the corpus generators and psnr.py need it.
find_numpy_python() {
    local candidate
    PY=""
    for candidate in python3 /usr/bin/python3; do
        if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import numpy' >/dev/null 2>&1; then PY=$candidate; return; fi
    done
}

# Installs the Debian packages named (none: nothing to do), as root or through sudo; the caller's
# die and log report.
install_missing() {
    (($#)) || return 0
    local sudo=""
    if [[ $(id -u) != 0 ]]; then command -v sudo >/dev/null && sudo=sudo || die "missing $* and not root"; fi
    log "installing $*"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# floor_denominator W H TW TH: the DCT shrink the renderer decodes a W×H JPEG at for a TW×TH
# rendition (Geometry.swift's shrinkOnLoadDenominator): the largest of 8, 4, 2 whose scaled frame
# holds 2x the output at 1/8 (DC only) and 1.5x at 1/4 and 1/2. djpeg at that scale is the decode floor.
floor_denominator() {
    local w=$1 h=$2 tw=$3 th=$4 d sw sh
    for d in 8 4 2; do
        sw=$(((w + d - 1) / d)) sh=$(((h + d - 1) / d))
        if ((d == 8)); then
            if ((sw >= 2 * tw && sh >= 2 * th)); then echo "$d"; return; fi
        elif ((2 * sw >= 3 * tw && 2 * sh >= 3 * th)); then echo "$d"; return; fi
    done
    echo 1
}

# locate_figures CACHE FILE...: what `assetfs locate` (issue 32) costs on the catalog beside CACHE,
# against anchors timed in the same loop (the machine is shared): one FILE per call, the process's
# start included, median of 20 (FILEs taken in turn), beside /bin/true, `stat FILE` and `sqlite3
# CATALOG 'select 1'`; then every FILE in one call. Sets LOCATE_ONE, ANCHOR_TRUE, ANCHOR_STAT,
# ANCHOR_SQLITE (ms a call), LOCATE_VS (one call against each anchor, as text), LOCATE_BATCH (ms a
# file) and LOCATE_LINES (lines the batch printed).
locate_figures() {
    local cache=$1 catalog="${1%.sqlite}.catalog.sqlite" one=() true_ms=() stat_ms=() sqlite_ms=() i f t0
    shift
    ms_since() { calc '%.3f' "($EPOCHREALTIME - $1) * 1000"; }
    for ((i = 0; i < 20; i++)); do
        f=${*:i * $# / 20 + 1:1}
        t0=$EPOCHREALTIME; "$BIN" locate -o cache="$cache" "$f" >/dev/null || log "locate $f failed"; one+=("$(ms_since "$t0")")
        t0=$EPOCHREALTIME; /bin/true; true_ms+=("$(ms_since "$t0")")
        t0=$EPOCHREALTIME; stat "$f" >/dev/null; stat_ms+=("$(ms_since "$t0")")
        t0=$EPOCHREALTIME; sqlite3 "file:$catalog?mode=ro" 'select 1' >/dev/null; sqlite_ms+=("$(ms_since "$t0")")
    done
    LOCATE_ONE=$(median "${one[@]}") ANCHOR_TRUE=$(median "${true_ms[@]}")
    ANCHOR_STAT=$(median "${stat_ms[@]}") ANCHOR_SQLITE=$(median "${sqlite_ms[@]}")
    LOCATE_VS="$(calc '%.1f' "$LOCATE_ONE / $ANCHOR_TRUE")x /bin/true ($ANCHOR_TRUE ms), $(calc '%.1f' "$LOCATE_ONE / $ANCHOR_STAT")x stat ($ANCHOR_STAT ms), $(calc '%.1f' "$LOCATE_ONE / $ANCHOR_SQLITE")x sqlite3 'select 1' ($ANCHOR_SQLITE ms)"
    t0=$EPOCHREALTIME
    LOCATE_LINES=$("$BIN" locate -o cache="$cache" "$@" | wc -l)
    LOCATE_BATCH=$(calc '%.3f' "($EPOCHREALTIME - $t0) * 1000 / $#")
}
