/* sa_mpi_main.c - parcheck-sa-mpi: suffix array (and LCP, longest repeat)
 * of a file with MPI ranks (and OpenMP threads inside each rank).
 *
 *   mpirun -np N parcheck-sa-mpi FILE [--sa OUT] [--lcp OUT] [--no-lcp]
 *                                [--gather] [--stats FILE] [--quiet]
 *                                [--algo doubling|dc3|auto]
 *
 * --algo: prefix doubling (the default; mpi, mpi-omp), DC3, whose work
 * does not grow with the length of repeats, or auto (dc3-mpi): DC3 unless
 * a sample of the text says that doubling costs less (sam_probe.c).
 *
 * OUT files hold little-endian int32, written collectively with MPI-IO
 * (--gather: sent to rank 0, which writes them alone). Rank 0 prints one
 * line of statistics (key=value), also written to --stats FILE.
 * Threads per rank: OMP_NUM_THREADS, or the processors a rank may run on
 * shared among the ranks of its node.
 * Exit status: 0 done; 2 bad usage or unreadable input (every rank exits
 * cleanly) or a failure after the input was read (MPI_Abort). */
#include "pc_omp.h"
#include <stdio.h>
#ifdef __GLIBC__ /* defined by the first glibc header */
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "pc_alloc.h"
#include "pc_time.h"
#include "sa.h"
#include "sam.h"
#include "sam_prof.h"

#define USAGE "usage: mpirun -np N parcheck-sa-mpi FILE [--sa OUT] [--lcp OUT] [--no-lcp] " \
              "[--gather] [--stats FILE] [--quiet] [--algo doubling|dc3|auto]\n"

typedef struct opts {
    const char *path, *sa, *lcp, *stats;
    int no_lcp, gather, quiet;
    int algo; /* ALGO_* */
} opts;

enum { ALGO_DOUBLING, ALGO_DC3, ALGO_AUTO };
static const char *const algo_names[] = { "doubling", "dc3", "auto" };

/* 0, or 2 after printing why (rank 0 only prints). */
/* Threads of this rank: OMP_NUM_THREADS when it is set (parcheck sets it),
 * else the processors this rank may run on divided among the ranks of its
 * node, at least one. OpenMP's own default, every processor in each rank,
 * put 256 threads on 16 cores at 16 ranks: dc3 on 64 MiB of text took 36.0
 * s instead of 3.9 s on the H100 machine's host. */
static int mpi_rank_threads(MPI_Comm comm)
{
    const char *env = getenv("OMP_NUM_THREADS");
    if (env && *env)
        return omp_get_max_threads();
    int local = 1;
    MPI_Comm node;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_size(node, &local);
        MPI_Comm_free(&node);
    }
#ifdef _OPENMP
    int t = omp_get_num_procs() / (local > 0 ? local : 1);
    return t > 1 ? t : 1;
#else
    return 1;
#endif
}

static int parse(int argc, char **argv, opts *o, int rank)
{
    memset(o, 0, sizeof *o);
    const char *bad = NULL;
    for (int i = 1; i < argc && !bad; i++) {
        const char **slot = !strcmp(argv[i], "--sa") ? &o->sa
                          : !strcmp(argv[i], "--lcp") ? &o->lcp
                          : !strcmp(argv[i], "--stats") ? &o->stats : NULL;
        if (slot) {
            if (i + 1 >= argc)
                bad = argv[i];
            else
                *slot = argv[++i];
        } else if (!strcmp(argv[i], "--algo")) {
            int a = ALGO_AUTO + 1;
            if (i + 1 < argc)
                for (a = ALGO_DOUBLING; a <= ALGO_AUTO && strcmp(argv[i + 1], algo_names[a]); a++)
                    ;
            if (a <= ALGO_AUTO)
                o->algo = a, i++;
            else
                bad = i + 1 < argc ? argv[i + 1] : argv[i];
        } else if (!strcmp(argv[i], "--no-lcp")) {
            o->no_lcp = 1;
        } else if (!strcmp(argv[i], "--gather")) {
            o->gather = 1;
        } else if (!strcmp(argv[i], "--quiet")) {
            o->quiet = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            if (rank == 0)
                fputs(USAGE, stdout);
            return 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            bad = argv[i];
        } else if (o->path) {
            bad = argv[i];
        } else {
            o->path = argv[i];
        }
    }
    if (!bad && !o->path)
        bad = "(no input FILE)";
    if (!bad && o->no_lcp && o->lcp)
        bad = "--lcp with --no-lcp";
    if (bad) {
        if (rank == 0)
            fprintf(stderr, "parcheck-sa-mpi: bad argument %s\n" USAGE, bad);
        return 2;
    }
    return 0;
}

