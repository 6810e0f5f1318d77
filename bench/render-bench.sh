#!/usr/bin/env bash
# Downscaler benchmark: `assetfs render` against the libjpeg-turbo decode floor (`djpeg -scale`)
# and `vipsthumbnail`, on a generated corpus of photo-like JPEGs from 12 MP to 400 MP.
#
#   bash bench/render-bench.sh              # from the package root: build, corpus, timings, memory, PSNR
#   BENCH_RUNS=3 BENCH_CORPUS="12mp 24mp" bash bench/render-bench.sh   # a quick run
#
# Environment:
#   BENCH_RUNS        timed repetitions of every command (default 5; the median is reported)
#   BENCH_HUGE_RUNS   repetitions on the 400 MP photo, which is there for the memory check (default 1)
#   BENCH_CORPUS      photos to run, from: 12mp 24mp 24mp-progressive 100mp 400mp (default: all)
#   BENCH_SIZES       longest sides to render (default "256 1920")
#   BENCH_PSNR        photos whose outputs get a PSNR against a reference (default "12mp 24mp 24mp-progressive";
#                     the 100 MP and 400 MP ones are over ImageMagick's policy limits and would be slow)
#   BENCH_CPU         the core every timed command is pinned to (default 0)
#   BENCH_SKIP_BUILD  1: use the release binary already built instead of running `swift build -c release`
#   BENCH_STRICT      1: exit 1 when a target is missed (default: report only)
#
# Every timed command runs pinned to one core (taskset) under /usr/bin/time -f '%e %M'; the peak RSS
# comes from %M, the wall time from bash's $EPOCHREALTIME around the same call (%e has only 10 ms
# resolution, too coarse for a 50 ms thumbnail). All three tools are timed round-robin, after one
# untimed warm-up each (which also leaves the outputs measured for PSNR). Every encoder writes quality 85.
# Generated files live in bench/out/render/ (gitignored); the corpus is cached there between runs.
#
# Last run (issue 21, main after merging speed-21; median of 5, one core, the machine otherwise
# idle: 50% busy, load average about 1): 24 MP baseline 256 px 1.00x and 1920 px 1.21x the djpeg
# floor (0.98x and 1.23x by CPU time); 24 MP progressive 1.06x / 1.04x, 100 MP 0.97x / 1.13x,
# 400 MP 0.93x / 1.06x; PSNR 30.984 / 35.414 dB; at most +3.5 MiB over --version. Runs minutes apart
# on a busy machine gave 1920 px anywhere from 1.22x to 1.40x on one binary; side by side (perf
# stat, 40 rounds) the binary before speed-21 and after: 1920 px 1.29x -> 1.22x, 256 px 1.02x -> 0.99x.
set -euo pipefail
export LC_ALL=C   # a '.' in $EPOCHREALTIME and in printf's numbers

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
BENCH="$ROOT/bench"
OUT="$BENCH/out/render"   # bench/out/ is shared with the other benchmarks
CORPUS_DIR="$OUT/corpus"
REF_DIR="$OUT/ref"
RUN_DIR="$OUT/run"
RESULTS="$OUT/results"

RUNS=${BENCH_RUNS:-5}
HUGE_RUNS=${BENCH_HUGE_RUNS:-1}
read -r -a CORPUS <<<"${BENCH_CORPUS:-12mp 24mp 24mp-progressive 100mp 400mp}"
read -r -a SIZES <<<"${BENCH_SIZES:-256 1920}"
read -r -a PSNR_PHOTOS <<<"${BENCH_PSNR:-12mp 24mp 24mp-progressive}"
CPU=${BENCH_CPU:-0}
QUALITY=85
GATE_PHOTO=24mp   # the photo the speed targets are set on
# Issue 21's goals (they were 1.25x and 2.00x before it).
SPEED_TARGET_256=1.05
SPEED_TARGET_1920=1.30
RSS_TARGET_MIB=16

