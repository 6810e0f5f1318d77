#include "heif_bridge.h"
#include <dlfcn.h>
#include <errno.h>
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* libheif is loaded on first use (dlopen), not linked: its static initialiser starts libde265
 * and it brings libx265, libaom and dav1d along, so linking it cost every assetfs process (each
 * `render` of a JPEG) 5 ms of CPU at start-up, 8.3 -> 3 ms for `assetfs --version`. A machine
 * without it still shows other photos; a HEIC then fails with the reason. */
#include "load_on_first_use.h"

#define LIBHEIF_FUNCTIONS(X) \
    X(heif_context_alloc) \
    X(heif_context_free) \
    X(heif_context_get_primary_image_handle) \
    X(heif_context_read_from_reader) \
    X(heif_context_set_maximum_image_size_limit) \
    X(heif_decode_image) \
    X(heif_decoding_options_alloc) \
    X(heif_decoding_options_free) \
    X(heif_get_version) \
    X(heif_image_get_bits_per_pixel) \
    X(heif_image_get_bits_per_pixel_range) \
    X(heif_image_get_chroma_format) \
    X(heif_image_get_colorspace) \
    X(heif_image_get_height) \
    X(heif_image_get_nclx_color_profile) \
    X(heif_image_get_plane_readonly) \
    X(heif_image_get_width) \
    X(heif_image_handle_get_height) \
    X(heif_image_handle_get_ispe_height) \
    X(heif_image_handle_get_ispe_width) \
    X(heif_image_handle_get_list_of_thumbnail_IDs) \
    X(heif_image_handle_get_luma_bits_per_pixel) \
    X(heif_image_handle_get_nclx_color_profile) \
    X(heif_image_handle_get_number_of_thumbnails) \
    X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_raw_color_profile_size) \
    X(heif_image_handle_get_thumbnail) \
    X(heif_image_handle_get_width) \
    X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_release) \
    X(heif_image_release) \
    X(heif_nclx_color_profile_free)

/* Functions of libheif 1.19 and later, used when both the headers built against and the library
 * loaded have them (the headers may be newer than the .so): NULL otherwise. */
#if LIBHEIF_HAVE_VERSION(1, 19, 0)
#define LIBHEIF_1_19_FUNCTIONS(X) X(heif_image_handle_get_image_tiling)
#else
#define LIBHEIF_1_19_FUNCTIONS(X)
#endif

static struct {
#define DECLARE(name) __typeof__(&name) name;
    LIBHEIF_FUNCTIONS(DECLARE)
    LIBHEIF_1_19_FUNCTIONS(DECLARE)
#undef DECLARE
} libheif;
static char libheif_unavailable[256];

static void load_libheif(void) {
    /* The soname of the major version compiled against (libheif keeps its ABI within one). */
    char soname[32];
    snprintf(soname, sizeof soname, "libheif.so.%d", LIBHEIF_NUMERIC_VERSION >> 24);
    void *library = load_library(soname, "libheif", libheif_unavailable, sizeof libheif_unavailable);
    if (!library) return;
#define RESOLVE(name) LOAD_FUNCTION_INTO(libheif, library, name, "libheif", libheif_unavailable)
    LIBHEIF_FUNCTIONS(RESOLVE)
#undef RESOLVE
#define RESOLVE_IF_THERE(name) libheif.name = (__typeof__(libheif.name))dlsym(library, #name);
    LIBHEIF_1_19_FUNCTIONS(RESOLVE_IF_THERE)
#undef RESOLVE_IF_THERE
}

DEFINE_LOADED_ONCE(aheif_unavailable, load_libheif, libheif_unavailable)