/* Opens the input on every rank and gets its size; 2 on failure. */
static int open_input(MPI_Comm comm, int rank, const char *path, MPI_File *fh, int64_t *n)
{
    /* MPI-IO opens directories and reports absurd sizes for them */
    struct stat sb;
    int isdir = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode), anydir = 0;
    MPI_Allreduce(&isdir, &anydir, 1, MPI_INT, MPI_MAX, comm);
    if (anydir) {
        if (rank == 0)
            fprintf(stderr, "parcheck-sa-mpi: %s: is a directory, not a text file\n", path);
        return 2;
    }
    char abs[8192];
    sam_abs_path(path, abs, sizeof abs);
    int rc = MPI_File_open(comm, abs, MPI_MODE_RDONLY, MPI_INFO_NULL, fh);
    MPI_Offset size = 0;
    if (rc == MPI_SUCCESS)
        rc = MPI_File_get_size(*fh, &size);
    int fail = rc != MPI_SUCCESS, any = 0;
    MPI_Allreduce(&fail, &any, 1, MPI_INT, MPI_MAX, comm);
    if (any) {
        if (rank == 0) {
            char msg[MPI_MAX_ERROR_STRING] = "failed on another rank";
            int len;
            if (fail)
                MPI_Error_string(rc, msg, &len);
            fprintf(stderr, "parcheck-sa-mpi: %s: cannot open for reading: %s\n", path, msg);
        }
        if (!fail)
            MPI_File_close(fh);
        return 2;
    }
    if ((uint64_t)size > SA_MAX_N) {
        if (rank == 0)
            fprintf(stderr, "parcheck-sa-mpi: %s: %lld bytes: suffix arrays here use 32-bit "
                    "indices, at most %zu bytes\n", path, (long long)size, SA_MAX_N);
        MPI_File_close(fh);
        return 2;
    }
    *n = (int64_t)size;
    return 0;
}

static long rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

