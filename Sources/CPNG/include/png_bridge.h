#ifndef ASSETFS_PNG_BRIDGE_H
#define ASSETFS_PNG_BRIDGE_H
/*
 * libpng reports fatal errors by longjmp (png_error) and, without a jump buffer, abort()s: every
 * libpng call that can fail runs here behind a setjmp and comes back as a status (0 ok, -1 error)
 * with the message kept in the decoder. Rows come out 8-bit: gray, gray+alpha, RGB or RGBA
 * (palette and tRNS expanded, 16-bit scaled down); the caller flattens alpha.
 */
#include <stddef.h>
#include <stdint.h>

typedef struct apng_decoder apng_decoder;

typedef struct {
    int width, height;  /* IHDR */
    int channels;       /* of the rows read: 1, 2, 3 or 4 */
    int interlaced;     /* Adam7: the first read decodes the whole image into one buffer */
} apng_header;

/* Reads from `fd` with pread from offset 0; never owns or closes it. */
apng_decoder *apng_decoder_new(int fd);
void apng_decoder_free(apng_decoder *d);
const char *apng_error(const apng_decoder *d);
/* The BRIDGE_FAILURE_* of the last failure. */
int apng_failure(const apng_decoder *d);

int apng_read_header(apng_decoder *d, apng_header *out);
/* The iCCP profile, owned by the decoder (valid until it is freed), or NULL. */
int apng_icc(apng_decoder *d, const uint8_t **data, unsigned *length);
int apng_read_rows(apng_decoder *d, uint8_t *rows, int max_rows, int *rows_read);
const char *apng_version(void);

#endif