/* Below, every libheif function is the one loaded. */
#define heif_context_alloc libheif.heif_context_alloc
#define heif_context_free libheif.heif_context_free
#define heif_context_get_primary_image_handle libheif.heif_context_get_primary_image_handle
#define heif_context_read_from_reader libheif.heif_context_read_from_reader
#define heif_context_set_maximum_image_size_limit libheif.heif_context_set_maximum_image_size_limit
#define heif_decode_image libheif.heif_decode_image
#define heif_decoding_options_alloc libheif.heif_decoding_options_alloc
#define heif_decoding_options_free libheif.heif_decoding_options_free
#define heif_get_version libheif.heif_get_version
#define heif_image_get_bits_per_pixel libheif.heif_image_get_bits_per_pixel
#define heif_image_get_bits_per_pixel_range libheif.heif_image_get_bits_per_pixel_range
#define heif_image_get_chroma_format libheif.heif_image_get_chroma_format
#define heif_image_get_colorspace libheif.heif_image_get_colorspace
#define heif_image_get_height libheif.heif_image_get_height
#define heif_image_get_nclx_color_profile libheif.heif_image_get_nclx_color_profile
#define heif_image_get_plane_readonly libheif.heif_image_get_plane_readonly
#define heif_image_get_width libheif.heif_image_get_width
#define heif_image_handle_get_height libheif.heif_image_handle_get_height
#define heif_image_handle_get_ispe_height libheif.heif_image_handle_get_ispe_height
#define heif_image_handle_get_ispe_width libheif.heif_image_handle_get_ispe_width
#define heif_image_handle_get_list_of_thumbnail_IDs libheif.heif_image_handle_get_list_of_thumbnail_IDs
#define heif_image_handle_get_luma_bits_per_pixel libheif.heif_image_handle_get_luma_bits_per_pixel
#define heif_image_handle_get_nclx_color_profile libheif.heif_image_handle_get_nclx_color_profile
#define heif_image_handle_get_number_of_thumbnails libheif.heif_image_handle_get_number_of_thumbnails
#define heif_image_handle_get_raw_color_profile libheif.heif_image_handle_get_raw_color_profile
#define heif_image_handle_get_raw_color_profile_size libheif.heif_image_handle_get_raw_color_profile_size
#define heif_image_handle_get_thumbnail libheif.heif_image_handle_get_thumbnail
#define heif_image_handle_get_width libheif.heif_image_handle_get_width
#define heif_image_handle_has_alpha_channel libheif.heif_image_handle_has_alpha_channel
#define heif_image_handle_release libheif.heif_image_handle_release
#define heif_image_release libheif.heif_image_release
#define heif_nclx_color_profile_free libheif.heif_nclx_color_profile_free

struct aheif_decoder {
    int fd;
    int64_t position, size;
    struct heif_context *context;
    struct heif_image_handle *primary, *thumbnail;
    struct heif_image *image;
    uint8_t *icc[2];     /* the primary image's, the thumbnail item's */
    size_t icc_length[2];
    char message[256];
    int failure;    /* BRIDGE_FAILURE_* of the last failure */
    int read_errno; /* a failed pread: the file, not its content, is at fault */
    int past_end;   /* the container sent libheif past the end of the file: the content is at fault */
    struct aheif_rows *rows;
    struct { int64_t offset; uint8_t bytes[8]; size_t length; } edits[4];
    int edit_count;
};

/* Records a failure of `kind` that is not libheif's answer; returns -1. */
static int failed(aheif_decoder *d, int kind, const char *message) {
    d->failure = kind;
    snprintf(d->message, sizeof d->message, "%s", message);
    return -1;
}

/* The edits that overlap [position, position + size) applied to `data`, read from there. */
static void apply_edits(const aheif_decoder *d, uint8_t *data, int64_t position, size_t size) {
    for (int i = 0; i < d->edit_count; i++) {
        for (size_t k = 0; k < d->edits[i].length; k++) {
            int64_t at = d->edits[i].offset + (int64_t)k - position;
            if (at >= 0 && at < (int64_t)size) data[at] = d->edits[i].bytes[k];
        }
    }
}

static int64_t r_position(void *user) { return ((aheif_decoder *)user)->position; }

