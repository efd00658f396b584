/* sam_prof.h - where parcheck-sa-mpi spends its time, by phase (private to
 * the program). Each phase adds the wall time since a mark; the sums are
 * reported under SAM_VERBOSE=1 as the maximum over the ranks, since the
 * slowest rank sets the pace, and the minimum, which shows how far the
 * others wait for it. Main thread only: the phases run between OpenMP
 * regions. */
#ifndef SAM_PROF_H
#define SAM_PROF_H

#include <mpi.h>

/* The phases, in the order of a level. */
typedef enum sam_phase {
    SAM_PH_KEYS,        /* building sort records (dc3: sample keys, suffixes) */
    SAM_PH_SPLITTERS,   /* sample sort: samples gathered, splitters chosen */
    SAM_PH_BUCKETS,     /* sample sort: bucket of every record, send buffer */
    SAM_PH_EXCHANGE,    /* sample sort: the Alltoallv of the records */
    SAM_PH_LOCAL_SORT,  /* sample sort: the local sort after it */
    SAM_PH_NAMES,       /* dc3: names from the sorted keys */
    SAM_PH_ROUTE,       /* pairs routed to the owners of indices, stored */
    SAM_PH_FETCH,       /* values fetched by index */
    SAM_PH_BASE,        /* dc3: the base level on rank 0 */
    SAM_PH_PROBE,       /* auto: the sample that picks the algorithm */
    /* parts of SAM_PH_LOCAL_SORT (counted in it too) */
    SAM_PH_LS_KEYS,     /* the radix sort of key records */
    SAM_PH_LS_SPLIT,    /* dc3's final sort: class 0 to the front */
    SAM_PH_LS_CLASS0,   /* dc3's final sort: class 0 radix sorted */
    SAM_PH_LS_PLACE,    /* dc3's final sort: sample suffixes placed by rank */
    SAM_PH_LS_MERGE,    /* dc3's final sort: the two classes merged */
    /* part of SAM_PH_EXCHANGE: its first collective (the counts), where
     * the ranks wait for the slowest */
    SAM_PH_EX_WAIT,
    SAM_PH_COUNT
} sam_phase;

/* A mark: the time now. */
double sam_prof_mark(void);

/* Adds the time since *mark to phase ph and moves *mark to now. */
void sam_prof_add(sam_phase ph, double *mark);

/* Under verbose, prints two lines "sa-mpi phases (s, max over ranks):
 * ..." and "... (s, min over ranks): ..." on rank 0; under verbose 2
 * (SAM_VERBOSE=2) also one line a rank, "sa-mpi phases (s, rank R, HOST
 * cpu C): ...", C the processor it ran on last (-1 where unknown).
 * Collective. */
void sam_prof_report(MPI_Comm comm, int rank, int verbose);

#endif
