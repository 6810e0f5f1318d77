#include "tiff_bridge.h"
#include "bridge_failure.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tiffio.h>
#include <unistd.h>

/* libtiff is loaded on first use (dlopen), not linked, like libheif: with what it brings (libzstd,
 * liblzma, libLerc, libjbig, libdeflate) it was loaded by every assetfs process, each `render` of
 * a JPEG. Loading libtiff and LibRaw on first use took `assetfs --version` from 635 to 555 page
 * faults and from 6.9 to 5.0 ms of CPU (medians, a busy machine). A machine without libtiff still
 * shows other photos; a TIFF then fails with the reason. */
#include "load_on_first_use.h"

#define LIBTIFF_FUNCTIONS(X) \
    X(TIFFClientOpenExt) \
    X(TIFFClose) \
    X(TIFFGetField) \
    X(TIFFGetFieldDefaulted) \
    X(TIFFGetVersion) \
    X(TIFFIsTiled) \
    X(TIFFOpenOptionsAlloc) \
    X(TIFFOpenOptionsFree) \
    X(TIFFOpenOptionsSetErrorHandlerExtR) \
    X(TIFFOpenOptionsSetMaxSingleMemAlloc) \
    X(TIFFOpenOptionsSetWarningHandlerExtR) \
    X(TIFFRGBAImageBegin) \
    X(TIFFRGBAImageEnd) \
    X(TIFFRGBAImageGet) \
    X(TIFFRGBAImageOK) \
    X(TIFFStripSize64) \
    X(TIFFTileSize64)

static struct {
#define DECLARE(name) __typeof__(&name) name;
    LIBTIFF_FUNCTIONS(DECLARE)
#undef DECLARE
} libtiff;
static char libtiff_unavailable[256];

static void load_libtiff(void) {
    /* The soname of libtiff 4.5 and later (TIFFOpenOptions came with 4.5). */
    void *library = load_library("libtiff.so.6", "libtiff", libtiff_unavailable, sizeof libtiff_unavailable);
    if (!library) return;
#define RESOLVE(name) LOAD_FUNCTION_INTO(libtiff, library, name, "libtiff", libtiff_unavailable)
    LIBTIFF_FUNCTIONS(RESOLVE)
#undef RESOLVE
}

DEFINE_LOADED_ONCE(atiff_unavailable, load_libtiff, libtiff_unavailable)

/* Below, every libtiff function is the one loaded. */
#define TIFFClientOpenExt libtiff.TIFFClientOpenExt
#define TIFFClose libtiff.TIFFClose
#define TIFFGetField libtiff.TIFFGetField
#define TIFFGetFieldDefaulted libtiff.TIFFGetFieldDefaulted
#define TIFFGetVersion libtiff.TIFFGetVersion
#define TIFFIsTiled libtiff.TIFFIsTiled
#define TIFFOpenOptionsAlloc libtiff.TIFFOpenOptionsAlloc
#define TIFFOpenOptionsFree libtiff.TIFFOpenOptionsFree
#define TIFFOpenOptionsSetErrorHandlerExtR libtiff.TIFFOpenOptionsSetErrorHandlerExtR
#define TIFFOpenOptionsSetMaxSingleMemAlloc libtiff.TIFFOpenOptionsSetMaxSingleMemAlloc
#define TIFFOpenOptionsSetWarningHandlerExtR libtiff.TIFFOpenOptionsSetWarningHandlerExtR
#define TIFFRGBAImageBegin libtiff.TIFFRGBAImageBegin
#define TIFFRGBAImageEnd libtiff.TIFFRGBAImageEnd
#define TIFFRGBAImageGet libtiff.TIFFRGBAImageGet
#define TIFFRGBAImageOK libtiff.TIFFRGBAImageOK
#define TIFFStripSize64 libtiff.TIFFStripSize64
#define TIFFTileSize64 libtiff.TIFFTileSize64