# name → "width height seed" (progressive ones are lossless jpegtran copies of their baseline)
declare -A PHOTO_DIMS=(
    [12mp]="4000 3000 12"
    [24mp]="6000 4000 24"
    [24mp-progressive]="6000 4000 24"
    [100mp]="12240 8160 100"
    [400mp]="20000 20000 400"
)

log() { printf 'bench: %s\n' "$*" >&2; }
die() { printf 'bench: error: %s\n' "$*" >&2; exit 1; }

for photo in "${CORPUS[@]}"; do
    [[ -n ${PHOTO_DIMS[$photo]+x} ]] || die "unknown photo '$photo' in BENCH_CORPUS (known: ${!PHOTO_DIMS[*]})"
done
[[ $RUNS =~ ^[1-9][0-9]*$ && $HUGE_RUNS =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUNS and BENCH_HUGE_RUNS must be positive integers"
START=$SECONDS

# ---------------------------------------------------------------- tools
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
find_numpy_python

missing=()
command -v djpeg >/dev/null && command -v cjpeg >/dev/null && command -v jpegtran >/dev/null || missing+=(libjpeg-turbo-progs)
command -v convert >/dev/null && command -v identify >/dev/null || missing+=(imagemagick)
command -v vipsthumbnail >/dev/null || missing+=(libvips-tools)
[[ -x /usr/bin/time ]] || missing+=(time)
command -v taskset >/dev/null || missing+=(util-linux)
[[ -n $PY ]] || missing+=(python3-numpy)
install_missing "${missing[@]}"
find_numpy_python
[[ -n $PY ]] || die "no python3 with numpy"

# ---------------------------------------------------------------- build
mkdir -p "$OUT" "$CORPUS_DIR" "$REF_DIR" "$RUN_DIR" "$RESULTS"
build_start=$SECONDS
if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
    log "swift build -c release (waits while another SwiftPM holds .build)"
    built=0
    for attempt in 1 2 3 4 5; do
        # Others edit Sources/ while this runs: a failed build is retried after a pause.
        if swift build -c release --static-swift-stdlib >"$OUT/build.log" 2>&1; then built=1; break; fi
        log "build attempt $attempt failed (tail of bench/out/render/build.log below); retrying in 30 s"
        tail -n 5 "$OUT/build.log" >&2
        sleep 30
    done
    ((built)) || die "swift build -c release failed 5 times; see bench/out/render/build.log"
fi
BIN_DIR=$(swift build -c release --show-bin-path)
[[ -x "$BIN_DIR/assetfs" ]] || die "no release binary at $BIN_DIR/assetfs"
# A private copy, so a rebuild by someone else mid-run cannot swap the binary under the timings.
BIN="$OUT/assetfs"
cp "$BIN_DIR/assetfs" "$BIN"
VERSION=$("$BIN" --version)
BUILD_SECONDS=$((SECONDS - build_start))

# ---------------------------------------------------------------- corpus
# Cached; a change to the generator or to this table makes it again.
STAMP=$( { sha256sum "$BENCH/genphoto.py"; declare -p PHOTO_DIMS; cjpeg -version 2>&1 | head -n 1; } | sha256sum | cut -c1-16)
if [[ $(cat "$CORPUS_DIR/STAMP" 2>/dev/null) != "$STAMP" ]]; then
    rm -f "$CORPUS_DIR"/*.jpg "$REF_DIR"/*.png
    echo "$STAMP" >"$CORPUS_DIR/STAMP"
fi
photo_path() { echo "$CORPUS_DIR/photo-$1.jpg"; }
make_photo() {
    local photo=$1 path width height seed
    path=$(photo_path "$photo")
    [[ -s $path ]] && return 0
    read -r width height seed <<<"${PHOTO_DIMS[$photo]}"
    if [[ $photo == *-progressive ]]; then
        local base=${photo%-progressive}
        make_photo "$base"
        log "corpus: $photo (jpegtran -progressive of $base: same pixels)"
        jpegtran -progressive -copy all -outfile "$path.tmp" "$(photo_path "$base")"
    else
        log "corpus: $photo (${width}x$height, seed $seed)"
        "$PY" "$BENCH/genphoto.py" "$width" "$height" "$seed" | cjpeg -quality 90 -outfile "$path.tmp"
    fi
    mv "$path.tmp" "$path"
}
gen_start=$SECONDS
for photo in "${CORPUS[@]}"; do make_photo "$photo"; done
CORPUS_SECONDS=$((SECONDS - gen_start))
log "corpus ready in $CORPUS_SECONDS s"

# ---------------------------------------------------------------- measuring
TIMEFILE="$OUT/time.txt"
ERRFILE="$OUT/stderr.txt"

CPUFILE="$OUT/cpu.txt"
TIMEFORMAT='%3U %3S'   # bash's `time`: user and system seconds, to the millisecond

# measure DEST CMD...: one pinned run, appending "wall-µs peak-KiB cpu-µs" to DEST (stdout dropped).
# The peak RSS is /usr/bin/time's %M. Wall time is taken around the call with $EPOCHREALTIME (%e has
# only 10 ms resolution). CPU time (user + sys, from bash's `time`, 1 ms resolution) is a cross-check:
# it moves less than wall time when something else on the machine competes for the core.
measure() {
    local dest=$1 t0 t1 elapsed peak user sys
    shift
    t0=$EPOCHREALTIME
    if ! { time taskset -c "$CPU" /usr/bin/time -o "$TIMEFILE" -f '%e %M' "$@" >/dev/null 2>"$ERRFILE"; } 2>"$CPUFILE"; then
        log "command failed: $*"
        cat "$ERRFILE" "$TIMEFILE" >&2
        exit 1
    fi
    t1=$EPOCHREALTIME
    read -r elapsed peak <"$TIMEFILE"
    read -r user sys <"$CPUFILE"
    [[ $peak =~ ^[0-9]+$ ]] || die "unexpected /usr/bin/time output: $(cat "$TIMEFILE")"
    echo "$((10#${t1/./} - 10#${t0/./})) $peak $(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%d", (u + s) * 1e6}')" >>"$dest"
}

# warm CMD...: one untimed pinned run (the page cache; the outputs), its stdout and stderr kept in $ERRFILE.
warm() {
    if ! taskset -c "$CPU" "$@" >"$ERRFILE" 2>&1; then
        log "command failed: $*"
        cat "$ERRFILE" >&2
        exit 1
    fi
}

# median COLUMN FILE: the median of a column (1: wall µs, 2: KiB, 3: CPU µs), the mean of the two middle ones when even.
median() {
    awk -v c="$1" '{print $c}' "$2" | sort -n | awk '{v[NR] = $1} END {
        if (NR == 0) { print "nan"; exit }
        if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

dims() { identify -format '%w %h\n' "$1"; }
# The chroma subsampling a JPEG was written with, as 4:2:0 and the like.
subsampling() {
    case $(identify -format '%[jpeg:sampling-factor]' "$1") in
        1x1,1x1,1x1) echo 4:4:4 ;; 2x1,1x1,1x1) echo 4:2:2 ;; 2x2,1x1,1x1) echo 4:2:0 ;; 1x1) echo gray ;; *) echo other ;;
    esac
}

TOOLS=(ours djpeg vips)
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
# The machine's busy and steal jiffies (all cores) around the timings: how much else ran alongside.
cpu_jiffies() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8, $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat; }
STAT_BEFORE=$(cpu_jiffies)
rm -f "$RESULTS"/*.txt "$RUN_DIR"/*

log "baseline: assetfs --version"
for ((r = 0; r < RUNS; r++)); do measure "$RESULTS/version.txt" "$BIN" --version; done
BASE_KIB=$(median 2 "$RESULTS/version.txt")

for photo in "${CORPUS[@]}"; do
    input=$(photo_path "$photo")
    read -r width height _ <<<"${PHOTO_DIMS[$photo]}"
    runs=$RUNS
    [[ $photo == 400mp ]] && runs=$HUGE_RUNS
    for size in "${SIZES[@]}"; do
        ours_out="$RUN_DIR/$photo-$size-ours.jpg"
        vips_out="$RUN_DIR/$photo-$size-vips.jpg"
        # Warm-up: the page cache, and the outputs (ours' size sets the djpeg floor's scale).
        warm "$BIN" render --size "$size" --quality "$QUALITY" "$input" "$ours_out"
        read -r ow oh < <(dims "$ours_out")
        denominator=$(floor_denominator "$width" "$height" "$ow" "$oh")
        echo "$denominator" >"$RESULTS/$photo-$size-scale.txt"
        ours_cmd=("$BIN" render --size "$size" --quality "$QUALITY" "$input" "$ours_out")
        djpeg_cmd=(djpeg -scale "1/$denominator" "$input")
        vips_cmd=(env VIPS_CONCURRENCY=1 vipsthumbnail "$input" -s "$size" -o "$vips_out[Q=$QUALITY]")
        warm djpeg -scale "1/$denominator" -outfile /dev/null "$input"
        # The warm-up tells what vips shrinks on load (its log line "loading with factor N pre-shrink", on stdout).
        warm env VIPS_INFO=1 "${vips_cmd[@]}"
        sed -n 's/.*loading with factor \([0-9]*\) pre-shrink.*/\1/p' "$ERRFILE" | head -n 1 >"$RESULTS/$photo-$size-vipsload.txt"
        log "$photo at $size px: $runs run(s) of ours, djpeg -scale 1/$denominator, vipsthumbnail"
        for ((r = 0; r < runs; r++)); do
            for ((t = 0; t < 3; t++)); do   # round-robin, starting one further each run
                tool=${TOOLS[(r + t) % 3]}
                case $tool in
                    ours) measure "$RESULTS/$photo-$size-ours.txt" "${ours_cmd[@]}" ;;
                    djpeg) measure "$RESULTS/$photo-$size-djpeg.txt" "${djpeg_cmd[@]}" ;;
                    vips) measure "$RESULTS/$photo-$size-vips.txt" "${vips_cmd[@]}" ;;
                esac
            done
        done
    done
