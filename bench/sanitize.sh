#!/usr/bin/env bash
# Runs the unit tests under the sanitizers:
#   AddressSanitizer (+ LeakSanitizer): every unit test that needs no FUSE mount
#       swift test --sanitize=address --scratch-path .build/asan --filter 'PosixTests|RenditionsTests|...'
#   ThreadSanitizer: the concurrency tests of the file-system core
#       swift test --sanitize=thread --scratch-path .build/tsan --filter AssetFSTests
# Each sanitizer has its own scratch path, so the normal .build/debug and .build/release are left
# alone (the first run of each builds the whole package instrumented: several minutes on 2 cores).
# Both always run; the script exits non-zero if either fails (a test failure or a sanitizer
# report: ASan aborts the test process, TSan makes it exit 66). Logs: bench/out/sanitize-{asan,tsan}.log
#
#   bash bench/sanitize.sh            # from anywhere
#   SANITIZE_ONLY=asan|tsan bash bench/sanitize.sh
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
if [ -x /opt/swift/usr/bin/swift ]; then export PATH="$PATH:/opt/swift/usr/bin"; fi
mkdir -p bench/out

# Whole test targets (anchored: a suite of the mount tests may share a name's ending with one).
UNIT_TESTS='^(PosixTests|RenditionsTests|PhotoSourceTests|CatalogTests|RenditionCacheTests|AssetFSTests)\.'
# ASan also checks use-after-return; TSan keeps going after its first report, so that one run lists
# every race, and exits 66 if it reported anything.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=1}
# LeakSanitizer false positives of the Swift runtime on Linux, suppressed (and listed at the end of
# the log, print_suppressions): a weak reference's side table is pointed to only by the object's
# refcount word, with flag bits stuffed in, which LSan's pointer scan cannot see
# (swiftlang/swift-corelibs-xctest#342, llvm/llvm-project#56751; here from Foundation.Process.run,
# swiftlang/swift-corelibs-foundation#3260), and XCTest's own runner objects, reported at the exit
# of the (empty: every test uses swift-testing) XCTest pass.
LSAN_SUPPRESSIONS=$(mktemp)
trap 'rm -f "$LSAN_SUPPRESSIONS"' EXIT
cat > "$LSAN_SUPPRESSIONS" <<'SUPP'
leak:swift::RefCounts<*>::formWeakReference
leak:libXCTest.so
leak:readBytesFromFile
SUPP
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$LSAN_SUPPRESSIONS:print_suppressions=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:exitcode=66:second_deadlock_stack=1}

run() {  # NAME ARGS... : runs `swift test ARGS`, logs, prints the verdict, returns its status
    local name=$1; shift
    echo "sanitize: $name: swift test $*" >&2
    local start=$SECONDS status=0
    swift test "$@" 2>&1 | tee "bench/out/sanitize-$name.log" || status=$?
    local reports
    reports=$(grep -cE '^(==[0-9]+==ERROR: (Address|Leak)Sanitizer|WARNING: ThreadSanitizer)' "bench/out/sanitize-$name.log")
    echo "sanitize: $name: exit $status, $reports sanitizer report(s), $((SECONDS - start)) s (log: bench/out/sanitize-$name.log)" >&2
    [ "$status" -eq 0 ] && [ "$reports" -eq 0 ]
}

only=${SANITIZE_ONLY:-both}
failed=()
if [ "$only" = both ] || [ "$only" = asan ]; then
    run asan --sanitize=address --scratch-path .build/asan --filter "$UNIT_TESTS" || failed+=(asan)
fi
if [ "$only" = both ] || [ "$only" = tsan ]; then
    run tsan --sanitize=thread --scratch-path .build/tsan --filter AssetFSTests || failed+=(tsan)
fi
if [ ${#failed[@]} -gt 0 ]; then
    echo "sanitize: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "sanitize: passed" >&2
