#!/usr/bin/env bash
# Fuzzes the downscaler (Renditions.Renderer) and the properties readers with libFuzzer +
# ASan/LSan for a bounded time, one target per decoder.
#
#   bash Fuzz/run.sh [SECONDS] [FORMAT]   # default 120 s shared by every format; from anywhere
#
# FORMAT (jpeg, png, webp, gif, tiff, heif, avif, raw; mp4, mkv, avi, m2ts for videos: the poster
# through FFmpeg, VideoProperties and the scanner's ISO box walk) fuzzes one decoder for SECONDS:
# inputs whose first bytes are another format are passed over at once (FUZZ_FORMAT in
# RenderFuzzer.swift; mp4 takes every ISO BMFF brand, MOV, M4V and 3GP too, mkv takes WebM).
# Without FORMAT every format is fuzzed in turn, SECONDS split evenly, so a CI run covers all.
# Seeds are Fuzz/seeds/FORMAT (a few small files per format made from the fixtures by
# Fuzz/make-seeds.sh: inputs that decode in a millisecond, not camera files); Fuzz/formats.dict
# gives the mutator the markers the parsers branch on. Each format's growing corpus is kept in
# Fuzz/.build/corpus-FORMAT between runs (gitignored). Inputs are at most 64 KiB, each gets 5 s.
# A crash, timeout, leak or OOM stops libFuzzer: the input is saved as Fuzz/crashes/<kind>-<sha1>
# and this script exits non-zero. Replay one with
#   FUZZ_FORMAT=FORMAT Fuzz/.build/render-fuzzer Fuzz/crashes/crash-...
# The logs are Fuzz/.build/fuzz-FORMAT.log; the summary at the end gives each target's executions
# per second (the goal is at least 500 on one core), executions and coverage.
# The system libraries (libjpeg-turbo, libheif, ...) are NOT instrumented: coverage guides only
# our own C bridges and Swift; ASan still sees their heap through malloc. Blocks of 128 KiB and
# up come from Fuzz/large_blocks.c (recycled, still poisoned and checked) instead of one mmap each:
# FFmpeg zeroes dozens per input, which made the m2ts target 3x slower.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECONDS_TO_RUN=${1:-120}
FORMAT=${2:-}
BUILD="$ROOT/Fuzz/.build"
CRASHES="$ROOT/Fuzz/crashes"
FORMATS=(jpeg png webp gif tiff heif avif raw mp4 mkv avi m2ts)
if [ -n "$FORMAT" ] && [[ ! " ${FORMATS[*]} " =~ " $FORMAT " ]]; then
    echo "fuzz: unknown format '$FORMAT' (${FORMATS[*]})" >&2
    exit 2
fi

FUZZER=$(bash "$ROOT/Fuzz/build.sh" | tail -n 1)
mkdir -p "$CRASHES"
# Leaks inside the system libraries that are not ours are suppressed (Fuzz/lsan.supp says which and why).
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$ROOT/Fuzz/lsan.supp:print_suppressions=0"
# Allocation stacks are not recorded while fuzzing: saving one per malloc was a third of the
# time (a JPEG target made 270 executions a second with them, 590 without). A saved input
# replayed with the default ASAN_OPTIONS shows them.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}malloc_context_size=0"

# FORMAT SECONDS: one target; its exit status.
fuzz_one() {
    local format=$1 seconds=$2 corpus="$BUILD/corpus-$1" log="$BUILD/fuzz-$1.log" status=0
    mkdir -p "$corpus"
    echo "fuzz $format: $(ls "$ROOT/Fuzz/seeds/$format" | wc -l) seeds, $(ls "$corpus" | wc -l) inputs in the kept corpus, ${seconds}s" >&2
    # New inputs go to the first folder (the corpus); the seeds are only read.
    FUZZ_FORMAT=$format "$FUZZER" "$corpus" "$ROOT/Fuzz/seeds/$format" -dict="$ROOT/Fuzz/formats.dict" \
        -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$CRASHES/" >"$log" 2>&1 || status=$?
    local rate runs
    rate=$(sed -n 's/^stat::average_exec_per_sec:[[:space:]]*//p' "$log")
    runs=$(sed -n 's/^stat::number_of_executed_units:[[:space:]]*//p' "$log")
    printf '  %-5s %6s exec/s  %8s runs  %s\n' "$format" "${rate:-?}" "${runs:-?}" \
        "$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)" >>"$BUILD/summary"
    if [ "$status" -ne 0 ]; then
        tail -n 40 "$log" >&2
        echo "fuzz: $format FAILED (libFuzzer exit $status); input(s) in $CRASHES:" >&2
        ls -t "$CRASHES" | head -n 5 | sed 's/^/  /' >&2
        # A CI machine is gone afterwards: print a small input so the log alone can replay it
        # (base64 -d > input; FUZZ_FORMAT=format Fuzz/.build/render-fuzzer input).
        local newest
        newest=$(ls -t "$CRASHES" | grep -v README | head -n 1)
        if [ -n "$newest" ] && [ "$(stat -c %s "$CRASHES/$newest")" -le 8192 ]; then
            echo "fuzz: $newest as base64: $(base64 -w 0 "$CRASHES/$newest")" >&2
        fi
    fi
    return "$status"
}

: >"$BUILD/summary"
status=0
if [ -n "$FORMAT" ]; then
    fuzz_one "$FORMAT" "$SECONDS_TO_RUN" || status=$?
else
    share=$((SECONDS_TO_RUN / ${#FORMATS[@]}))
    for format in "${FORMATS[@]}"; do fuzz_one "$format" "$((share > 1 ? share : 1))" || status=$?; done
fi
echo "---- fuzz summary (executions per second on one core; goal >= 500) ----"
cat "$BUILD/summary"
exit "$status"
