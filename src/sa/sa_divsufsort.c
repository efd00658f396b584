/* sa_divsufsort.c - libdivsufsort as the external reference. */
#include "pc_config.h"
#include "sa.h"

#if PC_HAVE_DIVSUFSORT
#include <divsufsort.h>
#endif

int sa_build_divsufsort(const uint8_t *T, int32_t n, int32_t *SA, int threads, pc_error *err)
{
    (void)threads;
#if PC_HAVE_DIVSUFSORT
    if (n <= 0)
        return PC_OK;
    /* libdivsufsort allocates its bucket arrays with malloc, outside
     * pc_alloc: they are O(1) (a few hundred KB) */
    if (divsufsort(T, SA, n) != 0)
        return pc_error_set(err, PC_ENOMEM, NULL, 0, "divsufsort failed (out of memory?)");
    return PC_OK;
#else
    (void)T; (void)n; (void)SA;
    return pc_error_set(err, PC_EUNAVAIL, NULL, 0, "%s", PC_DIVSUFSORT_WHY);
#endif
}
