#!/usr/bin/env bash
# Makes Fuzz/seeds/<format>/: a few small copies (a few KiB each) of the repository's fixtures,
# one per feature the decoders branch on (EXIF orientation, progressive, CMYK, palette, 16-bit,
# interlace, tiles, alpha, animation, thumbnails, 10-bit), so that libFuzzer's mutations start
# from inputs that decode in a millisecond instead of multi-megabyte camera files. Deterministic
# for given tool versions; the output is committed (Fuzz/seeds/README.md says where each came from).
#
#   bash Fuzz/make-seeds.sh      # needs ImageMagick, heif-enc (libheif-examples) and exiftool
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
F="$ROOT/Tests/Fixtures"
OUT="$ROOT/Fuzz/seeds"
rm -rf "$OUT"
mkdir -p "$OUT"/{jpeg,png,webp,gif,tiff,heif,avif,raw}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# IN OUT [OPTIONS...]: IN shrunk to at most 32x32 (metadata kept), written as OUT's format.
shrink() { local in=$1 out=$2; shift 2; convert "$in" -resize 32x32 "$@" "$out"; }
# Drops an EXIF thumbnail (often bigger than the shrunk picture).
nothumb() { exiftool -q -q -overwrite_original -ThumbnailImage= "$@" 2>/dev/null || true; }

# JPEG: EXIF orientation, progressive, CMYK (Adobe marker), grayscale, 4:4:4, restart markers, ICC.
shrink "$F/orientation/Landscape_6.jpg" "$OUT/jpeg/orientation6.jpg" -quality 60
shrink "$F/cameras/Nikon_D5000.jpg" "$OUT/jpeg/progressive_exif.jpg" -quality 60 -interlace JPEG
shrink "$F/orientation/Portrait_1.jpg" "$OUT/jpeg/cmyk.jpg" -colorspace CMYK -quality 60
shrink "$F/malformed/grayscale.jpg" "$OUT/jpeg/gray.jpg" -quality 60
shrink "$F/cameras/Casio_EX-S1.jpg" "$OUT/jpeg/444_restart.jpg" -strip -sampling-factor 1x1 -define jpeg:restart-interval=1 -quality 60
shrink "$F/formats/Nikon_D1X_AdobeRGB.jpg" "$OUT/jpeg/adobergb_icc.jpg" -quality 60
nothumb "$OUT"/jpeg/*.jpg

# PNG: palette, gray, 16-bit with alpha, Adam7, iCCP + eXIf.
shrink "$F/orientation/Landscape_1.jpg" "$OUT/png/palette.png" -colors 16 -type Palette
shrink "$F/malformed/grayscale.jpg" "$OUT/png/gray.png" -type Grayscale
shrink "$F/formats/basn6a16.png" "$OUT/png/rgba16.png" -depth 16
shrink "$F/formats/basi6a08.png" "$OUT/png/interlaced.png" -interlace PNG
shrink "$F/formats/DisplayP3_iCCP_eXIf.png" "$OUT/png/iccp_exif.png"

# WebP: lossy with EXIF, lossless, with alpha, animated.
shrink "$F/formats/iPhoneX_exif_orient6.webp" "$OUT/webp/lossy_exif.webp" -quality 40
shrink "$F/formats/basn6a16.png" "$OUT/webp/lossless_alpha.webp" -define webp:lossless=true
convert -size 16x16 xc:red xc:blue -delay 10 -loop 0 -quality 40 "$OUT/webp/animated.webp"

# GIF: still, animated with sub-frames.
shrink "$F/formats/hopper.gif" "$OUT/gif/still.gif"
convert -size 16x16 xc:red \( -size 8x8 xc:blue -repage +4+4 \) -delay 10 -loop 0 "$OUT/gif/animated_subframe.gif"

# TIFF: LZW strips, 16-bit deflate, tiles, planar, CMYK, EXIF orientation 6, CCITT G4.
shrink "$F/orientation/Landscape_1.jpg" "$OUT/tiff/lzw_orient6.tif" -compress lzw
exiftool -q -q -overwrite_original -n -Orientation=6 "$OUT/tiff/lzw_orient6.tif"
shrink "$F/formats/rgb16_deflate.tiff" "$OUT/tiff/rgb16_zip.tif" -depth 16 -compress zip
shrink "$F/orientation/Portrait_1.jpg" "$OUT/tiff/tiled_jpeg.tif" -define tiff:tile-geometry=16x16 -compress jpeg
shrink "$F/orientation/Portrait_1.jpg" "$OUT/tiff/planar.tif" -interlace plane
shrink "$F/orientation/Portrait_1.jpg" "$OUT/tiff/cmyk.tif" -colorspace CMYK
shrink "$F/formats/g4_orientation_6.tif" "$OUT/tiff/g4.tif" -monochrome -compress group4

# HEIF and AVIF: 8-bit, 10-bit, with a thumbnail item, with EXIF.
shrink "$F/orientation/Landscape_1.jpg" "$TMP/small.png"
convert "$TMP/small.png" -depth 16 "$TMP/small16.png"
heif-enc -q 30 "$TMP/small.png" -o "$OUT/heif/plain.heic" >/dev/null
heif-enc -q 30 -t 8 "$TMP/small.png" -o "$OUT/heif/thumbnail.heic" >/dev/null
heif-enc -q 30 -b 10 "$TMP/small16.png" -o "$OUT/heif/10bit.heic" >/dev/null
cp "$OUT/heif/plain.heic" "$OUT/heif/exif6.heic"
exiftool -q -q -overwrite_original -n -Orientation=6 "$OUT/heif/exif6.heic"
heif-enc -A -q 30 "$TMP/small.png" -o "$OUT/avif/plain.avif" >/dev/null
heif-enc -A -q 30 -b 10 "$TMP/small16.png" -o "$OUT/avif/10bit.avif" >/dev/null
heif-enc -A -q 30 -t 8 "$TMP/small.png" -o "$OUT/avif/thumbnail.avif" >/dev/null

# RAW: the small fixtures as they are (LibRaw's parsers; sensor data mostly stripped).
for raw in Nikon_D70_stripped.nef Sony_A7III_truncated.arw Panasonic_LX3_stripped.rw2 Fujifilm_S5Pro_stripped.raf; do
    cp "$F/raw/$raw" "$OUT/raw/"
done

{
    echo "# Fuzz seeds"
    echo
    echo "Made by \`Fuzz/make-seeds.sh\` from the fixtures in Tests/Fixtures (see Tests/Fixtures/PROVENANCE.md"
    echo "and LICENSES: the same terms apply to these shrunk copies), with $(convert -version | head -n 1 | cut -d' ' -f2-3),"
    echo "libheif $(dpkg-query -W -f='${Version}' libheif1 2>/dev/null) (heif-enc) and exiftool $(exiftool -ver)."
    echo
    echo "| seed | bytes |"
    echo "|---|---|"
    (cd "$OUT" && find . -type f ! -name README.md | sort | while read -r f; do echo "| ${f#./} | $(stat -c %s "$f") |"; done)
} >"$OUT/README.md"
echo "seeds: $(find "$OUT" -type f ! -name README.md | wc -l) files, $(du -sk "$OUT" | cut -f1) KiB in $OUT" >&2
