#!/usr/bin/env bash
# Makes Fuzz/seeds/<format>/: a few small copies (a few KiB each) of the repository's fixtures,
# one per feature the decoders branch on (EXIF orientation, progressive, CMYK, palette, 16-bit,
# interlace, tiles, alpha, animation, thumbnails, 10-bit; for videos: codec, sound, rotation,
# fragments, a QuickTime brand, Matroska/WebM, AVI and MPEG-TS), so that libFuzzer's mutations start
# from inputs that decode in a millisecond instead of multi-megabyte camera files. Deterministic
# for given tool versions; the output is committed (Fuzz/seeds/README.md says where each came from).
#
#   bash Fuzz/make-seeds.sh      # needs ImageMagick, heif-enc (libheif-examples), exiftool and ffmpeg
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
F="$ROOT/Tests/Fixtures"
OUT="$ROOT/Fuzz/seeds"
rm -rf "$OUT"
mkdir -p "$OUT"/{jpeg,png,webp,gif,tiff,heif,avif,raw,mp4,mkv,avi,m2ts}
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

# Videos: generated clips, not the fixtures (the smallest fixture is 20 KB; these are 16x16,
# 2-3 frames, a few KiB), one per path FFmpeg's demuxers and our bridge branch on. The mp4
# target takes every ISO BMFF brand (MOV, MP4, M4V, 3GP: one demuxer), mkv takes WebM too.
# -bitexact and -map_metadata -1 keep the encoder's version and the time out of the bytes.
clip() {  # OUT [FFMPEG OUTPUT OPTIONS...]: 16x16 test pattern, 3 frames, no sound
    local out=$1; shift
    ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc=size=16x16:rate=10 -frames:v 3 -map_metadata -1 \
        -fflags +bitexact -flags:v +bitexact "$@" "$out"
}
clip_sound() {  # OUT [OPTIONS...]: the same with 0.3 s of a sine
    local out=$1; shift
    ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc=size=16x16:rate=10 -f lavfi -i sine=frequency=440:sample_rate=8000 \
        -frames:v 3 -t 0.3 -map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact -ac 1 "$@" "$out"
}
X264=(-c:v libx264 -preset ultrafast -x264-params no-info=1 -pix_fmt yuv420p)
# ISO BMFF (mp4 target): H.264, H.264 + AAC, rotation (display matrix), HEVC, fragmented, QuickTime
# brand with MPEG-4 Part 2, 3GP, sound only (the audio-only answer).
clip "$OUT/mp4/h264.mp4" "${X264[@]}"
clip_sound "$OUT/mp4/h264_aac.mp4" "${X264[@]}" -c:a aac -b:a 16k
cp "$OUT/mp4/h264.mp4" "$OUT/mp4/h264_rot90.mp4"  # FFmpeg 5.1's muxer ignores a rotate tag: exiftool writes the track matrix
exiftool -q -q -overwrite_original -Rotation=90 "$OUT/mp4/h264_rot90.mp4"
clip "$OUT/mp4/hevc.mp4" -c:v libx265 -preset ultrafast -x265-params log-level=none:info=0 -pix_fmt yuv420p -tag:v hvc1
# An open GOP: 20 frames (the last -frames:v counts), the keyframe at 10 % (0.2 s) a CRA naming an
# earlier picture, which the decoder makes up in the bridge's one-row stand-in.
clip "$OUT/mp4/hevc_open_gop.mp4" -frames:v 20 -c:v libx265 -preset ultrafast -x265-params keyint=2:log-level=none:info=0 \
    -pix_fmt yuv420p -tag:v hvc1
clip "$OUT/mp4/fragmented.mp4" "${X264[@]}" -movflags frag_keyframe+empty_moov+default_base_moof
clip "$OUT/mp4/mpeg4.mov" -c:v mpeg4 -q:v 10
clip "$OUT/mp4/mpeg4.3gp" -c:v mpeg4 -q:v 10 -f 3gp
ffmpeg -nostdin -loglevel error -y -f lavfi -i sine=frequency=440:sample_rate=8000 -t 0.3 -map_metadata -1 \
    -fflags +bitexact -flags:a +bitexact -c:a aac -b:a 16k "$OUT/mp4/audio_only.m4a"
# Matroska and WebM (mkv target): H.264, MPEG-4 Part 2 + MP2, VP8, VP9 + Opus (FFmpeg 5.1 reads no rotation from Matroska).
clip "$OUT/mkv/h264.mkv" "${X264[@]}"
clip_sound "$OUT/mkv/mpeg4_mp2.mkv" -c:v mpeg4 -q:v 10 -c:a mp2 -b:a 32k
clip "$OUT/mkv/vp8.webm" -c:v libvpx -deadline realtime -b:v 50k
clip_sound "$OUT/mkv/vp9_opus.webm" -c:v libvpx-vp9 -deadline realtime -b:v 50k -c:a libopus -b:a 8k
# AVI (avi target): MPEG-4 Part 2, and H.264 + MP2.
clip "$OUT/avi/mpeg4.avi" -c:v mpeg4 -q:v 10
clip_sound "$OUT/avi/h264_mp2.avi" "${X264[@]}" -c:a mp2 -b:a 32k
# MPEG-TS (m2ts target): 188-byte TS with H.264 + MP2, 192-byte M2TS with H.264.
clip_sound "$OUT/m2ts/h264_mp2.ts" "${X264[@]}" -c:a mp2 -b:a 32k -f mpegts
clip "$OUT/m2ts/h264.m2ts" "${X264[@]}" -f mpegts -mpegts_m2ts_mode 1

{
    echo "# Fuzz seeds"
    echo
    echo "Made by \`Fuzz/make-seeds.sh\` from the fixtures in Tests/Fixtures (see Tests/Fixtures/PROVENANCE.md"
    echo "and LICENSES: the same terms apply to these shrunk copies), with $(convert -version | head -n 1 | cut -d' ' -f2-3),"
    echo "libheif $(dpkg-query -W -f='${Version}' libheif1 2>/dev/null) (heif-enc), exiftool $(exiftool -ver)"
    echo "and $(ffmpeg -hide_banner -version | head -n 1 | cut -d' ' -f1-3) (the video clips are generated: FFmpeg's testsrc pattern and a sine)."
    echo
    echo "| seed | bytes |"
    echo "|---|---|"
    (cd "$OUT" && find . -type f ! -name README.md | sort | while read -r f; do echo "| ${f#./} | $(stat -c %s "$f") |"; done)
} >"$OUT/README.md"
echo "seeds: $(find "$OUT" -type f ! -name README.md | wc -l) files, $(du -sk "$OUT" | cut -f1) KiB in $OUT" >&2
