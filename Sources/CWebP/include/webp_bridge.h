#ifndef ASSETFS_WEBP_BRIDGE_H
#define ASSETFS_WEBP_BRIDGE_H
/*
 * libwebp and libwebpdemux at the edge. libwebp reports errors by status codes and never exits.
 * A still image is decoded straight to the size asked for (libwebp's scaled decoding); an
 * animation's first frame comes out whole, composited on its canvas.
 */
#include <stddef.h>
#include <stdint.h>

typedef struct awebp_decoder awebp_decoder;

typedef struct {
    int width, height;  /* canvas */
    int animated;
} awebp_header;

awebp_decoder *awebp_decoder_new(int fd);
void awebp_decoder_free(awebp_decoder *d);
const char *awebp_error(const awebp_decoder *d);
/* The BRIDGE_FAILURE_* of the last failure. */
int awebp_failure(const awebp_decoder *d);

/* Reads the whole file (at most max_bytes) and parses its container. */
int awebp_read_header(awebp_decoder *d, size_t max_bytes, awebp_header *out);
/* A metadata chunk ("ICCP", "EXIF"), owned by the decoder, or NULL. */
int awebp_chunk(awebp_decoder *d, const char fourcc[4], const uint8_t **data, size_t *length);
/* Decodes to width x height (a still image may be scaled; an animation is decoded at canvas
 * size whatever is asked). Pixels are owned by the decoder: `channels` 3 (RGB) or 4 (RGBA,
 * not premultiplied), rows `stride` bytes apart. */
int awebp_decode(awebp_decoder *d, int width, int height, const uint8_t **pixels, int *out_width,
                 int *out_height, int *channels, int *stride);
int awebp_version(void);

#endif
