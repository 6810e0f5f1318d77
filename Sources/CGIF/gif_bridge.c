#include "gif_bridge.h"
#include "bridge_failure.h"
#include <errno.h>
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct agif_decoder {
    int fd;
    off_t offset;
    int read_failed;
    GifFileType *gif;
    bridge_failure failure;
    int width, height, left, top, fw, fh, interlaced;
    int transparent;
    GifColorType palette[256];
    int colours;
    int next_row;        /* screen row */
    int frame_rows_read; /* streaming: frame rows read so far */
    GifPixelType *line;  /* one frame row */
    GifPixelType *frame; /* interlaced: the whole frame */
};

static int on_read(GifFileType *gif, GifByteType *buffer, int length) {
    agif_decoder *d = gif->UserData;
    int done = 0;
    while (done < length) {
        ssize_t n = pread(d->fd, buffer + done, (size_t)(length - done), d->offset);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) { d->read_failed = errno; break; }
        if (n == 0) break;
        done += (int)n;
        d->offset += n;
    }
    return done;
}

/* giflib's failure `code` while doing `what`: a failed read is the file's, no memory passes, any
 * other is the content's. */
static int fail(agif_decoder *d, const char *what, int code) {
    if (d->read_failed) return bridge_fail(&d->failure, BRIDGE_FAILURE_READ, "read error: %s", strerror(d->read_failed));
    const char *text = GifErrorString(code);
    int kind = code == D_GIF_ERR_NOT_ENOUGH_MEM ? BRIDGE_FAILURE_OUT_OF_MEMORY : BRIDGE_FAILURE_CORRUPT;
    return bridge_fail(&d->failure, kind, "%s: %s", what, text ? text : "giflib error");
}

agif_decoder *agif_decoder_new(int fd) {
    agif_decoder *d = calloc(1, sizeof *d);
    if (d) { d->fd = fd; d->transparent = -1; }
    return d;
}

void agif_decoder_free(agif_decoder *d) {
    if (!d) return;
    if (d->gif) { int e; DGifCloseFile(d->gif, &e); }
    free(d->line);
    free(d->frame);
    free(d);
}

const char *agif_error(const agif_decoder *d) { return d->failure.message; }
int agif_failure(const agif_decoder *d) { return d->failure.kind; }

int agif_read_header(agif_decoder *d, agif_header *out) {
    int code = 0;
    d->gif = DGifOpen(d, on_read, &code);
    if (!d->gif) return fail(d, "not a readable GIF", code);
    GifFileType *gif = d->gif;
    d->width = gif->SWidth;
    d->height = gif->SHeight;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) return fail(d, "cannot read a record", gif->Error);
        if (type == EXTENSION_RECORD_TYPE) {
            int ext_code;
            GifByteType *ext;
            if (DGifGetExtension(gif, &ext_code, &ext) == GIF_ERROR) return fail(d, "cannot read an extension", gif->Error);
            if (ext_code == GRAPHICS_EXT_FUNC_CODE && ext && ext[0] >= 4) d->transparent = (ext[1] & 1) ? ext[4] : -1;
            while (ext) {
                if (DGifGetExtensionNext(gif, &ext) == GIF_ERROR) return fail(d, "cannot read an extension", gif->Error);
            }
        } else if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(gif) == GIF_ERROR) return fail(d, "cannot read the image descriptor", gif->Error);
            break;
        } else if (type == TERMINATE_RECORD_TYPE) {
            return bridge_fail(&d->failure, BRIDGE_FAILURE_CORRUPT, "no image in the file");
        }
    }
    GifImageDesc *image = &gif->Image;
    d->left = image->Left;
    d->top = image->Top;
    d->fw = image->Width;
    d->fh = image->Height;
    d->interlaced = image->Interlace ? 1 : 0;
    if (d->width <= 0 || d->height <= 0 || d->fw <= 0 || d->fh <= 0 || d->left < 0 || d->top < 0 ||
        (long)d->left + d->fw > d->width || (long)d->top + d->fh > d->height) {
        return bridge_fail(&d->failure, BRIDGE_FAILURE_CORRUPT, "first frame %dx%d at (%d,%d) lies outside the %dx%d screen",
                           d->fw, d->fh, d->left, d->top, d->width, d->height);
    }
    ColorMapObject *map = image->ColorMap ? image->ColorMap : gif->SColorMap;
    if (map && map->Colors) {
        d->colours = map->ColorCount > 256 ? 256 : map->ColorCount;
        memcpy(d->palette, map->Colors, sizeof(GifColorType) * (size_t)d->colours);
    } else {
        d->colours = 256; /* no palette at all: show the indices as grays */
        for (int i = 0; i < 256; i++) d->palette[i].Red = d->palette[i].Green = d->palette[i].Blue = (GifByteType)i;
    }
    out->width = d->width;
    out->height = d->height;
    out->frame_width = d->fw;
    out->frame_height = d->fh;
    out->interlaced = d->interlaced;
    return 0;
}

static void put(agif_decoder *d, const GifPixelType *line, uint8_t *row) {
    for (int x = 0; x < d->fw; x++) {
        int index = line[x];
        uint8_t *p = row + (size_t)(d->left + x) * 3;
        if (index == d->transparent) continue;
        if (index >= d->colours) { p[0] = p[1] = p[2] = 0; continue; }
        p[0] = d->palette[index].Red;
        p[1] = d->palette[index].Green;
        p[2] = d->palette[index].Blue;
    }
}

int agif_read_rows(agif_decoder *d, uint8_t *rows, int max_rows, int *rows_read) {
    *rows_read = 0;
    size_t rowbytes = (size_t)d->width * 3;
    if (!d->line) {
        d->line = malloc((size_t)d->fw);
        if (!d->line) return bridge_fail(&d->failure, BRIDGE_FAILURE_OUT_OF_MEMORY, "out of memory");
    }
    if (d->interlaced && !d->frame) {
        d->frame = malloc((size_t)d->fw * (size_t)d->fh);
        if (!d->frame) return bridge_fail(&d->failure, BRIDGE_FAILURE_OUT_OF_MEMORY, "out of memory");
        static const int start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
        for (int pass = 0; pass < 4; pass++)
            for (int y = start[pass]; y < d->fh; y += step[pass])
                if (DGifGetLine(d->gif, d->frame + (size_t)y * (size_t)d->fw, d->fw) == GIF_ERROR)
                    return fail(d, "corrupt image data", d->gif->Error);
    }
    int done = 0;
    while (done < max_rows && d->next_row < d->height) {
        uint8_t *row = rows + (size_t)done * rowbytes;
        memset(row, 0xFF, rowbytes);
        int fy = d->next_row - d->top;
        if (fy >= 0 && fy < d->fh) {
            if (d->frame) put(d, d->frame + (size_t)fy * (size_t)d->fw, row);
            else {
                if (DGifGetLine(d->gif, d->line, d->fw) == GIF_ERROR) return fail(d, "corrupt image data", d->gif->Error);
                put(d, d->line, row);
            }
        }
        d->next_row++;
        done++;
    }
    *rows_read = done;
    return 0;
}

int agif_version(void) { return GIFLIB_MAJOR * 10000 + GIFLIB_MINOR * 100 + GIFLIB_RELEASE; }
