// The floor of scale-bench: the least a scanner of SOURCE has to do, in C.
//
//   scale-walk MODE [at|nftw] DIR
//     MODE 1: stat every entry (lstat semantics; symbolic links are not followed)
//     MODE 2: stat every entry, and open every regular file and read its first 2 bytes (what
//             sniffing for the JPEG marker FF D8 costs)
//     at:   a recursive readdir + fstatat/openat walk relative to each folder's descriptor (default)
//     nftw: nftw(3) with FTW_PHYS (full paths)
// Prints "dirs D files F jpegs J" (J: files starting FF D8; 0 in mode 1) on stdout.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int mode;
static long dirs, files, jpegs, errors;

static void sniff_fd(int fd) {
    unsigned char b[2];
    if (read(fd, b, 2) == 2 && b[0] == 0xFF && b[1] == 0xD8) jpegs++;
    close(fd);
}

static void walk_at(int dfd) {
    DIR *d = fdopendir(dfd);
    if (!d) { errors++; close(dfd); return; }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0))) continue;
        struct stat st;
        if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) != 0) { errors++; continue; }
        if (S_ISDIR(st.st_mode)) {
            dirs++;
            int sub = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0) { errors++; continue; }
            walk_at(sub);
        } else if (S_ISREG(st.st_mode)) {
            files++;
            if (mode == 2) {
                int fd = openat(dfd, n, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0) { errors++; continue; }
                sniff_fd(fd);
            }
        }
    }
    closedir(d);   // closes dfd
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st;
    if (ftw->level == 0) return 0;
    if (type == FTW_D) dirs++;
    else if (type == FTW_F) {
        files++;
        if (mode == 2) {
            int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
            if (fd < 0) errors++; else sniff_fd(fd);
        }
    } else if (type == FTW_DNR || type == FTW_NS) errors++;
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: scale-walk 1|2 [at|nftw] DIR\n");
        return 2;
    }
    mode = atoi(argv[1]);
    const char *how = argc == 4 ? argv[2] : "at";
    const char *root = argv[argc - 1];
    if (mode != 1 && mode != 2) { fprintf(stderr, "scale-walk: MODE is 1 or 2\n"); return 2; }
    if (strcmp(how, "nftw") == 0) {
        if (nftw(root, visit, 64, FTW_PHYS) != 0) { perror(root); return 1; }
    } else if (strcmp(how, "at") == 0) {
        int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) { perror(root); return 1; }
        walk_at(fd);
    } else {
        fprintf(stderr, "scale-walk: at or nftw, not %s\n", how);
        return 2;
    }
    printf("dirs %ld files %ld jpegs %ld\n", dirs, files, jpegs);
    if (errors) fprintf(stderr, "scale-walk: %ld entries could not be read\n", errors);
    return errors ? 1 : 0;
}
