#ifndef ASSETFS_HEIF_BRIDGE_H
#define ASSETFS_HEIF_BRIDGE_H
/*
 * libheif (1.15 or later; 1.18 reads iOS 18's HEICs) at the edge (HEIC and AVIF): the primary
 * image, or one of its thumbnail items, decoded whole to 8-bit RGB(A) rows with the container's
 * clap/irot/imir transforms applied by libheif. libheif reports errors as heif_error values and
 * never exits; the bridge reports each failure's kind with its message.
 */
#include <stddef.h>
#include <stdint.h>
#include "bridge_failure.h"

typedef struct aheif_decoder aheif_decoder;


enum { AHEIF_COLOUR_NONE = 0, AHEIF_COLOUR_ICC = 1, AHEIF_COLOUR_NCLX = 2 };

/* An image's own colour information (its colr box): an ICC profile, or nclx code points and the
 * CIE xy of its primaries and white point. */
typedef struct {
    int kind;                       /* AHEIF_COLOUR_* */
    int primaries;
    int transfer;                   /* transfer characteristics: 16 PQ, 18 HLG */
    double rx, ry, gx, gy, bx, by, wx, wy;
} aheif_colour;

typedef struct {
    int width, height;              /* primary image, after irot/imir */
    int bits;                       /* luma bits per pixel */
    int thumb_width, thumb_height;  /* largest thumbnail item (after its transforms), 0 if none */
    aheif_colour colour;            /* the primary image's */
    aheif_colour thumb_colour;      /* the thumbnail item's own, AHEIF_COLOUR_NONE if it has none */
} aheif_header;

/* Why libheif, loaded on first use, cannot be used (a message), or NULL when it can. */
const char *aheif_unavailable(void);
/* NULL when out of memory or libheif is unavailable. */
aheif_decoder *aheif_decoder_new(int fd);
void aheif_decoder_free(aheif_decoder *d);
const char *aheif_error(const aheif_decoder *d);
/* The BRIDGE_FAILURE_* of the last failure (0 before any). */
int aheif_failure(const aheif_decoder *d);
/* Makes libheif read `length` (at most 8) bytes at `offset` of the file as `bytes`: an edit of
 * the container that changes no size or offset. Up to 4, before aheif_read_header; -1 past that. */
int aheif_edit(aheif_decoder *d, int64_t offset, const uint8_t *bytes, size_t length);
int aheif_read_header(aheif_decoder *d, aheif_header *out);
/* The ICC profile of the primary image (thumbnail = 0) or of the thumbnail item (1), owned by
 * the decoder, or NULL. */
int aheif_icc(aheif_decoder *d, int thumbnail, const uint8_t **data, size_t *length);
/* Decodes the primary image (thumbnail = 0) or the largest thumbnail (1) to the planes libheif
 * makes when left to choose (planar RGB 4:4:4 or monochrome, at the source's bit depth) and
 * reports the size and channels (3 or 4) of the 8-bit RGB(A) rows aheif_read_rows makes from
 * them: the whole image is held once as planes, not again as interleaved RGB. Other layouts are
 * decoded again by libheif to interleaved RGB(A). */
int aheif_decode_planes(aheif_decoder *d, int thumbnail, int *width, int *height, int *channels);
/* Up to max_rows rows of width*channels bytes, top to bottom. */
int aheif_read_rows(aheif_decoder *d, uint8_t *rows, int max_rows, int *rows_read);
const char *aheif_version(void);

#endif
