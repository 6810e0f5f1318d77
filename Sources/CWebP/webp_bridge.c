#include "webp_bridge.h"
#include "bridge_failure.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <webp/decode.h>
#include <webp/demux.h>

struct awebp_decoder {
    int fd;
    uint8_t *file;
    size_t size;
    WebPDemuxer *demux;
    WebPChunkIterator chunk;
    int has_chunk;
    WebPDecoderConfig config;
    int has_output;
    WebPAnimDecoder *anim;
    bridge_failure failure;
    int animated, has_alpha, width, height;
};

static const char *status_text(VP8StatusCode s) {
    switch (s) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
    case VP8_STATUS_SUSPENDED: return "suspended";
    case VP8_STATUS_USER_ABORT: return "aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "not enough data (truncated file)";
    default: return "error";
    }
}

/* What a libwebp status says of the file. */
static int status_kind(VP8StatusCode s) {
    switch (s) {
    case VP8_STATUS_OUT_OF_MEMORY: return BRIDGE_FAILURE_OUT_OF_MEMORY;
    case VP8_STATUS_UNSUPPORTED_FEATURE: return BRIDGE_FAILURE_UNSUPPORTED;
    default: return BRIDGE_FAILURE_CORRUPT;
    }
}

awebp_decoder *awebp_decoder_new(int fd) {
    awebp_decoder *d = calloc(1, sizeof *d);
    if (d) d->fd = fd;
    return d;
}

void awebp_decoder_free(awebp_decoder *d) {
    if (!d) return;
    if (d->has_chunk) WebPDemuxReleaseChunkIterator(&d->chunk);
    if (d->has_output) WebPFreeDecBuffer(&d->config.output);
    if (d->anim) WebPAnimDecoderDelete(d->anim);
    if (d->demux) WebPDemuxDelete(d->demux);
    free(d->file);
    free(d);
}

const char *awebp_error(const awebp_decoder *d) { return d->failure.message; }
int awebp_failure(const awebp_decoder *d) { return d->failure.kind; }

int awebp_read_header(awebp_decoder *d, size_t max_bytes, awebp_header *out) {
    struct stat st;
    if (fstat(d->fd, &st) != 0) return bridge_fail(&d->failure, BRIDGE_FAILURE_READ, "read error: %s", strerror(errno));
    if (st.st_size <= 0) return bridge_fail(&d->failure, BRIDGE_FAILURE_CORRUPT, "empty file");
    if ((uint64_t)st.st_size > max_bytes) {
        return bridge_fail(&d->failure, BRIDGE_FAILURE_TOO_LARGE, "file of %lld bytes is over the limit of %zu", (long long)st.st_size, max_bytes);
    }
    d->size = (size_t)st.st_size;
    d->file = malloc(d->size);
    if (!d->file) return bridge_fail(&d->failure, BRIDGE_FAILURE_OUT_OF_MEMORY, "out of memory");
    size_t done = 0;
    while (done < d->size) {
        ssize_t n = pread(d->fd, d->file + done, d->size - done, (off_t)done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return bridge_fail(&d->failure, BRIDGE_FAILURE_READ, "read error: %s", strerror(errno));
        if (n == 0) break;
        done += (size_t)n;
    }
    d->size = done;
    WebPData data = {d->file, d->size};
    d->demux = WebPDemux(&data);
    if (!d->demux) return bridge_fail(&d->failure, BRIDGE_FAILURE_CORRUPT, "not a complete WebP container");
    uint32_t flags = WebPDemuxGetI(d->demux, WEBP_FF_FORMAT_FLAGS);
    d->width = (int)WebPDemuxGetI(d->demux, WEBP_FF_CANVAS_WIDTH);
    d->height = (int)WebPDemuxGetI(d->demux, WEBP_FF_CANVAS_HEIGHT);
    d->animated = (flags & ANIMATION_FLAG) != 0;
    WebPBitstreamFeatures features;
    VP8StatusCode status = WebPGetFeatures(d->file, d->size, &features);
    if (status != VP8_STATUS_OK) {
        return bridge_fail(&d->failure, status_kind(status), "cannot read the header: %s", status_text(status));
    }
    d->has_alpha = features.has_alpha || (flags & ALPHA_FLAG) != 0;
    out->width = d->width;
    out->height = d->height;
    out->animated = d->animated;
    return 0;
}

int awebp_chunk(awebp_decoder *d, const char fourcc[4], const uint8_t **data, size_t *length) {
    *data = NULL;
    *length = 0;
    if (d->has_chunk) { WebPDemuxReleaseChunkIterator(&d->chunk); d->has_chunk = 0; }
    if (WebPDemuxGetChunk(d->demux, fourcc, 1, &d->chunk)) {
        d->has_chunk = 1;
        *data = d->chunk.chunk.bytes;
        *length = d->chunk.chunk.size;
    }
    return 0;
}

int awebp_decode(awebp_decoder *d, int width, int height, const uint8_t **pixels, int *out_width,
                 int *out_height, int *channels, int *stride) {
    if (d->animated) {
        WebPAnimDecoderOptions options;
        if (!WebPAnimDecoderOptionsInit(&options)) return bridge_fail(&d->failure, BRIDGE_FAILURE_UNSUPPORTED, "libwebp version mismatch");
        options.color_mode = MODE_RGBA;
        options.use_threads = 0;
        WebPData data = {d->file, d->size};
        d->anim = WebPAnimDecoderNew(&data, &options);
        if (!d->anim) return bridge_fail(&d->failure, BRIDGE_FAILURE_CORRUPT, "cannot decode the animation");
        uint8_t *frame;
        int timestamp;
        if (!WebPAnimDecoderGetNext(d->anim, &frame, &timestamp)) {
            return bridge_fail(&d->failure, BRIDGE_FAILURE_CORRUPT, "cannot decode the first frame");
        }
        *pixels = frame;
        *out_width = d->width;
        *out_height = d->height;
        *channels = 4;
        *stride = d->width * 4;
        return 0;
    }
    if (!WebPInitDecoderConfig(&d->config)) return bridge_fail(&d->failure, BRIDGE_FAILURE_UNSUPPORTED, "libwebp version mismatch");
    d->config.output.colorspace = d->has_alpha ? MODE_RGBA : MODE_RGB;
    if (width != d->width || height != d->height) {
        d->config.options.use_scaling = 1;
        d->config.options.scaled_width = width;
        d->config.options.scaled_height = height;
    }
    d->has_output = 1;
    VP8StatusCode status = WebPDecode(d->file, d->size, &d->config);
    if (status != VP8_STATUS_OK) {
        return bridge_fail(&d->failure, status_kind(status), "decode failed: %s", status_text(status));
    }
    *pixels = d->config.output.u.RGBA.rgba;
    *out_width = d->config.output.width;
    *out_height = d->config.output.height;
    *channels = d->has_alpha ? 4 : 3;
    *stride = d->config.output.u.RGBA.stride;
    return 0;
}

int awebp_version(void) { return WebPGetDecoderVersion(); }
