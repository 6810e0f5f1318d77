#!/usr/bin/env bash
# Builds Fuzz/.build/render-fuzzer: a libFuzzer + AddressSanitizer (+ LeakSanitizer) binary
# around Renditions.Renderer (entry point: Fuzz/RenderFuzzer.swift).
#
#   bash Fuzz/build.sh          # from anywhere; prints the binary's path on its last line
#
# SwiftPM cannot build a libFuzzer target (it would need -sanitize=fuzzer on one product only and
# no main), so this compiles the sources by hand, in dependency order, one module at a time:
#   CJPEG, CLCMS, CPNG, CWebP, CGIF, CTIFF, CHEIF, CRaw, CVideo, CResampleKernels (AVX2 kernels),
#   CLoadOnFirstUse (dlopen for CTIFF, CHEIF, CRaw and CVideo; the fuzzer links their libraries all the same)
#               clang -fsanitize=fuzzer-no-link,address (coverage + ASan on our C bridges)
#   Posix       swiftc -sanitize=fuzzer,address -emit-module  -> Posix.swiftmodule + Posix.o
#   Containers, PhotoSource, Video (FFmpeg's reader), PhotoProperties: the same, in that order
#   RenditionsKernels  the resampler's inner loops, edge coverage only (as Renditions, below)
#   Renditions  same, importing Posix, CJPEG (a module map written here, as SwiftPM would) and
#               CExif (the package's system-library module map), but with edge coverage only:
#               -sanitize=fuzzer adds trace-cmp, which in the per-pixel loops (clamp, filter)
#               made a 2048x1536 render 2.8x slower (2.6 s vs 0.92 s) for comparisons whose
#               operands come from libjpeg-parsed data, not from bytes the mutator could match
#   large_blocks  clang without ASan: the fuzzer's allocator for blocks of 128 KiB to 16 MiB
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

# The C bridges: CJPEG and one per image library (issue 10), each with its own module map.
BRIDGES=(CBridgeFailure:bridge_failure: CJPEG:jpeg_bridge:jpeg CLCMS:lcms_bridge:lcms2 CPNG:png_bridge:png16 CWebP:webp_bridge:webp,webpdemux
         CGIF:gif_bridge:gif CTIFF:tiff_bridge:tiff CHEIF:heif_bridge:heif CRaw:raw_bridge:raw_r
         CVideo:video_bridge: CResampleKernels:resample_avx2: CLoadOnFirstUse:load_on_first_use:dl)
SWIFTFLAGS=(-O -g -swift-version 6 -parse-as-library -wmo -I "$OUT" -Xcc -fmodule-map-file="$SRC/CExif/module.modulemap"
            -Xcc -fmodule-map-file="$SRC/CLinux/module.modulemap" -Xcc -I -Xcc "$SRC/CBridgeFailure/include")
OBJECTS=()
LIBS=(-lexif)
for bridge in "${BRIDGES[@]}"; do
    IFS=: read -r name file libs <<<"$bridge"
    {
        echo "module $name {"
        echo "    header \"$SRC/$name/include/$file.h\""
        for lib in ${libs//,/ }; do echo "    link \"$lib\""; LIBS+=("-l$lib"); done
        echo "    export *"
        echo "}"
    } > "$OUT/$name.modulemap"
    SWIFTFLAGS+=(-Xcc -fmodule-map-file="$OUT/$name.modulemap")
    echo "fuzz: compiling $name" >&2
    clang -fsanitize=fuzzer-no-link,address -O1 -g -fno-omit-frame-pointer -I "$SRC/$name/include" -I "$SRC/CLoadOnFirstUse/include" -I "$SRC/CBridgeFailure/include" \
        -c "$SRC/$name/$file.c" -o "$OUT/$file.o"
    OBJECTS+=("$OUT/$file.o")
done

# The fuzzer's own allocator for large blocks (Fuzz/large_blocks.c says why), built without ASan:
# it reads the poisoned headers it keeps before each block.
echo "fuzz: compiling large_blocks" >&2
clang -O2 -g -c "$ROOT/Fuzz/large_blocks.c" -o "$OUT/large_blocks.o"
OBJECTS+=("$OUT/large_blocks.o")
printf 'module LargeBlocks {\n    header "%s"\n    export *\n}\n' "$ROOT/Fuzz/large_blocks.h" > "$OUT/LargeBlocks.modulemap"
SWIFTFLAGS+=(-Xcc -fmodule-map-file="$OUT/LargeBlocks.modulemap")

FUZZ=(-sanitize=fuzzer,address)
EDGES_ONLY=(-sanitize=address -sanitize-coverage=edge,inline-8bit-counters,pc-table)
module() {  # NAME SANITIZER-FLAGS...
    local name=$1; shift
    echo "fuzz: compiling $name" >&2
    swiftc "${SWIFTFLAGS[@]}" "$@" -module-name "$name" -emit-module -emit-module-path "$OUT/$name.swiftmodule" \
        -c "$SRC/$name"/*.swift -o "$OUT/$name.o"
}
module Posix "${FUZZ[@]}"
module Containers "${FUZZ[@]}"
module PhotoSource "${FUZZ[@]}"
module Video "${FUZZ[@]}"
module RenditionsKernels "${EDGES_ONLY[@]}"
module Renditions "${EDGES_ONLY[@]}"
module PhotoProperties "${FUZZ[@]}"

echo "fuzz: linking render-fuzzer" >&2
swiftc "${SWIFTFLAGS[@]}" "${FUZZ[@]}" -module-name RenderFuzzer "$ROOT/Fuzz/RenderFuzzer.swift" \
    "$OUT/Posix.o" "$OUT/Containers.o" "$OUT/PhotoSource.o" "$OUT/Video.o" "$OUT/RenditionsKernels.o" "$OUT/Renditions.o" "$OUT/PhotoProperties.o" "${OBJECTS[@]}" "${LIBS[@]}" \
    -use-ld=lld -o "$OUT/render-fuzzer"
echo "$OUT/render-fuzzer"
