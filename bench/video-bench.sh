#!/usr/bin/env bash
# Issue 20 benchmark: video posters by assetfs's VideoPoster (bench/video-poster, the code the
# mount will call) against ffmpegthumbnailer 2.2.2 (`-s 256` and `-s 1920`, its default seek to
# 10 %), on one core (taskset -c 0) so that neither gains from the other's idle core, printed side
# by side in one run: wall time (median of $RUNS, ours and the anchor taking turns) and peak RSS
# (of the median run), and ours/anchor ratios. The machine is shared: only the ratios, measured
# interleaved, mean anything across runs. Also: the 4K 10-bit HEVC poster's peak RSS above the
# idle process (the issue's bound: about 100 MiB), which has FFmpeg's libraries loaded (as a daemon
# that has served a video has: the bridge loads them on first use) and has decoded nothing.
#
#   bench/video-bench.sh          # builds video-poster (release) first; clips made once in bench/out/video-corpus
#
# Clips (made here by ffmpeg from its lavfi test sources, nothing downloaded):
#   hlg-4k         60 s 3840x2160 HEVC Main 10 (x265 ultrafast), HLG BT.2020 tagged, 25 fps, an IDR
#                  every 2 s (closed GOPs, as phones record)
#   hlg-4k-opengop the same with x265's default open GOPs: its keyframes are CRA pictures whose
#                  reference sets name 4 earlier pictures, which FFmpeg's HEVC decoder makes up
#                  (grey, full size: 25 MB each) when it starts there; the bridge gives them
#                  stand-ins of one row (video_bridge.c), their motion tables remain (6 MB each)
#   h264-10min     10 min 1920x1080 H.264 (x264 ultrafast, keyframe every 10 s), 25 fps
#   phone-2s       2 s 1920x1080 H.264 + AAC, display matrix turning it portrait (90° clockwise), 30 fps
#
# A run on the shared 2-core machine (RUNS=5, 1 December 2026), ratios ours/ffmpegthumbnailer:
#   hlg-4k          256: time 0.44, RSS 0.60    1920: time 0.75, RSS 0.59
#   hlg-4k-opengop  256: time 0.43, RSS 0.46    1920: time 0.55, RSS 0.46
#   h264-10min      256: time 0.78, RSS 0.99    1920: time 1.00, RSS 0.91
#   phone-2s        256: time 0.80, RSS 0.89    1920: time 0.81, RSS 0.77
#   4K 10-bit poster above the idle process (44 MiB, FFmpeg loaded): 44 MiB with closed GOPs,
#   66 MiB with open GOPs (165 MiB before the bridge's one-row stand-ins); above a process without
#   FFmpeg loaded (20 MiB): 69 and 92 MiB
set -euo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
RUNS=${RUNS:-3}
log() { echo "video-bench: $*" >&2; }
die() { log "$*"; exit 1; }
for tool in ffmpeg ffmpegthumbnailer exiftool taskset /usr/bin/time; do
    command -v $tool >/dev/null || die "$tool is missing (mount-scripts/bootstrap --deps-only)"
done

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# A copy: another build of this tree during the run cannot swap the binary under it.
(cd "$ROOT" && swift build -c release --product video-poster >/dev/null)
cp "$ROOT/.build/release/video-poster" "$WORK/video-poster"
POSTER="$WORK/video-poster"
CORPUS="$ROOT/bench/out/video-corpus"
mkdir -p "$CORPUS"

# make_clip NAME ROTATION FFMPEG-ARGUMENTS...: ROTATION (clockwise degrees) goes into the track's
# display matrix by exiftool (ffmpeg 5.1's muxer no longer takes a rotate tag).
make_clip() {
    local name=$1 rotation=$2 part="$CORPUS/$1.part.${1##*.}"; shift 2
    [ -s "$CORPUS/$name" ] && return
    log "making $name (once)"
    ffmpeg -v error -y "$@" "$part"
    [ "$rotation" = 0 ] || exiftool -q -overwrite_original -Rotation="$rotation" "$part"
    mv "$part" "$CORPUS/$name"
}
hlg=(-f lavfi -i testsrc2=s=3840x2160:r=25:d=60 -c:v libx265 -preset ultrafast -pix_fmt yuv420p10le
     -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc -tag:v hvc1 -x265-params)
make_clip hlg-4k.mov 0 "${hlg[@]}" "keyint=50:open-gop=0:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc:log-level=error"
make_clip hlg-4k-opengop.mov 0 "${hlg[@]}" "keyint=50:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc:log-level=error"
make_clip h264-10min.mp4 0 -f lavfi -i testsrc2=s=1920x1080:r=25:d=600 -c:v libx264 -preset ultrafast -g 250 -pix_fmt yuv420p
make_clip phone-2s.mov 90 -f lavfi -i testsrc2=s=1920x1080:r=30:d=2 -f lavfi -i sine=d=2 -c:v libx264 -pix_fmt yuv420p -c:a aac

# Runs a command on core 0; prints "seconds peak_KiB".
measure() {
    /usr/bin/time -o "$WORK/time" -f '%e %M' taskset -c 0 "$@" >/dev/null 2>&1 || die "failed: $*"
    tail -1 "$WORK/time"
}
median_run() {  # "s kib" lines on stdin; prints the median-time line
    sort -g | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'
}

idle=$(measure "$POSTER" --idle | awk '{ print $2 }')
declare -A above
printf '%-14s %5s  %8s %8s %6s  %8s %9s %6s\n' clip side "ours s" "thumb s" ratio "ours MiB" "thumb MiB" ratio
for clip in hlg-4k.mov hlg-4k-opengop.mov h264-10min.mp4 phone-2s.mov; do
    for side in 256 1920; do
        ours=() theirs=()
        for ((run = 0; run < RUNS; run++)); do
            ours+=("$(measure "$POSTER" "$CORPUS/$clip" "$side" "$WORK/ours.jpg")")
            theirs+=("$(measure ffmpegthumbnailer -i "$CORPUS/$clip" -o "$WORK/theirs.jpg" -s "$side" -q 8)")
        done
        o=$(printf '%s\n' "${ours[@]}" | median_run) t=$(printf '%s\n' "${theirs[@]}" | median_run)
        [ -s "$WORK/ours.jpg" ] || die "no poster of $clip"
        read -r os ok <<<"$o"; read -r ts tk <<<"$t"
        awk -v clip="${clip%.*}" -v side="$side" -v os="$os" -v ts="$ts" -v ok="$ok" -v tk="$tk" 'BEGIN {
            printf "%-14s %5s  %8.2f %8.2f %6.2f  %8.1f %9.1f %6.2f\n", clip, side, os, ts, os / (ts > 0 ? ts : 0.01), ok / 1024, tk / 1024, ok / tk }'
        above[${clip%.*}-$side]=$(( (ok - idle) / 1024 ))
    done
done
echo "4K 10-bit HEVC poster at 1920 px, peak RSS above the idle process ($((idle / 1024)) MiB):" \
     "${above[hlg-4k-1920]} MiB (closed GOPs), ${above[hlg-4k-opengop-1920]} MiB (open GOPs)"
