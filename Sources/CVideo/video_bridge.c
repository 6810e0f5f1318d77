#include "video_bridge.h"
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/csp.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* FFmpeg is loaded on first use (dlopen), not linked: its libraries bring some 115 more shared
 * objects, which every assetfs process (each `render`, each `warm`) would otherwise load and
 * relocate at start-up, a video or not (7 -> 35 ms of CPU). A machine without them still shows
 * photos; a video then fails with the reason. */
#include "load_on_first_use.h"

#define FFMPEG_FUNCTIONS(X) \
    X(avutil, av_buffer_allocz) \
    X(avutil, av_buffer_ref) \
    X(avutil, av_buffer_unref) \
    X(avutil, av_calloc) \
    X(avutil, av_csp_primaries_desc_from_id) \
    X(avutil, av_dict_free) \
    X(avutil, av_dict_get) \
    X(avutil, av_dict_set) \
    X(avutil, av_frame_alloc) \
    X(avutil, av_frame_free) \
    X(avutil, av_frame_unref) \
    X(avutil, av_free) \
    X(avutil, av_freep) \
    X(avutil, av_log_set_level) \
    X(avutil, av_malloc) \
    X(avutil, av_max_alloc) \
    X(avutil, av_mallocz) \
    X(avcodec, av_packet_alloc) \
    X(avcodec, av_packet_free) \
    X(avcodec, av_packet_unref) \
    X(avutil, av_pix_fmt_count_planes) \
    X(avutil, av_pix_fmt_desc_get) \
    X(avformat, av_probe_input_buffer2) \
    X(avformat, av_read_frame) \
    X(avutil, av_rescale_q) \
    X(avformat, av_seek_frame) \
    X(avformat, av_stream_get_side_data) \
    X(avutil, av_strerror) \
    X(avutil, av_version_info) \
    X(avcodec, avcodec_alloc_context3) \
    X(avcodec, avcodec_default_get_buffer2) \
    X(avcodec, avcodec_find_decoder) \
    X(avcodec, avcodec_find_decoder_by_name) \
    X(avcodec, avcodec_flush_buffers) \
    X(avcodec, avcodec_free_context) \
    X(avcodec, avcodec_get_name) \
    X(avcodec, avcodec_open2) \
    X(avcodec, avcodec_parameters_to_context) \
    X(avcodec, avcodec_receive_frame) \
    X(avcodec, avcodec_send_packet) \
    X(avformat, avformat_alloc_context) \
    X(avformat, avformat_close_input) \
    X(avformat, avformat_find_stream_info) \
    X(avformat, avformat_open_input) \
    X(avformat, avio_alloc_context) \
    X(avformat, avio_context_free) \
    X(swscale, sws_freeContext) \
    X(swscale, sws_getCachedContext) \
    X(swscale, sws_getCoefficients) \
    X(swscale, sws_scale) \
    X(swscale, sws_setColorspaceDetails)

static struct {
#define DECLARE(library, name) __typeof__(&name) name;
    FFMPEG_FUNCTIONS(DECLARE)
#undef DECLARE
} ffmpeg;
static char ffmpeg_unavailable[256];

static void load_ffmpeg(void) {
    /* Each of FFmpeg's libraries by the soname of the major version compiled against. */
#define LOAD(library, LIBRARY) \
    void *library = load_library("lib" #library ".so." AV_STRINGIFY(LIB##LIBRARY##_VERSION_MAJOR), "FFmpeg", \
                                 ffmpeg_unavailable, sizeof ffmpeg_unavailable); \
    if (!library) return;
    LOAD(avutil, AVUTIL) LOAD(swscale, SWSCALE) LOAD(avcodec, AVCODEC) LOAD(avformat, AVFORMAT)
#undef LOAD
#define RESOLVE(library, name) LOAD_FUNCTION_INTO(ffmpeg, library, name, "FFmpeg", ffmpeg_unavailable)
    FFMPEG_FUNCTIONS(RESOLVE)
#undef RESOLVE
    ffmpeg.av_log_set_level(AV_LOG_QUIET);  /* FFmpeg logs to stderr by default; errors are returned instead */
    /* No single allocation past 256 MiB (FFmpeg's default is INT_MAX): a 1 KB fragmented MP4
       made the mov demuxer realloc one table to 2 GB (the daemon peaked at 3.4 GB). The largest
       honest ones are far below: an 8K 16-bit plane is 66 MB, a long film's index tens of MB. */
    ffmpeg.av_max_alloc(256u << 20);
}

