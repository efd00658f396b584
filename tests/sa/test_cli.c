/* test_cli.c - `parcheck sa` and `parcheck gen text` from the outside:
 * exit codes, JSON fields, --out-sa / --out-lcp, generator sizing. */
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "pc_alloc.h"
#include "pc_config.h"
#include "sa_cli_testlib.h"
#include "sa_testlib.h"

START_TEST(gen_and_sa_json)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --bytes 5000 --kind text --seed 3 -o t.txt"), 0);
    char *out = NULL;
    ck_assert_int_eq(sa_cli_run(&out, NULL, "sa t.txt --impl seq,omp --json - --reps 2"), 0);
    static const char *const keys[] = { "\"tool\":\"parcheck\"", "\"domain\":\"sa\"", "\"bytes\":5000",
                                        "\"oracle\"", "\"impl\":\"seq\"", "\"impl\":\"omp\"",
                                        "\"sa_equal\":true", "\"lcp_equal\":true", "\"lrs_length\"",
                                        "\"lrs_pos\"", "\"peak_bytes\"", "\"model_bytes\"",
                                        "\"unit\":\"MB/s\"", "\"status\":\"pass\"", "\"reps\":2" };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        ck_assert_msg(strstr(out, keys[k]) != NULL, "JSON lacks %s: %s", keys[k], out);
    free(out);
    ck_assert_int_eq(sa_cli_run(&out, NULL, "sa t.txt --impl all"), 0);
    ck_assert_ptr_nonnull(strstr(out, "skipped"));
    ck_assert_ptr_nonnull(strstr(out, "divsufsort"));
    free(out);
}
END_TEST

START_TEST(exit_codes)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    char *err = NULL;
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --bytes 100 --kind random --seed 1 -o r.bin"), 0);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa --help"), 0);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa"), 2);
    ck_assert_int_eq(sa_cli_run(NULL, &err, "sa missing.txt --impl seq"), 2);
    ck_assert_ptr_nonnull(strstr(err, "missing.txt"));
    free(err);
    ck_assert_int_eq(sa_cli_run(NULL, &err, "sa r.bin --impl nosuch"), 2);
    ck_assert_ptr_nonnull(strstr(err, "nosuch"));
    free(err);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa r.bin --reps 0"), 2);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa r.bin --bogus"), 2);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa r.bin a.bin"), 2);
    /* explicitly requested but not in this build: 3; through all: skipped */
    char why[256];
    const sa_impl *mpi = sa_impl_find("mpi");
    ck_assert(mpi != NULL);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa r.bin --impl seq,mpi"), mpi->available(why, sizeof why) ? 0 : 3);
    /* without its program mpi is unavailable and says why (the reason is
     * what `sa --impl all` prints for a skip) */
    const char *saved = getenv("PARCHECK_SA_MPI");
    char keep[4096];
    snprintf(keep, sizeof keep, "%s", saved ? saved : "");
    setenv("PARCHECK_SA_MPI", "/nonexistent/parcheck-sa-mpi", 1);
    why[0] = '\0';
    ck_assert(!mpi->available(why, sizeof why));
    ck_assert_msg(strstr(why, "not found") || strstr(why, "MPI") || strstr(why, "mpi"), "why: '%s'", why);
    if (saved)
        setenv("PARCHECK_SA_MPI", keep, 1);
    else
        unsetenv("PARCHECK_SA_MPI");
    ck_assert_ptr_null(sa_impl_find("nosuch"));
    const sa_impl *dc3 = sa_impl_find("dc3-mpi");
    ck_assert(dc3 != NULL && dc3->threaded && !dc3->build);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa r.bin --impl seq,dc3-mpi"), dc3->available(why, sizeof why) ? 0 : 3);
    const sa_impl *ms = sa_impl_find("cuda-ms");
    ck_assert(ms != NULL);
#if !SA_WITH_CUDA
    /* a build without CUDA says so, and why (what `sa --impl all` prints) */
    why[0] = '\0';
    ck_assert(!ms->available(why, sizeof why));
    ck_assert_str_eq(why, "built without CUDA: " PC_CUDA_WHY);
