#!/usr/bin/env bash
# Issue 10 benchmark: assetfs's renderer against vipsthumbnail (libvips 8.14) per source format,
# at 256 and 1920 px, quality 85, on one core (taskset -c 0; VIPS_CONCURRENCY=1), printed side by
# side in one run: wall time (median of $RUNS, ours and the anchor taking turns), peak RSS (of the
# median run), PSNR against a reference, and ours/anchor ratios. The machine is shared: only the
# ratios, measured interleaved, mean anything across runs.
#
#   bench/formats-bench.sh            # builds assetfs (release) first; corpus made once in bench/out/formats-corpus
#
# Corpus (made from the test fixtures, nothing downloaded):
#   heic-thumb  Tests/Fixtures/formats/iPhone7_P3_thumb.heic  12 MP grid, 320x240 thumbnail item, P3 ICC
#   heic        Tests/Fixtures/formats/iPhone_XR_irot.heic    12 MP grid, no thumbnail item, irot
#   avif        the 12 MP iPhone XR picture, upright, untagged, by heif-enc -A -q 80 (libaom, 8-bit 4:2:0, ~3 s)
#   avif-20mp   Tests/Fixtures/formats/Canon_70D_8bit.avif    20 MP, nclx BT.709 (a camera's own AVIF)
#   png, webp (q90), tiff (LZW), jpeg (q92): the 12 MP iPhone XR picture, upright, written by ImageMagick
#   raw         Tests/Fixtures/raw/Nikon_D70_stripped.nef (a real NEF container, sensor data stripped) whose
#               JpgFromRaw exiftool replaced by the 12 MP jpeg above: no fixture has a full-size preview.
#               Its anchor: LibRaw's simple_dcraw -e (extracts the preview, as assetfs does through LibRaw)
#               then vipsthumbnail on the extracted JPEG, in one sh -c (vipsthumbnail reads no RAW).
#   heif-33mp, heif-45mp, heif-61mp  big single-image 10-bit HEVC HEIFs as cameras write them (Sony
#               alpha 7 IV 4672x7008 .HIF, Canon EOS R5 8192x5464, Sony alpha 7R V 9504x6336; no grid,
#               no thumbnail item, untagged): genphoto.py's picture at that size as a 16-bit PNG, then
#               heif-enc -b 10 -q 90 (x265, 1-2 min each). Issue 18: these were refused over the
#               decode budget.
#
#   FORMATS="heif-33mp heif-61mp" bench/formats-bench.sh   # only those rows, and no mixed-folder run
#
# Reference for PSNR: ImageMagick (Q16) of the full decode (heif-convert for HEIF/AVIF, the extracted
# preview for the RAW), converted to sRGB with /usr/share/color/icc/sRGB.icc where the source has a
# profile, Lanczos-resized to each output's own size. vipsthumbnail is run with --export-profile
# sRGB.icc for the sources with a profile (the HEICs: Display P3) so that both convert to sRGB; the
# other sources have none.
set -euo pipefail
export LC_ALL=C VIPS_CONCURRENCY=1
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
RUNS=${RUNS:-3}
SRGB=/usr/share/color/icc/sRGB.icc
for tool in vipsthumbnail heif-convert heif-enc convert compare identify taskset exiftool simple_dcraw bc; do
    command -v $tool >/dev/null || { echo "formats-bench: $tool is missing (mount-scripts/bootstrap --deps-only)" >&2; exit 1; }