DEFINE_LOADED_ONCE(avideo_unavailable, load_ffmpeg, ffmpeg_unavailable)

/* Below, every FFmpeg function is the one loaded. */
#define av_buffer_allocz ffmpeg.av_buffer_allocz
#define av_buffer_ref ffmpeg.av_buffer_ref
#define av_buffer_unref ffmpeg.av_buffer_unref
#define av_calloc ffmpeg.av_calloc
#define av_csp_primaries_desc_from_id ffmpeg.av_csp_primaries_desc_from_id
#define av_dict_free ffmpeg.av_dict_free
#define av_dict_get ffmpeg.av_dict_get
#define av_dict_set ffmpeg.av_dict_set
#define av_frame_alloc ffmpeg.av_frame_alloc
#define av_frame_free ffmpeg.av_frame_free
#define av_frame_unref ffmpeg.av_frame_unref
#define av_free ffmpeg.av_free
#define av_freep ffmpeg.av_freep
#define av_log_set_level ffmpeg.av_log_set_level
#define av_malloc ffmpeg.av_malloc
#define av_mallocz ffmpeg.av_mallocz
#define av_packet_alloc ffmpeg.av_packet_alloc
#define av_packet_free ffmpeg.av_packet_free
#define av_packet_unref ffmpeg.av_packet_unref
#define av_pix_fmt_count_planes ffmpeg.av_pix_fmt_count_planes
#define av_pix_fmt_desc_get ffmpeg.av_pix_fmt_desc_get
#define av_probe_input_buffer2 ffmpeg.av_probe_input_buffer2
#define av_read_frame ffmpeg.av_read_frame
#define av_rescale_q ffmpeg.av_rescale_q
#define av_seek_frame ffmpeg.av_seek_frame
#define av_stream_get_side_data ffmpeg.av_stream_get_side_data
#define av_strerror ffmpeg.av_strerror
#define av_version_info ffmpeg.av_version_info
#define avcodec_alloc_context3 ffmpeg.avcodec_alloc_context3
#define avcodec_default_get_buffer2 ffmpeg.avcodec_default_get_buffer2
#define avcodec_find_decoder ffmpeg.avcodec_find_decoder
#define avcodec_find_decoder_by_name ffmpeg.avcodec_find_decoder_by_name
#define avcodec_flush_buffers ffmpeg.avcodec_flush_buffers
#define avcodec_free_context ffmpeg.avcodec_free_context
#define avcodec_get_name ffmpeg.avcodec_get_name
#define avcodec_open2 ffmpeg.avcodec_open2
#define avcodec_parameters_to_context ffmpeg.avcodec_parameters_to_context
#define avcodec_receive_frame ffmpeg.avcodec_receive_frame
#define avcodec_send_packet ffmpeg.avcodec_send_packet
#define avformat_alloc_context ffmpeg.avformat_alloc_context
#define avformat_close_input ffmpeg.avformat_close_input
#define avformat_find_stream_info ffmpeg.avformat_find_stream_info
#define avformat_open_input ffmpeg.avformat_open_input
#define avio_alloc_context ffmpeg.avio_alloc_context
#define avio_context_free ffmpeg.avio_context_free
#define sws_freeContext ffmpeg.sws_freeContext
#define sws_getCachedContext ffmpeg.sws_getCachedContext
#define sws_getCoefficients ffmpeg.sws_getCoefficients
#define sws_scale ffmpeg.sws_scale
#define sws_setColorspaceDetails ffmpeg.sws_setColorspaceDetails

