#include "bridge_failure.h"
#include <stdarg.h>
#include <stdio.h>

int bridge_fail(bridge_failure *failure, int kind, const char *format, ...) {
    failure->kind = kind;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(failure->message, sizeof failure->message, format, arguments);
    va_end(arguments);
    return -1;
}
