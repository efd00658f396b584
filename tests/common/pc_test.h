/* pc_test.h - what every Check suite of parcheck shares.
 *
 * Each tests/<domain>/test_<topic>.c builds one executable whose main is
 *     int main(void) { return pc_test_run(suite_topic()); }
 * pc_test_run prints Check's report and a "SUMMARY" line that
 * ci/run-tests.sh adds up into the closing "N passed, N failed, N skipped".
 * A test that cannot run here calls PC_SKIP("why"): it is counted as
 * skipped, never as passed. */
#ifndef PC_TEST_H
#define PC_TEST_H

#include <check.h>
#include <stdint.h>

/* A test case with a timeout generous enough for valgrind and sanitizers. */
TCase *pc_tcase(const char *name);

/* Runs the suite, prints the summary, returns the process exit status. */
int pc_test_run(Suite *s);

/* Records the current test as skipped with a reason (prints it too). */
void pc_test_skip(const char *test, const char *reason);
#define PC_SKIP(reason) do { pc_test_skip(__func__, (reason)); return; } while (0)

/* Directory of the shared real inputs (PARCHECK_DATA, by default the data folder
 * beside the repository),
 * or NULL when it does not exist. */
const char *pc_test_data_dir(void);

/* 1 in the passes that run every suite a second time to find faults of
 * another kind (the sanitizer and OpenMP-off builds export
 * PARCHECK_TEST_LIGHT=1): there the heaviest sweeps take a subset of their
 * inputs that still reaches every path they test, and say so; the plain
 * pass of the same `make check` runs them whole. */
int pc_test_light(void);

/* Path of the built parcheck binary (PARCHECK_BIN or build/bin/parcheck). */
const char *pc_test_bin(void);

/* Runs a shell command, capturing stdout and stderr into malloc'd strings
 * (either pointer may be NULL to discard). Returns the exit status, or -1
 * when the command could not be run or died from a signal. */
int pc_test_shell(const char *cmd, char **out, char **err);

/* Runs op(ctx) under the allocation-failure loop: N = 1, 2, ... makes the
 * N-th allocation fail until op succeeds without an injected failure.
 * Each failing run must return PC_ENOMEM and leave no allocation live.
 * cleanup(ctx) releases what a successful op made. Returns the number of
 * allocation points exercised; fails the test on any violation. */
long pc_test_alloc_loop(int (*op)(void *ctx), void (*cleanup)(void *ctx), void *ctx,
                        long max_n);

/* Fails the test unless msg is a refused allocation's message that says
 * what the memory was for: "out of memory while " and a what, not empty. */
void pc_test_assert_nomem_named(const char *msg);

/* FNV-1a: the hash h (PC_TEST_FNV_SEED to start) extended by the 8 bytes of
 * v, lowest first, so that a pinned fingerprint is the same on every
 * machine. */
#define PC_TEST_FNV_SEED 1469598103934665603ULL
static inline uint64_t pc_test_fnv_u64(uint64_t h, uint64_t v)
{
    for (int b = 0; b < 64; b += 8)
        h = (h ^ ((v >> b) & 0xff)) * 1099511628211ULL;
    return h;
}

#endif