done

LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
BUSY=$(echo "$STAT_BEFORE $(cpu_jiffies)" | awk '{t = $6 - $3; printf "%.0f%% busy, %.1f%% steal", 100 * ($4 - $1) / t, 100 * ($5 - $2) / t}')

# ---------------------------------------------------------------- quality
# Reference: ImageMagick's Lanczos (Lanczos3) resize of the full-resolution decode, at exactly the
# size of the output it is compared with. The progressive photo is a lossless copy of its baseline
# one, so both share the baseline's references.
reference() {
    local photo=$1 w=$2 h=$3 base ref
    base=${photo%-progressive}
    ref="$REF_DIR/$base-${w}x$h.png"
    if [[ ! -s $ref ]]; then
        log "reference: $base at ${w}x$h (convert -filter Lanczos -resize)"
        convert "$(photo_path "$base")" -filter Lanczos -resize "${w}x$h!" "$ref.tmp.png"
        mv "$ref.tmp.png" "$ref"
    fi
    echo "$ref"
}
psnr_photos=()
for photo in "${PSNR_PHOTOS[@]}"; do
    for p in "${CORPUS[@]}"; do [[ $p == "$photo" ]] && psnr_photos+=("$photo"); done
done
for photo in "${psnr_photos[@]}"; do
    for size in "${SIZES[@]}"; do
        for tool in ours vips; do
            out="$RUN_DIR/$photo-$size-$tool.jpg"
            read -r w h < <(dims "$out")
            ref=$(reference "$photo" "$w" "$h")
            echo "$w $h $("$PY" "$BENCH/psnr.py" "$out" "$ref") $(subsampling "$out") $(identify -format '%Q' "$out")" \
                >"$RESULTS/$photo-$size-$tool-psnr.txt"
        done
    done
