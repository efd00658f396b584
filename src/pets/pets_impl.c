/* pets_impl.c - the table of implementations that tests, the CLI and the
 * benchmarks iterate over. */
#include <string.h>

#include "pets_priv.h"

const pets_impl pets_impls[] = {
    {"serial", "the four phases in C on the host", pets_serial_available, pets_serial_run},
    {"omp", "the host phases with OpenMP (--threads T): levels by frontiers, per-level sort, "
            "ready times of a level together",
     pets_serial_available, pets_omp_run},
    {"ocl", "OpenCL: entry_discover, compute_metrics on a frontier queue, bitonic sort",
     pets_ocl_available, pets_ocl_run},
    {"ocl-vec8", "OpenCL with the vectorised compute_metrics (vload8 of 8 list entries, lanes past a row masked)",
     pets_ocl_available, pets_ocl_vec8_run},
};
const int pets_nimpls = (int)(sizeof pets_impls / sizeof pets_impls[0]);

const pets_impl *pets_impl_find(const char *name)
{
    for (int i = 0; i < pets_nimpls; i++)
        if (strcmp(pets_impls[i].name, name) == 0)
            return &pets_impls[i];
    return NULL;
}
