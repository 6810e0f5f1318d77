#include "jpeg_bridge.h"
#include "bridge_failure.h"
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jpeglib.h>
#include <jerror.h>

#define INPUT_CHUNK 65536
#define MAX_WARNINGS 10000  /* a stream that keeps warning is treated as hostile */
/* Every scan of a progressive/multi-scan file costs a pass over the whole image, however few
 * bytes it is, so the scan count bounds the decode time. Real encoders write at most a few
 * dozen (libjpeg's default progressive script: 10; cjpeg/jpegtran accept at most 100). */
#define MAX_SCANS 100
/* jpeg_save_markers keeps every APP2 segment in memory, with no total limit in libjpeg: cap what
 * is read before the first scan (the largest ICC profile is 255 x 65519 bytes = 16 MiB). */
#define MAX_HEADER_BYTES (64L << 20)

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    bridge_failure failure;
    char first_warning[JMSG_LENGTH_MAX];
    int warnings;
} bridge_error;

/* What libjpeg's fatal error is, by its message code (never its text). */
static int kind_of(int code) {
    switch (code) {
    case JERR_NO_SOI: return BRIDGE_FAILURE_UNRECOGNISED;
    case JERR_BAD_PRECISION: case JERR_CONVERSION_NOTIMPL: case JERR_SOF_UNSUPPORTED: case JERR_UNKNOWN_MARKER:
        return BRIDGE_FAILURE_UNSUPPORTED;
    case JERR_OUT_OF_MEMORY: return BRIDGE_FAILURE_OUT_OF_MEMORY;
    case JERR_IMAGE_TOO_BIG: case JERR_WIDTH_OVERFLOW: case JERR_NO_BACKING_STORE: return BRIDGE_FAILURE_TOO_LARGE;
    default: return BRIDGE_FAILURE_CORRUPT;
    }
}

static void on_fatal(j_common_ptr cinfo) {
    bridge_error *err = (bridge_error *)cinfo->err;
    char message[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, message);
    bridge_fail(&err->failure, kind_of(cinfo->err->msg_code), "%s", message);
    longjmp(err->jump, 1);
}

static void on_message(j_common_ptr cinfo, int level) {
    bridge_error *err = (bridge_error *)cinfo->err;
    if (level >= 0) return; /* trace messages */
    if (err->warnings == 0) (*cinfo->err->format_message)(cinfo, err->first_warning);
    if (++err->warnings > MAX_WARNINGS) {
        bridge_fail(&err->failure, BRIDGE_FAILURE_CORRUPT, "too much corrupt data (%d warnings, first: %s)",
                    err->warnings, err->first_warning);
        longjmp(err->jump, 1);
    }
}

static void bridge_error_init(bridge_error *err) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = on_fatal;
    err->pub.emit_message = on_message;
    err->failure = (bridge_failure){0};
    err->first_warning[0] = 0;
    err->warnings = 0;
}

/* libjpeg calls this between iMCU rows while it absorbs a multi-scan file. */
static void on_progress(j_common_ptr cinfo) {
    j_decompress_ptr c = (j_decompress_ptr)cinfo;
    if (c->input_scan_number > MAX_SCANS) {
        bridge_error *err = (bridge_error *)cinfo->err;
        bridge_fail(&err->failure, BRIDGE_FAILURE_TOO_LARGE, "too many scans (more than %d)", MAX_SCANS);
        longjmp(err->jump, 1);
    }
}

/* ---- decoder: a source manager that pulls the file in chunks ---- */

typedef struct {
    struct jpeg_source_mgr pub;
    int fd;
    off_t offset;
    long header_budget; /* > 0 while jpeg_read_header runs: bytes it may still read */
    JOCTET buffer[INPUT_CHUNK];
} fd_source;

static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};

