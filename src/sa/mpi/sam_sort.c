/* sam_sort.c - the distributed sort of (key, position) records of the
 * prefix doubling: the sample sort of sam_dsort.c (splitters from samples
 * of the unsorted records, one Alltoallv) with the radix sort of
 * sam_radix.h over the 64-bit keys as its local sort. */
#include "pc_omp.h"
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "sam.h"
#include "sam_prof.h"
#include "sam_radix.h"

SAM_DEFINE_RADIX64(tup_radix, sam_tup, sam_key)

sam_tup *sam_radix_sort(sam_tup *a, sam_tup *tmp, size_t m, int threads)
{
    return tup_radix(a, tmp, m, threads);
}

/* Sorts locally, dying on allocation failure. */
static void *local_sort(const sam_ctx *c, void *av, size_t m, const size_t *group)
{
    (void)group; /* one group */
    sam_tup *a = av;
    double tm = sam_prof_mark();
    sam_tup *tmp = sam_alloc(c, m + 1, sizeof *tmp, "the radix sort buffer");
    sam_tup *s = sam_radix_sort(a, tmp, m, c->threads);
    if (!s)
        sam_die(c, "out of memory for radix sort histograms");
    pc_free(s == a ? tmp : a);
    sam_prof_add(SAM_PH_LS_KEYS, &tm);
    return s;
}

sam_tup *sam_sort(const sam_ctx *c, sam_tup *a, size_t m, size_t *mout)
{
    const sam_order o = { 3, c->t_tup, sam_tup_cmp, sam_tup_buckets, local_sort, 1 };
    return sam_sort_by(c, &o, a, m, mout);
}
