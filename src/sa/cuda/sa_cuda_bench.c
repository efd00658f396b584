/* sa_cuda_bench.c - `sa-cuda-bench FILE... [--reps R] [--lcp]`: times cuda,
 * cuda-ms and cuda-dc on each file (warm-up run first; host-to-device and
 * back included; median of R runs), validates the last result with the O(n)
 * oracles (and cuda == cuda-ms == cuda-dc), and prints one line per
 * implementation:
 *   BENCH file impl bytes median_s MB/s device_B_per_n pool_B_per_n phases...
 * Without a CUDA device it prints SKIPPED and exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_alloc.h"
#include "pc_time.h"
#include "sa.h"
#include "sa/sa_oracle.h"

#if SA_WITH_CUDA
#include "cuda/sa_cuda.h"

/* cuda, cuda-ms, cuda-dc: sa_cuda_run's models 0, 1, 2. */
#define SA_CUDA_BENCH_MODELS 3

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, cmp_double);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

static int bench_file(const char *path, int reps, int lcp)
{
    uint8_t *T;
    int32_t n;
    pc_error err;
    if (sa_read_text(path, &T, &n, &err) != PC_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    static const char *names[SA_CUDA_BENCH_MODELS] = { "cuda", "cuda-ms", "cuda-dc" };
    int32_t *SA[SA_CUDA_BENCH_MODELS], *LCP[SA_CUDA_BENCH_MODELS];
    int status = 0;
    for (int ms = 0; ms < SA_CUDA_BENCH_MODELS; ms++) {
        SA[ms] = pc_malloc_array((size_t)n + 1, sizeof(int32_t));
        LCP[ms] = lcp ? pc_malloc_array((size_t)n + 1, sizeof(int32_t)) : NULL;
        if (!SA[ms] || (lcp && !LCP[ms])) {
            fprintf(stderr, "out of memory\n");
            return 2;
        }
    }
    double *times = pc_malloc_array((size_t)reps, sizeof *times);
    double *walls = pc_malloc_array((size_t)reps, sizeof *walls);
    if (!times || !walls)
        return 2;
    for (int ms = 0; ms < SA_CUDA_BENCH_MODELS && !status; ms++) {
        sa_cuda_stats st, keep;
        memset(&keep, 0, sizeof keep);
        double wall = 0;
        for (int r = -1; r < reps; r++) {
            double w0 = pc_time_now();
            if (sa_cuda_run(T, n, SA[ms], LCP[ms], ms, 8, &st, &err) != PC_OK) {
                fprintf(stderr, "%s: %s\n", path, err.msg);
                status = 1;
                break;
            }
            if (r >= 0) {
                walls[r] = pc_time_now() - w0;
                times[r] = st.s_total;
                if (r == 0 || st.s_total < keep.s_total)
                    keep = st;
            }
        }
        if (status)
            break;
        double med = median(times, reps);
        wall = median(walls, reps);
        printf("BENCH %s %s%s %d %.4f %.1f %.2f %.2f upload=%.4f init=%.4f rounds=%.4f(%d,%dc,%ds) "
               "check=%.4f finish=%.4f lcp_host=%.4f chars=%dx%dx%db active=%.3f h=%lld lcp=%s "
               "batches=%d groups=%d longest=%lld sample=%d/%lld@%lld call=%.4f\n",
               path, names[ms], lcp ? "+lcp" : "", (int)n, med, n / 1e6 / med,
               (double)keep.device_peak_bytes / n, (double)keep.pool_peak_bytes / n,
               keep.s_upload, keep.s_init, keep.s_rounds, keep.rounds, keep.compact_rounds, keep.sample_rounds, keep.s_check,
               keep.s_finish, keep.s_lcp_host, keep.initial_words, keep.chars_per_word,
               keep.bits_per_char,
               n ? (double)keep.active_after_init / n : 0.0, keep.h_final,
               !lcp ? "none" : keep.lcp_on_gpu ? "gpu" : "host", keep.max_batches,
               keep.group_batches, keep.longest_group, keep.sample_v, keep.sample_items, keep.sample_from_h, wall);
        fflush(stdout);
    }
    if (!status) {
        double t0 = pc_time_now();
        if (sa_oracle_check_sa(T, n, SA[0], &err) != PC_OK ||
            (lcp && sa_oracle_check_lcp(T, n, SA[0], LCP[0], &err) != PC_OK)) {
            fprintf(stderr, "%s: FAIL %s\n", path, err.msg);
            status = 1;
        }
        for (int v = 1; v < SA_CUDA_BENCH_MODELS && !status; v++)
            if (memcmp(SA[0], SA[v], sizeof(int32_t) * (size_t)n) ||
                (lcp && memcmp(LCP[0], LCP[v], sizeof(int32_t) * (size_t)n))) {
                fprintf(stderr, "%s: FAIL cuda and %s differ\n", path, names[v]);
                status = 1;
            }
        if (!status) {
            printf("VALID %s (oracle %.2f s)\n", path, pc_time_now() - t0);
        }
    }
    for (int ms = 0; ms < SA_CUDA_BENCH_MODELS; ms++) {
        pc_free(SA[ms]);
        pc_free(LCP[ms]);
    }
    pc_free(times);
    pc_free(walls);
    pc_free(T);
    return status;
}
#endif

int main(int argc, char **argv)
{
    int reps = 5, lcp = 0, status = 0, files = 0;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
        else if (!strcmp(argv[i], "--lcp"))
            lcp = 1;
#if SA_WITH_CUDA
    char why[256];
    if (!sa_cuda_available(why, sizeof why)) {
        printf("SKIPPED (%s)\n", why);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps")) {
            i++;
            continue;
        }
        if (!strcmp(argv[i], "--lcp"))
            continue;
        files++;
        int rc = bench_file(argv[i], reps, lcp);
        if (rc > status)
            status = rc;
    }
#else
    (void)files;
    (void)reps;
    (void)lcp;
    printf("SKIPPED (built without CUDA)\n");
    return 0;
#endif
    if (!files) {
        fprintf(stderr, "usage: sa-cuda-bench FILE... [--reps R] [--lcp]\n");
        return 2;
    }
    return status;
}