static void src_init(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean src_fill(j_decompress_ptr cinfo) {
    fd_source *src = (fd_source *)cinfo->src;
    ssize_t n;
    do { n = pread(src->fd, src->buffer, INPUT_CHUNK, src->offset); } while (n < 0 && errno == EINTR);
    if (n < 0) {
        bridge_error *err = (bridge_error *)cinfo->err;
        bridge_fail(&err->failure, BRIDGE_FAILURE_READ, "read error: %s", strerror(errno));
        longjmp(err->jump, 1);
    }
    if (n == 0) {
        if (src->offset == 0) ERREXIT(cinfo, JERR_INPUT_EMPTY);
        WARNMS(cinfo, JWRN_JPEG_EOF);
        src->pub.next_input_byte = fake_eoi; /* as libjpeg's stdio source does */
        src->pub.bytes_in_buffer = 2;
        return TRUE;
    }
    if (src->header_budget > 0 && (src->header_budget -= n) <= 0) {
        bridge_error *err = (bridge_error *)cinfo->err;
        bridge_fail(&err->failure, BRIDGE_FAILURE_TOO_LARGE, "JPEG headers larger than %ld MiB", MAX_HEADER_BYTES >> 20);
        longjmp(err->jump, 1);
    }
    src->offset += n;
    src->pub.next_input_byte = src->buffer;
    src->pub.bytes_in_buffer = (size_t)n;
    return TRUE;
}

static void src_skip(j_decompress_ptr cinfo, long count) {
    fd_source *src = (fd_source *)cinfo->src;
    if (count <= 0) return;
    if ((size_t)count <= src->pub.bytes_in_buffer) {
        src->pub.next_input_byte += count;
        src->pub.bytes_in_buffer -= (size_t)count;
        return;
    }
    /* Skip the rest without reading it: a large APP segment costs nothing. */
    src->offset += (off_t)(count - (long)src->pub.bytes_in_buffer);
    src->pub.bytes_in_buffer = 0;
    src->pub.next_input_byte = src->buffer;
}

static void src_term(j_decompress_ptr cinfo) { (void)cinfo; }

struct ajpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    bridge_error err;
    struct jpeg_progress_mgr progress;
    fd_source src;
    int created, started;
};

ajpeg_decoder *ajpeg_decoder_new(int fd) {
    ajpeg_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    bridge_error_init(&d->err);
    d->cinfo.err = &d->err.pub;
    if (setjmp(d->err.jump)) { free(d); return NULL; }
    jpeg_create_decompress(&d->cinfo);
    d->created = 1;
    d->src.fd = fd;
    d->src.pub.init_source = src_init;
    d->src.pub.fill_input_buffer = src_fill;
    d->src.pub.skip_input_data = src_skip;
    d->src.pub.resync_to_restart = jpeg_resync_to_restart;
    d->src.pub.term_source = src_term;
    d->cinfo.src = &d->src.pub;
    d->progress.progress_monitor = on_progress;
    d->cinfo.progress = &d->progress;
    return d;
}

void ajpeg_decoder_free(ajpeg_decoder *d) {
    if (!d) return;
    if (d->created) jpeg_destroy_decompress(&d->cinfo);
    free(d);
}

const char *ajpeg_decoder_error(const ajpeg_decoder *d) { return d->err.failure.message; }
int ajpeg_decoder_failure(const ajpeg_decoder *d) { return d->err.failure.kind; }

int ajpeg_decoder_warnings(const ajpeg_decoder *d, const char **first) {
    *first = d->err.first_warning;
    return d->err.warnings;
}

static uint64_t coefficient_bytes(j_decompress_ptr c) {
    int max_h = 1, max_v = 1;
    for (int i = 0; i < c->num_components; i++) {
        if (c->comp_info[i].h_samp_factor > max_h) max_h = c->comp_info[i].h_samp_factor;
        if (c->comp_info[i].v_samp_factor > max_v) max_v = c->comp_info[i].v_samp_factor;
    }
    uint64_t total = 0;
    for (int i = 0; i < c->num_components; i++) {
        uint64_t w = ((uint64_t)c->image_width * c->comp_info[i].h_samp_factor + 8 * max_h - 1) / (8 * max_h);
        uint64_t h = ((uint64_t)c->image_height * c->comp_info[i].v_samp_factor + 8 * max_v - 1) / (8 * max_v);
        /* libjpeg pads each component to whole iMCU rows and columns */
        w = (w + c->comp_info[i].h_samp_factor - 1) / c->comp_info[i].h_samp_factor * c->comp_info[i].h_samp_factor;
        h = (h + c->comp_info[i].v_samp_factor - 1) / c->comp_info[i].v_samp_factor * c->comp_info[i].v_samp_factor;
        total += w * h * DCTSIZE2 * sizeof(JCOEF);
    }
    return total;
}

