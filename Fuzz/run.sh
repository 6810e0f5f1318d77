#!/usr/bin/env bash
# Fuzzes the downscaler (Renditions.Renderer) with libFuzzer + ASan/LSan for a bounded time.
#
#   bash Fuzz/run.sh [SECONDS] [FORMAT]   # default 120 s, every format; from anywhere
#
# FORMAT (jpeg, png, webp, gif, tiff, heif, avif, raw) fuzzes one decoder: seeds are that
# format's fixtures and other inputs are passed over (FUZZ_FORMAT in RenderFuzzer.swift); its
# corpus is kept apart, in Fuzz/.build/corpus-FORMAT.
#
# Builds Fuzz/.build/render-fuzzer (Fuzz/build.sh), seeds it with every JPEG of
# Tests/Fixtures/{orientation,cameras,malformed} (the test photos vendored in the repository;
# override with FUZZ_TESTDATA=DIR), and runs it with a 10 s per-input timeout, a 2 GiB RSS limit and
# inputs up to 1 MiB. The growing corpus is kept in Fuzz/.build/corpus between runs (gitignored).
# A crash, timeout, leak or OOM stops libFuzzer: the input is saved as Fuzz/crashes/<kind>-<sha1>
# and this script exits non-zero (libFuzzer's status). Replay one with
#   Fuzz/.build/render-fuzzer Fuzz/crashes/crash-...
# The full log is Fuzz/.build/fuzz.log; the summary at the end gives executions and coverage
# (cov = instrumented edges reached, ft = libFuzzer "features").
# The system libjpeg-turbo and libexif are NOT instrumented: coverage guides only our own C
# (Sources/CJPEG) and Swift (Posix, Renditions, the entry point); bugs deep in libjpeg are found
# only when our paths happen to reach them (ASan still sees their heap through malloc).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECONDS_TO_RUN=${1:-120}
FORMAT=${2:-}
TESTDATA=${FUZZ_TESTDATA:-$ROOT/Tests/Fixtures}
BUILD="$ROOT/Fuzz/.build"
CRASHES="$ROOT/Fuzz/crashes"

FUZZER=$(bash "$ROOT/Fuzz/build.sh" | tail -n 1)

rm -rf "$BUILD/seeds"
CORPUS="$BUILD/corpus${FORMAT:+-$FORMAT}"
mkdir -p "$BUILD/seeds" "$CORPUS" "$CRASHES"
seed() { local dir=$1; shift; find "$dir" -maxdepth 1 -type f "$@" -exec cp {} "$BUILD/seeds/" \; ; }  # DIR [TESTS...]
case "$FORMAT" in
    ""|jpeg)
        for dir in orientation cameras malformed; do
            [ -d "$TESTDATA/$dir" ] || { echo "fuzz: no seed folder $TESTDATA/$dir" >&2; exit 2; }
            seed "$TESTDATA/$dir" \( -iname '*.jpg' -o -iname '*.jpeg' \)
        done
        if [ -z "$FORMAT" ]; then seed "$TESTDATA/formats" -size -1024k; seed "$TESTDATA/raw" -size -1024k; fi ;;
    png) seed "$TESTDATA/formats" -iname '*.png' ;;
    webp) seed "$TESTDATA/formats" -iname '*.webp' ;;
    gif) seed "$TESTDATA/formats" -iname '*.gif' ;;
    tiff) seed "$TESTDATA/formats" \( -iname '*.tif' -o -iname '*.tiff' \) ;;
    heif) seed "$TESTDATA/formats" \( -iname '*.heic' -o -iname '*.heif' \) -size -1024k ;;
    avif) seed "$TESTDATA/formats" -iname '*.avif' -size -1024k ;;
    raw) seed "$TESTDATA/raw" -size -1024k ;;
    *) echo "fuzz: unknown format '$FORMAT' (jpeg png webp gif tiff heif avif raw)" >&2; exit 2 ;;
esac
export FUZZ_FORMAT="$FORMAT"
echo "fuzz${FORMAT:+ $FORMAT}: $(ls "$BUILD/seeds" | wc -l) seeds, $(ls "$CORPUS" | wc -l) inputs in the kept corpus, ${SECONDS_TO_RUN}s" >&2

# New inputs go to the first folder (corpus); the seeds are only read. Leaks inside the system
# libraries that are not ours are suppressed (Fuzz/lsan.supp says which and why).
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$ROOT/Fuzz/lsan.supp:print_suppressions=0"
status=0
"$FUZZER" "$CORPUS" "$BUILD/seeds" \
    -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
    -print_final_stats=1 -artifact_prefix="$CRASHES/" 2>&1 | tee "$BUILD/fuzz.log" || status=$?

echo "---- fuzz summary ----"
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$BUILD/fuzz.log" | sed 's/^/  /' || true
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$BUILD/fuzz.log" | sed 's/^/  /' || true
if [ "$status" -ne 0 ]; then
    echo "fuzz: FAILED (libFuzzer exit $status); input(s) in $CRASHES:" >&2
    ls -t "$CRASHES" | head -n 5 | sed 's/^/  /' >&2
    # A CI machine is gone afterwards: print a small input so the log alone can replay it
    # (base64 -d > input; Fuzz/.build/render-fuzzer input).
    newest=$(ls -t "$CRASHES" | grep -v README | head -n 1)
    if [ -n "$newest" ] && [ "$(stat -c %s "$CRASHES/$newest")" -le 8192 ]; then
        echo "fuzz: $newest as base64: $(base64 -w 0 "$CRASHES/$newest")" >&2
    fi
fi
exit "$status"
