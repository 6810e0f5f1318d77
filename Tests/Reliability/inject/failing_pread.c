/* LD_PRELOAD shim for the read-errors check: every pread on a descriptor above 2 from call
 * FAIL_AFTER on fails with EIO, as on a disk going bad or unplugged mid-read. With COUNT_FILE
 * set, the number of such calls is written there at exit (to know how far to step). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

static long calls;

ssize_t pread64(int fd, void *buffer, size_t count, off_t offset) {
    static ssize_t (*real)(int, void *, size_t, off_t);
    if (!real) real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread64");
    if (fd > 2 && count > 0) {
        const char *limit = getenv("FAIL_AFTER");
        if (++calls > (limit ? atol(limit) : -1) && limit) { errno = EIO; return -1; }
    }
    return real(fd, buffer, count, offset);
}

ssize_t pread(int fd, void *buffer, size_t count, off_t offset) { return pread64(fd, buffer, count, offset); }

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("COUNT_FILE");
    FILE *file = path ? fopen(path, "w") : NULL;
    if (file) { fprintf(file, "%ld\n", calls); fclose(file); }
}
