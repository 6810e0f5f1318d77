#include "raw_bridge.h"
#include "bridge_failure.h"
#include <errno.h>
#include <fcntl.h>
#include <libraw/libraw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* LibRaw is loaded on first use (dlopen), not linked, like libheif and libtiff (whose comment has
 * the start-up this saves every `render` of a JPEG): it brings libgomp along. A machine without it
 * still shows other photos; a RAW then fails with the reason. */
#include "load_on_first_use.h"

#define LIBRAW_FUNCTIONS(X) \
    X(libraw_close) \
    X(libraw_dcraw_clear_mem) \
    X(libraw_dcraw_make_mem_image) \
    X(libraw_dcraw_process) \
    X(libraw_init) \
    X(libraw_open_buffer) \
    X(libraw_open_file_ex) \
    X(libraw_recycle) \
    X(libraw_set_dataerror_handler) \
    X(libraw_strerror) \
    X(libraw_unpack) \
    X(libraw_unpack_thumb) \
    X(libraw_version)

static struct {
#define DECLARE(name) __typeof__(&name) name;
    LIBRAW_FUNCTIONS(DECLARE)
#undef DECLARE
} libraw;
static char libraw_unavailable[256];

static void load_libraw(void) {
    /* The soname of the version compiled against (LibRaw changes its ABI with every minor version). */
    char soname[32];
    snprintf(soname, sizeof soname, "libraw_r.so.%d", LIBRAW_SHLIB_CURRENT);
    void *library = load_library(soname, "LibRaw", libraw_unavailable, sizeof libraw_unavailable);
    if (!library) return;
#define RESOLVE(name) LOAD_FUNCTION_INTO(libraw, library, name, "LibRaw", libraw_unavailable)
    LIBRAW_FUNCTIONS(RESOLVE)
#undef RESOLVE
}

DEFINE_LOADED_ONCE(araw_unavailable, load_libraw, libraw_unavailable)

/* Below, every LibRaw function is the one loaded. */
#define libraw_close libraw.libraw_close
#define libraw_dcraw_clear_mem libraw.libraw_dcraw_clear_mem
#define libraw_dcraw_make_mem_image libraw.libraw_dcraw_make_mem_image
#define libraw_dcraw_process libraw.libraw_dcraw_process
#define libraw_init libraw.libraw_init
#define libraw_open_buffer libraw.libraw_open_buffer
#define libraw_open_file_ex libraw.libraw_open_file_ex
#define libraw_recycle libraw.libraw_recycle
#define libraw_set_dataerror_handler libraw.libraw_set_dataerror_handler
#define libraw_strerror libraw.libraw_strerror
#define libraw_unpack libraw.libraw_unpack
#define libraw_unpack_thumb libraw.libraw_unpack_thumb
#define libraw_version libraw.libraw_version

struct araw_decoder {
    libraw_data_t *raw;
    libraw_output_params_t params; /* the handle's parameters when it was taken, given back with it */
    uint8_t *bytes;                /* the whole file, when it is small (araw_open's in_memory_limit) */
    size_t length;
    libraw_processed_image_t *image;
    int has_preview;
    char path[64];
    int data_errors;    /* reads past the end or damaged data since the last check */
    int data_error_offset;
    bridge_failure failure;
};

/* LibRaw's default handler prints to stderr; this one counts, so that an image made partly of
 * missing data (a truncated or stripped file: LibRaw fills the gaps with whatever is in memory)
 * fails instead of coming out different every time. */
static void on_data_error(void *data, const char *file, const int offset) {
    (void)file;
    araw_decoder *d = data;
    if (d->data_errors++ == 0) d->data_error_offset = offset;
}

static int data_failed(araw_decoder *d, const char *what) {
    if (!d->data_errors) return 0;
    return bridge_fail(&d->failure, BRIDGE_FAILURE_CORRUPT, "%s: unexpected end of file or damaged data (%d times, first at offset %d)",
                       what, d->data_errors, d->data_error_offset);
}

