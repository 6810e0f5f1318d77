#ifndef LOAD_ON_FIRST_USE_H
#define LOAD_ON_FIRST_USE_H

#include <pthread.h>
#include <stddef.h>

/* C libraries loaded on first use (dlopen) instead of linked, for the bridges whose libraries
 * cost every process at start-up (libheif's static initialiser, FFmpeg's 115 shared objects):
 * a bridge keeps a table of the functions it calls, filled once under pthread_once. A library
 * that is missing, or lacks a function, leaves a reason instead, and only its format fails. */

/* Opens `soname` now and privately (RTLD_NOW | RTLD_LOCAL); NULL, with "<what> cannot be
 * loaded: <dlerror>" written into `why` (of `size` bytes), when it cannot be. */
void *load_library(const char *soname, const char *what, char *why, size_t size);

/* `name` in `library` (from load_library); NULL, with "<what> lacks <name>" written into `why`,
 * when it is not there. */
void *load_function(void *library, const char *name, const char *what, char *why, size_t size);

/* Runs `load` once for the process (pthread_once on `once`); then the reason it left in `why`,
 * or NULL when everything was loaded. */
const char *loaded_once(pthread_once_t *once, void (*load)(void), const char *why);

/* In a bridge's loader: fills `table.name` with `name` from `library`, or returns from the loader
 * with the reason left in `why` (an array). A bridge's RESOLVE, applied to its list of functions. */
#define LOAD_FUNCTION_INTO(table, library, name, what, why) \
    if (!((table).name = (__typeof__((table).name))load_function((library), #name, (what), (why), sizeof(why)))) return;

/* Defines the bridge's `const char *function(void)`: runs `load` once, then the reason it left
 * in `why`, or NULL when everything was loaded. */
#define DEFINE_LOADED_ONCE(function, load, why) \
    const char *function(void) { \
        static pthread_once_t once = PTHREAD_ONCE_INIT; \
        return loaded_once(&once, load, why); \
    }

#endif