enum {
    IO_BUFFER_BYTES = 64 << 10,
    PROBE_BYTES = 4 << 20,           /* what format probing and stream analysis may read */
    ANALYZE_MICROSECONDS = 5000000,  /* how much of the streams the analysis may look at */
};

struct avideo {
    int fd;
    int64_t size, position;
    int64_t budget, bytes_read;
    int64_t deadline_ns;
    int64_t max_pixels;
    int read_errno, timed_out, over_budget;
    int failure;                     /* enum avideo_failure of the last failure */
    AVIOContext *io;
    AVFormatContext *format;
    int stream;
    AVCodecContext *codec;
    AVPacket *packet;
    AVFrame *frame;
    int has_frame;
    int draining;                    /* a keyframe was sent with end of stream: flush before more */
    int stand_ins;                   /* while an HEVC keyframe is sent alone: see get_frame_buffer */
    int allocations;                 /* frames asked for since that keyframe was sent */
    AVBufferRef *stand_in_row;       /* the one row every stand-in frame is made of */
    struct SwsContext *scaler;
    char message[256];
};

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int past_deadline(avideo *v) {
    if (!v->timed_out && now_ns() > v->deadline_ns) v->timed_out = 1;
    return v->timed_out;
}

/* FFmpeg's blocking calls ask this between reads: nonzero stops them with AVERROR_EXIT. */
static int interrupted(void *opaque) { return past_deadline(opaque); }

static int io_read(void *opaque, uint8_t *buffer, int size) {
    avideo *v = opaque;
    if (past_deadline(v)) return AVERROR_EXIT;
    if (v->bytes_read >= v->budget) { v->over_budget = 1; return AVERROR_EXIT; }
    if (v->position >= v->size) return AVERROR_EOF;
    int64_t want = size;
    if (want > v->budget - v->bytes_read) want = v->budget - v->bytes_read;
    ssize_t n;
    do n = pread(v->fd, buffer, (size_t)want, (off_t)v->position); while (n < 0 && errno == EINTR);
    if (n < 0) { v->read_errno = errno; return AVERROR(errno); }
    if (n == 0) return AVERROR_EOF;
    v->position += n;
    v->bytes_read += n;
    return (int)n;
}

static int64_t io_seek(void *opaque, int64_t offset, int whence) {
    avideo *v = opaque;
    int64_t to;
    switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE: return v->size;
    case SEEK_SET: to = offset; break;
    case SEEK_CUR: to = v->position + offset; break;
    case SEEK_END: to = v->size + offset; break;
    default: return -1;
    }
    if (to < 0) return -1;
    v->position = to;
    return to;
}

avideo *avideo_new(int fd, int64_t byte_budget, double seconds, int64_t max_pixels) {
    if (avideo_unavailable()) return NULL;
    avideo *v = av_mallocz(sizeof *v);
    if (!v) return NULL;
    v->fd = fd;
    v->budget = byte_budget;
    v->deadline_ns = now_ns() + (int64_t)(seconds * 1e9);
    v->max_pixels = max_pixels;
    v->stream = -1;
    return v;
}

void avideo_free(avideo *v) {
    if (!v) return;
    sws_freeContext(v->scaler);
    av_frame_free(&v->frame);
    av_packet_free(&v->packet);
    avcodec_free_context(&v->codec);
    av_buffer_unref(&v->stand_in_row);
    avformat_close_input(&v->format);  /* leaves a custom AVIOContext alone */
    if (v->io) av_freep(&v->io->buffer);
    avio_context_free(&v->io);
    av_free(v);
}

const char *avideo_error(const avideo *v) { return v->message; }

int avideo_failure(const avideo *v) { return v->failure; }

/* Records a failure of `kind` and its message. */
static int failed(avideo *v, int kind, const char *format, ...) __attribute__((format(printf, 3, 4)));
static int failed(avideo *v, int kind, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(v->message, sizeof v->message, format, arguments);
    va_end(arguments);
    v->failure = kind;
    return -1;
}