done

# ---------------------------------------------------------------- report
REPORT="$OUT/report.txt"
mib() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }
secs() { awk -v u="$1" 'BEGIN {printf "%.3f", u / 1e6}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a <= b + 1e-9)}'; }
gates=()   # "ok|MISS<TAB>what", one per target, printed at the end
gate() { gates+=("$1"$'\t'"$2"); }
{
    echo "assetfs render benchmark — $VERSION, $(uname -m), pinned to CPU $CPU, quality $QUALITY, median of $RUNS run(s) ($HUGE_RUNS for 400mp)"
    echo "cpu: $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo); djpeg: libjpeg-turbo $(dpkg-query -W -f '${Version}' libjpeg-turbo-progs 2>/dev/null || echo '?'); $(vipsthumbnail --version)"
    echo "machine during the timings: $BUSY over $(nproc) cores (the benchmark alone keeps one core busy: $((100 / $(nproc)))%);"
    echo "load average (1, 5, 15 min) before: $LOAD_BEFORE; after: $LOAD_AFTER (other work on the machine makes the timings noisier)"
    echo
    echo "Speed: median wall seconds; floor = djpeg at the DCT scale ours decodes at (vips_ld: the scale vips loads at);"
    echo "ours/flr also by CPU time (user+sys) in (); RSS = median peak resident MiB"
    printf '%-17s %5s %5s %7s %8s %8s %8s %16s %9s %-16s %8s %8s %9s\n' \
        photo px floor vips_ld djpeg_s ours_s vips_s "ours/flr (cpu)" vips/flr "target (ours)" ours_MiB vips_MiB djpeg_MiB
    for photo in "${CORPUS[@]}"; do
        for size in "${SIZES[@]}"; do
            d=$(median 1 "$RESULTS/$photo-$size-djpeg.txt")
            o=$(median 1 "$RESULTS/$photo-$size-ours.txt")
            v=$(median 1 "$RESULTS/$photo-$size-vips.txt")
            target=$([[ $size -le 256 ]] && echo "$SPEED_TARGET_256" || echo "$SPEED_TARGET_1920")
            ro=$(ratio "$o" "$d")
            rc=$(ratio "$(median 3 "$RESULTS/$photo-$size-ours.txt")" "$(median 3 "$RESULTS/$photo-$size-djpeg.txt")")
            vl=$(cat "$RESULTS/$photo-$size-vipsload.txt")
            if le "$ro" "$target"; then verdict=ok; else verdict=MISS; fi
            if [[ $photo == "$GATE_PHOTO" && ( $size == 256 || $size == 1920 ) ]]; then
                mark="≤${target}x $verdict"
                detail=""
                [[ $verdict == ok ]] || detail=$(awk -v a="$ro" -v b="$target" -v o="$o" -v d="$d" \
                    'BEGIN {printf " — %.0f%% over, %.1f ms too slow", (a / b - 1) * 100, (o - d * b) / 1000}')
                gate "$verdict" "speed, $photo at $size px: ${ro}x the djpeg floor (${rc}x by CPU time); target ≤ ${target}x$detail"
            else
                mark="(≤${target}x $([[ $verdict == ok ]] && echo ok || echo over))"
            fi
            printf '%-17s %5s %5s %7s %8s %8s %8s %16s %8sx %-16s %8s %8s %9s\n' "$photo" "$size" "1/$(cat "$RESULTS/$photo-$size-scale.txt")" \
                "1/${vl:-?}" "$(secs "$d")" "$(secs "$o")" "$(secs "$v")" "${ro}x (${rc}x)" "$(ratio "$v" "$d")" "$mark" \
                "$(mib "$(median 2 "$RESULTS/$photo-$size-ours.txt")")" "$(mib "$(median 2 "$RESULTS/$photo-$size-vips.txt")")" \
                "$(mib "$(median 2 "$RESULTS/$photo-$size-djpeg.txt")")"
        done
    done
    echo "(the speed targets are set on the $GATE_PHOTO baseline photo; the other rows are for information)"
    echo
    echo "Memory: peak RSS of ours minus that of 'assetfs --version' ($(mib "$BASE_KIB") MiB; it runs in $(secs "$(median 1 "$RESULTS/version.txt")") s);"
    echo "target ≤ $RSS_TARGET_MIB MiB above it on baseline photos"
    printf '%-17s %5s %9s %9s %s\n' photo px ours_MiB above verdict
    worst="" worst_above=-1 memory_verdict=ok
    for photo in "${CORPUS[@]}"; do
        for size in "${SIZES[@]}"; do
            peak=$(median 2 "$RESULTS/$photo-$size-ours.txt")
            above=$(awk -v p="$peak" -v b="$BASE_KIB" 'BEGIN {printf "%.1f", (p - b) / 1024}')
            if [[ $photo == *-progressive ]]; then
                verdict="(exempt: a progressive decode holds the whole coefficient buffer)"
            else
                if le "$above" "$RSS_TARGET_MIB"; then verdict=ok; else verdict=MISS memory_verdict=MISS; fi
                if ! le "$above" "$worst_above"; then worst_above=$above worst="$photo at $size px"; fi
            fi
            printf '%-17s %5s %9s %9s %s\n' "$photo" "$size" "$(mib "$peak")" "+$above" "$verdict"
        done
    done
    [[ -z $worst ]] || gate "$memory_verdict" "memory: at most +$worst_above MiB over the --version baseline ($worst); target ≤ $RSS_TARGET_MIB MiB"
    echo
    if ((${#psnr_photos[@]})); then
        echo "Quality: PSNR (dB, RGB) against convert -filter Lanczos -resize WxH! of the full decode, at each output's own size; target ours ≥ vipsthumbnail"
        printf '%-17s %5s %11s %-9s %8s %11s %-9s %8s %8s %s\n' photo px ours_size ours_enc ours_dB vips_size vips_enc vips_dB delta verdict
        rows=0 behind=0 worst_delta="" worst=""
        for photo in "${psnr_photos[@]}"; do
            for size in "${SIZES[@]}"; do
                read -r ow oh op osub oq <"$RESULTS/$photo-$size-ours-psnr.txt"
                read -r vw vh vp vsub vq <"$RESULTS/$photo-$size-vips-psnr.txt"
                delta=$(awk -v a="$op" -v b="$vp" 'BEGIN {printf "%+.2f", a - b}')
                rows=$((rows + 1))
                if awk -v a="$op" -v b="$vp" 'BEGIN {exit !(a >= b)}'; then verdict=ok; else verdict=MISS behind=$((behind + 1)); fi
                if [[ -z $worst_delta ]] || ! le "$worst_delta" "$delta"; then worst_delta=$delta worst="$photo at $size px"; fi
                printf '%-17s %5s %11s %-9s %8s %11s %-9s %8s %8s %s\n' "$photo" "$size" "${ow}x$oh" "$osub,q$oq" "$op" \
                    "${vw}x$vh" "$vsub,q$vq" "$vp" "$delta" "$verdict"
            done
        done
        no_psnr=()
        for photo in "${CORPUS[@]}"; do [[ " ${psnr_photos[*]} " == *" $photo "* ]] || no_psnr+=("$photo"); done
        ((${#no_psnr[@]} == 0)) || echo "(no PSNR for ${no_psnr[*]}: a full-size reference is slow, and past ImageMagick's policy limits over 128 MP or 16K px)"
        gate "$( ((behind == 0)) && echo ok || echo MISS)" \
            "quality: ours ≥ vipsthumbnail on $((rows - behind)) of $rows outputs (worst: $worst_delta dB, $worst); target: all"
        echo
    fi
    echo "Targets:"
    missed=0
    for line in "${gates[@]}"; do
        printf '  %-4s  %s\n' "${line%%$'\t'*}" "${line#*$'\t'}"
        [[ ${line%%$'\t'*} == ok ]] || missed=$((missed + 1))
    done
    echo "$missed of ${#gates[@]} targets missed."
    echo "Total time: $((SECONDS - START)) s, of which build $BUILD_SECONDS s and corpus $CORPUS_SECONDS s (corpus and references are cached in bench/out/render/)"
} | tee "$REPORT"

if [[ ${BENCH_STRICT:-0} == 1 ]] && ! grep -q '^0 of [0-9]* targets missed' "$REPORT"; then exit 1; fi
exit 0
