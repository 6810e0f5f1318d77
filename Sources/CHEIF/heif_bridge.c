#include "heif_bridge.h"
#include <errno.h>
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct aheif_decoder {
    int fd;
    int64_t position, size;
    struct heif_context *context;
    struct heif_image_handle *primary, *thumbnail;
    struct heif_image *image;
    uint8_t *icc;
    size_t icc_length;
    char message[256];
};

static int64_t r_position(void *user) { return ((aheif_decoder *)user)->position; }

static int r_read(void *data, size_t size, void *user) {
    aheif_decoder *d = user;
    size_t done = 0;
    while (done < size) {
        ssize_t n = pread(d->fd, (char *)data + done, size - done, (off_t)(d->position + (int64_t)done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        done += (size_t)n;
    }
    d->position += (int64_t)done;
    return 0;
}

static int r_seek(int64_t position, void *user) {
    aheif_decoder *d = user;
    if (position < 0 || position > d->size) return -1;
    d->position = position;
    return 0;
}

static enum heif_reader_grow_status r_wait(int64_t target, void *user) {
    aheif_decoder *d = user;
    return target > d->size ? heif_reader_grow_status_size_beyond_eof : heif_reader_grow_status_size_reached;
}

static const struct heif_reader reader = {1, r_position, r_read, r_seek, r_wait};

static int fail(aheif_decoder *d, const char *what, struct heif_error e) {
    snprintf(d->message, sizeof d->message, "%s: %s", what, e.message ? e.message : "libheif error");
    return -1;
}

aheif_decoder *aheif_decoder_new(int fd) {
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
    free(d->icc);
    free(d);
}

const char *aheif_error(const aheif_decoder *d) { return d->message; }

int aheif_read_header(aheif_decoder *d, aheif_header *out) {
    memset(out, 0, sizeof *out);
    struct stat st;
    if (fstat(d->fd, &st) != 0) { snprintf(d->message, sizeof d->message, "read error: %s", strerror(errno)); return -1; }
    d->size = st.st_size;
    d->context = heif_context_alloc();
    if (!d->context) { snprintf(d->message, sizeof d->message, "out of memory"); return -1; }
    struct heif_error e = heif_context_read_from_reader(d->context, &reader, d, NULL);
    if (e.code != heif_error_Ok) return fail(d, "cannot read the container", e);
    e = heif_context_get_primary_image_handle(d->context, &d->primary);
    if (e.code != heif_error_Ok) return fail(d, "no primary image", e);
    out->width = heif_image_handle_get_width(d->primary);
    out->height = heif_image_handle_get_height(d->primary);
    out->has_alpha = heif_image_handle_has_alpha_channel(d->primary);
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

    size_t icc = heif_image_handle_get_raw_color_profile_size(d->primary);
    if (icc > 0 && icc < (64u << 20)) {
        d->icc = malloc(icc);
        if (d->icc && heif_image_handle_get_raw_color_profile(d->primary, d->icc).code == heif_error_Ok) {
            d->icc_length = icc;
            out->colour = AHEIF_COLOUR_ICC;
        }
    }
    if (out->colour == AHEIF_COLOUR_NONE) {
        struct heif_color_profile_nclx *nclx = NULL;
        if (heif_image_handle_get_nclx_color_profile(d->primary, &nclx).code == heif_error_Ok && nclx) {
            out->colour = AHEIF_COLOUR_NCLX;
            out->primaries = nclx->color_primaries;
            out->transfer = nclx->transfer_characteristics;
            out->matrix = nclx->matrix_coefficients;
            out->rx = nclx->color_primary_red_x; out->ry = nclx->color_primary_red_y;
            out->gx = nclx->color_primary_green_x; out->gy = nclx->color_primary_green_y;
            out->bx = nclx->color_primary_blue_x; out->by = nclx->color_primary_blue_y;
            out->wx = nclx->color_primary_white_x; out->wy = nclx->color_primary_white_y;
            heif_nclx_color_profile_free(nclx);
        }
    }
    return 0;
}

int aheif_icc(aheif_decoder *d, const uint8_t **data, size_t *length) {
    *data = d->icc_length ? d->icc : NULL;
    *length = d->icc_length;
    return 0;
}

int aheif_decode(aheif_decoder *d, int thumbnail, const uint8_t **pixels, int *width, int *height,
                 int *channels, int *stride) {
    struct heif_image_handle *handle = thumbnail && d->thumbnail ? d->thumbnail : d->primary;
    int alpha = heif_image_handle_has_alpha_channel(handle);
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (!options) { snprintf(d->message, sizeof d->message, "out of memory"); return -1; }
    options->convert_hdr_to_8bit = 1;
    struct heif_error e = heif_decode_image(handle, &d->image, heif_colorspace_RGB,
                                            alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options);
    heif_decoding_options_free(options);
    if (e.code != heif_error_Ok) return fail(d, "cannot decode the image", e);
    int s = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(d->image, heif_channel_interleaved, &s);
    if (!plane) { snprintf(d->message, sizeof d->message, "decoded image has no pixels"); return -1; }
    if (heif_image_get_bits_per_pixel_range(d->image, heif_channel_interleaved) != 8) {
        snprintf(d->message, sizeof d->message, "decoded image is not 8-bit");
        return -1;
    }
    *pixels = plane;
    *width = heif_image_get_width(d->image, heif_channel_interleaved);
    *height = heif_image_get_height(d->image, heif_channel_interleaved);
    *channels = alpha ? 4 : 3;
    *stride = s;
    return 0;
}

const char *aheif_version(void) { return heif_get_version(); }
