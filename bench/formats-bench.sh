#!/usr/bin/env bash
# Issue 10 benchmark: assetfs's renderer against vipsthumbnail (libvips 8.14) per source format,
# at 256 and 1920 px, quality 85, on one core (taskset -c 0; VIPS_CONCURRENCY=1), printed side by
# side in one run: wall time (median of $RUNS), peak RSS (of that run), PSNR against a reference,
# and ours/vips ratios.
#
#   bench/formats-bench.sh            # builds release first; corpus made once in bench/.formats-corpus
#
# Corpus (made from the test fixtures, nothing downloaded):
#   heic-thumb  Tests/Fixtures/formats/iPhone7_P3_thumb.heic  12 MP grid, 320x240 thumbnail item, P3 ICC
#   heic        Tests/Fixtures/formats/iPhone_XR_irot.heic    12 MP grid, no thumbnail item, irot
#   avif        Tests/Fixtures/formats/Canon_70D_8bit.avif    20 MP (no 12 MP AVIF in the fixtures; encoding one takes minutes)
#   png, webp (q90), tiff (LZW), jpeg (q92): the 12 MP iPhone XR picture, upright, written by ImageMagick
# RAW is not benchmarked: no fixture has a usable full-size preview (and vipsthumbnail reads no RAW).
#
# Reference for PSNR: ImageMagick (Q16) of the full decode (heif-convert for HEIF/AVIF), converted to
# sRGB with /usr/share/color/icc/sRGB.icc where the source has a profile, Lanczos-resized to each
# output's own size. vipsthumbnail is run with --export-profile sRGB.icc for the sources with a profile
# (the HEICs: Display P3) so that both convert to sRGB; the other sources have none.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
RUNS=${RUNS:-3}
SRGB=/usr/share/color/icc/sRGB.icc
for tool in vipsthumbnail heif-convert convert compare taskset; do
    command -v $tool >/dev/null || { echo "formats-bench: $tool is missing (mount-scripts/bootstrap --deps-only)" >&2; exit 1; }
done
[ -f "$SRGB" ] || { echo "formats-bench: $SRGB is missing (apt-get install icc-profiles-free)" >&2; exit 1; }

(cd "$ROOT" && swift build -c release >/dev/null)
ASSETFS="$ROOT/.build/release/assetfs"
FIX="$ROOT/Tests/Fixtures/formats"
CORPUS="$ROOT/bench/.formats-corpus"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$CORPUS"

if [ ! -f "$CORPUS/.done" ]; then
    echo "formats-bench: making the corpus in $CORPUS" >&2
    heif-convert "$FIX/iPhone_XR_irot.heic" "$CORPUS/xr.png" >/dev/null
    convert "$CORPUS/xr.png" -strip -define png:compression-level=6 "$CORPUS/photo.png"
    convert "$CORPUS/xr.png" -strip -quality 90 "$CORPUS/photo.webp"
    convert "$CORPUS/xr.png" -strip -compress lzw "$CORPUS/photo.tiff"
    convert "$CORPUS/xr.png" -strip -quality 92 "$CORPUS/photo.jpg"
    rm "$CORPUS/xr.png"
    touch "$CORPUS/.done"
fi

declare -A SOURCE=(
    [heic-thumb]="$FIX/iPhone7_P3_thumb.heic" [heic]="$FIX/iPhone_XR_irot.heic" [avif]="$FIX/Canon_70D_8bit.avif"
    [png]="$CORPUS/photo.png" [webp]="$CORPUS/photo.webp" [tiff]="$CORPUS/photo.tiff" [jpeg]="$CORPUS/photo.jpg"
)
ORDER=(heic-thumb heic avif png webp tiff jpeg)

# Full-size reference of each source, made once: PNG in sRGB.
reference_full() {  # KEY -> path
    local key=$1 src=${SOURCE[$1]} out="$WORK/$1.ref.png"
    if [ ! -f "$out" ]; then
        case "$src" in
            *.heic|*.avif) heif-convert "$src" "$WORK/$1.heif.png" >/dev/null
                           convert "$WORK/$1.heif.png" -profile "$SRGB" -depth 16 "$out" ;;
            *) convert "$src[0]" -auto-orient -profile "$SRGB" -depth 16 "$out" ;;
        esac
    fi
    echo "$out"
}

# Runs "$@" RUNS times on core 0; prints "median-seconds peak-kb" of the median run.
measure() {
    local results=()
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f "%e %M" -o "$WORK/time" taskset -c 0 "$@" >/dev/null 2>&1
        results+=("$(cat "$WORK/time")")
    done
    printf '%s\n' "${results[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p"
}

psnr() {  # OUTPUT.jpg REFERENCE-FULL.png
    local size
    size=$(identify -format '%wx%h' "$1")
    convert "$2" -filter Lanczos -resize "${size}!" -depth 8 "$WORK/ref-sized.png"
    { compare -metric PSNR "$1" "$WORK/ref-sized.png" null: 2>&1 || true; } | awk '{print $1}'
}