struct atiff_decoder {
    int fd;
    off_t offset;
    TIFF *tif;
    TIFFRGBAImage image;
    int began;
    bridge_failure failure;
    char library_message[256]; /* libtiff's first error, the likely cause of the failure that follows */
    int has_library_message;
    int read_errno; /* a failed pread: the file, not its content, is at fault */
    int width, height, band_rows;
    uint32_t *band;    /* band_rows x width RGBA */
    int band_first;    /* first row in `band`, -1 when empty */
    int band_count;
    int next_row;
};

static int on_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module;
    atiff_decoder *d = user;
    if (!d->has_library_message) { vsnprintf(d->library_message, sizeof d->library_message, fmt, ap); d->has_library_message = 1; }
    return 1;
}

static int on_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)user; (void)module; (void)fmt; (void)ap;
    return 1;
}

static tmsize_t proc_read(thandle_t h, void *buffer, tmsize_t size) {
    atiff_decoder *d = h;
    tmsize_t done = 0;
    while (done < size) {
        ssize_t n = pread(d->fd, (char *)buffer + done, (size_t)(size - done), d->offset);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) d->read_errno = errno;
        if (n <= 0) break;
        done += n;
        d->offset += n;
    }
    return done;
}

static tmsize_t proc_write(thandle_t h, void *buffer, tmsize_t size) { (void)h; (void)buffer; (void)size; return -1; }

