/* sam_prof.c - per-phase wall time of parcheck-sa-mpi (see sam_prof.h). */
#include "sam_prof.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"
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

/* Prints one phase line: its head, then every phase's name and seconds. */
static void print_phases(const char *head, const double *v)
{
    fputs(head, stderr);
    for (int k = 0; k < SAM_PH_COUNT; k++)
        fprintf(stderr, " %s %.3f", g_phase_name[k], v[k]);
    fputc('\n', stderr);
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
    if (rank == 0) {
        print_phases("sa-mpi phases (s, max over ranks):", most);
        print_phases("sa-mpi phases (s, min over ranks):", least);
    }
    if (verbose < 2)
        return;
    /* every rank's own line, with where it ran: a core slower than the
     * others through a run shows as the same rank behind in the phases
     * of equal work (keys, buckets) */
    int np;
    MPI_Comm_size(comm, &np);
    struct {
        double s[SAM_PH_COUNT];
        int cpu;
        char host[64];
    } mine, *all = NULL;
    memset(&mine, 0, sizeof mine); /* its padding goes out too */
    memcpy(mine.s, g_phase_s, sizeof mine.s);
#ifdef __linux__
    mine.cpu = sched_getcpu();
#else
    mine.cpu = -1;
#endif
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    MPI_Get_processor_name(name, &len);
    snprintf(mine.host, sizeof mine.host, "%.*s", len, name);
    for (char *h = mine.host; *h; h++) /* one word in the line */
        *h = *h == ' ' ? '_' : *h;
    if (rank == 0)
        all = pc_malloc_array((size_t)np, sizeof *all);
    /* a rank 0 without the memory still takes part (the others block in
     * the gather otherwise) and prints no rank lines */
    int ok = rank != 0 || all;
    MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    if (!ok)
        return;
    MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0, comm);
    for (int q = 0; rank == 0 && q < np; q++) {
        char head[160];
        snprintf(head, sizeof head, "sa-mpi phases (s, rank %d, %s cpu %d):", q, all[q].host,
                 all[q].cpu);
        print_phases(head, all[q].s);
    }
    pc_free(all);
}