printf '%-10s %5s | %8s %8s %6s | %8s %8s %6s | %6s %6s %7s\n' format px "ours s" "ours MB" "PSNR" "vips s" "vips MB" "PSNR" "time" "RSS" "dPSNR"
printf '%s\n' "-----------------------------------------------------------------------------------------------"
for key in "${ORDER[@]}"; do
    src=${SOURCE[$key]}
    ref=$(reference_full "$key")
    for size in 256 1920; do
        read -r ot om < <(measure "$ASSETFS" render --size "$size" --quality 85 "$src" "$WORK/ours.jpg")
        # Only the sources with an ICC profile (the HEICs) are exported to sRGB by vips: on an untagged
        # source --export-profile made vipsthumbnail darken the picture (mean 0.39 vs 0.415: -9 dB).
        case "$key" in heic*) export_profile=(--export-profile "$SRGB") ;; *) export_profile=() ;; esac
        read -r vt vm < <(measure env VIPS_CONCURRENCY=1 vipsthumbnail "$src" --size "$size" "${export_profile[@]}" -o "$WORK/vips.jpg[Q=85,strip]")
        op=$(psnr "$WORK/ours.jpg" "$ref")
        vp=$(psnr "$WORK/vips.jpg" "$ref")
        awk -v k="$key" -v s="$size" -v ot="$ot" -v om="$om" -v op="$op" -v vt="$vt" -v vm="$vm" -v vp="$vp" 'BEGIN {
            printf "%-10s %5d | %8.2f %8.1f %6.2f | %8.2f %8.1f %6.2f | %6.2f %6.2f %+7.2f\n",
                   k, s, ot, om / 1024, op, vt, vm / 1024, vp, (vt > 0 ? ot / vt : 0), (vm > 0 ? om / vm : 0), op - vp }'
    done
done
echo "time and RSS columns at the right: ours / vipsthumbnail (below 1 = ours faster or lighter); dPSNR: ours - vips in dB"

# A mixed folder in the research library's proportions (JPEG 55 %, HEIC 39 %, PNG 6 %: 10, 7 and 1
# of 18 photos; the HEICs alternate with and without a thumbnail item), each photo made into a
# 256 px thumbnail and a 1920 px fullscreen, one process per rendition for both tools, one core.
# Measured as the renderer's share (one `assetfs render` a rendition) and as `assetfs warm --fullscreen`
# over a folder of copies (scan, cache writes and all), both against the same vipsthumbnail work.
MIXED=()
for i in $(seq 10); do MIXED+=("${SOURCE[jpeg]}"); done
for i in $(seq 7); do if [ $((i % 2)) -eq 1 ]; then MIXED+=("${SOURCE[heic]}"); else MIXED+=("${SOURCE[heic-thumb]}"); fi; done
MIXED+=("${SOURCE[png]}")
mixed() {  # ours|vips
    for src in "${MIXED[@]}"; do
        for size in 256 1920; do
            if [ "$1" = ours ]; then "$ASSETFS" render --size "$size" --quality 85 "$src" "$WORK/m.jpg"
            else
                case "$src" in *.heic) profile=(--export-profile "$SRGB") ;; *) profile=() ;; esac
                VIPS_CONCURRENCY=1 vipsthumbnail "$src" --size "$size" "${profile[@]}" -o "$WORK/m.jpg[Q=85,strip]" 2>/dev/null
            fi
        done
    done
}
start=$(date +%s.%N); taskset -c 0 bash -c "$(declare -p MIXED SOURCE ASSETFS WORK SRGB); $(declare -f mixed); mixed ours"; ours=$(echo "$(date +%s.%N) - $start" | bc)
start=$(date +%s.%N); taskset -c 0 bash -c "$(declare -p MIXED SOURCE ASSETFS WORK SRGB); $(declare -f mixed); mixed vips"; vips=$(echo "$(date +%s.%N) - $start" | bc)
rm -rf "$WORK/mixed" "$WORK"/warm.*
mkdir -p "$WORK/mixed"
for i in "${!MIXED[@]}"; do cp "${MIXED[i]}" "$WORK/mixed/$(printf '%02d' "$i").${MIXED[i]##*.}"; done
start=$(date +%s.%N); taskset -c 0 "$ASSETFS" warm --fullscreen -o "cache=$WORK/warm.sqlite" "$WORK/mixed" >/dev/null 2>&1; warm=$(echo "$(date +%s.%N) - $start" | bc)
awk -v n=${#MIXED[@]} -v o="$ours" -v v="$vips" -v w="$warm" 'BEGIN {
    printf "\nmixed folder, %d photos (10 JPEG, 7 HEIC, 1 PNG), thumbnail + fullscreen each, one core:\n", n
    printf "  ours %.2f s = %.2f photos/s;  vipsthumbnail %.2f s = %.2f photos/s;  ours/vips time %.2f\n", o, n / o, v, n / v, o / v
    printf "  assetfs warm --fullscreen %.2f s = %.2f photos/s;  warm/vips time %.2f\n", w, n / w, w / v }'