int main(int argc, char **argv)
{
#ifdef __GLIBC__
    /* The phases allocate and free arrays of n / P records many times;
     * glibc serves those from fresh mmaps, so every phase paid the kernel
     * for zeroed pages again (a quarter of the run time in page faults on
     * 8 MB). Keeping freed memory in the heap reuses it: no mmap at all
     * (glibc refuses an mmap threshold above 32 MiB, and the arrays of a
     * level are larger), no trimming. SAM_MALLOC_KEEP=0 keeps glibc's
     * defaults. On 4 MB of a block repeated at np 1: 69 thousand page
     * faults against 104 thousand with the refused threshold. */
    const char *keep = getenv("SAM_MALLOC_KEEP");
    if (!(keep && !strcmp(keep, "0"))) {
        mallopt(M_MMAP_MAX, 0);
        mallopt(M_TRIM_THRESHOLD, -1);
        /* and in huge pages: the GPU machine's host, a VM with 4 KiB pages
         * unless asked, spent about 2 us a page fault, 0.17 s a rank */
        const char *huge = getenv("SAM_HUGEPAGES");
        pc_alloc_hugepages(!(huge && !strcmp(huge, "0")));
    }
#endif
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Comm_rank(comm, &rank);
    long base_kb = rss_kb();
    opts o;
    int rc = parse(argc, argv, &o, rank);
    MPI_File fh;
    int64_t n = 0;
    if (rc == 0)
        rc = open_input(comm, rank, o.path, &fh, &n);
    if (rc) {
        MPI_Finalize();
        return rc == 1 ? 0 : rc;
    }
    double t_all = pc_time_now();
    sam_ctx c;
    sam_ctx_init(&c, comm, n, mpi_rank_threads(comm));
    /* the block plus the bytes the first keys look ahead */
    int64_t wend = c.hi + SAM_WINDOW_AHEAD < n ? c.hi + SAM_WINDOW_AHEAD : n;
    uint8_t *text = sam_alloc(&c, (size_t)(wend - c.lo) + 1, 1, "the text block");
    double t0 = pc_time_now();
    rc = sam_read(&c, fh, c.lo, wend - c.lo, text);
    if (rc != MPI_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "parcheck-sa-mpi: %s: read failed\n", o.path);
        MPI_File_close(&fh);
        pc_free(text);
        sam_ctx_free(&c);
        MPI_Finalize();
        return 2;
    }
    double read_s = pc_time_now() - t0;
    MPI_Barrier(comm);
    t0 = pc_time_now();
    uint32_t *R = NULL;
    sam_stats st = { 0, 0 };
    double probe = -1; /* auto: doubling's estimated sorts of all n */
    if (o.algo == ALGO_AUTO) {
        double tp = sam_prof_mark();
        uint32_t code[256];
        int K = sam_round0_len(sam_alphabet(&c, text, (size_t)(c.hi - c.lo), code));
        const char *env = getenv("SAM_AUTO_ROUNDS");
        double most = env && *env ? atof(env) : SAM_AUTO_ROUNDS;
        probe = sam_probe_doubling(&c, text, (size_t)(wend - c.lo), K, most);
        o.algo = probe > most ? ALGO_DC3 : ALGO_DOUBLING;
        sam_prof_add(SAM_PH_PROBE, &tp);
        if (c.verbose && rank == 0)
            fprintf(stderr, "sa-mpi auto: %s (doubling %.2f sorts, dc3 above %.2f)\n",
                    algo_names[o.algo], probe, most);
    }
    int32_t *SA = o.algo == ALGO_DC3 ? sam_dc3_build(&c, text, &st.rounds) /* frees text */
                                     : sam_build(&c, text, &R, &st);
    MPI_Barrier(comm);
    double build_s = pc_time_now() - t0, lcp_s = 0;
    sam_prof_report(comm, rank, c.verbose);
    long long build_kb = rss_kb(), build_alloc = pc_alloc_peak();
    int32_t *LCP = NULL, len = -1, pos = -1, pos2 = -1;
    if (!o.no_lcp) {
        t0 = pc_time_now();
        if (!R) /* dc3 builds no inverse suffix array; the LCP phase needs it */
            R = sam_invert(&c, (const uint32_t *)SA, "the inverse suffix array block");
        uint8_t *T = sam_alloc(&c, (size_t)n + 1, 1, "the whole text");
        if (sam_read(&c, fh, 0, n, T) != MPI_SUCCESS)
            sam_die(&c, "%s: read failed", o.path);
        LCP = sam_lcp(&c, T, SA, R, &len, &pos, &pos2);
        pc_free(T);
        MPI_Barrier(comm);
        lcp_s = pc_time_now() - t0;
    }
    MPI_File_close(&fh);
    pc_free(R);
    t0 = pc_time_now();
    if (o.sa)
        sam_write(&c, o.sa, SA, o.gather);
    if (o.lcp)
        sam_write(&c, o.lcp, LCP, o.gather);
    double write_s = pc_time_now() - t0;
    pc_free(SA);
    pc_free(LCP);
    long long mine[5] = { rss_kb(), base_kb, pc_alloc_peak(), build_kb, build_alloc }, most[5],
              sum = 0;
    MPI_Reduce(mine, most, 5, MPI_LONG_LONG, MPI_MAX, 0, comm);
    MPI_Reduce(&mine[0], &sum, 1, MPI_LONG_LONG, MPI_SUM, 0, comm);
    double total_s = pc_time_now() - t_all;
    if (rank == 0) {
        char line[1024];
        snprintf(line, sizeof line,
                 "sa-mpi algo=%s n=%lld np=%d threads=%d rounds=%d seconds=%.6f sort_s=%.6f "
                 "read_s=%.6f lcp_s=%.6f write_s=%.6f total_s=%.6f peak_rss_kb=%lld "
                 "base_rss_kb=%lld sum_rss_kb=%lld peak_alloc_bytes=%lld build_rss_kb=%lld "
                 "build_alloc_bytes=%lld lrs_len=%d lrs_pos=%d lrs_pos2=%d probe_sorts=%.3f\n",
                 algo_names[o.algo], (long long)n, c.np, c.threads, st.rounds, build_s,
                 st.sort_s, read_s, lcp_s,
                 write_s, total_s, most[0], most[1], sum, most[2], most[3], most[4], (int)len,
                 (int)pos, (int)pos2, probe);
        if (!o.quiet)
            fputs(line, stdout);
        if (o.stats) {
            FILE *f = fopen(o.stats, "w");
            if (!f || fputs(line, f) < 0 || fclose(f) != 0)
                sam_die(&c, "%s: cannot write the statistics", o.stats);
        }
    }
    sam_ctx_free(&c);
    MPI_Finalize();
    return 0;
}
