/* fuzz_check.h - the property check of every fuzz target: prints where and
 * what failed and abort()s, so that libFuzzer, AFL++ and the replay driver
 * all record the input. Define FUZZ_NAME (a string) before including. */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#ifndef FUZZ_NAME
#define FUZZ_NAME "fuzz"
#endif

#define FUZZ_CHECK(cond, ...)                                                  \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s: %s:%d: check failed: %s: ", FUZZ_NAME,        \
                    __FILE__, __LINE__, #cond);                                \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            abort();                                                           \
        }                                                                      \
    } while (0)

#endif
