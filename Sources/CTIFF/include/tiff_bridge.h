#ifndef ASSETFS_TIFF_BRIDGE_H
#define ASSETFS_TIFF_BRIDGE_H
/*
 * libtiff at the edge: the first page of a TIFF through TIFFRGBAImage (every photometric,
 * bit depth and compression libtiff knows, 8-bit RGBA with associated alpha), one band of
 * strips or tiles at a time, in stored orientation. Errors and warnings go to handlers of this
 * decoder (libtiff 4.5's per-handle handlers), never to stderr; libtiff never exits.
 */
#include <stddef.h>
#include <stdint.h>

typedef struct atiff_decoder atiff_decoder;

typedef struct {
    int width, height;
    int orientation;    /* TIFF Orientation, 1-8 (1 when absent) */
    int gray;           /* one colour sample: R = G = B in the rows */
    uint64_t band_bytes;/* memory one band takes: its RGBA raster plus libtiff's strip/tile buffer */
} atiff_header;

/* Why libtiff (loaded on first use) cannot be used, or NULL when it can. */
const char *atiff_unavailable(void);
/* NULL when out of memory or libtiff is unavailable. */
atiff_decoder *atiff_decoder_new(int fd);
void atiff_decoder_free(atiff_decoder *d);
const char *atiff_error(const atiff_decoder *d);
/* The BRIDGE_FAILURE_* of the last failure. */
int atiff_failure(const atiff_decoder *d);
int atiff_read_header(atiff_decoder *d, atiff_header *out);
/* The ICC profile, owned by libtiff (valid until the decoder is freed), or NULL. */
int atiff_icc(atiff_decoder *d, const uint8_t **data, unsigned *length);
/* Up to max_rows rows of width*4 bytes (RGBA, alpha associated). */
int atiff_read_rows(atiff_decoder *d, uint8_t *rows, int max_rows, int *rows_read);
const char *atiff_version(void);

#endif
