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
    int read_errno; /* a failed pread: the file, not its content, is at fault */
    struct aheif_rows *rows;
};

static int64_t r_position(void *user) { return ((aheif_decoder *)user)->position; }

static int r_read(void *data, size_t size, void *user) {
    aheif_decoder *d = user;
    size_t done = 0;
    while (done < size) {
        ssize_t n = pread(d->fd, (char *)data + done, size - done, (off_t)(d->position + (int64_t)done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) d->read_errno = errno;
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
    if (d->read_errno) {
        snprintf(d->message, sizeof d->message, "read error: %s", strerror(d->read_errno));
        return -1;
    }
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
    free(d->rows);
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

/* ---- native planes, converted to RGB a row at a time ---- */

typedef struct {
    const uint8_t *plane;
    int stride, bits, wide; /* wide: 16-bit storage */
} plane_ref;


struct aheif_rows {
    struct heif_image *image;
    int width, height, channels, next;
    int mono, shift_x, shift_y, interleaved;
    plane_ref y, cb, cr, alpha;
    const uint8_t *rgb;
    int rgb_stride;
    float kr, kb, y_offset, y_scale, c_offset, c_scale;
    int identity;
    /* the same in 16.16 fixed point, 8-bit output scale folded in */
    int32_t yo, co, ys, rv, gu, gv, bu;
};

static struct aheif_rows *rows_of(aheif_decoder *d) {
    if (!d->rows) d->rows = calloc(1, sizeof *d->rows);
    return d->rows;
}

static int sample(const plane_ref *p, int x, int y) {
    const uint8_t *row = p->plane + (size_t)y * (size_t)p->stride;
    return p->wide ? ((const uint16_t *)row)[x] : row[x];
}

static int plane(struct heif_image *image, enum heif_channel channel, plane_ref *out) {
    out->plane = heif_image_get_plane_readonly(image, channel, &out->stride);
    if (!out->plane) return -1;
    out->bits = heif_image_get_bits_per_pixel_range(image, channel);
    out->wide = heif_image_get_bits_per_pixel(image, channel) > 8;
    if (out->bits < 1 || out->bits > 16) return -1;
    return 0;
}


int aheif_decode_planes(aheif_decoder *d, int thumbnail, int *width, int *height, int *channels) {
    struct aheif_rows *r = rows_of(d);
    if (!r) { snprintf(d->message, sizeof d->message, "out of memory"); return -1; }
    struct heif_image_handle *handle = thumbnail && d->thumbnail ? d->thumbnail : d->primary;
    int alpha = heif_image_handle_has_alpha_channel(handle);
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (!options) { snprintf(d->message, sizeof d->message, "out of memory"); return -1; }
    /* Y'CbCr 4:2:0, what HEIC and nearly every AVIF store: libheif hands the planes over as
     * decoded (asked for "undefined", 1.15 converts to planar RGB 4:4:4 first). A 4:4:4 or
     * monochrome source is converted to it by libheif. */
    struct heif_error e = heif_decode_image(handle, &d->image, heif_colorspace_YCbCr, heif_chroma_420, options);
    heif_decoding_options_free(options);
    if (e.code != heif_error_Ok) return fail(d, "cannot decode the image", e);
    enum heif_colorspace space = heif_image_get_colorspace(d->image);
    enum heif_chroma chroma = heif_image_get_chroma_format(d->image);
    int native = (space == heif_colorspace_YCbCr && (chroma == heif_chroma_420 || chroma == heif_chroma_422 || chroma == heif_chroma_444))
              || (space == heif_colorspace_monochrome && chroma == heif_chroma_monochrome);
    memset(r, 0, sizeof *r);
    if (!native) {
        heif_image_release(d->image);
        d->image = NULL;
        const uint8_t *pixels;
        int stride;
        if (aheif_decode(d, thumbnail, &pixels, width, height, channels, &stride) != 0) return -1;
        r->interleaved = 1;
        r->rgb = pixels;
        r->rgb_stride = stride;
        r->width = *width;
        r->height = *height;
        r->channels = *channels;
        return 0;
    }
    r->mono = space == heif_colorspace_monochrome;
    r->width = heif_image_get_width(d->image, heif_channel_Y);
    r->height = heif_image_get_height(d->image, heif_channel_Y);
    if (r->width <= 0 || r->height <= 0 || plane(d->image, heif_channel_Y, &r->y) != 0) {
        snprintf(d->message, sizeof d->message, "decoded image has no luma plane");
        return -1;
    }
    if (!r->mono) {
        if (plane(d->image, heif_channel_Cb, &r->cb) != 0 || plane(d->image, heif_channel_Cr, &r->cr) != 0) {
            snprintf(d->message, sizeof d->message, "decoded image has no chroma planes");
            return -1;
        }
        r->shift_x = chroma != heif_chroma_444;
        r->shift_y = chroma == heif_chroma_420;
        int cw = heif_image_get_width(d->image, heif_channel_Cb), ch = heif_image_get_height(d->image, heif_channel_Cb);
        if (cw < (r->width + r->shift_x) >> r->shift_x || ch < (r->height + r->shift_y) >> r->shift_y) {
            snprintf(d->message, sizeof d->message, "chroma planes smaller than the image");
            return -1;
        }
    }
    r->channels = alpha && plane(d->image, heif_channel_Alpha, &r->alpha) == 0 &&
                  heif_image_get_width(d->image, heif_channel_Alpha) >= r->width &&
                  heif_image_get_height(d->image, heif_channel_Alpha) >= r->height ? 4 : 3;
    /* The matrix and range the decoded image carries (bitstream or colr), else libheif's
     * defaults for HEIF: BT.601, full range. */
    int matrix = 6, full = 1;
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_get_nclx_color_profile(d->image, &nclx).code == heif_error_Ok && nclx) {
        matrix = nclx->matrix_coefficients;
        full = nclx->full_range_flag;
        heif_nclx_color_profile_free(nclx);
    }
    r->identity = matrix == 0;
    switch (matrix) {
    case 1: r->kr = 0.2126f; r->kb = 0.0722f; break;
    case 9: case 10: r->kr = 0.2627f; r->kb = 0.0593f; break;
    case 4: r->kr = 0.30f; r->kb = 0.11f; break;
    case 7: r->kr = 0.212f; r->kb = 0.087f; break;
    default: r->kr = 0.299f; r->kb = 0.114f; break;
    }
    int bits = r->y.bits;
    float max = (float)((1 << bits) - 1);
    if (full) {
        r->y_offset = 0; r->y_scale = 1.0f / max;
        r->c_offset = (float)(1 << (bits - 1)); r->c_scale = 1.0f / max;
    } else {
        r->y_offset = (float)(16 << (bits - 8)); r->y_scale = 1.0f / (float)(219 << (bits - 8));
        r->c_offset = (float)(128 << (bits - 8)); r->c_scale = 1.0f / (float)(224 << (bits - 8));
    }
    double k = 255.0 * 65536.0;
    r->yo = (int32_t)r->y_offset;
    r->co = (int32_t)r->c_offset;
    r->ys = (int32_t)(k * r->y_scale + 0.5);
    r->rv = (int32_t)(k * r->c_scale * 2 * (1 - r->kr) + 0.5);
    r->bu = (int32_t)(k * r->c_scale * 2 * (1 - r->kb) + 0.5);
    r->gu = (int32_t)(k * r->c_scale * 2 * (1 - r->kb) * r->kb / (1 - r->kr - r->kb) + 0.5);
    r->gv = (int32_t)(k * r->c_scale * 2 * (1 - r->kr) * r->kr / (1 - r->kr - r->kb) + 0.5);
    *width = r->width;
    *height = r->height;
    *channels = r->channels;
    return 0;
}

static inline uint8_t clamp16(int32_t v) {
    v = (v + 32768) >> 16;
    return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

/* Y'CbCr (not identity, no alpha) to RGB in fixed point: the common case, kept tight. */
#define CONVERT_ROW(T)                                                                                  \
    do {                                                                                                \
        const T *yp = (const T *)(r->y.plane + (size_t)y * (size_t)r->y.stride);                        \
        const T *up = (const T *)(r->cb.plane + (size_t)(y >> r->shift_y) * (size_t)r->cb.stride);      \
        const T *vp = (const T *)(r->cr.plane + (size_t)(y >> r->shift_y) * (size_t)r->cr.stride);      \
        for (int x = 0; x < r->width; x++) {                                                            \
            int cx = x >> r->shift_x;                                                                   \
            int32_t Y = ((int32_t)yp[x] - r->yo) * r->ys;                                               \
            int32_t U = (int32_t)up[cx] - r->co, V = (int32_t)vp[cx] - r->co;                           \
            uint8_t *p = out + (size_t)x * 3;                                                           \
            p[0] = clamp16(Y + r->rv * V);                                                              \
            p[1] = clamp16(Y - r->gu * U - r->gv * V);                                                  \
            p[2] = clamp16(Y + r->bu * U);                                                              \
        }                                                                                               \
    } while (0)

static inline uint8_t to8(float v) {
    v = v * 255.0f + 0.5f;
    return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)v;
}

int aheif_read_rows(aheif_decoder *d, uint8_t *rows, int max_rows, int *rows_read) {
    struct aheif_rows *r = rows_of(d);
    *rows_read = 0;
    if (!r || (!r->interleaved && !d->image)) { snprintf(d->message, sizeof d->message, "nothing decoded"); return -1; }
    int done = 0;
    size_t rowbytes = (size_t)r->width * (size_t)r->channels;
    while (done < max_rows && r->next < r->height) {
        uint8_t *out = rows + (size_t)done * rowbytes;
        int y = r->next;
        if (r->interleaved) {
            memcpy(out, r->rgb + (size_t)y * (size_t)r->rgb_stride, rowbytes);
        } else if (!r->mono && !r->identity && r->channels == 3 && r->y.wide == r->cb.wide && r->y.wide == r->cr.wide) {
            if (r->y.wide) CONVERT_ROW(uint16_t); else CONVERT_ROW(uint8_t);
        } else {
            float alpha_max = r->channels == 4 ? (float)((1 << r->alpha.bits) - 1) : 1;
            for (int x = 0; x < r->width; x++) {
                float Y = ((float)sample(&r->y, x, y) - r->y_offset) * r->y_scale, R, G, B;
                if (r->mono) {
                    R = G = B = Y;
                } else {
                    int cx = x >> r->shift_x, cy = y >> r->shift_y;
                    float U = ((float)sample(&r->cb, cx, cy) - r->c_offset) * r->c_scale;
                    float V = ((float)sample(&r->cr, cx, cy) - r->c_offset) * r->c_scale;
                    if (r->identity) {
                        /* GBR: Y holds G, Cb holds B, Cr holds R (full-range samples) */
                        G = Y; B = U + 0.5f; R = V + 0.5f;
                    } else {
                        R = Y + 2.0f * (1.0f - r->kr) * V;
                        B = Y + 2.0f * (1.0f - r->kb) * U;
                        G = (Y - r->kr * R - r->kb * B) / (1.0f - r->kr - r->kb);
                    }
                }
                uint8_t *p = out + (size_t)x * (size_t)r->channels;
                p[0] = to8(R); p[1] = to8(G); p[2] = to8(B);
                if (r->channels == 4) p[3] = to8((float)sample(&r->alpha, x, y) / alpha_max);
            }
        }
        r->next++;
        done++;
    }
    *rows_read = done;
    return 0;
}
