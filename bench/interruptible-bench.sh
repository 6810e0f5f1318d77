#!/usr/bin/env bash
# What `pending.interruptible` costs a FUSE request (issue 30's "no behaviour change" for item 6):
# every LOOKUP, GETATTR, OPEN and READ hands AssetFS its request's interruption source, a closure
# over the PendingRequest, called only when the request has to wait for a render. This compiles
# the shipped PendingRequest.swift, Interruption.swift and Locked.swift (their module imports taken
# out) with -O beside a stand-in for the libfuse request (no kernel: it registers nothing), and
# times, alternating, N requests answered at once (a cache hit) handed the source against the same
# handed nil, then N that call it (a request that waits: the interruption made and registered).
#
#   bash bench/interruptible-bench.sh            # from the package root; N=2000000, 5 rounds
#   BENCH_N=500000 BENCH_ROUNDS=3 bash bench/interruptible-bench.sh
set -euo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=$(mktemp -d /tmp/assetfs-interruptible-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
for file in Sources/Posix/Locked.swift Sources/AssetFS/Interruption.swift Sources/FUSEAdapter/PendingRequest.swift; do
    grep -v '^import \(Posix\|AssetFS\)$' "$ROOT/$file" > "$WORK/$(basename "$file")"
done
cat > "$WORK/main.swift" <<'SWIFT'
import Glibc

/// The libfuse request's shape: non-copyable, answered once, its interruption made on first use
/// (`Request.interruptible`), without the kernel's side (fuse_req_interrupt_func).
struct Request: ~Copyable, @unchecked Sendable {
    private var interruption: Interruption?
    init() {}
    mutating func interruptible() -> Interruption {
        if let interruption { return interruption }
        let made = Interruption()
        interruption = made
        return made
    }
    consuming func reply(_ value: Int) { sink &+= value }
}

nonisolated(unsafe) var sink = 0

/// AssetFileSystem.getattr's shape: a result known at once completes before returning; a request
/// that waits asks for its interruption first.
@inline(never)
func handle(_ inode: UInt64, waits: Bool, interruption: Interruption.Source?, completion: @escaping @Sendable (Int) -> Void) {
    if waits, let interruption = interruption?() { interruption.onInterrupt {} }
    completion(Int(truncatingIfNeeded: inode))
}

func seconds(_ body: () -> Void) -> Double {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    body()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
}

let n = Int(CommandLine.arguments[1])!, rounds = Int(CommandLine.arguments[2])!
var handed: [Double] = [], none: [Double] = [], waiting: [Double] = []
for _ in 0..<rounds {
    none.append(seconds { for i in 0..<n { let pending = PendingRequest(Request()); handle(UInt64(i), waits: false, interruption: nil) { pending.take()?.reply($0) } } })
    handed.append(seconds { for i in 0..<n { let pending = PendingRequest(Request()); handle(UInt64(i), waits: false, interruption: pending.interruptible) { pending.take()?.reply($0) } } })
    waiting.append(seconds { for i in 0..<n { let pending = PendingRequest(Request()); handle(UInt64(i), waits: true, interruption: pending.interruptible) { pending.take()?.reply($0) } } })
}
func median(_ values: [Double]) -> Double { let s = values.sorted(); return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2 }
func fixed(_ value: Double, _ digits: Int) -> String {
    let scale = Double([1, 10, 100, 1000][digits]), whole = Int((value * scale).rounded())
    return digits == 0 ? "\(whole)" : "\(whole / Int(scale)).\(String(String(whole % Int(scale) + Int(scale)).dropFirst()))"
}
func ns(_ values: [Double]) -> String { fixed(median(values) / Double(n) * 1e9, 1) }
func raw(_ values: [Double]) -> String { values.map { fixed($0, 3) }.joined(separator: " ") }
print("ns per request (median of \(rounds) rounds of \(n)): handed nil \(ns(none)), handed pending.interruptible \(ns(handed)), calling it (a request that waits) \(ns(waiting))")
print("raw seconds: nil \(raw(none)) | interruptible \(raw(handed)) | waiting \(raw(waiting)) (sink \(sink))")
SWIFT
swiftc -O -module-name InterruptibleBench "$WORK"/*.swift -o "$WORK/bench" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; exit 1; }
"$WORK/bench" "${BENCH_N:-2000000}" "${BENCH_ROUNDS:-5}"