/* Records why `what` failed: the reader's own reasons first, they explain FFmpeg's code. */
static int fail(avideo *v, const char *what, int code) {
    if (v->read_errno) return failed(v, BRIDGE_FAILURE_READ, "read error: %s", strerror(v->read_errno));
    if (v->timed_out) return failed(v, BRIDGE_FAILURE_CANCELLED, "timed out (%s)", what);
    if (v->over_budget) return failed(v, BRIDGE_FAILURE_CORRUPT, "%s: read more than its budget of %lld MiB", what, (long long)(v->budget >> 20));
    char reason[AV_ERROR_MAX_STRING_SIZE] = "";
    av_strerror(code, reason, sizeof reason);
    return failed(v, BRIDGE_FAILURE_CORRUPT, "%s: %s", what, reason);
}

static int oom(avideo *v) { return failed(v, BRIDGE_FAILURE_CORRUPT, "out of memory"); }

static uint32_t be32(const uint8_t *b) { return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]; }

/* Whether an ISO media file (MP4, MOV) ends before its index: its top-level boxes, each well
 * formed, reach or run past the end of the file and none is a `moov`. So does a file still being
 * copied, or cut short, when its index is written last (as cameras and phones do); a box of an
 * impossible size is a broken file instead. At most 1000 boxes are read, 16 bytes each. */
static int ends_before_its_index(avideo *v) {
    int64_t at = 0;
    for (int boxes = 0; boxes < 1000 && at + 8 <= v->size; boxes++) {
        uint8_t header[16];
        ssize_t n;
        do n = pread(v->fd, header, sizeof header, (off_t)at); while (n < 0 && errno == EINTR);
        if (n < 8) return 0;
        if (memcmp(header + 4, "moov", 4) == 0) return 0;
        uint64_t size = be32(header);
        if (size == 1) size = n < 16 ? 0 : (uint64_t)be32(header + 8) << 32 | be32(header + 12);
        else if (size == 0) size = (uint64_t)(v->size - at);  /* to the end of the file */
        if (size < 8) return 0;
        if (size > (uint64_t)(v->size - at)) return 1;
        at += (int64_t)size;
    }
    return at + 8 > v->size;
}

/* The largest video stream that is not an attached picture (cover art), or -1. */
static int choose_stream(const AVFormatContext *format) {
    int best = -1;
    int64_t best_area = -1;
    for (unsigned i = 0; i < format->nb_streams; i++) {
        const AVStream *s = format->streams[i];
        if (s->codecpar->codec_type != AVMEDIA_TYPE_VIDEO || (s->disposition & AV_DISPOSITION_ATTACHED_PIC)) continue;
        int64_t area = (int64_t)s->codecpar->width * s->codecpar->height;
        if (area > best_area) { best = (int)i; best_area = area; }
    }
    return best;
}

/* Stream analysis decodes a little of each stream: one thread each and no frame over the pixel
 * cap, as for our own decoder (its frames are allocated, zeroed, before any reservation). */
static int analyse_streams(avideo *v) {
    unsigned count = v->format->nb_streams;
    AVDictionary **options = count ? av_calloc(count, sizeof *options) : NULL;
    if (count && !options) return oom(v);
    char max_pixels[24];
    snprintf(max_pixels, sizeof max_pixels, "%lld", (long long)v->max_pixels);
    for (unsigned i = 0; i < count; i++) {
        av_dict_set(&options[i], "threads", "1", 0);
        av_dict_set(&options[i], "max_pixels", max_pixels, 0);
    }
    int e = avformat_find_stream_info(v->format, options);
    for (unsigned i = 0; i < count; i++) av_dict_free(&options[i]);
    av_free(options);
    return e < 0 ? fail(v, "cannot read the streams", e) : 0;
}