/* One LibRaw handle kept per thread between renders: a handle is some 600 KB that LibRaw zeroes
 * as it makes it (a tenth of the fuzzer's time with ASan). libraw_recycle between files, as
 * between the two opens of one file below, leaves nothing of the last one; the parameters a
 * decode sets are put back as they were. A thread's handle is closed as the thread ends. */
static pthread_key_t spare_key;
static int spare_usable;
static void close_spare(void *raw) { libraw_close(raw); }
static void make_spare_key(void) { spare_usable = pthread_key_create(&spare_key, close_spare) == 0; }

araw_decoder *araw_decoder_new(void) {
    if (araw_unavailable()) return NULL;
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_spare_key);
    araw_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->raw = spare_usable ? pthread_getspecific(spare_key) : NULL;
    if (d->raw) pthread_setspecific(spare_key, NULL);
    else d->raw = libraw_init(0);
    if (!d->raw) { free(d); return NULL; }
    d->params = d->raw->params;
    libraw_set_dataerror_handler(d->raw, on_data_error, d);
    return d;
}

void araw_decoder_free(araw_decoder *d) {
    if (!d) return;
    if (d->image) libraw_dcraw_clear_mem(d->image);
    libraw_recycle(d->raw);
    d->raw->params = d->params;
    if (!spare_usable || pthread_getspecific(spare_key) || pthread_setspecific(spare_key, d->raw) != 0) libraw_close(d->raw);
    free(d->bytes);
    free(d);
}

const char *araw_error(const araw_decoder *d) { return d->failure.message; }
int araw_failure(const araw_decoder *d) { return d->failure.kind; }

/* What LibRaw's error `code` says of the file. Its I/O error is the content's: LibRaw gives it for
 * a file that ends early (reading past the end of what it holds), not for a failed read. */
static int kind_of(int code) {
    switch (code) {
    case LIBRAW_UNSUFFICIENT_MEMORY: return BRIDGE_FAILURE_OUT_OF_MEMORY;
    case LIBRAW_CANCELLED_BY_CALLBACK: return BRIDGE_FAILURE_CANCELLED;
    case LIBRAW_TOO_BIG: return BRIDGE_FAILURE_TOO_LARGE;
    default: return BRIDGE_FAILURE_CORRUPT;
    }
}

static int fail(araw_decoder *d, const char *what, int code) {
    return bridge_fail(&d->failure, kind_of(code), "%s: %s", what, libraw_strerror(code));
}

/* The whole file into d->bytes when it is a regular file of at most `limit` bytes: one read
 * instead of the seeks and reads LibRaw's parsers make as they go, hundreds for a file, each a
 * system call. Else (or on any failure) nothing, and it is read as parsed. */
