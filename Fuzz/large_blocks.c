/* Large heap blocks for the fuzzer, recycled instead of mapped afresh for every input.
 *
 * ASan's allocator maps each block above 128 KiB with mmap and unmaps it when it leaves the
 * quarantine, so every such block costs its page faults again. FFmpeg (not instrumented) asks
 * for dozens of them per input, zeroed: a 174 KiB H.264 picture parameter set each time a parser
 * or decoder meets one, 200 KiB transport-stream PES buffers, the 765 KiB decoder context. For
 * the m2ts target that was four fifths of the time (page faults and clearing pages in the
 * kernel). This file replaces posix_memalign (FFmpeg's av_malloc) for blocks of 128 KiB to
 * 16 MiB, keeping ASan's checks on them:
 *   - a block is unpoisoned for exactly its size; the rest of its slot and the 4 KiB before it
 *     stay poisoned, so instrumented code reading past either end is reported as ASan would;
 *   - a freed block is poisoned whole and waits behind QUARANTINE others of its size before it
 *     is given again, so a use after free is reported too;
 *   - a double or foreign free aborts with the address (libFuzzer saves the input);
 *   - live blocks are LeakSanitizer root regions (pointers in them keep smaller blocks alive),
 *     and `large_blocks_live` lets the harness check that an input leaves none behind.
 * It is built without ASan (it reads the poisoned headers; ASan's poisoning macros are empty in
 * such a file, so it calls the functions) and linked only into the fuzzer:
 * ASan's own interceptors are weak, these definitions take their place, and everything else is
 * passed on to them. The fuzzer is single-threaded; a mutex keeps this safe regardless. */
#include "large_blocks.h"
#include <pthread.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int ___interceptor_posix_memalign(void **out, size_t alignment, size_t size);
void ___interceptor_free(void *pointer);
void *___interceptor_realloc(void *pointer, size_t size);
size_t ___interceptor_malloc_usable_size(void *pointer);

enum {
    SMALLEST = 128 << 10,      /* ASan's own allocator keeps blocks below this size */
    CLASSES = 8,               /* powers of two from SMALLEST: up to 16 MiB */
    HEADER = 4096,             /* before each block: its header, poisoned; also its alignment */
    QUARANTINE = 4,            /* freed blocks of a size class waiting before reuse */
};
#define ARENA_BYTES (16ull << 30) /* address space reserved once, touched only as slots are carved */
static const uint64_t MAGIC = 0x6c61726765626c6bull;

struct header {
    uint64_t magic;
    size_t size;               /* bytes asked for; 0 while free */
    int size_class;
    struct header *next;       /* the next free slot of its class, oldest first */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *arena;
static size_t carved;
static struct { struct header *oldest, *newest; int count; } freed[CLASSES];
static long live;

static size_t class_bytes(int size_class) { return (size_t)SMALLEST << size_class; }
static char *block_of(struct header *h) { return (char *)h + HEADER; }
static int in_arena(const void *p) { return arena && (const char *)p >= arena && (const char *)p < arena + ARENA_BYTES; }

static void corrupt(const char *what, const void *p) {
    fprintf(stderr, "large_blocks: %s %p\n", what, p);
    abort();
}

/* The header of the block at `p`, which must be a live block of the arena. */
static struct header *live_header(void *p) {
    struct header *h = (struct header *)((char *)p - HEADER);
    if (((uintptr_t)p & (HEADER - 1)) || h->magic != MAGIC) corrupt("free of a pointer that is not a block's start:", p);
    if (h->size == 0) corrupt("double free of", p);
    return h;
}

/* A slot of `size_class`: the oldest freed one once enough wait, else a new one. Under lock. */
static struct header *take_slot(int size_class) {
    if (freed[size_class].count > QUARANTINE) {
        struct header *h = freed[size_class].oldest;
        freed[size_class].oldest = h->next;
        freed[size_class].count--;
        return h;
    }
    size_t slot = HEADER + class_bytes(size_class);
    if (!arena) {
        arena = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (arena == MAP_FAILED) { arena = NULL; return NULL; }
    }
    if (carved + slot > ARENA_BYTES) return NULL;
    struct header *h = (struct header *)(arena + carved);
    carved += slot;
    *h = (struct header){.magic = MAGIC, .size_class = size_class};
    __asan_poison_memory_region(h, slot);
    return h;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (size < SMALLEST || size > class_bytes(CLASSES - 1) || alignment > HEADER)
        return ___interceptor_posix_memalign(out, alignment, size);
    int size_class = 0;
    while (class_bytes(size_class) < size) size_class++;
    pthread_mutex_lock(&lock);
    struct header *h = take_slot(size_class);
    if (h) { h->size = size; live++; }
    pthread_mutex_unlock(&lock);
    if (!h) return ___interceptor_posix_memalign(out, alignment, size);
    __asan_unpoison_memory_region(block_of(h), size);
    __lsan_register_root_region(block_of(h), size);
    *out = block_of(h);
    return 0;
}

void free(void *p) {
    if (!in_arena(p)) { ___interceptor_free(p); return; }
    pthread_mutex_lock(&lock);
    struct header *h = live_header(p);
    __lsan_unregister_root_region(p, h->size);
    h->size = 0;
    h->next = NULL;
    int c = h->size_class;
    if (freed[c].count++ == 0) freed[c].oldest = h; else freed[c].newest->next = h;
    freed[c].newest = h;
    live--;
    pthread_mutex_unlock(&lock);
    __asan_poison_memory_region(p, class_bytes(c));
}

void *realloc(void *p, size_t size) {
    if (!in_arena(p)) return ___interceptor_realloc(p, size);
    struct header *h = live_header(p);
    if (size == 0) { free(p); return NULL; }
    if (size <= class_bytes(h->size_class) && size >= SMALLEST) {  /* fits its slot: resize in place */
        __lsan_unregister_root_region(p, h->size);
        __asan_poison_memory_region(p, class_bytes(h->size_class));
        __asan_unpoison_memory_region(p, size);
        __lsan_register_root_region(p, size);
        h->size = size;
        return p;
    }
    void *moved = NULL;
    if (posix_memalign(&moved, 64, size) != 0) return NULL;
    memcpy(moved, p, size < h->size ? size : h->size);
    free(p);
    return moved;
}

size_t malloc_usable_size(void *p) {
    return in_arena(p) ? live_header(p)->size : ___interceptor_malloc_usable_size(p);
}

long large_blocks_live(void) {
    pthread_mutex_lock(&lock);
    long n = live;
    pthread_mutex_unlock(&lock);
    return n;
}