#endif
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa r.bin --impl cuda-ms"), ms->available(why, sizeof why) ? 0 : 3);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa r.bin --impl all"), 0);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --bytes 10 --kind nosuch --seed 1 -o x"), 2);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --bytes 10 --kind random --seed 1"), 2);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --kind random --seed 1 -o x"), 2);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --bytes 10 --kind text --train nofile -o x"), 2);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa r.bin --impl seq --json /nonexistent/dir/x.json"), 2);
    /* each injected allocation failure gives exit 1 (an error row or a
     * message), never a crash or a pass; past the last allocation, 0 */
    int last = -1;
    for (int k = 1; k <= 40 && last != 0; k++) {
        last = sa_cli_sh(NULL, NULL, "PARCHECK_FAIL_ALLOC=%d \"$P\" sa r.bin --impl seq,omp", k);
        ck_assert_msg(last == 0 || last == 1, "PARCHECK_FAIL_ALLOC=%d: exit %d", k, last);
        if (k <= 3)
            ck_assert_int_eq(last, 1);
    }
    ck_assert_int_eq(last, 0);
}
END_TEST

/* The little-endian int32 values of file name in the test directory
 * (*count of them). */
static int32_t *read_i32(const char *name, long *count)
{
    char path[256];
    snprintf(path, sizeof path, "%s", sa_cli_path(name));
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)sz + 1);
    ck_assert_int_eq((long)fread(b, 1, (size_t)sz, f), sz);
    fclose(f);
    *count = sz / 4;
    int32_t *v = malloc(sizeof *v * (size_t)(*count + 1));
    for (long i = 0; i < *count; i++)
        v[i] = (int32_t)((uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
                         (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24);
    free(b);
    return v;
}

/* Environment variables set aside for a test and put back after it. */
typedef struct {
    const char *name;
    int had;
    char value[4096];
} env_keep;

static void env_set_aside(env_keep *k, const char *name)
{
    const char *v = getenv(name);
    k->name = name;
    k->had = v != NULL;
    snprintf(k->value, sizeof k->value, "%s", v ? v : "");
    unsetenv(name);
}

static void env_put_back(const env_keep *k)
{
    if (k->had)
        setenv(k->name, k->value, 1);
    else
        unsetenv(k->name);
}

/* A text of n bytes (word repeated, a byte raised every `mark`) written
 * to the test directory as name; its path into path, its SA into ref. */
static void ext_text(const char *name, const char *word, int mark, uint8_t *T, int32_t n,
                     int32_t *ref, char *path, size_t len)
{
    size_t w = strlen(word);
    for (int32_t i = 0; i < n; i++)
        T[i] = (uint8_t)(word[(size_t)i % w] + (i % mark == 0));
    snprintf(path, len, "%s", sa_cli_path(name));
    FILE *f = fopen(path, "wb");
    ck_assert(f && fwrite(T, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    pc_error err;
    ck_assert_int_eq(sa_build_sais(T, n, ref, 1, &err), 0);
}

/* sa_run_external through the launcher `fake` (PARCHECK_MPIRUN) with the
 * words given (PARCHECK_MPIRUN_ARGS, "" for none) and the fake's mode
 * (PC_FAKE_MPIRUN); the environment put back after. */
static int run_fake(const sa_impl *mpi, const char *fake, const char *words, const char *mode,
                    const char *path, int32_t n, int threads, int32_t *SA, double *secs, pc_error *err)
{
    env_keep keep[2];
    env_set_aside(&keep[0], "PARCHECK_MPIRUN");
    env_set_aside(&keep[1], "PARCHECK_MPIRUN_ARGS");
    setenv("PARCHECK_MPIRUN", fake, 1);
    if (*words)
        setenv("PARCHECK_MPIRUN_ARGS", words, 1);
    setenv("PC_FAKE_MPIRUN", mode, 1);
    int rc = sa_run_external(mpi, path, n, 2, threads, SA, secs, err);
    unsetenv("PC_FAKE_MPIRUN");
    env_put_back(&keep[1]);
    env_put_back(&keep[0]);
    return rc;
}

/* The words the fake launcher last wrote, one a line, into buf. */
static size_t read_words(const char *words, char *buf, size_t cap)
{
    FILE *f = fopen(words, "r");
    ck_assert_ptr_nonnull(f);
    size_t len = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[len] = '\0';
    return len;
}

/* The MPI hook as the CLI uses it: the program's own time comes back (and
 * 4 ranks on a 2-core machine need Open MPI's --oversubscribe, which the
 * hook adds); an mpirun that fails is named with its status, no time; the
 * launcher's own words and the counts it refuses. */
START_TEST(external_run_times_and_failures)
{
    char why[256];
    const sa_impl *mpi = sa_impl_find("mpi");
    ck_assert(mpi != NULL);
    if (!mpi->available(why, sizeof why))
        PC_SKIP(why);
    enum { N = 3000 };
    uint8_t T[N];
    int32_t SA[N], ref[N];
    char path[256];
    ext_text("t.bin", "abracadabra", 97, T, N, ref, path, sizeof path);
    pc_error err;
    double secs = -1;
    int rc = sa_run_external(mpi, path, N, 4, 1, SA, &secs, &err);
    ck_assert_msg(rc == 0, "%s", err.msg);
    ck_assert_msg(secs > 0 && secs < 60, "seconds %g", secs);
    ck_assert_int_eq(memcmp(SA, ref, sizeof SA), 0);
    char fake[256], cmd[600];
    snprintf(fake, sizeof fake, "%s", sa_cli_path("fake-mpirun"));
    snprintf(cmd, sizeof cmd, "printf '#!/bin/sh\\nexit 3\\n' > '%s' && chmod 755 '%s'", fake, fake);
    ck_assert_int_eq(system(cmd), 0);
    secs = -1;
    ck_assert_int_eq(run_fake(mpi, fake, "", "", path, N, 1, SA, &secs, &err), PC_EDEVICE);
    char want[400];
    snprintf(want, sizeof want, "%s exited with status 3 (its messages are above)", fake);
    ck_assert_str_eq(err.msg, want);
    ck_assert(secs == 0);
    /* the launcher's command line: PARCHECK_MPIRUN_ARGS split on blanks
     * and tabs, each word in order, right before the program and the
     * text; a rank or thread count below 1 refused before anything runs.
     * A fake mpirun writes the words it was given, one a line. */
    ck_assert_int_eq(sa_run_external(mpi, path, N, 0, 1, SA, &secs, &err), PC_EINVAL);
    ck_assert_str_eq(err.msg, "np 0, threads 1: both must be >= 1");
    ck_assert_int_eq(sa_run_external(mpi, path, N, 2, 0, SA, &secs, &err), PC_EINVAL);
    ck_assert_str_eq(err.msg, "np 2, threads 0: both must be >= 1");
    char words[256], src[256];
    snprintf(fake, sizeof fake, "%s", sa_cli_path("words-mpirun"));
    /* an SA file whose every byte counts, for the fake to hand back */
    snprintf(src, sizeof src, "%s", sa_cli_path("fake-sa.bin"));
    FILE *f = fopen(src, "wb");
    ck_assert_ptr_nonnull(f);
    for (int32_t i = 0; i < N; i++) {
        uint32_t v = 0x11223344u + (uint32_t)i * 0x01010101u;
        uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
        ck_assert_int_eq(fwrite(le, 1, 4, f), 4);
    }
    fclose(f);
    snprintf(words, sizeof words, "%s", sa_cli_path("mpirun-words.txt"));
    f = fopen(fake, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\n"
               "[ \"$1\" = --version ] && [ \"$PC_FAKE_MPIRUN\" = mpich ] && { echo 'HYDRA build details:'; exit 0; }\n"
               "[ \"$1\" = --version ] && { echo 'mpirun (Open MPI) 4.1.6'; exit 0; }\n"
               "for w in \"$@\"; do echo \"$w\"; done > '%s'\n"
               "sa=; st=; prev=\n"
               "for w in \"$@\"; do\n"
               "  [ \"$prev\" = --sa ] && sa=$w; [ \"$prev\" = --stats ] && st=$w; prev=$w\n"
               "done\n"
               "case \"$PC_FAKE_MPIRUN\" in\n"
               "signal) kill -9 $$ ;;\n"
               "none) exit 0 ;;\n"
               "long) head -c %d /dev/zero > \"$sa\"; exit 0 ;;\n"
               "longer) head -c %d /dev/zero > \"$sa\"; exit 0 ;;\n"
               "ok) cp '%s' \"$sa\"; echo 'sa-mpi algo=doubling seconds=12.5 sort_s=1' > \"$st\"; exit 0 ;;\n"
               "nostats) cp '%s' \"$sa\"; exit 0 ;;\n"
               "esac\n"
               "exit 3\n",
            words, 4 * N + 1, 4 * N + 2, src, src);
    fclose(f);
    ck_assert_int_eq(chmod(fake, 0755), 0);
    /* Open MPI (the fake says it is): one thread a rank keeps the
     * launcher's binding, the user's words come after its own */
    char buf[4096];
    rc = run_fake(mpi, fake, " --alpha  beta\tgamma ", "", path, N, 1, SA, &secs, &err);
    ck_assert_int_eq(rc, PC_EDEVICE);
    read_words(words, buf, sizeof buf);
    const char *seq = "-np\n2\n--oversubscribe\n-x\nOMP_NUM_THREADS\n--alpha\nbeta\ngamma\n";
    ck_assert_msg(strncmp(buf, seq, strlen(seq)) == 0, "the words are not passed in order: %s", buf);
    const char *prog_end = strchr(buf + strlen(seq), '\n'); /* the program's line, then the text */
    ck_assert_msg(prog_end && strncmp(prog_end + 1, path, strlen(path)) == 0 &&
                      prog_end[1 + strlen(path)] == '\n',
                  "no program and text after the words: %s", buf);
    /* ranks of several threads are not bound (each would get one core);
     * a launcher that is not Open MPI gets none of its options */
    ck_assert_int_eq(run_fake(mpi, fake, "--alpha", "", path, N, 2, SA, &secs, &err), PC_EDEVICE);
    read_words(words, buf, sizeof buf);
    ck_assert_msg(strstr(buf, "\n--oversubscribe\n--bind-to\nnone\n-x\nOMP_NUM_THREADS\n--alpha\n"),
                  "threads 2: %s", buf);
    ck_assert_int_eq(run_fake(mpi, fake, "--alpha", "mpich", path, N, 2, SA, &secs, &err), PC_EDEVICE);
    read_words(words, buf, sizeof buf);
    ck_assert_msg(strncmp(buf, "-np\n2\n--alpha\n", 13) == 0, "not Open MPI: %s", buf);
    /* a launcher killed by a signal (named by its path), an SA or
     * statistics file missing, an SA file one byte too long */
    static const struct {
        const char *mode;
        int rc;
        const char *want;
    } bad[] = {
        {"signal", PC_EDEVICE, " died from signal 9"},
        {"none", PC_EIO, "/sa.bin: cannot open: No such file or directory"},
        {"long", PC_EFORMAT, "/sa.bin: 12001 bytes, expected 12000 (4 per position)"},
        /* past one byte too many the file is not even read */
        {"longer", PC_ERANGE, "/sa.bin: file of 12002 bytes is larger than the limit of 12001 bytes"},
        {"nostats", PC_EIO, "/stats.txt: cannot open: No such file or directory"},
    };
    for (size_t r = 0; r < sizeof bad / sizeof bad[0]; r++) {
        rc = run_fake(mpi, fake, "", bad[r].mode, path, N, 1, SA, &secs, &err);
        ck_assert_msg(rc == bad[r].rc && strstr(err.msg, bad[r].want) &&
                          (r != 0 || strncmp(err.msg, fake, strlen(fake)) == 0),
                      "%s: rc %d: %s", bad[r].mode, rc, err.msg);
    }
    /* a good run: every byte of the SA file read little-endian, the time
     * from the statistics line */
    ck_assert_int_eq(run_fake(mpi, fake, "", "ok", path, N, 1, SA, &secs, &err), PC_OK);
    for (int32_t i = 0; i < N; i++)
        ck_assert_msg((uint32_t)SA[i] == 0x11223344u + (uint32_t)i * 0x01010101u, "SA[%d] = %#x", i,
                      (unsigned)SA[i]);
    ck_assert_msg(secs == 12.5, "seconds %g", secs);
    /* 64 words go through, a 65th is refused, not dropped; the copy of the
     * words that cannot be allocated is said as such */
    char many[65 * 3];
    for (int k = 0; k < 65; k++)
        memcpy(many + 3 * k, "-w ", 3);
    many[64 * 3 - 1] = '\0';
    ck_assert_int_eq(run_fake(mpi, fake, many, "", path, N, 1, SA, &secs, &err), PC_EDEVICE);
    size_t lines = 0;
    for (size_t k = 0, n = read_words(words, buf, sizeof buf); k < n; k++)
        lines += buf[k] == '\n';
    ck_assert_int_eq(lines, 5 + 64 + 8); /* -np 2 --oversubscribe -x OMP_NUM_THREADS, the program's 8 */
    pc_alloc_fail_at(1);
    rc = run_fake(mpi, fake, many, "", path, N, 2, SA, &secs, &err);
    pc_alloc_fail_at(0);
    ck_assert_int_eq(rc, PC_ENOMEM);
    pc_test_assert_nomem_named(err.msg);
    many[64 * 3 - 1] = ' ';
    many[65 * 3 - 1] = '\0';
    ck_assert_int_eq(run_fake(mpi, fake, many, "", path, N, 2, SA, &secs, &err), PC_EINVAL);
    ck_assert_str_eq(err.msg, "PARCHECK_MPIRUN_ARGS holds more than 64 words");
}
END_TEST

/* With no override set, the launcher finds what a user's shell finds:
 * mpirun or mpiexec on PATH and the MPI program among the build's
 * binaries. As root it must add Open MPI's consent variables itself (a
 * root shell seldom has them), so the run is made without them. */
START_TEST(external_found_without_overrides)
{
#if !PC_HAVE_MPI
    PC_SKIP("built without MPI");
#else
    if (system("command -v mpirun >/dev/null 2>&1 || command -v mpiexec >/dev/null 2>&1") != 0)
        PC_SKIP("neither mpirun nor mpiexec on PATH");
    if (access(PC_BUILD_BINDIR "/parcheck-sa-mpi", X_OK) != 0)
        PC_SKIP(PC_BUILD_BINDIR "/parcheck-sa-mpi not built");
    static const char *const names[] = { "PARCHECK_MPIRUN", "PARCHECK_SA_MPI", "OMPI_ALLOW_RUN_AS_ROOT",
                                         "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM" };
    enum { NV = sizeof names / sizeof names[0] };
    env_keep keep[NV];
    for (int v = 0; v < NV; v++)
        env_set_aside(&keep[v], names[v]);
    char why[256] = "";
    const sa_impl *mpi = sa_impl_find("mpi");
    ck_assert(mpi != NULL);
    int avail = mpi->available(why, sizeof why);
    enum { N = 500 };
    uint8_t T[N];
    int32_t SA[N], ref[N];
    char path[256];
    ext_text("m.bin", "mississippi", 37, T, N, ref, path, sizeof path);
    pc_error err = { 0 };
    double secs = -1;
    int rc = avail ? sa_run_external(mpi, path, N, 2, 1, SA, &secs, &err) : -1;
    /* an override set but empty counts as not set */
    setenv("PARCHECK_MPIRUN", "", 1);
    setenv("PARCHECK_SA_MPI", "", 1);
    char why_empty[256] = "";
    int avail_empty = mpi->available(why_empty, sizeof why_empty);
    /* mpirun alone, mpiexec alone, then neither on PATH */
    env_keep path_keep;
    env_set_aside(&path_keep, "PATH");
    char dir[256], dir2[256], cmd[2048];
    snprintf(dir, sizeof dir, "%s", sa_cli_path("only-mpiexec"));
    snprintf(dir2, sizeof dir2, "%s", sa_cli_path("only-mpirun"));
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s' && printf '#!/bin/sh\\nexit 3\\n' > '%s/mpiexec' && "
             "cp '%s/mpiexec' '%s/mpirun' && chmod 755 '%s/mpiexec' '%s/mpirun'", dir, dir2, dir, dir,
             dir2, dir, dir2);
    int made = system(cmd);
    char why_exec[256] = "", why_run[256] = "", why_none[256] = "";
    setenv("PATH", dir2, 1);
    int avail_run = mpi->available(why_run, sizeof why_run);
    setenv("PATH", dir, 1);
    int avail_exec = mpi->available(why_exec, sizeof why_exec);
    setenv("PATH", "/nonexistent-parcheck-dir", 1);
    int avail_none = mpi->available(why_none, sizeof why_none);
    env_put_back(&path_keep);
    /* a caller that cleared its environment (environ NULL): the launcher
     * runs mpirun with its own variables only, and does not crash */
    extern char **environ;
    char **saved = environ;
    environ = NULL;
    pc_error cleared = { 0 };
    int rc_cleared = avail ? sa_run_external(mpi, path, N, 2, 1, SA, &secs, &cleared) : PC_OK;
    environ = saved;
    for (int v = 0; v < NV; v++)
        env_put_back(&keep[v]);
    ck_assert_msg(avail_empty, "empty overrides: %s", why_empty);
    ck_assert_int_eq(made, 0);
    ck_assert_msg(avail_run, "mpirun alone on PATH: %s", why_run);
    ck_assert_msg(avail_exec, "mpiexec alone on PATH: %s", why_exec);
    ck_assert(!avail_none);
    ck_assert_str_eq(why_none, "no mpirun or mpiexec on PATH (apt-get install openmpi-bin; or set PARCHECK_MPIRUN)");
    /* without PATH, mpirun is looked for in /usr/bin:/bin; Open MPI then
     * may refuse to start (it looks for ssh on PATH): a run or a named
     * failure, never a crash */
    ck_assert_msg(rc_cleared == PC_OK || rc_cleared == PC_EDEVICE || rc_cleared == PC_EUNAVAIL, "%d: %s",
                  rc_cleared, cleared.msg);
    ck_assert_msg(avail, "mpi unavailable although mpirun is on PATH: %s", why);
    ck_assert_msg(rc == 0, "%s", err.msg);
    ck_assert_int_eq(memcmp(SA, ref, sizeof SA), 0);
#endif
}
END_TEST

static volatile sig_atomic_t g_alarms;

static void on_alarm(int sig)
{
    (void)sig;
    g_alarms++;
}

/* A signal that interrupts the wait for mpirun (a handler without
 * SA_RESTART, as a caller's progress timer may install) is waited out:
 * the run still succeeds. */
START_TEST(external_wait_survives_signals)
{
    char why[256];
    const sa_impl *mpi = sa_impl_find("mpi");
    ck_assert(mpi != NULL);
    if (!mpi->available(why, sizeof why))
        PC_SKIP(why);
    enum { N = 2000 };
    uint8_t T[N];
    int32_t SA[N], ref[N];
    char path[256];
    ext_text("s.bin", "banana", 61, T, N, ref, path, sizeof path);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGALRM, &sa, &old), 0);
    struct itimerval every = {{0, 5000}, {0, 5000}}, off = {{0, 0}, {0, 0}};
    g_alarms = 0;
    ck_assert_int_eq(setitimer(ITIMER_REAL, &every, NULL), 0);
    double secs = -1;
    pc_error err = { 0 };
    int rc = sa_run_external(mpi, path, N, 2, 1, SA, &secs, &err);
    setitimer(ITIMER_REAL, &off, NULL);
    sigaction(SIGALRM, &old, NULL);
    ck_assert_msg(rc == 0, "%s", err.msg);
    ck_assert_msg(g_alarms > 0, "no signal came during the run");
    ck_assert_int_eq(memcmp(SA, ref, sizeof SA), 0);
}
END_TEST