int avideo_open(avideo *v, avideo_info *out) {
    memset(out, 0, sizeof *out);
    out->duration_us = -1;
    out->sar_den = 1;
    struct stat st;
    if (fstat(v->fd, &st) != 0) { v->read_errno = errno; return fail(v, "stat", 0); }
    v->size = st.st_size;

    uint8_t *buffer = av_malloc(IO_BUFFER_BYTES);
    if (!buffer) return oom(v);
    v->io = avio_alloc_context(buffer, IO_BUFFER_BYTES, 0, v, io_read, NULL, io_seek);
    if (!v->io) { av_free(buffer); return oom(v); }
    v->format = avformat_alloc_context();
    if (!v->format) return oom(v);
    v->format->pb = v->io;
    v->format->flags |= AVFMT_FLAG_CUSTOM_IO;
    v->format->interrupt_callback = (AVIOInterruptCB){interrupted, v};
    v->format->probesize = PROBE_BYTES;
    v->format->format_probesize = PROBE_BYTES;
    v->format->max_analyze_duration = ANALYZE_MICROSECONDS;
    /* Probed here, as avformat_open_input would, to know which demuxer failed. */
    const AVInputFormat *demuxer = NULL;
    int e = av_probe_input_buffer2(v->io, &demuxer, "", NULL, 0, PROBE_BYTES);
    if (e < 0) return fail(v, "cannot open the container", e);
    e = avformat_open_input(&v->format, NULL, demuxer, NULL);
    if (e == AVERROR_INVALIDDATA && strncmp(demuxer->name, "mov,", 4) == 0 && ends_before_its_index(v))
        return failed(v, BRIDGE_FAILURE_INCOMPLETE, "incomplete file (no moov box: still being copied or truncated)");
    if (e < 0) return fail(v, "cannot open the container", e);  /* it has freed the format context */

    v->stream = choose_stream(v->format);
    /* Containers without sizes in their headers (MPEG-TS, MPEG-PS) need the streams analysed. */
    if (v->stream < 0 || v->format->streams[v->stream]->codecpar->width <= 0) {
        if (analyse_streams(v) != 0) return -1;
        v->stream = choose_stream(v->format);
    }
    snprintf(out->container, sizeof out->container, "%s", v->format->iformat->name);
    for (unsigned i = 0; i < v->format->nb_streams; i++) {
        AVStream *s = v->format->streams[i];
        if (s->codecpar->codec_type == AVMEDIA_TYPE_AUDIO && out->audio_streams++ == 0)
            snprintf(out->audio_codec, sizeof out->audio_codec, "%s", avcodec_get_name(s->codecpar->codec_id));
        if ((int)i != v->stream) s->discard = AVDISCARD_ALL;  /* the demuxer skips their packets */
    }
    int64_t duration = v->format->duration;
    if (duration == AV_NOPTS_VALUE || duration <= 0) {
        duration = -1;
        for (unsigned i = 0; i < v->format->nb_streams; i++) {
            AVStream *s = v->format->streams[i];
            if (s->duration == AV_NOPTS_VALUE || s->duration <= 0) continue;
            int64_t us = av_rescale_q(s->duration, s->time_base, AV_TIME_BASE_Q);
            if (us > duration) duration = us;
        }
    }
    out->duration_us = duration;
    if (v->stream < 0) return 0;

    AVStream *s = v->format->streams[v->stream];
    AVCodecParameters *p = s->codecpar;
    out->has_video = 1;
    /* The decoder's size when it knows one as it opens (HEVC's parameter sets, in the sample
       entry, are read then): the frames' own, where the container's header may claim another
       (65535x65535 over a 216x384 picture). Else the header's; a decoder that cannot open leaves
       its reason to avideo_open_decoder. */
    int known = avideo_open_decoder(v) == 0 && v->codec->width > 0 && v->codec->height > 0;
    if (!known) { v->failure = 0; v->message[0] = 0; }
    out->width = known ? v->codec->width : p->width;
    out->height = known ? v->codec->height : p->height;
    AVRational sar = s->sample_aspect_ratio.num > 0 ? s->sample_aspect_ratio : p->sample_aspect_ratio;
    if (sar.num > 0 && sar.den > 0) { out->sar_num = sar.num; out->sar_den = sar.den; }
    size_t side_size = 0;
    uint8_t *matrix = av_stream_get_side_data(s, AV_PKT_DATA_DISPLAYMATRIX, &side_size);
    if (matrix && side_size >= sizeof out->matrix) {
        memcpy(out->matrix, matrix, sizeof out->matrix);
        out->has_matrix = 1;
    }
    const AVPixFmtDescriptor *pixels = av_pix_fmt_desc_get(p->format);
    out->bits = pixels ? pixels->comp[0].depth : p->bits_per_raw_sample;
    out->transfer = p->color_trc;
    snprintf(out->codec, sizeof out->codec, "%s", avcodec_get_name(p->codec_id));
    return 0;
}

