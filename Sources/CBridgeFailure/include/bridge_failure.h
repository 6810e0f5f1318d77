#ifndef ASSETFS_BRIDGE_FAILURE_H
#define ASSETFS_BRIDGE_FAILURE_H
/*
 * Why a C bridge's call failed: a kind the Swift side acts on (retry later, or the photo is
 * broken) and a message for people. The decision never reads the message, so rewording one (or
 * a library rewording its own) cannot turn a passing read error into a broken photo.
 */
#include <stddef.h>

enum {
    BRIDGE_FAILURE_NONE = 0,
    BRIDGE_FAILURE_READ = 1,          /* the file could not be read (I/O error, shorter than it was): may read next time */
    BRIDGE_FAILURE_UNSUPPORTED = 2,   /* a valid file the library does not decode (a codec, a precision, a process) */
    BRIDGE_FAILURE_CORRUPT = 3,       /* the content is damaged */
    BRIDGE_FAILURE_TOO_LARGE = 4,     /* past a size, count or allocation limit of the bridge or the library */
    BRIDGE_FAILURE_OUT_OF_MEMORY = 5, /* an allocation failed: may work next time */
    BRIDGE_FAILURE_CANCELLED = 6,     /* stopped from outside (a deadline passed): may work next time */
    BRIDGE_FAILURE_UNRECOGNISED = 7,  /* not a file of the bridge's format at all */
    BRIDGE_FAILURE_INCOMPLETE = 8,    /* the file ends before what it needs (being copied, or cut short) */
};

typedef struct {
    int kind;                         /* BRIDGE_FAILURE_*, NONE until a failure */
    char message[256];
} bridge_failure;

/* Records a failure, its kind and a printf-style message, in place of any earlier one. Returns
 * -1, the bridges' failed status. */
int bridge_fail(bridge_failure *failure, int kind, const char *format, ...) __attribute__((format(printf, 3, 4)));

#endif