int ajpeg_read_header(ajpeg_decoder *d, ajpeg_header *out) {
    if (setjmp(d->err.jump)) return -1;
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 2, 0xFFFF); /* ICC profile chunks */
    d->src.header_budget = MAX_HEADER_BYTES;
    jpeg_read_header(&d->cinfo, TRUE);
    d->src.header_budget = 0;
    j_decompress_ptr c = &d->cinfo;
    out->width = (int)c->image_width;
    out->height = (int)c->image_height;
    out->components = c->num_components;
    out->is_cmyk = c->jpeg_color_space == JCS_CMYK || c->jpeg_color_space == JCS_YCCK;
    out->adobe_inverted = c->saw_Adobe_marker;
    out->multi_scan = jpeg_has_multiple_scans(c) ? 1 : 0;
    out->coefficient_bytes = out->multi_scan ? coefficient_bytes(c) : 0;
    return 0;
}

int ajpeg_icc_profile(ajpeg_decoder *d, uint8_t **data, unsigned *length) {
    *data = NULL;
    *length = 0;
    if (setjmp(d->err.jump)) return -1;
    JOCTET *icc = NULL;
    unsigned int len = 0;
    if (jpeg_read_icc_profile(&d->cinfo, &icc, &len)) { *data = icc; *length = len; }
    return 0;
}

int ajpeg_start(ajpeg_decoder *d, int scale_denom, long max_memory, int *out_width, int *out_height,
                int *out_components) {
    if (setjmp(d->err.jump)) return -1;
    j_decompress_ptr c = &d->cinfo;
    c->scale_num = 1;
    c->scale_denom = (unsigned)scale_denom;
    if (c->num_components == 1) c->out_color_space = JCS_GRAYSCALE;
    else if (c->jpeg_color_space == JCS_CMYK || c->jpeg_color_space == JCS_YCCK) c->out_color_space = JCS_CMYK;
    else c->out_color_space = JCS_RGB;
    c->mem->max_memory_to_use = max_memory; /* a backstop: past it libjpeg fails rather than swaps */
    jpeg_start_decompress(c);
    d->started = 1;
    *out_width = (int)c->output_width;
    *out_height = (int)c->output_height;
    *out_components = c->output_components;
    return 0;
}

int ajpeg_read_rows(ajpeg_decoder *d, uint8_t *rows, int max_rows, int *rows_read) {
    *rows_read = 0;
    if (setjmp(d->err.jump)) return -1;
    j_decompress_ptr c = &d->cinfo;
    size_t stride = (size_t)c->output_width * (size_t)c->output_components;
    int done = 0;
    while (done < max_rows && c->output_scanline < c->output_height) {
        JSAMPROW row = rows + (size_t)done * stride;
        done += (int)jpeg_read_scanlines(c, &row, 1);
    }
    *rows_read = done;
    return 0;
}

int ajpeg_finish(ajpeg_decoder *d) {
    if (setjmp(d->err.jump)) return -1;
    j_decompress_ptr c = &d->cinfo;
    if (c->output_scanline < c->output_height) {
        JSAMPARRAY row = (*c->mem->alloc_sarray)((j_common_ptr)c, JPOOL_IMAGE, c->output_width * c->output_components, 1);
        while (c->output_scanline < c->output_height) jpeg_read_scanlines(c, row, 1);
    }
    jpeg_finish_decompress(c); /* reads to EOI, so damage at the end is reported too */
    return 0;
}

/* ---- encoder: a destination manager growing its own buffer ---- */

typedef struct {
    struct jpeg_destination_mgr pub;
    JOCTET *data;
    size_t capacity;
} grow_destination;

struct ajpeg_encoder {
    struct jpeg_compress_struct cinfo;
    bridge_error err;
    grow_destination dest;
    int created;
    size_t length;
};