int avideo_tag(const avideo *v, int index, const char **key, const char **value) {
    const AVDictionaryEntry *entry = NULL;
    while (v->format && (entry = av_dict_get(v->format->metadata, "", entry, AV_DICT_IGNORE_SUFFIX))) {
        if (index-- == 0) { *key = entry->key; *value = entry->value; return 0; }
    }
    return -1;
}

/* A frame of one row: every plane is the same row, `linesize` 0, so that however tall the frame,
 * writing all of it touches width x 8 bytes. */
static int stand_in_frame(avideo *v, AVFrame *frame) {
    size_t row = (size_t)frame->width * 8 + 64;  /* 4 components of 16 bits, and some slack */
    if (!v->stand_in_row || v->stand_in_row->size < row) {
        av_buffer_unref(&v->stand_in_row);
        if (!(v->stand_in_row = av_buffer_allocz(row))) return AVERROR(ENOMEM);
    }
    if (!(frame->buf[0] = av_buffer_ref(v->stand_in_row))) return AVERROR(ENOMEM);
    for (int i = 0; i < av_pix_fmt_count_planes(frame->format) && i < AV_NUM_DATA_POINTERS; i++) {
        frame->data[i] = frame->buf[0]->data;
        frame->linesize[i] = 0;
    }
    frame->extended_data = frame->data;
    return 0;
}

/* An HEVC decoder started at a CRA keyframe (an open GOP's, x265's default) makes up the pictures
 * its reference set names and the stream has not given, as the standard says (H.265 8.3.3: a
 * grey frame of full size each), although nothing decoded from the CRA on reads them: the leading
 * pictures that would are skipped. The bench's x265 clip names 4: 100 MB at 4K 10-bit, two thirds
 * of its poster's memory. FFmpeg asks for the picture's own frame first, then for these
 * (hevc_frame_start: ff_hevc_set_new_ref, then ff_hevc_frame_rps), all while the packet is sent;
 * so while a keyframe is sent alone, every frame asked for after the first is given a stand-in of
 * one row (stand_in_frame), and a picture returned in one is refused. Any other decoder, and any
 * other moment, gets FFmpeg's own buffers. Were a stand-in ever read, as a reference of a picture
 * decoded later, each of its rows is that one row: wrong pixels, never memory outside it. */
static int get_frame_buffer(AVCodecContext *codec, AVFrame *frame, int flags) {
    avideo *v = codec->opaque;
    if (v->stand_ins && (flags & AV_GET_BUFFER_FLAG_REF) && v->allocations++ > 0) return stand_in_frame(v, frame);
    return avcodec_default_get_buffer2(codec, frame, flags);
}

