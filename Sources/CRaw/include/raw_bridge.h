#ifndef ASSETFS_RAW_BRIDGE_H
#define ASSETFS_RAW_BRIDGE_H
/*
 * LibRaw at the edge (its C API, which catches LibRaw's C++ exceptions and returns codes):
 * the RAW's size and orientation, its largest embedded preview as LibRaw picks it, and a
 * half-size decode to 8-bit sRGB when no preview is large enough.
 */
#include <stddef.h>
#include <stdint.h>

typedef struct araw_decoder araw_decoder;

enum { ARAW_PREVIEW_NONE = 0, ARAW_PREVIEW_JPEG = 1, ARAW_PREVIEW_BITMAP = 2 };

typedef struct {
    int width, height;       /* output size of a full decode, before the flip */
    int raw_width, raw_height;
    int flip;                /* LibRaw/dcraw flip: 0, 3 (180), 5 (90 CCW), 6 (90 CW), ... */
    int preview;             /* ARAW_PREVIEW_* */
    int preview_width, preview_height;
    int adobe_rgb;           /* the RAW's EXIF says Adobe RGB (its previews are coded in it) */
} araw_header;

/* Why LibRaw (loaded on first use) cannot be used, or NULL when it can. */
const char *araw_unavailable(void);
/* NULL when out of memory or LibRaw is unavailable. */
araw_decoder *araw_decoder_new(void);
void araw_decoder_free(araw_decoder *d);
const char *araw_error(const araw_decoder *d);
/* The BRIDGE_FAILURE_* of the last failure. */
int araw_failure(const araw_decoder *d);
/* Opens `path` (e.g. /proc/self/fd/N) and unpacks the preview, if any. A file of at most
 * `in_memory_limit` bytes is read whole and parsed from memory, a larger one as it is parsed. */
int araw_open(araw_decoder *d, const char *path, long in_memory_limit, araw_header *out);
/* The preview's bytes (a JPEG stream, or width*height*3 RGB), owned by the decoder. */
int araw_preview(araw_decoder *d, const uint8_t **data, size_t *length);
/* The RAW's own ICC profile (TIFF tag 34675: the colours of its rendered previews), owned by
 * the decoder, or NULL. */
int araw_profile(araw_decoder *d, const uint8_t **data, size_t *length);
/* Half-size decode to 8-bit sRGB, flipped upright by LibRaw. Pixels owned by the decoder. */
int araw_decode_half(araw_decoder *d, const uint8_t **pixels, int *width, int *height, int *channels);
const char *araw_version(void);

#endif
