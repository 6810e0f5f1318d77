#ifndef ASSETFS_GIF_BRIDGE_H
#define ASSETFS_GIF_BRIDGE_H
/*
 * giflib at the edge: the first frame of a GIF, composited onto its logical screen (white where
 * the frame does not cover it or is transparent), as RGB rows. giflib reports errors by status
 * codes and never exits. A non-interlaced frame streams line by line; an interlaced one is read
 * whole first (one byte per pixel).
 */
#include <stddef.h>
#include <stdint.h>

typedef struct agif_decoder agif_decoder;

typedef struct {
    int width, height;          /* logical screen */
    int frame_width, frame_height;  /* the first frame */
    int interlaced;
} agif_header;

agif_decoder *agif_decoder_new(int fd);
void agif_decoder_free(agif_decoder *d);
const char *agif_error(const agif_decoder *d);
/* The BRIDGE_FAILURE_* of the last failure. */
int agif_failure(const agif_decoder *d);
/* Reads up to the first frame's descriptor. */
int agif_read_header(agif_decoder *d, agif_header *out);
/* Up to max_rows rows of width*3 bytes. */
int agif_read_rows(agif_decoder *d, uint8_t *rows, int max_rows, int *rows_read);
int agif_version(void);

#endif
