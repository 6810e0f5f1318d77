#include "load_on_first_use.h"
#include <dlfcn.h>
#include <stdio.h>

void *load_library(const char *soname, const char *what, char *why, size_t size) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) snprintf(why, size, "%s cannot be loaded: %s", what, dlerror());
    return library;
}

void *load_function(void *library, const char *name, const char *what, char *why, size_t size) {
    void *function = dlsym(library, name);
    if (!function) snprintf(why, size, "%s lacks %s", what, name);
    return function;
}

const char *loaded_once(pthread_once_t *once, void (*load)(void), const char *why) {
    pthread_once(once, load);
    return why[0] ? why : NULL;
}