done
[ -f "$SRGB" ] || { echo "formats-bench: $SRGB is missing (apt-get install icc-profiles-free)" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# A copy: another build of this tree during the run cannot swap the binary under it.
(cd "$ROOT" && swift build --product assetfs -c release --static-swift-stdlib >/dev/null)
cp "$ROOT/.build/release/assetfs" "$WORK/assetfs"
ASSETFS="$WORK/assetfs"
FIX="$ROOT/Tests/Fixtures"
CORPUS="$ROOT/bench/out/formats-corpus"
mkdir -p "$CORPUS"

CORPUS_FILES=(photo.png photo.webp photo.tiff photo.jpg photo.avif photo.nef)
if ! (cd "$CORPUS" && ls "${CORPUS_FILES[@]}" >/dev/null 2>&1); then
    echo "formats-bench: making the corpus in $CORPUS" >&2
    heif-convert "$FIX/formats/iPhone_XR_irot.heic" "$CORPUS/xr.png" >/dev/null
    convert "$CORPUS/xr.png" -strip -define png:compression-level=6 "$CORPUS/photo.png"
    convert "$CORPUS/xr.png" -strip -quality 90 "$CORPUS/photo.webp"
    convert "$CORPUS/xr.png" -strip -compress lzw "$CORPUS/photo.tiff"
    convert "$CORPUS/xr.png" -strip -quality 92 "$CORPUS/photo.jpg"
    # from the stripped PNG: xr.png carries the HEIC's Display P3 profile, which heif-enc would embed
    heif-enc -A -q 80 "$CORPUS/photo.png" -o "$CORPUS/photo.avif" >/dev/null
    cp "$FIX/raw/Nikon_D70_stripped.nef" "$CORPUS/raw.nef"
    # -m: the stripped NEF's undersized strip counts are a minor error to exiftool
    exiftool -m -q -overwrite_original "-JpgFromRaw<=$CORPUS/photo.jpg" "$CORPUS/raw.nef"
    mv "$CORPUS/raw.nef" "$CORPUS/photo.nef"
    rm "$CORPUS/xr.png"
fi
declare -A BIG_HEIF=([33]=4672x7008 [45]=8192x5464 [61]=9504x6336)
for mp in "${!BIG_HEIF[@]}"; do
    [ -f "$CORPUS/photo-${mp}mp.hif" ] && continue
    echo "formats-bench: making $CORPUS/photo-${mp}mp.hif" >&2
    size=${BIG_HEIF[$mp]}
    python3 "$ROOT/bench/genphoto.py" "${size%x*}" "${size#*x}" "$mp" --png16 >"$CORPUS/photo-${mp}mp.png"
    heif-enc -b 10 -q 90 "$CORPUS/photo-${mp}mp.png" -o "$CORPUS/photo-${mp}mp.hif" >/dev/null
    rm "$CORPUS/photo-${mp}mp.png"
done

declare -A SOURCE=(
    [heic-thumb]="$FIX/formats/iPhone7_P3_thumb.heic" [heic]="$FIX/formats/iPhone_XR_irot.heic"
    [avif]="$CORPUS/photo.avif" [avif-20mp]="$FIX/formats/Canon_70D_8bit.avif"
    [png]="$CORPUS/photo.png" [webp]="$CORPUS/photo.webp" [tiff]="$CORPUS/photo.tiff" [jpeg]="$CORPUS/photo.jpg"
    [raw]="$CORPUS/photo.nef"
    [heif-33mp]="$CORPUS/photo-33mp.hif" [heif-45mp]="$CORPUS/photo-45mp.hif" [heif-61mp]="$CORPUS/photo-61mp.hif"
)
read -r -a ORDER <<<"${FORMATS:-heic-thumb heic avif avif-20mp png webp tiff jpeg raw heif-33mp heif-45mp heif-61mp}"

# The anchor's command for SOURCE at SIZE into OUTPUT, in ANCHOR. Only the sources with an ICC
# profile (the HEICs) are exported to sRGB by vips: on an untagged source --export-profile made
# vipsthumbnail darken the picture (mean 0.39 vs 0.415: -9 dB).
anchor_command() {  # SOURCE SIZE OUTPUT
    case "$1" in
        *.heic) ANCHOR=(vipsthumbnail "$1" --size "$2" --export-profile "$SRGB" -o "$3[Q=85,strip]") ;;
        # simple_dcraw -e writes SOURCE.thumb.jpg beside SOURCE
        *.nef) ANCHOR=(sh -c 'simple_dcraw -e "$1" && vipsthumbnail "$1.thumb.jpg" --size "$2" -o "$3[Q=85,strip]"' sh "$1" "$2" "$3") ;;
        *) ANCHOR=(vipsthumbnail "$1" --size "$2" -o "$3[Q=85,strip]") ;;
    esac
}

# Full-size reference of each source, made once: PNG in sRGB.
reference_full() {  # KEY -> path
    local key=$1 src=${SOURCE[$1]} out="$WORK/$1.ref.png"
    if [ ! -f "$out" ]; then
        case "$src" in
            *.heic|*.avif|*.hif) heif-convert "$src" "$WORK/$1.heif.png" >/dev/null
                           convert "$WORK/$1.heif.png" -profile "$SRGB" -depth 16 "$out" ;;
            *.nef) simple_dcraw -e "$src" >/dev/null
                   convert "$src.thumb.jpg" -auto-orient -profile "$SRGB" -depth 16 "$out" ;;
            *) convert "$src[0]" -auto-orient -profile "$SRGB" -depth 16 "$out" ;;
        esac
    fi
    echo "$out"
}

# Runs "$@" once on core 0; prints "seconds peak-kb".
timed() {
    /usr/bin/time -f "%e %M" -o "$WORK/time" taskset -c 0 "$@" >/dev/null 2>&1 || { echo "formats-bench: failed: $*" >&2; exit 1; }
    cat "$WORK/time"
}

