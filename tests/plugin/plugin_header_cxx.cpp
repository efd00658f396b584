// plugin_header_cxx.cpp - parcheck/plugin.h compiles as C++11, its
// structs fill positionally, PARCHECK_PLUGIN_DEFINE works in C++ and the
// entry point it defines gets C linkage from the header's declaration.
#include <parcheck/plugin.h>

static int run(const parcheck_entry *, void *, const parcheck_spmm_problem *p, char *, size_t)
{
    static_cast<double *>(p->Y)[0] = 0.0;
    return PARCHECK_OK;
}

static const parcheck_entry entry = {PARCHECK_PLUGIN_ABI, sizeof(parcheck_entry), "cxx",
                                     "C++ entry", PARCHECK_DOMAIN_SPMM, 0u, nullptr, nullptr,
                                     nullptr, run, nullptr, nullptr, nullptr};
static const parcheck_host *g_host;

PARCHECK_PLUGIN_DEFINE_HOST(g_host, &entry);

static_assert(sizeof(parcheck_entry) == 96, "ABI 1 layout (LP64)");
