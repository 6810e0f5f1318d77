#include "png_bridge.h"
#include "bridge_failure.h"
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct apng_decoder {
    png_structp png;
    png_infop info;
    int fd;
    off_t offset;
    bridge_failure failure;
    int read_errno; /* a failed pread: the file, not its content, is at fault */
    int width, height, channels, interlaced;
    size_t rowbytes;
    int next_row;
    uint8_t *image; /* interlaced only: the whole image */
    size_t refused; /* the largest allocation libpng asked for and was refused (0: none) */
};

/* The most libpng may allocate at once. libpng 1.6 only warns ("benign error") when a chunk's
 * length is past png_set_chunk_malloc_max and then allocates it anyway: a damaged tEXt length
 * asked for 1.8 GB before the read found the file too short. Rows of the largest photo the
 * renderer accepts are far below this; an ICC profile or text chunk past it is damage. */
#define APNG_ALLOCATION_LIMIT ((size_t)64 << 20)

static png_voidp on_malloc(png_structp png, png_alloc_size_t size) {
    if (size > APNG_ALLOCATION_LIMIT) {
        apng_decoder *d = png_get_mem_ptr(png);
        if (size > d->refused) d->refused = size;
        return NULL;
    }
    return malloc(size);
}

static void on_free(png_structp png, png_voidp pointer) {
    (void)png;
    free(pointer);
}

static void on_error(png_structp png, png_const_charp message) {
    apng_decoder *d = png_get_error_ptr(png);
    if (d->read_errno)
        bridge_fail(&d->failure, BRIDGE_FAILURE_READ, "read error: %s", strerror(d->read_errno));
    else if (d->refused)
        bridge_fail(&d->failure, BRIDGE_FAILURE_TOO_LARGE, "%s (a chunk asked for %zu bytes, past the %zu MiB a PNG may)",
                    message ? message : "libpng error", d->refused, APNG_ALLOCATION_LIMIT >> 20);
    else
        bridge_fail(&d->failure, BRIDGE_FAILURE_CORRUPT, "%s", message ? message : "libpng error");
    png_longjmp(png, 1);
}

/* Warnings (a damaged ancillary chunk) do not stop the decode, and are not printed. */
static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void on_read(png_structp png, png_bytep data, size_t length) {
    apng_decoder *d = png_get_io_ptr(png);
    size_t done = 0;
    while (done < length) {
        ssize_t n = pread(d->fd, data + done, length - done, d->offset);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) { d->read_errno = errno; png_error(png, "read error"); }
        if (n == 0) png_error(png, "unexpected end of file");
        done += (size_t)n;
        d->offset += n;
    }
}

apng_decoder *apng_decoder_new(int fd) {
    apng_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->fd = fd;
    d->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, d, on_error, on_warning, d, on_malloc, on_free);
    if (!d->png) { free(d); return NULL; }
    d->info = png_create_info_struct(d->png);
    if (!d->info) { png_destroy_read_struct(&d->png, NULL, NULL); free(d); return NULL; }
    png_set_read_fn(d->png, d, on_read);
    return d;
}

void apng_decoder_free(apng_decoder *d) {
    if (!d) return;
    png_destroy_read_struct(&d->png, &d->info, NULL);
    free(d->image);
    free(d);
}

const char *apng_error(const apng_decoder *d) { return d->failure.message; }
int apng_failure(const apng_decoder *d) { return d->failure.kind; }

int apng_read_header(apng_decoder *d, apng_header *out) {
    if (setjmp(png_jmpbuf(d->png))) return -1;
    /* Sizes are checked by the caller against its own pixel limit; let libpng accept any size. */
    png_set_user_limits(d->png, 0x7fffffff, 0x7fffffff);
    png_set_chunk_malloc_max(d->png, APNG_ALLOCATION_LIMIT);
    png_read_info(d->png, d->info);
    png_uint_32 width, height;
    int depth, colour, interlace;
    png_get_IHDR(d->png, d->info, &width, &height, &depth, &colour, &interlace, NULL, NULL);
    png_set_expand(d->png);      /* palette to RGB, gray below 8 bits to 8, tRNS to alpha */
    if (depth == 16) png_set_scale_16(d->png);
    d->interlaced = interlace != PNG_INTERLACE_NONE;
    if (d->interlaced) png_set_interlace_handling(d->png);
    png_read_update_info(d->png, d->info);
    d->width = (int)width;
    d->height = (int)height;
    d->channels = png_get_channels(d->png, d->info);
    d->rowbytes = png_get_rowbytes(d->png, d->info);
    if (width > 0x7fffffff || height > 0x7fffffff || d->rowbytes != (size_t)width * (size_t)d->channels) {
        return bridge_fail(&d->failure, BRIDGE_FAILURE_UNSUPPORTED, "unexpected row layout (%lu bytes for %lu pixels of %d channels)",
                           (unsigned long)d->rowbytes, (unsigned long)width, d->channels);
    }
    out->width = d->width;
    out->height = d->height;
    out->channels = d->channels;
    out->interlaced = d->interlaced;
    return 0;
}

int apng_icc(apng_decoder *d, const uint8_t **data, unsigned *length) {
    *data = NULL;
    *length = 0;
    if (setjmp(png_jmpbuf(d->png))) return -1;
    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 len;
    if (png_get_iCCP(d->png, d->info, &name, &compression, &profile, &len) == PNG_INFO_iCCP) {
        *data = profile;
        *length = len;
    }
    return 0;
}

int apng_read_rows(apng_decoder *d, uint8_t *rows, int max_rows, int *rows_read) {
    *rows_read = 0;
    if (setjmp(png_jmpbuf(d->png))) return -1;
    if (d->interlaced && !d->image) {
        d->image = malloc(d->rowbytes * (size_t)d->height);
        if (!d->image) return bridge_fail(&d->failure, BRIDGE_FAILURE_OUT_OF_MEMORY, "out of memory");
        memset(d->image, 0xFF, d->rowbytes * (size_t)d->height);
        int passes = png_set_interlace_handling(d->png);
        for (int pass = 0; pass < passes; pass++)
            for (int y = 0; y < d->height; y++) png_read_row(d->png, d->image + (size_t)y * d->rowbytes, NULL);
    }
    int done = 0;
    while (done < max_rows && d->next_row < d->height) {
        uint8_t *row = rows + (size_t)done * d->rowbytes;
        if (d->image) memcpy(row, d->image + (size_t)d->next_row * d->rowbytes, d->rowbytes);
        else png_read_row(d->png, row, NULL);
        d->next_row++;
        done++;
    }
    *rows_read = done;
    return 0;
}

const char *apng_version(void) { return png_get_libpng_ver(NULL); }
