#ifndef ASSETFS_JPEG_BRIDGE_H
#define ASSETFS_JPEG_BRIDGE_H
/*
 * The only hand-written C in assetfs. libjpeg reports fatal errors by longjmp, which Swift
 * cannot catch, so every libjpeg call that can fail runs here behind a setjmp and comes back
 * as a status (0 = ok, -1 = error) with the message kept in the codec.
 */
#include <stddef.h>
#include <stdint.h>

typedef struct ajpeg_decoder ajpeg_decoder;
typedef struct ajpeg_encoder ajpeg_encoder;

/* What the frame header says, before any large allocation. */
typedef struct {
    int width, height;
    int components;         /* 1 gray, 3 colour, 4 CMYK/YCCK */
    int is_cmyk;            /* 4-component source: output is CMYK to be converted by the caller */
    int adobe_inverted;     /* CMYK written by Adobe software: values are stored inverted */
    int multi_scan;         /* progressive or multi-scan: needs a whole-image coefficient buffer */
    uint64_t coefficient_bytes; /* size of that buffer (0 when single-scan) */
} ajpeg_header;

/* Reads from `fd` with pread in chunks from offset 0; never owns or closes it. */
ajpeg_decoder *ajpeg_decoder_new(int fd);
void ajpeg_decoder_free(ajpeg_decoder *d);
const char *ajpeg_decoder_error(const ajpeg_decoder *d);
/* The BRIDGE_FAILURE_* of the last failure (what to do about it: the message is for people). */
int ajpeg_decoder_failure(const ajpeg_decoder *d);
/* Number of corrupt-data warnings so far, and the first one's text. */
int ajpeg_decoder_warnings(const ajpeg_decoder *d, const char **first);

int ajpeg_read_header(ajpeg_decoder *d, ajpeg_header *out);
/* Starts decompression at 1/scale_denom (1, 2, 4 or 8); libjpeg may use at most max_memory bytes. */
int ajpeg_start(ajpeg_decoder *d, int scale_denom, long max_memory, int *out_width, int *out_height, int *out_components);
/* Reads up to `max_rows` rows of out_width*out_components bytes into `rows`. */
int ajpeg_read_rows(ajpeg_decoder *d, uint8_t *rows, int max_rows, int *rows_read);
/* Reads what is left of the image and the stream up to EOI. */
int ajpeg_finish(ajpeg_decoder *d);
/* The embedded ICC profile (malloc'd, caller frees), or NULL. Valid after ajpeg_read_header. */
int ajpeg_icc_profile(ajpeg_decoder *d, uint8_t **data, unsigned *length);

ajpeg_encoder *ajpeg_encoder_new(void);
void ajpeg_encoder_free(ajpeg_encoder *e);
const char *ajpeg_encoder_error(const ajpeg_encoder *e);
int ajpeg_encoder_start(ajpeg_encoder *e, int width, int height, int components, int quality,
                        const uint8_t *icc, unsigned icc_length);
int ajpeg_encoder_write_row(ajpeg_encoder *e, const uint8_t *row);
/* Finishes the stream; the bytes stay owned by the encoder until it is freed. */
int ajpeg_encoder_finish(ajpeg_encoder *e, const uint8_t **bytes, size_t *length);

#endif