# The median (by time) of lines "seconds peak-kb".
median_run() { sort -n | sed -n "$(( (RUNS + 1) / 2 ))p"; }

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
        anchor_command "$src" "$size" "$WORK/vips.jpg"
        : >"$WORK/ours.runs"; : >"$WORK/vips.runs"
        for _ in $(seq "$RUNS"); do
            timed "$ASSETFS" render --size "$size" --quality 85 "$src" "$WORK/ours.jpg" >>"$WORK/ours.runs"
            timed "${ANCHOR[@]}" >>"$WORK/vips.runs"
        done
        read -r ot om < <(median_run <"$WORK/ours.runs")
        read -r vt vm < <(median_run <"$WORK/vips.runs")
        op=$(psnr "$WORK/ours.jpg" "$ref")
        vp=$(psnr "$WORK/vips.jpg" "$ref")
        awk -v k="$key" -v s="$size" -v ot="$ot" -v om="$om" -v op="$op" -v vt="$vt" -v vm="$vm" -v vp="$vp" 'BEGIN {
            printf "%-10s %5d | %8.2f %8.1f %6.2f | %8.2f %8.1f %6.2f | %6.2f %6.2f %+7.2f\n",
                   k, s, ot, om / 1024, op, vt, vm / 1024, vp, (vt > 0 ? ot / vt : 0), (vm > 0 ? om / vm : 0), op - vp }'
    done
done
echo "time and RSS columns at the right: ours / vipsthumbnail (below 1 = ours faster or lighter); dPSNR: ours - vips in dB"
echo "raw: the anchor is simple_dcraw -e + vipsthumbnail of the extracted preview (see the header)"
[ -z "${FORMATS:-}" ] || exit 0

# A mixed folder in the research library's proportions (JPEG 55 %, HEIC 39 %, PNG 6 %: 10, 7 and 1
# of 18 photos; the HEICs alternate with and without a thumbnail item), each photo made into a
# 256 px thumbnail and a 1920 px fullscreen, one core. Measured as the renderer's share (one
# `assetfs render` a rendition) and as `assetfs warm --fullscreen` over a folder of copies (scan,
# catalog, cache writes and all, a fresh cache each round), both against the same vipsthumbnail
# work (one process a rendition); the three take turns, RUNS rounds, medians.
MIXED=()
for i in $(seq 10); do MIXED+=("${SOURCE[jpeg]}"); done
for i in $(seq 7); do if [ $((i % 2)) -eq 1 ]; then MIXED+=("${SOURCE[heic]}"); else MIXED+=("${SOURCE[heic-thumb]}"); fi; done
MIXED+=("${SOURCE[png]}")
mkdir -p "$WORK/mixed"
for i in "${!MIXED[@]}"; do cp "${MIXED[i]}" "$WORK/mixed/$(printf '%02d' "$i").${MIXED[i]##*.}"; done
mixed() {  # ours|vips
    for src in "${MIXED[@]}"; do
        for size in 256 1920; do
            if [ "$1" = ours ]; then "$ASSETFS" render --size "$size" --quality 85 "$src" "$WORK/m.jpg"
            else anchor_command "$src" "$size" "$WORK/m.jpg"; "${ANCHOR[@]}"; fi
        done
    done
}
seconds_of() {  # COMMAND...: wall seconds of it on core 0
    local start
    start=$(date +%s.%N)
    taskset -c 0 "$@" >/dev/null 2>&1 || { echo "formats-bench: failed: $*" >&2; exit 1; }
    echo "$(date +%s.%N) - $start" | bc
}
SHELL_STATE="$(declare -p MIXED SOURCE ASSETFS WORK SRGB); $(declare -f mixed anchor_command)"
: >"$WORK/mixed.runs"
for _ in $(seq "$RUNS"); do
    ours=$(seconds_of bash -c "$SHELL_STATE; mixed ours")
    vips=$(seconds_of bash -c "$SHELL_STATE; mixed vips")
    rm -f "$WORK"/warm*.sqlite*
    warm=$(seconds_of "$ASSETFS" warm --fullscreen -o "cache=$WORK/warm.sqlite" "$WORK/mixed")
    echo "$ours $vips $warm" >>"$WORK/mixed.runs"
done
awk -v n=${#MIXED[@]} -v runs="$RUNS" '
    { o[NR] = $1; v[NR] = $2; w[NR] = $3 }
    function median(a,   i, j, t, m) { m = runs; for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                                       return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
    END {
        O = median(o); V = median(v); W = median(w)
        printf "\nmixed folder, %d photos (10 JPEG, 7 HEIC, 1 PNG), thumbnail + fullscreen each, one core, median of %d rounds:\n", n, runs
        printf "  assetfs render (a process a rendition) %.2f s = %.2f photos/s;  vipsthumbnail %.2f s = %.2f photos/s;  ours/vips time %.2f\n", O, n / O, V, n / V, O / V
        printf "  assetfs warm --fullscreen %.2f s = %.2f photos/s;  warm/vips time %.2f\n", W, n / W, W / V }' "$WORK/mixed.runs"