static int open_decoder(avideo *v) {
    AVStream *s = v->format->streams[v->stream];
    enum AVCodecID id = s->codecpar->codec_id;
    /* FFmpeg 5.1's own AV1 decoder needs hardware; dav1d decodes in software. */
    const AVCodec *decoder = id == AV_CODEC_ID_AV1 ? avcodec_find_decoder_by_name("libdav1d") : NULL;
    if (!decoder) decoder = avcodec_find_decoder(id);
    if (!decoder) return failed(v, BRIDGE_FAILURE_UNSUPPORTED, "unsupported codec %s", avcodec_get_name(id));
    v->codec = avcodec_alloc_context3(decoder);
    if (!v->packet) v->packet = av_packet_alloc();
    if (!v->frame) v->frame = av_frame_alloc();
    if (!v->codec || !v->packet || !v->frame) return oom(v);
    int e = avcodec_parameters_to_context(v->codec, s->codecpar);
    if (e < 0) return fail(v, "cannot set up the decoder", e);
    /* A size over the cap that the container claims is not given to the decoder (avcodec_open2
       refuses it): the stream's own is read instead, from HEVC's parameter sets as it opens, or
       from a frame, which the cap binds. */
    if ((int64_t)v->codec->width * v->codec->height > v->max_pixels) v->codec->width = v->codec->height = 0;
    v->codec->pkt_timebase = s->time_base;
    v->codec->thread_count = 1;
    v->codec->max_pixels = v->max_pixels;
    v->codec->opaque = v;
    v->codec->get_buffer2 = get_frame_buffer;
    e = avcodec_open2(v->codec, decoder, NULL);
    return e < 0 ? fail(v, "cannot open the decoder", e) : 0;
}

int avideo_open_decoder(avideo *v) {
    if (v->codec) return 0;  /* opened by avideo_open */
    if (open_decoder(v) == 0) return 0;
    avcodec_free_context(&v->codec);
    return -1;
}

int avideo_seek(avideo *v, int64_t microseconds) {
    AVStream *s = v->format->streams[v->stream];
    int64_t target = av_rescale_q(microseconds, AV_TIME_BASE_Q, s->time_base);
    if (s->start_time != AV_NOPTS_VALUE) target += s->start_time;
    int e = av_seek_frame(v->format, v->stream, target, AVSEEK_FLAG_BACKWARD);
    if (e < 0) return fail(v, "cannot seek", e);
    avcodec_flush_buffers(v->codec);
    v->draining = 0;
    return 0;
}

/* After the end of the packets: what the decoder still holds. */
static int drain(avideo *v) {
    if (!v->draining) {
        avcodec_send_packet(v->codec, NULL);
        v->draining = 1;
    }
    if (avcodec_receive_frame(v->codec, v->frame) == 0) { v->has_frame = 1; return 0; }
    return 1;
}

int avideo_decode(avideo *v, int keyframes_only, int max_packets) {
    av_frame_unref(v->frame);
    v->has_frame = 0;
    if (v->draining) {
        avcodec_flush_buffers(v->codec);
        v->draining = 0;
    }
    v->codec->skip_frame = keyframes_only ? AVDISCARD_NONKEY : AVDISCARD_DEFAULT;
    for (int packets = 0; packets < max_packets;) {
        int e = av_read_frame(v->format, v->packet);
        if (e == AVERROR_EOF && !v->timed_out && !v->over_budget) return keyframes_only ? 1 : drain(v);
        if (e < 0) return fail(v, "cannot read the video", e);
        int wanted = v->packet->stream_index == v->stream && (!keyframes_only || (v->packet->flags & AV_PKT_FLAG_KEY));
        packets += v->packet->stream_index == v->stream;
        if (!wanted) { av_packet_unref(v->packet); continue; }
        v->stand_ins = keyframes_only && v->codec->codec_id == AV_CODEC_ID_HEVC;
        v->allocations = 0;
        e = avcodec_send_packet(v->codec, v->packet);
        v->stand_ins = 0;
        av_packet_unref(v->packet);
        if (e < 0 && e != AVERROR(EAGAIN)) continue;  /* a damaged packet: the next may decode */
        /* A keyframe alone: end the stream so that the decoder gives its picture at once rather
           than holding it for reordering, then reset it before the next. */
        if (keyframes_only) {
            if (drain(v) == 0 && v->frame->linesize[0] != 0) return 0;
            av_frame_unref(v->frame);
            v->has_frame = 0;
            avcodec_flush_buffers(v->codec);
            v->draining = 0;
            continue;
        }
        if (avcodec_receive_frame(v->codec, v->frame) == 0) { v->has_frame = 1; return 0; }
    }
    return 1;
}

