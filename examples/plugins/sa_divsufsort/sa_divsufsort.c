/* sa_divsufsort - the suffix array by libdivsufsort (Yuta Mori), wrapped
 * as a parcheck plugin: the smallest useful SA plugin. 32-bit indices, so
 * parcheck gives it texts below 2^31 bytes; no LCP (parcheck computes it).
 * Build: cc -shared -fPIC -Iinclude sa_divsufsort.c -ldivsufsort. */
#include <divsufsort.h>
#include <stdio.h>

#include <parcheck/plugin.h>

static int run(const parcheck_entry *self, void *state, const parcheck_sa_problem *p, char *msg,
               size_t msg_len)
{
    (void)self, (void)state;
    saint_t rc = divsufsort(p->text, (saidx_t *)p->sa, (saidx_t)p->n);
    if (rc != 0) {
        snprintf(msg, msg_len, "divsufsort returned %d", (int)rc);
        return rc == -2 ? PARCHECK_ENOMEM : PARCHECK_EINVAL;
    }
    return PARCHECK_OK;
}

static const parcheck_entry entry = {
    .abi_version = PARCHECK_PLUGIN_ABI,
    .struct_size = sizeof(parcheck_entry),
    .name = "sa-divsufsort",
    .description = "libdivsufsort's suffix sorting (example plugin)",
    .domain = PARCHECK_DOMAIN_SA,
    .run_sa = run,
};

/* the table of entries and parcheck_plugin_init, the one exported function */
PARCHECK_PLUGIN_DEFINE(&entry);
