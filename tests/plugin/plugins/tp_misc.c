/* tp_misc.c - test-only plugins, one per misbehaviour: compiled once per
 * TP_* macro into $(BUILD)/tests/plugin/tp_<variant>.so (see
 * tests/plugin/module.mk). Each holds one SpMM entry whose kernel is a
 * plain serial CSR product unless the variant says otherwise. */
#include <parcheck/plugin.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(TP_ELL)
#define FLAGS PARCHECK_F_ELL
#elif defined(TP_FP32)
#define FLAGS PARCHECK_F_FP32
#elif defined(TP_BADFLAGS)
#define FLAGS 0x8000u
#else
#define FLAGS 0u
#endif

#if defined(TP_FP32)
typedef float real;
#else
typedef double real;
#endif

__attribute__((unused)) static int run(const parcheck_entry *self, void *state,
                                       const parcheck_spmm_problem *p, char *msg, size_t msg_len)
{
    (void)self, (void)state, (void)msg, (void)msg_len;
    real *Y = p->Y;
    const real *as = p->as, *X = p->X;
    (void)Y, (void)as, (void)X;
#if defined(TP_ELL)
    for (int32_t i = 0; i < p->m; i++)
        for (int32_t k = 0; k < p->K; k++) {
            real s = 0;
            for (int64_t t = 0; t < p->width; t++)
                s += as[t * p->m + i] * X[(int64_t)p->ja[t * p->m + i] * p->K + k];
            Y[(int64_t)i * p->K + k] = s;
        }
#elif !defined(TP_NOWRITE)
    for (int32_t i = 0; i < p->m; i++)
        for (int32_t k = 0; k < p->K; k++) {
            real s = 0;
            for (int32_t j = p->irp[i]; j < p->irp[i + 1]; j++)
                s += as[j] * X[(int64_t)p->ja[j] * p->K + k];
            Y[(int64_t)i * p->K + k] = s;
        }
#endif
#if defined(TP_HANG)
    for (;;)
        sleep(1);
#elif defined(TP_EXIT3)
    exit(3);
#elif defined(TP_ABORT)
    abort();
#elif defined(TP_FAIL)
    snprintf(msg, msg_len, "K = %d is not supported", (int)p->K);
    return PARCHECK_EUNSUP;
#elif defined(TP_PAST_END)
    Y[(int64_t)p->m * p->K] = 1.0; /* one element past the end: a canary */
#elif defined(TP_WRITE_INPUT)
    ((int32_t *)p->ja)[0] = 0;    /* inputs are read-only */
#elif defined(TP_GUARD)
    /* the first byte of the page after Y's last one: a guard page */
    uintptr_t end = (uintptr_t)(Y + (int64_t)p->m * p->K);
    *(volatile char *)((end + 4095) / 4096 * 4096) = 1;
#endif
    return PARCHECK_OK;
}

#if defined(TP_UNAVAIL)
static int is_available(const parcheck_entry *self, char *why, size_t why_len)
{
    (void)self;
    snprintf(why, why_len, "no such device here");
    return 0;
}
#else
#define is_available NULL
#endif

#if defined(TP_CLASH)
#define NAME "csr-omp"
#elif defined(TP_BADNAME)
#define NAME "has space"
#else
#define NAME "tp-entry"
#endif

static const parcheck_entry entry = {
    .abi_version = PARCHECK_PLUGIN_ABI,
#if defined(TP_SMALL_ENTRY)
    .struct_size = 16,
#else
    .struct_size = sizeof(parcheck_entry),
#endif
    .name = NAME,
    .description = "test plugin",
    .domain = PARCHECK_DOMAIN_SPMM,
    .flags = FLAGS,
    .available = is_available,
#if !defined(TP_NULLRUN)
    .run_spmm = run,
#endif
};

#if defined(TP_DUP)
static const parcheck_entry *const entries[] = {&entry, &entry};
#elif defined(TP_NULLENTRY)
static const parcheck_entry *const entries[] = {&entry, NULL};
#else
static const parcheck_entry *const entries[] = {&entry};
#endif

static const parcheck_plugin table = {
#if defined(TP_ABI2)
    .abi_version = PARCHECK_PLUGIN_ABI + 1,
#else
    .abi_version = PARCHECK_PLUGIN_ABI,
#endif
    .struct_size = sizeof(parcheck_plugin),
    .count = (int)(sizeof entries / sizeof *entries),
    .entries = entries,
};

#if !defined(TP_NOINIT)
PARCHECK_PLUGIN_EXPORT int parcheck_plugin_init(const parcheck_host *host,
                                                const parcheck_plugin **plugin, char *msg,
                                                size_t msg_len)
{
    (void)host;
#if defined(TP_INITFAIL)
    snprintf(msg, msg_len, "licence file missing");
    return PARCHECK_EIO;
#elif defined(TP_INITSEGV)
    (void)msg, (void)msg_len;
    raise(SIGSEGV);
#elif defined(TP_INITHANG)
    (void)msg, (void)msg_len;
    for (;;)
        sleep(1);
#else
    (void)msg, (void)msg_len;
#endif
    *plugin = &table;
    return PARCHECK_OK;
}
#else
/* Exports something, just not parcheck_plugin_init. */
PARCHECK_PLUGIN_EXPORT int not_a_parcheck_plugin(void);
int not_a_parcheck_plugin(void)
{
    return table.count;
}
#endif
