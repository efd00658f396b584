/* sam_prof.c - per-phase wall time of parcheck-sa-mpi (see sam_prof.h). */
#include "sam_prof.h"

#include <stdio.h>

#include "pc_time.h"

static double g_phase_s[SAM_PH_COUNT];

static const char *const g_phase_name[SAM_PH_COUNT] = {
    "keys", "splitters", "buckets", "exchange", "local-sort", "names", "route", "fetch", "base",
    "probe", "ls-keys", "ls-split", "ls-class0", "ls-place", "ls-merge", "ex-wait",
};

double sam_prof_mark(void)
{
    return pc_time_now();
}

void sam_prof_add(sam_phase ph, double *mark)
{
    double now = pc_time_now();
    g_phase_s[ph] += now - *mark;
    *mark = now;
}

void sam_prof_report(MPI_Comm comm, int rank, int verbose)
{
    if (!verbose)
        return;
    /* the slowest rank sets the pace; the fastest shows how much of that
     * is waiting for it (the imbalance) */
    double most[SAM_PH_COUNT], least[SAM_PH_COUNT];
    MPI_Reduce(g_phase_s, most, SAM_PH_COUNT, MPI_DOUBLE, MPI_MAX, 0, comm);
    MPI_Reduce(g_phase_s, least, SAM_PH_COUNT, MPI_DOUBLE, MPI_MIN, 0, comm);
    if (rank != 0)
        return;
    for (int m = 0; m < 2; m++) {
        fprintf(stderr, "sa-mpi phases (s, %s over ranks):", m ? "min" : "max");
        for (int k = 0; k < SAM_PH_COUNT; k++)
            fprintf(stderr, " %s %.3f", g_phase_name[k], m ? least[k] : most[k]);
        fputc('\n', stderr);
    }
}
