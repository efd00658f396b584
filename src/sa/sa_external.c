/* sa_external.c - the hook for implementations that run as their own
 * program (mpi, mpi-omp). The MPI slice replaces the body: launch
 * `mpirun -np np parcheck-sa-mpi path` with OMP_NUM_THREADS=threads, read
 * back the little-endian int32 SA it writes and its construction time.
 * Called with impl == NULL it only answers whether it can run here. */
#include "sa.h"

int sa_run_external(const sa_impl *impl, const char *path, int32_t n, int np,
                    int threads, int32_t *SA, double *seconds, pc_error *err)
{
    (void)impl; (void)path; (void)n; (void)np; (void)threads; (void)SA;
    if (seconds)
        *seconds = 0;
    return pc_error_set(err, PC_EUNAVAIL, NULL, 0, "not in this build yet");
}