static void dest_init(j_compress_ptr cinfo) {
    grow_destination *dest = (grow_destination *)cinfo->dest;
    dest->pub.next_output_byte = dest->data;
    dest->pub.free_in_buffer = dest->capacity;
}

static boolean dest_grow(j_compress_ptr cinfo) {
    grow_destination *dest = (grow_destination *)cinfo->dest;
    size_t used = dest->capacity; /* libjpeg calls this only when the buffer is full */
    size_t capacity = dest->capacity * 2;
    JOCTET *data = realloc(dest->data, capacity);
    if (!data) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    dest->data = data;
    dest->capacity = capacity;
    dest->pub.next_output_byte = data + used;
    dest->pub.free_in_buffer = capacity - used;
    return TRUE;
}

static void dest_term(j_compress_ptr cinfo) { (void)cinfo; }

/* Room for the whole JPEG of `samples` samples from the start, as far as a guess goes: grown by
 * doubling from 16 KiB, the buffer of a 1920 px rendition (600 KB) was copied six times, 140 of
 * its 1230 page faults. Half a byte a sample is more than photos take at quality 85 (0.08 here);
 * pages never written are never touched, so an overestimate costs no memory. Past the guess, or
 * when it cannot be had, the buffer still grows. */
static void reserve_output(grow_destination *dest, size_t samples) {
    size_t capacity = samples / 2 + 65536;
    if (capacity > ((size_t)64 << 20)) capacity = (size_t)64 << 20;
    if (capacity <= dest->capacity) return;
    JOCTET *data = malloc(capacity);
    if (!data) return;
    free(dest->data);
    dest->data = data;
    dest->capacity = capacity;
}

ajpeg_encoder *ajpeg_encoder_new(void) {
    ajpeg_encoder *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    bridge_error_init(&e->err);
    e->cinfo.err = &e->err.pub;
    if (setjmp(e->err.jump)) { free(e); return NULL; }
    jpeg_create_compress(&e->cinfo);
    e->created = 1;
    e->dest.capacity = 16384;
    e->dest.data = malloc(e->dest.capacity);
    if (!e->dest.data) { jpeg_destroy_compress(&e->cinfo); free(e); return NULL; }
    e->dest.pub.init_destination = dest_init;
    e->dest.pub.empty_output_buffer = dest_grow;
    e->dest.pub.term_destination = dest_term;
    e->cinfo.dest = &e->dest.pub;
    return e;
}

void ajpeg_encoder_free(ajpeg_encoder *e) {
    if (!e) return;
    if (e->created) jpeg_destroy_compress(&e->cinfo);
    free(e->dest.data);
    free(e);
}

const char *ajpeg_encoder_error(const ajpeg_encoder *e) { return e->err.failure.message; }

int ajpeg_encoder_start(ajpeg_encoder *e, int width, int height, int components, int quality,
                        const uint8_t *icc, unsigned icc_length) {
    if (setjmp(e->err.jump)) return -1;
    j_compress_ptr c = &e->cinfo;
    reserve_output(&e->dest, (size_t)width * (size_t)height * (size_t)components);
    c->image_width = (JDIMENSION)width;
    c->image_height = (JDIMENSION)height;
    c->input_components = components;
    c->in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(c);
    jpeg_set_quality(c, quality, TRUE);
    jpeg_start_compress(c, TRUE);
    if (icc && icc_length) jpeg_write_icc_profile(c, icc, icc_length);
    return 0;
}

int ajpeg_encoder_write_row(ajpeg_encoder *e, const uint8_t *row) {
    if (setjmp(e->err.jump)) return -1;
    JSAMPROW r = (JSAMPROW)row;
    jpeg_write_scanlines(&e->cinfo, &r, 1);
    return 0;
}

int ajpeg_encoder_finish(ajpeg_encoder *e, const uint8_t **bytes, size_t *length) {
    if (setjmp(e->err.jump)) return -1;
    jpeg_finish_compress(&e->cinfo);
    *bytes = e->dest.data;
    *length = e->dest.capacity - e->dest.pub.free_in_buffer;
    return 0;
}