static void read_small(araw_decoder *d, long limit) {
    int fd = open(d->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size <= limit &&
        (d->bytes = malloc((size_t)st.st_size))) {
        size_t done = 0;
        while (done < (size_t)st.st_size) {
            ssize_t n = pread(fd, d->bytes + done, (size_t)st.st_size - done, (off_t)done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            done += (size_t)n;
        }
        d->length = done;
        if (done == 0) { free(d->bytes); d->bytes = NULL; }
    }
    close(fd);
}

/* Larger files go through LibRaw's stdio datastream (the one it keeps for files over 250 MB):
 * glibc seeks within its buffer without a system call, where the default std::filebuf one makes
 * an lseek for every seek, and LibRaw's parsers seek for every TIFF tag. Opening and reading the
 * preview of the fuzz seeds took 0.08-0.17 ms instead of 0.15-0.51 ms. */
static int open_file(araw_decoder *d) {
    return d->bytes ? libraw_open_buffer(d->raw, d->bytes, d->length) : libraw_open_file_ex(d->raw, d->path, 0);
}

int araw_open(araw_decoder *d, const char *path, long in_memory_limit, araw_header *out) {
    memset(out, 0, sizeof *out);
    snprintf(d->path, sizeof d->path, "%s", path);
    read_small(d, in_memory_limit);
    int code = open_file(d);
    if (code != LIBRAW_SUCCESS) return fail(d, "not a RAW file LibRaw reads", code);
    if (data_failed(d, "cannot read the RAW's header")) return -1;
    libraw_data_t *r = d->raw;
    out->width = r->sizes.width;
    out->height = r->sizes.height;
    out->raw_width = r->sizes.raw_width;
    out->raw_height = r->sizes.raw_height;
    out->flip = r->sizes.flip;
    out->adobe_rgb = r->color.ExifColorSpace == LIBRAW_COLORSPACE_AdobeRGB;
    if (libraw_unpack_thumb(r) == LIBRAW_SUCCESS && !d->data_errors && r->thumbnail.thumb && r->thumbnail.tlength > 0) {
        if (r->thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG) out->preview = ARAW_PREVIEW_JPEG;
        else if (r->thumbnail.tformat == LIBRAW_THUMBNAIL_BITMAP && r->thumbnail.tcolors == 3 &&
                 (size_t)r->thumbnail.tlength >= (size_t)r->thumbnail.twidth * r->thumbnail.theight * 3)
            out->preview = ARAW_PREVIEW_BITMAP;
        out->preview_width = r->thumbnail.twidth;
        out->preview_height = r->thumbnail.theight;
        d->has_preview = out->preview != ARAW_PREVIEW_NONE;
    }
    d->data_errors = 0; /* a damaged preview is only not used */
    return 0;
}

int araw_preview(araw_decoder *d, const uint8_t **data, size_t *length) {
    *data = d->has_preview ? (const uint8_t *)d->raw->thumbnail.thumb : NULL;
    *length = d->has_preview ? (size_t)d->raw->thumbnail.tlength : 0;
    return 0;
}

int araw_profile(araw_decoder *d, const uint8_t **data, size_t *length) {
    libraw_data_t *r = d->raw;
    int usable = r->color.profile && r->color.profile_length >= 132;
    *data = usable ? (const uint8_t *)r->color.profile : NULL;
    *length = usable ? r->color.profile_length : 0;
    return 0;
}

int araw_decode_half(araw_decoder *d, const uint8_t **pixels, int *width, int *height, int *channels) {
    libraw_data_t *r = d->raw;
    /* Start again from open: unpack after unpack_thumb is refused by some LibRaw paths. */
    libraw_recycle(r);
    int code = open_file(d);
    if (code != LIBRAW_SUCCESS) return fail(d, "cannot reopen the RAW", code);
    r->params.half_size = 1;
    r->params.use_camera_wb = 1;
    r->params.output_bps = 8;
    r->params.output_color = 1; /* sRGB */
    code = libraw_unpack(r);
    if (code != LIBRAW_SUCCESS) return fail(d, "cannot unpack the sensor data", code);
    if (data_failed(d, "sensor data incomplete")) return -1;
    code = libraw_dcraw_process(r);
    if (code != LIBRAW_SUCCESS) return fail(d, "cannot process the sensor data", code);
    if (data_failed(d, "sensor data incomplete")) return -1;
    d->image = libraw_dcraw_make_mem_image(r, &code);
    if (!d->image) return fail(d, "cannot make the image", code);
    if (d->image->type != LIBRAW_IMAGE_BITMAP || d->image->bits != 8 || (d->image->colors != 3 && d->image->colors != 1)) {
        return bridge_fail(&d->failure, BRIDGE_FAILURE_UNSUPPORTED, "unexpected decoded image (%d colours, %d bits)", d->image->colors, d->image->bits);
    }
    *pixels = d->image->data;
    *width = d->image->width;
    *height = d->image->height;
    *channels = d->image->colors;
    return 0;
}

const char *araw_version(void) { return araw_unavailable() ? "unavailable" : libraw_version(); }
