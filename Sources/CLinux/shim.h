#ifndef ASSETFS_CLINUX_SHIM_H
#define ASSETFS_CLINUX_SHIM_H
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef O_PATH
#define O_PATH 010000000 /* glibc shows it only under _GNU_SOURCE */
#endif

/* A descriptor of a folder that is only a place to open things beneath (needs no read permission). */
static inline int clinux_open_folder(const char *path) {
    return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* A handle on a place itself (O_PATH): reads nothing and asks its filesystem nothing. */
static inline int clinux_open_path(const char *path) {
    return open(path, O_PATH | O_CLOEXEC);
}

/* openat2(2) has no glibc wrapper, and syscall(2) is variadic (Swift cannot call it).
   Resolves `path` beneath `dirfd` only: no "..", absolute path or symbolic link may lead out,
   and no /proc magic link is followed. Returns -1 with errno set (ENOSYS before Linux 5.6). */
static inline int clinux_open_beneath(int dirfd, const char *path, int flags) {
    struct open_how how = {0};
    how.flags = (unsigned long long)flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

/* An anonymous file in memory (memfd_create(2), close-on-exec), for code that reads descriptors. */
static inline int clinux_memory_file(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 1u /* MFD_CLOEXEC */);
}
/* Lowers the calling thread (only it: Linux schedules threads by their own id) to nice 10 and the
   lowest best-effort I/O priority, for background work that must not slow requests. ioprio_set
   has no glibc wrapper. Returns 0, or -1 with errno set (the thread then keeps its priority). */
static inline int clinux_lower_thread_priority(void) {
    pid_t tid = (pid_t)syscall(SYS_gettid);
    int status = setpriority(PRIO_PROCESS, (id_t)tid, 10);
    if (syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, tid, (2 << 13) | 7 /* IOPRIO_CLASS_BE, level 7 */) != 0) status = -1;
    return status;
}

/* Allocations of `bytes` and more are mapped and unmapped (mallopt's M_MMAP_THRESHOLD is a macro
   of <malloc.h>, which Glibc's module does not carry). Setting it also stops glibc from raising
   the threshold after each large free. Returns 1 on success. */
static inline int clinux_map_allocations_from(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

/* dup3(2) with O_CLOEXEC (glibc declares it only under _GNU_SOURCE): `target` now names the file
   `source` names, in one step (dup3 keeps the descriptor number; dup2 would drop close-on-exec). */
static inline int clinux_replace_descriptor(int source, int target) {
    return (int)syscall(SYS_dup3, source, target, O_CLOEXEC);
}

/* A counter in memory several processes map (`SharedCounter`): Swift's Atomic cannot be laid over
   mapped memory. Loads acquire; an increment is sequentially consistent (a full barrier). */
static inline unsigned long long clinux_shared_load(const unsigned long long *counter) {
    return __atomic_load_n(counter, __ATOMIC_ACQUIRE);
}

static inline void clinux_shared_increment(unsigned long long *counter) {
    __atomic_fetch_add(counter, 1ULL, __ATOMIC_SEQ_CST);
}
#endif