int avideo_current(const avideo *v, avideo_frame *out) {
    memset(out, 0, sizeof *out);
    if (!v->has_frame) return -1;
    const AVFrame *f = v->frame;
    const AVPixFmtDescriptor *pixels = av_pix_fmt_desc_get(f->format);
    if (!pixels || (pixels->flags & (AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_BITSTREAM))) return -1;
    AVStream *s = v->format->streams[v->stream];
    out->width = f->width;
    out->height = f->height;
    out->interlaced = f->interlaced_frame;
    out->key = f->key_frame;
    int64_t pts = f->best_effort_timestamp;
    if (pts != AV_NOPTS_VALUE && s->start_time != AV_NOPTS_VALUE) pts -= s->start_time;
    out->pts_us = pts == AV_NOPTS_VALUE ? INT64_MIN : av_rescale_q(pts, s->time_base, AV_TIME_BASE_Q);
    out->transfer = f->color_trc;
    out->primaries = f->color_primaries;
    out->matrix = f->colorspace;
    out->full_range = f->color_range == AVCOL_RANGE_JPEG || f->format == AV_PIX_FMT_YUVJ420P ||
                      f->format == AV_PIX_FMT_YUVJ422P || f->format == AV_PIX_FMT_YUVJ444P;
    const AVColorPrimariesDesc *xy = av_csp_primaries_desc_from_id(f->color_primaries);
    if (xy) {
        out->rx = av_q2d(xy->prim.r.x); out->ry = av_q2d(xy->prim.r.y);
        out->gx = av_q2d(xy->prim.g.x); out->gy = av_q2d(xy->prim.g.y);
        out->bx = av_q2d(xy->prim.b.x); out->by = av_q2d(xy->prim.b.y);
        out->wx = av_q2d(xy->wp.x); out->wy = av_q2d(xy->wp.y);
    }
    out->luma = f->data[0];
    out->luma_stride = f->linesize[0];
    out->bits = pixels->comp[0].depth;
    out->bytes_per_sample = pixels->comp[0].step;
    return 0;
}

int avideo_scale(avideo *v, int width, int height, int one_field, int matrix, int full_range, uint8_t *rgb, int stride) {
    const AVFrame *f = v->frame;
    if (!v->has_frame || width <= 0 || height <= 0) return failed(v, BRIDGE_FAILURE_CORRUPT, "no frame to scale");
    const uint8_t *planes[4];
    int strides[4], source_height = f->height;
    for (int i = 0; i < 4; i++) { planes[i] = f->data[i]; strides[i] = f->linesize[i]; }
    if (one_field && f->height >= 4) {
        /* Every other row of every plane: the top field, whose chroma rows alternate too. */
        for (int i = 0; i < 4; i++) strides[i] *= 2;
        source_height = f->height / 2;
    }
    v->scaler = sws_getCachedContext(v->scaler, f->width, source_height, f->format, width, height, AV_PIX_FMT_RGB24,
                                     SWS_LANCZOS | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_BITEXACT, NULL, NULL, NULL);
    if (!v->scaler) return failed(v, BRIDGE_FAILURE_CORRUPT, "cannot scale %dx%d to %dx%d", f->width, source_height, width, height);
    /* Fails harmlessly for RGB sources, which have no YUV matrix. */
    sws_setColorspaceDetails(v->scaler, sws_getCoefficients(matrix), full_range, sws_getCoefficients(SWS_CS_DEFAULT), 1,
                             0, 1 << 16, 1 << 16);
    uint8_t *out[4] = {rgb, NULL, NULL, NULL};
    int out_strides[4] = {stride, 0, 0, 0};
    int rows = sws_scale(v->scaler, planes, strides, 0, source_height, out, out_strides);
    if (rows != height) return failed(v, BRIDGE_FAILURE_CORRUPT, "scaling gave %d of %d rows", rows, height);
    return 0;
}

const char *avideo_versions(void) { return avideo_unavailable() ? "unavailable" : av_version_info(); }