/* A read that fails (an I/O error, or the file shorter than when it was opened) is recorded in
   read_errno and handed to libheif as zeros: libheif 1.15 asserts, and so aborts the whole
   process, when its reader fails while it opens a file. Every call into libheif that reads is
   followed by a check of read_errno (see `checked`). */
static int r_read(void *data, size_t size, void *user) {
    aheif_decoder *d = user;
    size_t done = 0;
    if (d->position + (int64_t)size > d->size) d->past_end = 1;
    while (done < size && !d->read_errno && d->position + (int64_t)done < d->size) {
        ssize_t n = pread(d->fd, (char *)data + done, size - done, (off_t)(d->position + (int64_t)done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) d->read_errno = errno;
        else if (n == 0) d->read_errno = EIO;
        else done += (size_t)n;
    }
    if (done < size) memset((char *)data + done, 0, size - done);
    apply_edits(d, data, d->position, size);
    d->position += (int64_t)size;
    return 0;
}

/* A seek past the end succeeds (libheif 1.19 asserts, aborting the process, when a seek fails
   as it opens a box); what is read there is zeros, and the content is then at fault. */
static int r_seek(int64_t position, void *user) {
    aheif_decoder *d = user;
    if (position < 0) return -1;
    if (position > d->size) d->past_end = 1;
    d->position = position;
    return 0;
}

static enum heif_reader_grow_status r_wait(int64_t target, void *user) {
    aheif_decoder *d = user;
    return target > d->size ? heif_reader_grow_status_size_beyond_eof : heif_reader_grow_status_size_reached;
}

static const struct heif_reader reader = {1, r_position, r_read, r_seek, r_wait};

/* libheif's error `e` while doing `what`: a read failure under it, memory it could not allocate,
   or its refusal of the content (a security limit it enforces included). */
static int fail(aheif_decoder *d, const char *what, struct heif_error e) {
    if (d->read_errno) {
        snprintf(d->message, sizeof d->message, "read error: %s", strerror(d->read_errno));
        d->failure = BRIDGE_FAILURE_READ;
        return -1;
    }
    if (d->past_end) {
        snprintf(d->message, sizeof d->message, "%s: the container points past the end of the file", what);
        d->failure = BRIDGE_FAILURE_CORRUPT;
        return -1;
    }
    snprintf(d->message, sizeof d->message, "%s: %s", what, e.message ? e.message : "libheif error");
    d->failure = e.subcode == heif_suberror_Security_limit_exceeded ? BRIDGE_FAILURE_TOO_LARGE
        : e.code == heif_error_Memory_allocation_error ? BRIDGE_FAILURE_OUT_OF_MEMORY
        : e.code == heif_error_Unsupported_filetype || e.code == heif_error_Unsupported_feature ? BRIDGE_FAILURE_UNSUPPORTED
        : BRIDGE_FAILURE_CORRUPT;
    return -1;
}

/* Drops the image of an earlier decode: a render may decode twice (the thumbnail item, then the
   primary image when the thumbnail fails), and heif_decode_image overwrites its out pointer. */
static void release_image(aheif_decoder *d) {
    if (d->image) heif_image_release(d->image);
    d->image = NULL;
}

/* libheif's answer, made an error when a read failed or went past the end under it (it saw
   zeros, not the file). */
static struct heif_error checked(aheif_decoder *d, struct heif_error e) {
    if (e.code == heif_error_Ok && (d->read_errno || d->past_end)) e.code = heif_error_Invalid_input;
    return e;
}

aheif_decoder *aheif_decoder_new(int fd) {
    if (aheif_unavailable()) return NULL;
    aheif_decoder *d = calloc(1, sizeof *d);
    if (d) d->fd = fd;
    return d;
}

void aheif_decoder_free(aheif_decoder *d) {
    if (!d) return;
    if (d->image) heif_image_release(d->image);
    if (d->thumbnail) heif_image_handle_release(d->thumbnail);
    if (d->primary) heif_image_handle_release(d->primary);
    if (d->context) heif_context_free(d->context);
    free(d->icc[0]);
    free(d->icc[1]);
    free(d->rows);
    free(d);
}

const char *aheif_error(const aheif_decoder *d) { return d->message; }

int aheif_failure(const aheif_decoder *d) { return d->failure; }

int aheif_edit(aheif_decoder *d, int64_t offset, const uint8_t *bytes, size_t length) {
    int max = (int)(sizeof d->edits / sizeof d->edits[0]);
    if (d->context || d->edit_count == max || length > sizeof d->edits[0].bytes || offset < 0)
        return failed(d, BRIDGE_FAILURE_UNSUPPORTED, "an edit of the container the bridge cannot make");
    d->edits[d->edit_count].offset = offset;
    memcpy(d->edits[d->edit_count].bytes, bytes, length);
    d->edits[d->edit_count].length = length;
    d->edit_count++;
    return 0;
}

/* The colour information `handle` carries itself: its ICC profile (kept in *icc), else its nclx. */
static void read_colour(struct heif_image_handle *handle, uint8_t **icc, size_t *icc_length, aheif_colour *out) {
    size_t size = heif_image_handle_get_raw_color_profile_size(handle);
    if (size > 0 && size < (64u << 20)) {
        *icc = malloc(size);
        if (*icc && heif_image_handle_get_raw_color_profile(handle, *icc).code == heif_error_Ok) {
            *icc_length = size;
            out->kind = AHEIF_COLOUR_ICC;
            return;
        }
    }
    /* Freed whatever the answer: libheif 1.15 can allocate the profile and still fail. */
    struct heif_color_profile_nclx *nclx = NULL;
    struct heif_error got = heif_image_handle_get_nclx_color_profile(handle, &nclx);
    if (got.code != heif_error_Ok && nclx) { heif_nclx_color_profile_free(nclx); nclx = NULL; }
    if (!nclx) return;
    out->kind = AHEIF_COLOUR_NCLX;
    out->primaries = nclx->color_primaries;
    out->transfer = nclx->transfer_characteristics;
    out->rx = nclx->color_primary_red_x; out->ry = nclx->color_primary_red_y;
    out->gx = nclx->color_primary_green_x; out->gy = nclx->color_primary_green_y;
    out->bx = nclx->color_primary_blue_x; out->by = nclx->color_primary_blue_y;
    out->wx = nclx->color_primary_white_x; out->wy = nclx->color_primary_white_y;
    heif_nclx_color_profile_free(nclx);
}

static int larger(int a, int b) { return a > b ? a : b; }

/* The largest side of what `handle` is coded at: its ispe (before clap, irot and imir) and, where
   libheif tells a grid's tile layout (1.19), its tiles laid side by side (the right and bottom
   ones may be cut by the grid's output size). */
static int largest_coded_side(struct heif_image_handle *handle) {
    int largest = larger(heif_image_handle_get_ispe_width(handle), heif_image_handle_get_ispe_height(handle));
#if LIBHEIF_HAVE_VERSION(1, 19, 0)
    struct heif_image_tiling tiling;
    if (libheif.heif_image_handle_get_image_tiling
        && libheif.heif_image_handle_get_image_tiling(handle, 0, &tiling).code == heif_error_Ok
        && tiling.num_columns <= 65536 && tiling.num_rows <= 65536 && tiling.tile_width <= 65536 && tiling.tile_height <= 65536) {
        int64_t across = (int64_t)tiling.num_columns * tiling.tile_width, down = (int64_t)tiling.num_rows * tiling.tile_height;
        if (across < (1 << 29) && down < (1 << 29)) largest = larger(largest, larger((int)across, (int)down));
    }
#endif
    return largest;
}

int aheif_read_header(aheif_decoder *d, aheif_header *out) {
    memset(out, 0, sizeof *out);
    struct stat st;
    if (fstat(d->fd, &st) != 0) {
        snprintf(d->message, sizeof d->message, "read error: %s", strerror(errno));
        d->failure = BRIDGE_FAILURE_READ;
        return -1;
    }
    d->size = st.st_size;
    d->context = heif_context_alloc();
    if (!d->context) return failed(d, BRIDGE_FAILURE_OUT_OF_MEMORY, "out of memory");
    struct heif_error e = checked(d, heif_context_read_from_reader(d->context, &reader, d, NULL));
    if (e.code != heif_error_Ok) return fail(d, "cannot read the container", e);
    e = heif_context_get_primary_image_handle(d->context, &d->primary);
    if (e.code != heif_error_Ok) return fail(d, "no primary image", e);
    out->width = heif_image_handle_get_width(d->primary);
    out->height = heif_image_handle_get_height(d->primary);
    out->bits = heif_image_handle_get_luma_bits_per_pixel(d->primary);

    int count = heif_image_handle_get_number_of_thumbnails(d->primary);
    if (count > 0) {
        heif_item_id ids[16];
        if (count > 16) count = 16;
        count = heif_image_handle_get_list_of_thumbnail_IDs(d->primary, ids, count);
        long best = 0;
        for (int i = 0; i < count; i++) {
            struct heif_image_handle *t = NULL;
            if (heif_image_handle_get_thumbnail(d->primary, ids[i], &t).code != heif_error_Ok || !t) continue;
            long area = (long)heif_image_handle_get_width(t) * heif_image_handle_get_height(t);
            if (area > best) {
                if (d->thumbnail) heif_image_handle_release(d->thumbnail);
                d->thumbnail = t;
                best = area;
            } else {
                heif_image_handle_release(t);
            }
        }
        if (d->thumbnail) {
            out->thumb_width = heif_image_handle_get_width(d->thumbnail);
            out->thumb_height = heif_image_handle_get_height(d->thumbnail);
        }
    }

    read_colour(d->primary, &d->icc[0], &d->icc_length[0], &out->colour);
    if (d->thumbnail) read_colour(d->thumbnail, &d->icc[1], &d->icc_length[1], &out->thumb_colour);
    /* The caller checks the shown sizes against its pixel cap and budget; a damaged grid
       descriptor can still make libheif assemble a far larger canvas (a 64x64 image decoding to
       18757x20036). libheif refuses an image past its size limit before allocating it: the limit
       is the largest coded side (before clap crops it: a 330x385 crop of a 1024x722 AV1 image).
       libheif 1.19's other security limits keep their defaults: 1000 items, the count item
       references are checked against too (libvips's 16 refused iPhone HEICs with 48). */
    int largest = largest_coded_side(d->primary);
    if (d->thumbnail && largest_coded_side(d->thumbnail) > largest) largest = largest_coded_side(d->thumbnail);
    if (largest > 0 && largest < (1 << 29)) heif_context_set_maximum_image_size_limit(d->context, largest + 1);
    return 0;
}

int aheif_icc(aheif_decoder *d, int thumbnail, const uint8_t **data, size_t *length) {
    int which = thumbnail ? 1 : 0;
    *data = d->icc_length[which] ? d->icc[which] : NULL;
    *length = d->icc_length[which];
    return 0;
}

/* Decodes the primary image (thumbnail = 0) or the largest thumbnail (1) as interleaved 8-bit
   RGB(A): the fallback of aheif_decode_planes for layouts it does not read. */
static int decode_interleaved(aheif_decoder *d, int thumbnail, const uint8_t **pixels, int *width, int *height,
                              int *channels, int *stride) {
    struct heif_image_handle *handle = thumbnail && d->thumbnail ? d->thumbnail : d->primary;
    int alpha = heif_image_handle_has_alpha_channel(handle);
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (!options) return failed(d, BRIDGE_FAILURE_OUT_OF_MEMORY, "out of memory");
    options->convert_hdr_to_8bit = 1;
    release_image(d);
    struct heif_error e = checked(d, heif_decode_image(handle, &d->image, heif_colorspace_RGB,
                                            alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options));
    heif_decoding_options_free(options);
    if (e.code != heif_error_Ok) return fail(d, "cannot decode the image", e);
    int s = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(d->image, heif_channel_interleaved, &s);
    if (!plane) return failed(d, BRIDGE_FAILURE_CORRUPT, "decoded image has no pixels");
    if (heif_image_get_bits_per_pixel_range(d->image, heif_channel_interleaved) != 8)
        return failed(d, BRIDGE_FAILURE_CORRUPT, "decoded image is not 8-bit");
    *pixels = plane;
    *width = heif_image_get_width(d->image, heif_channel_interleaved);
    *height = heif_image_get_height(d->image, heif_channel_interleaved);
    *channels = alpha ? 4 : 3;
    *stride = s;
    return 0;
}

const char *aheif_version(void) { return aheif_unavailable() ? "unavailable" : heif_get_version(); }

/* ---- decoded planes, interleaved into 8-bit RGB(A) rows a row at a time ---- */

/* One decoded plane and how its samples map to 8 bits: (sample - offset) * scale, 16.16 fixed point. */
typedef struct {
    const uint8_t *base;
    int stride, wide; /* wide: 16-bit storage */
    int exact;        /* 8-bit full range: samples are the output as they are */
    int32_t offset, scale;
} plane_ref;

struct aheif_rows {
    int width, height, channels, next;
    int interleaved; /* libheif's interleaved RGB(A) (the fallback): rows copied as they are */
    const uint8_t *rgb;
    int rgb_stride;
    plane_ref planes[4]; /* R, G, B (each the Y plane of a monochrome image), then alpha */
};

static struct aheif_rows *rows_of(aheif_decoder *d) {
    if (!d->rows) d->rows = calloc(1, sizeof *d->rows);
    return d->rows;
}

static int plane(struct heif_image *image, enum heif_channel channel, int full_range, int width, int height, plane_ref *out) {
    memset(out, 0, sizeof *out);
    int bits = heif_image_get_bits_per_pixel_range(image, channel);
    out->base = heif_image_get_plane_readonly(image, channel, &out->stride);
    if (!out->base || bits < 1 || bits > 16) return -1;
    if (heif_image_get_width(image, channel) < width || heif_image_get_height(image, channel) < height) return -1;
    out->wide = heif_image_get_bits_per_pixel(image, channel) > 8;
    double low = 0, high = (double)((1 << bits) - 1);
    if (!full_range && bits >= 8) {
        low = (double)(16 << (bits - 8));
        high = (double)(235 << (bits - 8));
    }
    out->offset = (int32_t)low;
    out->scale = (int32_t)(255.0 * 65536.0 / (high - low) + 0.5);
    out->exact = !out->wide && out->offset == 0 && out->scale == 65536;
    return 0;
}

/* The range of a monochrome image's samples: its nclx (bitstream or colr), else full. */
static int full_range_of(struct heif_image *image) {
    struct heif_color_profile_nclx *nclx = NULL;
    struct heif_error got = heif_image_get_nclx_color_profile(image, &nclx);
    if (got.code != heif_error_Ok || !nclx) { heif_nclx_color_profile_free(nclx); return 1; }
    int full = nclx->full_range_flag;
    heif_nclx_color_profile_free(nclx);
    return full;
}

int aheif_decode_planes(aheif_decoder *d, int thumbnail, int *width, int *height, int *channels) {
    struct aheif_rows *r = rows_of(d);
    if (!r) return failed(d, BRIDGE_FAILURE_OUT_OF_MEMORY, "out of memory");
    memset(r, 0, sizeof *r);
    struct heif_image_handle *handle = thumbnail && d->thumbnail ? d->thumbnail : d->primary;
    int alpha = heif_image_handle_has_alpha_channel(handle);
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (!options) return failed(d, BRIDGE_FAILURE_OUT_OF_MEMORY, "out of memory");
    /* Left to choose, libheif 1.15 hands over planar RGB 4:4:4 (monochrome stays monochrome) after
     * its one Y'CbCr-to-RGB conversion. Asking for Y'CbCr 4:2:0 makes it convert to RGB and back
     * (a 20 MP AVIF: 0.30 s instead of 0.15 s), asking for interleaved RGB adds a pass. */
    release_image(d);
    struct heif_error e = checked(d, heif_decode_image(handle, &d->image, heif_colorspace_undefined, heif_chroma_undefined, options));
    heif_decoding_options_free(options);
    if (e.code != heif_error_Ok) return fail(d, "cannot decode the image", e);
    enum heif_colorspace space = heif_image_get_colorspace(d->image);
    enum heif_chroma chroma = heif_image_get_chroma_format(d->image);
    int rgb = space == heif_colorspace_RGB && chroma == heif_chroma_444;
    int mono = space == heif_colorspace_monochrome && chroma == heif_chroma_monochrome;
    enum heif_channel first = rgb ? heif_channel_R : heif_channel_Y;
    r->width = heif_image_get_width(d->image, first);
    r->height = heif_image_get_height(d->image, first);
    int full_range = rgb || full_range_of(d->image);
    int planar = (rgb || mono) && r->width > 0 && r->height > 0;
    enum heif_channel colours[3] = {rgb ? heif_channel_R : heif_channel_Y, rgb ? heif_channel_G : heif_channel_Y,
                                    rgb ? heif_channel_B : heif_channel_Y};
    for (int c = 0; planar && c < 3; c++)
        planar = plane(d->image, colours[c], full_range, r->width, r->height, &r->planes[c]) == 0;
    if (!planar) {
        /* Another layout: libheif converts it to interleaved RGB(A), decoding again. */
        memset(r, 0, sizeof *r);
        int stride;
        if (decode_interleaved(d, thumbnail, &r->rgb, width, height, channels, &stride) != 0) return -1;
        r->interleaved = 1;
        r->rgb_stride = stride;
        r->width = *width;
        r->height = *height;
        r->channels = *channels;
        return 0;
    }
    r->channels = alpha && plane(d->image, heif_channel_Alpha, 1, r->width, r->height, &r->planes[3]) == 0 ? 4 : 3;
    *width = r->width;
    *height = r->height;
    *channels = r->channels;
    return 0;
}

static inline uint8_t to8(const plane_ref *p, const uint8_t *row, int x) {
    int32_t v = p->wide ? ((const uint16_t *)row)[x] : row[x];
    v = ((v - p->offset) * p->scale + 32768) >> 16;
    return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

int aheif_read_rows(aheif_decoder *d, uint8_t *rows, int max_rows, int *rows_read) {
    struct aheif_rows *r = rows_of(d);
    *rows_read = 0;
    if (!r || (!r->interleaved && !d->image)) return failed(d, BRIDGE_FAILURE_UNSUPPORTED, "nothing decoded");
    int done = 0, n = r->channels;
    size_t rowbytes = (size_t)r->width * (size_t)n;
    while (done < max_rows && r->next < r->height) {
        uint8_t *out = rows + (size_t)done * rowbytes;
        int y = r->next;
        if (r->interleaved) {
            memcpy(out, r->rgb + (size_t)y * (size_t)r->rgb_stride, rowbytes);
        } else {
            for (int c = 0; c < n; c++) {
                const plane_ref *p = &r->planes[c];
                const uint8_t *row = p->base + (size_t)y * (size_t)p->stride;
                if (p->exact) {
                    for (int x = 0; x < r->width; x++) out[(size_t)x * n + c] = row[x];
                } else {
                    for (int x = 0; x < r->width; x++) out[(size_t)x * n + c] = to8(p, row, x);
                }
            }
        }
        r->next++;
        done++;
    }
    *rows_read = done;
    return 0;
}
