#ifndef ASSETFS_VIDEO_BRIDGE_H
#define ASSETFS_VIDEO_BRIDGE_H
/*
 * FFmpeg 5.1 (libavformat, libavcodec, libavutil, libswscale) at the edge: what Swift cannot do
 * itself, FFmpeg's structs and callbacks. The file is read through an AVIOContext over pread on
 * a descriptor the caller owns (never opened by path), within a byte budget and a deadline that
 * an interrupt callback enforces. One video stream is demuxed (every other stream is discarded)
 * and decoded by one thread; a frame is scaled and converted to 8-bit RGB by swscale. The choice
 * of frame, the display transform and the colour handling are the Swift side's.
 * A failure is told by its kind (avideo_failure: a BRIDGE_FAILURE_*) and a short message (avideo_error).
 */
#include <stddef.h>
#include <stdint.h>
#include "bridge_failure.h"

typedef struct avideo avideo;


typedef struct {
    int has_video;                  /* 0: no video stream (audio only, data only) */
    int audio_streams;
    int width, height;              /* the chosen stream's frame size (the codec's crop applied): the
                                       decoder's when its parameter sets give one, else the header's */
    int sar_num, sar_den;           /* sample aspect ratio; 0/1 when unknown */
    int has_matrix;
    int32_t matrix[9];              /* display matrix (16.16 fixed point, 2.30 in the last column) */
    int64_t duration_us;            /* container duration, or the stream's; -1 when unknown */
    int bits;                       /* bits per sample when known from the header, else 0 */
    int transfer;                   /* H.273 transfer of the stream's header (16 PQ, 18 HLG), 2 unknown */
    char codec[32];                 /* FFmpeg's short codec name of the chosen stream */
    char audio_codec[32];           /* of the first audio stream, or "" */
    char container[64];             /* FFmpeg's demuxer name */
} avideo_info;

typedef struct {
    int width, height;
    int interlaced;
    int key;
    int64_t pts_us;                 /* presentation time, or INT64_MIN */
    int transfer, primaries, matrix, full_range; /* H.273 code points of the frame */
    double rx, ry, gx, gy, bx, by, wx, wy;       /* CIE xy of the primaries, 0 when unknown */
    const uint8_t *luma;            /* the first plane (luma for YUV): samples `bytes_per_sample` apart */
    int luma_stride, bytes_per_sample, bits;
} avideo_frame;

/* A reader of `fd` that gives up after `byte_budget` bytes or `seconds` seconds, and decodes no
 * frame over `max_pixels` (its stream analysis included). */
avideo *avideo_new(int fd, int64_t byte_budget, double seconds, int64_t max_pixels);
void avideo_free(avideo *v);
const char *avideo_error(const avideo *v);
/* The enum avideo_failure of the last failure. */
int avideo_failure(const avideo *v);
/* Opens the container (probe size and analysis duration bounded) and chooses its video stream:
 * the largest that is not an attached picture, whose decoder it opens when it can. 0, or -1 with
 * avideo_error. */
int avideo_open(avideo *v, avideo_info *out);
/* The index-th metadata tag of the container: 0, or -1 past the end. */
int avideo_tag(const avideo *v, int index, const char **key, const char **value);
/* Opens the chosen stream's decoder, one thread, refusing frames over the reader's `max_pixels`
 * (unless avideo_open has): 0, or -1 with the reason. */
int avideo_open_decoder(avideo *v);
/* Seeks backward to the keyframe at or before `microseconds` from the start. */
int avideo_seek(avideo *v, int64_t microseconds);
/* Decodes the next frame of the chosen stream: keyframes only (sent one at a time and drained;
 * the pictures an HEVC CRA keyframe names are made up in stand-ins of one row, not full frames),
 * or every frame in order. 0: a frame (see avideo_current), 1: none before the end or the packet
 * limit, -1: an error. */
int avideo_decode(avideo *v, int keyframes_only, int max_packets);
int avideo_current(const avideo *v, avideo_frame *out);
/* The current frame scaled (Lanczos) to width x height as 8-bit RGB rows of `stride` bytes, YUV
 * read with the H.273 `matrix` and range given; with `one_field`, only its top field is read (an
 * interlaced frame without combing). */
int avideo_scale(avideo *v, int width, int height, int one_field, int matrix, int full_range, uint8_t *rgb, int stride);
/* Library versions, for the renderer's fingerprint. */
const char *avideo_versions(void);
/* NULL once FFmpeg's libraries are loaded (on the first call), else why they cannot be. */
const char *avideo_unavailable(void);

#endif