/* The MPI program beside the running parcheck comes first (an installed
 * or copied pair), before the build's own: a copy of parcheck with a fake
 * program beside it runs the fake. */
START_TEST(external_program_beside_parcheck_first)
{
#if !PC_HAVE_MPI
    PC_SKIP("built without MPI");
#else
    char why[256];
    const sa_impl *mpi = sa_impl_find("mpi");
    ck_assert(mpi != NULL);
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    if (!mpi->available(why, sizeof why))
        PC_SKIP(why);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --bytes 3000 --kind text --seed 1 -o b.txt"), 0);
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "mkdir -p beside && cp \"$P\" beside/parcheck && "
                                           "printf '#!/bin/sh\\necho fake-beside-parcheck >&2\\nexit 9\\n' "
                                           "> beside/parcheck-sa-mpi && chmod 755 beside/parcheck-sa-mpi"),
                     0);
    char *out = NULL, *err = NULL;
    int rc = sa_cli_sh(&out, &err, "env -u PARCHECK_SA_MPI beside/parcheck sa b.txt --impl mpi");
    ck_assert_msg(rc == 1 && strstr(err, "fake-beside-parcheck"), "exit %d, stderr: %s", rc, err);
    free(out);
    free(err);
#endif
}
END_TEST

START_TEST(out_sa_and_lcp)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --bytes 3000 --kind fibonacci --seed 1 -o f.txt"), 0);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa f.txt --impl omp --out-sa f.sa --out-lcp f.lcp"), 0);
    long nsa, nlcp;
    int32_t *sa = read_i32("f.sa", &nsa);
    int32_t *lcp = read_i32("f.lcp", &nlcp);
    ck_assert_int_eq(nsa, 3000);
    ck_assert_int_eq(nlcp, 3000);
    uint8_t T[3000];
    pc_error err;
    ck_assert_int_eq(sa_gen_text(SA_GEN_FIBONACCI, 1, NULL, 0, T, 3000, &err), 0);
    int32_t ref[3000], refl[3000];
    ck_assert_int_eq(sa_oracle_naive_sa(T, 3000, ref, &err), 0);
    sa_oracle_naive_lcp(T, 3000, ref, refl);
    ck_assert(!memcmp(sa, ref, sizeof ref));
    ck_assert(!memcmp(lcp, refl, sizeof refl));
    free(sa);
    free(lcp);
}
END_TEST

