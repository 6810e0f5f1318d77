// Writes the scale-bench library: copies of one tiny JPEG, each a picture of its own (the content
// id hashes the picture's data, so copies that differ only outside it are one asset): four bytes
// in the middle of the scan data number the picture (base 254 from 1, never 0xFF: no marker
// appears; libjpeg still decodes it, with a warning at most). A fixed-width COM segment right
// after SOI names its album and number. Every file has the same size and layout. One process for
// the whole library; one write per file.
//
//   scale-gen [--metadata] LIBRARY BASE.jpg PHOTOS PER_ALBUM BIG [PREFIX]
//       LIBRARY/PREFIX-NNNNN/IMG_NNNN.jpg: PHOTOS photos in albums of PER_ALBUM (the last may be
//       short), and LIBRARY/PREFIX-big/IMG_NNNNN.jpg: BIG more photos in one album (PREFIX: album).
//       --metadata: each photo also says when, where, what and who (scale-meta.c), in the
//       library's order (albums, then the big album), an Exif and an XMP APP1 after SOI.
//   scale-gen --one FILE BASE.jpg TAG
//       one more photo (its COM segment names TAG), written to FILE.
// Pictures are numbered in the library's order; an album of another PREFIX numbers from 1 << 24
// and --one's photo is 1 << 25, so neither repeats a picture of the library.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "scale-meta.h"

#define COMMENT_LEN 48   // fixed, so every file has the same layout and size

static unsigned char *base;
static size_t base_len;
static unsigned char *buf;   // SOI + COM(COMMENT_LEN) + base[2...]
static size_t buf_len;
static size_t picture_at;             // in buf: the 4 bytes of scan data that number the picture
static int with_metadata;
static long photo_number;             // the photo's number in the library, for its metadata
static unsigned char meta[META_MAX];

static void die(const char *what, const char *path) {
    fprintf(stderr, "scale-gen: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

// The middle of the first scan's entropy-coded data, past any 0xFF (a marker or stuffed byte
// there would change meaning).
static void find_scan_middle(void) {
    size_t sos = 2;
    while (sos + 4 < buf_len && !(buf[sos] == 0xFF && buf[sos + 1] == 0xDA)) sos++;
    size_t data = sos + 2 + ((size_t)buf[sos + 2] << 8 | buf[sos + 3]);
    size_t at = data + (buf_len - 2 - data) / 2;
    while (at + 6 < buf_len && (buf[at - 1] == 0xFF || buf[at] == 0xFF || buf[at + 1] == 0xFF ||
                               buf[at + 2] == 0xFF || buf[at + 3] == 0xFF)) at++;
    if (sos + 4 >= buf_len || at + 6 >= buf_len) { fprintf(stderr, "scale-gen: no scan data to number\n"); exit(1); }
    picture_at = at;
}

static void set_picture(unsigned long number) {
    for (int i = 3; i >= 0; i--, number /= 254) buf[picture_at + i] = 1 + number % 254;
}

static void load_base(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open", path);
    base = malloc(1 << 20);
    base_len = fread(base, 1, 1 << 20, f);
    fclose(f);
    if (base_len < 4 || base[0] != 0xFF || base[1] != 0xD8) {
        fprintf(stderr, "scale-gen: %s is not a JPEG\n", path);
        exit(1);
    }
    buf_len = base_len + 4 + COMMENT_LEN;
    buf = malloc(buf_len);
    buf[0] = 0xFF; buf[1] = 0xD8;
    buf[2] = 0xFF; buf[3] = 0xFE;                     // COM
    buf[4] = (COMMENT_LEN + 2) >> 8; buf[5] = (COMMENT_LEN + 2) & 0xFF;
    memcpy(buf + 6 + COMMENT_LEN, base + 2, base_len - 2);
    find_scan_middle();
}

static void set_comment(const char *fmt, const char *a, long i) {
    char c[COMMENT_LEN + 1];
    memset(c, ' ', sizeof c);
    int n = snprintf(c, sizeof c, fmt, a, i);
    if (n < COMMENT_LEN) c[n] = ' ';
    memcpy(buf + 6, c, COMMENT_LEN);
}

static void write_at(int dirfd, const char *name, const char *shown) {
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) die("cannot create", shown);
    size_t meta_len = with_metadata ? meta_segments(meta, photo_number++) : 0;
    struct iovec parts[] = {{buf, 2}, {meta, meta_len}, {buf + 2, buf_len - 2}};   // SOI, metadata, COM...
    if (writev(fd, parts, 3) != (ssize_t)(buf_len + meta_len)) die("cannot write", shown);
    if (close(fd) != 0) die("cannot close", shown);
}

static int album_dir(int libfd, const char *name) {
    if (mkdirat(libfd, name, 0755) != 0 && errno != EEXIST) die("cannot mkdir", name);
    int fd = openat(libfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) die("cannot open", name);
    return fd;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--one") == 0) {
        load_base(argv[3]);
        set_comment("assetfs scale-bench extra %s %ld", argv[4], 0);
        set_picture(1ul << 25);
        write_at(AT_FDCWD, argv[2], argv[2]);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--metadata") == 0) {
        with_metadata = 1;
        argv++; argc--;
    }
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: scale-gen [--metadata] LIBRARY BASE.jpg PHOTOS PER_ALBUM BIG [PREFIX] | scale-gen --one FILE BASE.jpg TAG\n");
        return 2;
    }
    const char *library = argv[1], *prefix = argc == 7 ? argv[6] : "album";
    long photos = atol(argv[3]), per_album = atol(argv[4]), big = atol(argv[5]);
    if (photos < 0 || per_album < 1 || big < 0) { fprintf(stderr, "scale-gen: bad counts\n"); return 2; }
    load_base(argv[2]);
    if (with_metadata) meta_plan(photos + big);
    if (mkdir(library, 0755) != 0 && errno != EEXIST) die("cannot mkdir", library);
    int libfd = open(library, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (libfd < 0) die("cannot open", library);

    char album[64], name[32];
    int dirfd = -1;
    unsigned long picture = strcmp(prefix, "album") == 0 ? 0 : 1ul << 24;
    for (long i = 0; i < photos; i++) {
        if (i % per_album == 0) {
            if (dirfd >= 0) close(dirfd);
            snprintf(album, sizeof album, "%.40s-%05ld", prefix, i / per_album);
            dirfd = album_dir(libfd, album);
        }
        snprintf(name, sizeof name, "IMG_%04ld.jpg", i % per_album);
        set_comment("assetfs scale-bench %s %ld", album, i % per_album);
        set_picture(picture++);
        write_at(dirfd, name, name);
        if ((i + 1) % 100000 == 0) fprintf(stderr, "scale-gen: %ld photos\n", i + 1);
    }
    if (dirfd >= 0) close(dirfd);
    if (big > 0) {
        snprintf(album, sizeof album, "%.40s-big", prefix);
        dirfd = album_dir(libfd, album);
        for (long i = 0; i < big; i++) {
            snprintf(name, sizeof name, "IMG_%05ld.jpg", i);
            set_comment("assetfs scale-bench %s %ld", album, i);
            set_picture(picture++);
            write_at(dirfd, name, name);
        }
        close(dirfd);
    }
    close(libfd);
    return 0;
}