static uint64_t file_size(atiff_decoder *d) {
    struct stat st;
    return fstat(d->fd, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static toff_t proc_seek(thandle_t h, toff_t offset, int whence) {
    atiff_decoder *d = h;
    off_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? d->offset : (off_t)file_size(d);
    if (offset > (toff_t)INT64_MAX - (toff_t)base) return (toff_t)-1;
    d->offset = base + (off_t)offset;
    return (toff_t)d->offset;
}

static int proc_close(thandle_t h) { (void)h; return 0; }
static toff_t proc_size(thandle_t h) { return file_size(h); }
static int proc_map(thandle_t h, void **base, toff_t *size) { (void)h; (void)base; (void)size; return 0; }
static void proc_unmap(thandle_t h, void *base, toff_t size) { (void)h; (void)base; (void)size; }

atiff_decoder *atiff_decoder_new(int fd) {
    if (atiff_unavailable()) return NULL;
    atiff_decoder *d = calloc(1, sizeof *d);
    if (d) { d->fd = fd; d->band_first = -1; }
    return d;
}

void atiff_decoder_free(atiff_decoder *d) {
    if (!d) return;
    if (d->began) TIFFRGBAImageEnd(&d->image);
    if (d->tif) TIFFClose(d->tif);
    free(d->band);
    free(d);
}

const char *atiff_error(const atiff_decoder *d) { return d->failure.message; }
int atiff_failure(const atiff_decoder *d) { return d->failure.kind; }

/* A failed call: a read error if one came under it, else of `kind`, told by libtiff's first
 * error message if it gave one, else by `fallback`. */
static int fail(atiff_decoder *d, int kind, const char *fallback) {
    if (d->read_errno) return bridge_fail(&d->failure, BRIDGE_FAILURE_READ, "read error: %s", strerror(d->read_errno));
    return bridge_fail(&d->failure, kind, "%s", d->has_library_message ? d->library_message : fallback);
}

int atiff_read_header(atiff_decoder *d, atiff_header *out) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) return fail(d, BRIDGE_FAILURE_OUT_OF_MEMORY, "out of memory");
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, d);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, d);
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)512 << 20);
    d->tif = TIFFClientOpenExt("image", "rm", d, proc_read, proc_write, proc_seek, proc_close, proc_size,
                               proc_map, proc_unmap, options);
    TIFFOpenOptionsFree(options);
    if (!d->tif) return fail(d, BRIDGE_FAILURE_CORRUPT, "not a readable TIFF");
    uint32_t width = 0, height = 0;
    uint16_t orientation = 1, photometric = 0, samples = 1, extra = 0;
    uint16_t *extra_types = NULL;
    TIFFGetField(d->tif, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(d->tif, TIFFTAG_IMAGELENGTH, &height);
    TIFFGetFieldDefaulted(d->tif, TIFFTAG_ORIENTATION, &orientation);
    TIFFGetFieldDefaulted(d->tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(d->tif, TIFFTAG_EXTRASAMPLES, &extra, &extra_types);
    if (!TIFFGetField(d->tif, TIFFTAG_PHOTOMETRIC, &photometric)) photometric = PHOTOMETRIC_MINISWHITE;
    if (width == 0 || height == 0 || width > 0x7fffffff || height > 0x7fffffff) return fail(d, BRIDGE_FAILURE_CORRUPT, "image has no pixels");
    d->width = (int)width;
    d->height = (int)height;
    out->width = d->width;
    out->height = d->height;
    out->orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    out->gray = (photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE) && samples - extra == 1;
    uint32_t band = 0;
    uint64_t buffer = 0;
    if (TIFFIsTiled(d->tif)) {
        uint32_t tile_height = 0;
        TIFFGetField(d->tif, TIFFTAG_TILELENGTH, &tile_height);
        band = tile_height;
        buffer = (uint64_t)TIFFTileSize64(d->tif);
    } else {
        TIFFGetFieldDefaulted(d->tif, TIFFTAG_ROWSPERSTRIP, &band);
        buffer = (uint64_t)TIFFStripSize64(d->tif);
    }
    if (band == 0 || band > height) band = height;
    d->band_rows = (int)band;
    out->band_bytes = (uint64_t)band * width * 4 + buffer;
    return 0;
}

int atiff_icc(atiff_decoder *d, const uint8_t **data, unsigned *length) {
    *data = NULL;
    *length = 0;
    uint32_t count = 0;
    void *profile = NULL;
    if (TIFFGetField(d->tif, TIFFTAG_ICCPROFILE, &count, &profile) && profile && count > 0) {
        *data = profile;
        *length = count;
    }
    return 0;
}

static int load_band(atiff_decoder *d, int first) {
    if (!d->began) {
        char emsg[1024] = "";
        if (!TIFFRGBAImageOK(d->tif, emsg)) return bridge_fail(&d->failure, BRIDGE_FAILURE_UNSUPPORTED, "unsupported: %s", emsg);
        if (!TIFFRGBAImageBegin(&d->image, d->tif, 1, emsg)) return bridge_fail(&d->failure, BRIDGE_FAILURE_CORRUPT, "%s", emsg);
        d->began = 1;
        d->image.req_orientation = d->image.orientation; /* stored order: the caller applies the orientation */
        d->band = malloc((size_t)d->band_rows * (size_t)d->width * 4);
        if (!d->band) return fail(d, BRIDGE_FAILURE_OUT_OF_MEMORY, "out of memory");
    }
    int count = d->height - first < d->band_rows ? d->height - first : d->band_rows;
    d->image.row_offset = first;
    d->image.col_offset = 0;
    if (!TIFFRGBAImageGet(&d->image, d->band, (uint32_t)d->width, (uint32_t)count)) return fail(d, BRIDGE_FAILURE_CORRUPT, "corrupt image data");
    d->band_first = first;
    d->band_count = count;
    return 0;
}

int atiff_read_rows(atiff_decoder *d, uint8_t *rows, int max_rows, int *rows_read) {
    *rows_read = 0;
    size_t rowbytes = (size_t)d->width * 4;
    int done = 0;
    while (done < max_rows && d->next_row < d->height) {
        if (d->band_first < 0 || d->next_row >= d->band_first + d->band_count)
            if (load_band(d, d->next_row) != 0) return -1;
        memcpy(rows + (size_t)done * rowbytes, (uint8_t *)d->band + (size_t)(d->next_row - d->band_first) * rowbytes, rowbytes);
        d->next_row++;
        done++;
    }
    *rows_read = done;
    return 0;
}

const char *atiff_version(void) { return atiff_unavailable() ? "unavailable" : TIFFGetVersion(); }