/* The huge-page advice of `parcheck sa` (on by default, off with
 * PARCHECK_HUGEPAGES=0) changes the pages, never the result: 3 MiB of
 * text (a suffix array of 12 MiB, advised) gives the same validated
 * suffix array either way. */
START_TEST(huge_pages_either_way)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --bytes 3145728 --kind text --seed 4 -o h.txt"), 0);
    const char *saved = getenv("PARCHECK_HUGEPAGES");
    char keep[64];
    snprintf(keep, sizeof keep, "%s", saved ? saved : "");
    unsetenv("PARCHECK_HUGEPAGES");
    int on = sa_cli_run(NULL, NULL, "sa h.txt --impl sais --threads 2 --out-sa h1.sa");
    setenv("PARCHECK_HUGEPAGES", "0", 1);
    int off = sa_cli_run(NULL, NULL, "sa h.txt --impl sais --threads 2 --out-sa h0.sa");
    if (saved)
        setenv("PARCHECK_HUGEPAGES", keep, 1);
    else
        unsetenv("PARCHECK_HUGEPAGES");
    ck_assert_int_eq(on, 0);
    ck_assert_int_eq(off, 0);
    long n1, n0;
    int32_t *a = read_i32("h1.sa", &n1);
    int32_t *b = read_i32("h0.sa", &n0);
    ck_assert_int_eq(n1, 3145728);
    ck_assert_int_eq(n0, 3145728);
    ck_assert(!memcmp(a, b, sizeof *a * (size_t)n1));
    free(a);
    free(b);
}
END_TEST

