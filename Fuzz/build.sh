#!/usr/bin/env bash
# Builds Fuzz/.build/render-fuzzer: a libFuzzer + AddressSanitizer (+ LeakSanitizer) binary
# around Renditions.Renderer (entry point: Fuzz/RenderFuzzer.swift).
#
#   bash Fuzz/build.sh          # from anywhere; prints the binary's path on its last line
#
# SwiftPM cannot build a libFuzzer target (it would need -sanitize=fuzzer on one product only and
# no main), so this compiles the sources by hand, in dependency order, one module at a time:
#   CJPEG       clang -fsanitize=fuzzer-no-link,address (coverage + ASan on our C bridge)
#   Posix       swiftc -sanitize=fuzzer,address -emit-module  -> Posix.swiftmodule + Posix.o
#   RenditionsKernels  the resampler's inner loops, edge coverage only (as Renditions, below)
#   Renditions  same, importing Posix, CJPEG (a module map written here, as SwiftPM would) and
#               CExif (the package's system-library module map), but with edge coverage only:
#               -sanitize=fuzzer adds trace-cmp, which in the per-pixel loops (clamp, filter)
#               made a 2048x1536 render 2.8x slower (2.6 s vs 0.92 s) for comparisons whose
#               operands come from libjpeg-parsed data, not from bytes the mutator could match
#   fuzzer      Fuzz/RenderFuzzer.swift, linked with the objects, -ljpeg -lexif and libFuzzer's main
# Swift is compiled -O, RenditionsKernels too (the release build's only -Ounchecked target):
# overflow and bounds traps stay in, so a kernel argument the checked code failed to bound shows
# up here as a crash (or as ASan's report) instead of silently wrapping.
# The system libjpeg-turbo and libexif are not instrumented: coverage guides only our own C and
# Swift, and ASan sees libjpeg's heap (malloc is intercepted) but not its stack or globals.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/Fuzz/.build"
SRC="$ROOT/Sources"
mkdir -p "$OUT"
if [ -x /opt/swift/usr/bin/swiftc ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

SWIFTFLAGS=(-O -g -swift-version 6 -parse-as-library -wmo -I "$OUT"
            -Xcc -fmodule-map-file="$OUT/CJPEG.modulemap" -Xcc -fmodule-map-file="$SRC/CExif/module.modulemap")

cat > "$OUT/CJPEG.modulemap" <<MAP
module CJPEG {
    header "$SRC/CJPEG/include/jpeg_bridge.h"
    link "jpeg"
    export *
}
MAP

echo "fuzz: compiling CJPEG" >&2
clang -fsanitize=fuzzer-no-link,address -O1 -g -fno-omit-frame-pointer -I "$SRC/CJPEG/include" \
    -c "$SRC/CJPEG/jpeg_bridge.c" -o "$OUT/jpeg_bridge.o"

FUZZ=(-sanitize=fuzzer,address)
EDGES_ONLY=(-sanitize=address -sanitize-coverage=edge,inline-8bit-counters,pc-table)
module() {  # NAME SANITIZER-FLAGS...
    local name=$1; shift
    echo "fuzz: compiling $name" >&2
    swiftc "${SWIFTFLAGS[@]}" "$@" -module-name "$name" -emit-module -emit-module-path "$OUT/$name.swiftmodule" \
        -c "$SRC/$name"/*.swift -o "$OUT/$name.o"
}
module Posix "${FUZZ[@]}"
module RenditionsKernels "${EDGES_ONLY[@]}"
module Renditions "${EDGES_ONLY[@]}"

echo "fuzz: linking render-fuzzer" >&2
swiftc "${SWIFTFLAGS[@]}" "${FUZZ[@]}" -module-name RenderFuzzer "$ROOT/Fuzz/RenderFuzzer.swift" \
    "$OUT/Posix.o" "$OUT/RenditionsKernels.o" "$OUT/Renditions.o" "$OUT/jpeg_bridge.o" -ljpeg -lexif -use-ld=lld -o "$OUT/render-fuzzer"
echo "$OUT/render-fuzzer"