START_TEST(gen_sizes_and_seeds)
{
    if (!sa_cli_have_bin())
        PC_SKIP("parcheck binary not built");
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --budget 2100 --kind random --seed 9 -o a"), 0);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --bytes 100 --kind random --seed 9 -o b"), 0);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --bytes 100 --kind random --seed 10 -o c"), 0);
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "cmp -s a b"), 0);   /* budget / 21 bytes, same seed */
    ck_assert_int_ne(sa_cli_sh(NULL, NULL, "cmp -s a c"), 0);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --bytes 0 --kind zeros --seed 1 -o z"), 0);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa z --impl all"), 0);
    ck_assert_int_eq(sa_cli_sh(NULL, NULL, "printf 'the cat sat on the mat and the dog sat on the log\\n' > tr.txt"), 0);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "gen text --bytes 2000 --kind text --seed 2 --train tr.txt -o m"), 0);
    ck_assert_int_eq(sa_cli_run(NULL, NULL, "sa m --impl all"), 0);
}
END_TEST

static Suite *suite_cli(void)
{
    Suite *s = suite_create("sa_cli");
    TCase *tc = pc_tcase("cli");
    tcase_add_checked_fixture(tc, sa_cli_dir_make, sa_cli_dir_remove);
    tcase_add_test(tc, gen_and_sa_json);
    tcase_add_test(tc, exit_codes);
    tcase_add_test(tc, out_sa_and_lcp);
    tcase_add_test(tc, external_run_times_and_failures);
    tcase_add_test(tc, external_found_without_overrides);
    tcase_add_test(tc, external_wait_survives_signals);
    tcase_add_test(tc, external_program_beside_parcheck_first);
    tcase_add_test(tc, gen_sizes_and_seeds);
    tcase_add_test(tc, huge_pages_either_way);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_cli()); }
