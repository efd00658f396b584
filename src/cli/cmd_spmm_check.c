/* parcheck spmm check, parcheck gen x: judge a Y = A*X that another
 * program wrote, and write the X it should have used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_fill.h"
#include "cli.h"
#include "mm.h"
#include "mm_dense.h"
#include "pc_alloc.h"
#include "pc_cli.h"
#include "pc_npy.h"
#include "pc_result.h"
#include "pc_time.h"
#include "spmm.h"
#include "spmm/spmm_check.h"

static const char *const check_table_metrics[] = {"max_rel_err", "mean_rel_err",
                                                  "max_err_over_bound", NULL};

typedef struct check_opts {
    const char *matrix, *y, *x, *json, *name, *xkind;
    long long K, seed, threads; /* K and seed: -1 when not given */
} check_opts;

static void check_usage(FILE *f)
{
    fputs("usage: parcheck spmm check MATRIX.mtx --y Y.npy|Y.mtx\n"
          "                           [--x X.npy|X.mtx | --seed S [--k K] [--x-kind real|int]]\n"
          "                           [--threads T] [--name N] [--json FILE|-]\n"
          "Judges Y = A*X written by another program: every entry within\n"
          "2 gamma_n (|A||X|) of the exact result (bit-identical for integer data).\n"
          "Y: .npy '<f8' (C or Fortran order) or Matrix Market array; a '<f4' Y is\n"
          "judged in single precision (A and X rounded to float, u = 2^-24).\n"
          "X: the file, or the X of `parcheck gen x --rows COLS(A) --k K --seed S`\n"
          "regenerated (--x-kind as gen x's --x, default real). K defaults to Y's\n"
          "column count. Exit 0 right, 1 wrong (where it fails is listed), 2 bad input.\n",
          f);
}

/* Takes one --opt value into *dst; 1 when argv[*i] was opt, -1 on error. */
static int take_str(int argc, char **argv, int *i, const char *opt, const char **dst,
                    pc_error *err)
{
    const char *v = NULL;
    int rc = pc_cli_take(argc, argv, i, opt, &v, err);
    if (rc > 0)
        *dst = v;
    return rc > 0 ? 1 : rc < 0 ? -1 : 0;
}

static int take_num(int argc, char **argv, int *i, const char *opt, long long lo, long long hi,
                    long long *dst, pc_error *err)
{
    const char *v = NULL;
    int rc = pc_cli_take(argc, argv, i, opt, &v, err);
    if (rc == 0)
        return 0;
    if (rc < 0 || pc_cli_parse_long(opt, v, lo, hi, dst, err))
        return -1;
    return 1;
}

static int check_parse(int argc, char **argv, check_opts *o, pc_error *err)
{
    *o = (check_opts){.K = -1, .seed = -1, .threads = pc_cli_default_threads()};
    for (int i = 1; i < argc; i++) {
        int rc;
        if ((rc = take_str(argc, argv, &i, "--y", &o->y, err)) ||
            (rc = take_str(argc, argv, &i, "--x", &o->x, err)) ||
            (rc = take_str(argc, argv, &i, "--x-kind", &o->xkind, err)) ||
            (rc = take_str(argc, argv, &i, "--json", &o->json, err)) ||
            (rc = take_str(argc, argv, &i, "--name", &o->name, err)) ||
            (rc = take_num(argc, argv, &i, "--k", 1, 4096, &o->K, err)) ||
            (rc = take_num(argc, argv, &i, "--seed", 0, INT64_MAX, &o->seed, err)) ||
            (rc = take_num(argc, argv, &i, "--threads", 1, PC_CLI_MAX_THREADS, &o->threads, err))) {
            if (rc < 0)
                return PC_EINVAL;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return pc_error_set(err, PC_EINVAL, NULL, 0, "unknown option '%s'", argv[i]);
        } else if (!o->matrix) {
            o->matrix = argv[i];
        } else {
            return pc_error_set(err, PC_EINVAL, NULL, 0, "more than one matrix given ('%s')", argv[i]);
        }
    }
    if (!o->matrix || !o->y)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "give the matrix and --y Y");
    if (o->x && (o->seed >= 0 || o->xkind))
        return pc_error_set(err, PC_EINVAL, NULL, 0,
                            "--x names the X file: --seed and --x-kind regenerate X instead, give one or the other");
    if (!o->x && o->seed < 0)
        return pc_error_set(err, PC_EINVAL, NULL, 0,
                            "no X: give --x X, or --seed S (and --x-kind) of the `parcheck gen x` that made it");
    if (o->xkind && strcmp(o->xkind, "real") && strcmp(o->xkind, "int"))
        return pc_error_set(err, PC_EINVAL, NULL, 0, "--x-kind takes real or int");
    if (o->name && strlen(o->name) >= sizeof ((pc_result *)0)->impl)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "--name is longer than %zu characters",
                            sizeof ((pc_result *)0)->impl - 1);
    return PC_OK;
}

/* Everything the check holds, freed by check_free. */
typedef struct check_data {
    mm_coo coo;
    mm_dense y, xfile;
    double *xgen;
    int64_t *rowptr;
    int K;
    long long base_bytes;   /* live bytes once A is read: the check's own peak is counted from here */
} check_data;

static void check_free(check_data *d)
{
    mm_coo_free(&d->coo);
    mm_dense_free(&d->y);
    mm_dense_free(&d->xfile);
    pc_free(d->xgen);
    pc_free(d->rowptr);
}

/* Reads A, Y and X (or regenerates X). Returns a CLI exit code. */
static int check_read(const check_opts *o, check_data *d)
{
    pc_error err;
    pc_error_clear(&err);
    if (mm_read_file(o->matrix, &d->coo, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return err.code == PC_ENOMEM ? CLI_FAILED : CLI_USAGE;
    }
    d->base_bytes = pc_alloc_bytes();
    pc_alloc_reset_peak();
    char why[128];
    if (o->K > 0)
        snprintf(why, sizeof why, "A has %d rows and --k is %lld", d->coo.rows, o->K);
    else
        snprintf(why, sizeof why, "A has %d rows", d->coo.rows);
    mm_dense_want wy = {d->coo.rows, o->K > 0 ? o->K : -1, 1, "Y", why};
    if (mm_dense_read_file(o->y, &wy, &d->y, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return err.code == PC_ENOMEM ? CLI_FAILED : CLI_USAGE;
    }
    if (d->y.cols < 1 || d->y.cols > 4096) {
        fprintf(stderr, "%s: Y has %lld columns; K must be 1 to 4096\n", o->y, (long long)d->y.cols);
        return CLI_USAGE;
    }
    d->K = (int)d->y.cols;
    if (o->x) {
        snprintf(why, sizeof why, "A has %d columns and K = %d", d->coo.cols, d->K);
        mm_dense_want wx = {d->coo.cols, d->K, 1, "X", why};
        if (mm_dense_read_file(o->x, &wx, &d->xfile, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return err.code == PC_ENOMEM ? CLI_FAILED : CLI_USAGE;
        }
    } else if (spmm_make_x(d->coo.cols, d->K, (uint64_t)o->seed,
                           o->xkind && !strcmp(o->xkind, "int"), &d->xgen, &err)) {
        fprintf(stderr, "parcheck spmm check: %s\n", err.msg);
        return CLI_FAILED;
    }
    return CLI_OK;
}

/* Row pointers of the normalized (row-sorted) COO, by counting. */
static int check_rowptr(check_data *d)
{
    int32_t m = d->coo.rows;
    d->rowptr = pc_calloc((size_t)m + 1, sizeof *d->rowptr);
    if (!d->rowptr)
        return PC_ENOMEM;
    for (int64_t e = 0; e < d->coo.nnz; e++)
        d->rowptr[d->coo.row[e] + 1]++;
    for (int32_t i = 0; i < m; i++)
        d->rowptr[i + 1] += d->rowptr[i];
    return PC_OK;
}

static spmm_check_dense dense_desc(const mm_dense *m)
{
    return (spmm_check_dense){m->data, m->dtype == PC_DTYPE_F4 ? SPMM_CHECK_F32 : SPMM_CHECK_F64,
                              m->col_major ? SPMM_CHECK_COL_MAJOR : SPMM_CHECK_ROW_MAJOR,
                              m->col_major ? m->rows : m->cols};
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void check_fill_result(const check_data *d, const spmm_check_report *rep, double check_s,
                              pc_result *r)
{
    check_fill_spmm(r, rep);
    r->seconds = check_s;
    r->reps = 1;
    r->throughput = check_s > 0 ? (double)rep->checked / check_s * 1e-6 : 0.0;
    snprintf(r->unit, sizeof r->unit, "Mentries/s");
    long long xbytes = 8LL * d->coo.cols * d->K;
    long long ybytes = (long long)(d->y.dtype == PC_DTYPE_F4 ? 4 : 8) * d->coo.rows * d->K;
    int xcopy = rep->precision == SPMM_CHECK_FP32 || (d->xfile.data && (d->xfile.col_major ||
                                                      d->xfile.dtype != PC_DTYPE_F8));
    r->model_bytes = ybytes + xbytes * (1 + xcopy) + 8LL * (d->coo.rows + 1);
}

static void check_input(const check_opts *o, const check_data *d, int precision, pc_run *run)
{
    pc_kv_str(&run->input, "path", o->matrix);
    pc_kv_int(&run->input, "rows", d->coo.rows);
    pc_kv_int(&run->input, "cols", d->coo.cols);
    pc_kv_int(&run->input, "nnz", d->coo.nnz);
    pc_kv_int(&run->input, "k", d->K);
    pc_kv_str(&run->input, "y", o->y);
    pc_kv_str(&run->input, "y_dtype", pc_dtype_name(d->y.dtype));
    pc_kv_str(&run->input, "y_order", d->y.from_npy ? (d->y.col_major ? "F" : "C") : "mm-array");
    char xs[160];
    if (o->x)
        snprintf(xs, sizeof xs, "%s", o->x);
    else
        snprintf(xs, sizeof xs, "gen x --seed %lld --x %s", o->seed, o->xkind ? o->xkind : "real");
    pc_kv_str(&run->input, "x", xs);
    pc_kv_str(&run->input, "precision", precision == SPMM_CHECK_FP32 ? "fp32" : "fp64");
    pc_kv_int(&run->input, "threads", o->threads);
}

int cmd_spmm_check(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        check_usage(stdout);
        return CLI_OK;
    }
    check_opts o;
    pc_error err;
    pc_error_clear(&err);
    if (check_parse(argc, argv, &o, &err))
        return cli_usage_error("spmm check", err.msg);
    check_data d;
    memset(&d, 0, sizeof d);
    double t0 = pc_time_now();
    int status = check_read(&o, &d);
    if (status != CLI_OK) {
        check_free(&d);
        return status;
    }
    double t1 = pc_time_now();
    if (check_rowptr(&d)) {
        fprintf(stderr, "parcheck spmm check: out of memory for the row pointers\n");
        check_free(&d);
        return CLI_FAILED;
    }
    int precision = d.y.dtype == PC_DTYPE_F4 ? SPMM_CHECK_FP32 : SPMM_CHECK_FP64;
    spmm_check_csr A = {d.coo.rows, d.coo.cols, d.rowptr, d.coo.col, d.coo.val};
    spmm_check_dense X = d.xfile.data ? dense_desc(&d.xfile)
                                      : (spmm_check_dense){d.xgen, SPMM_CHECK_F64,
                                                           SPMM_CHECK_ROW_MAJOR, d.K};
    spmm_check_dense Y = dense_desc(&d.y);
    spmm_check_report rep;
    double t2 = pc_time_now();
    int rc = spmm_check(&A, &X, &Y, d.K, precision, (int)o.threads, &rep, &err);
    double t3 = pc_time_now();
    if (rc) {
        fprintf(stderr, "parcheck spmm check: %s\n", err.msg);
        check_free(&d);
        return rc == PC_ENOMEM ? CLI_FAILED : CLI_USAGE;
    }
    pc_result res;
    pc_result_init(&res, o.name ? o.name : base_name(o.y));
    check_fill_result(&d, &rep, t3 - t2, &res);
    res.peak_bytes = pc_alloc_peak() - d.base_bytes;
    pc_kv_num(&res.timings, "read_s", t1 - t0);
    pc_kv_num(&res.timings, "prepare_s", t2 - t1);
    pc_kv_num(&res.timings, "check_s", t3 - t2);
    pc_run run = {.domain = "spmm", .oracle_name = "spmm-check-dot2-exact",
                  .oracle_seconds = t3 - t2, .nresults = 1, .results = &res,
                  .table_metrics = check_table_metrics};
    check_input(&o, &d, precision, &run);
    if (o.json && pc_run_save_json(o.json, &run, &err)) {
        fprintf(stderr, "parcheck spmm check: %s\n", err.msg);
        status = CLI_USAGE;
    }
    if (!o.json || strcmp(o.json, "-") != 0)
        pc_run_print_table(stdout, &run);
    check_free(&d);
    if (status == CLI_OK)
        status = rep.pass ? CLI_OK : CLI_FAILED;
    return status;
}

/* Writes X (rows x K, row-major) as a Matrix Market array: column-major,
 * %.17g so that every double reads back the same. */
static int write_x_mtx(const char *path, const double *X, int32_t rows, int K, const char *how,
                       pc_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return pc_error_set(err, PC_EIO, path, 0, "cannot open for writing");
    fprintf(f, "%%%%MatrixMarket matrix array real general\n%% %s\n%d %d\n", how, rows, K);
    for (int k = 0; k < K; k++)
        for (int64_t r = 0; r < rows; r++)
            fprintf(f, "%.17g\n", X[r * K + k]);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return pc_error_set(err, PC_EIO, path, 0, "write failed");
    return PC_OK;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n > m && strcmp(s + n - m, tail) == 0;
}

int cmd_gen_x(int argc, char **argv)
{
    pc_error err;
    pc_error_clear(&err);
    long long rows = -1, K = -1, seed = -1;
    const char *out = NULL, *kind = "real";
    for (int i = 1; i < argc && !err.msg[0]; i++) {
        int rc;
        if (cli_is_help(argv[i])) {
            puts("usage: parcheck gen x --rows N --k K --seed S [--x real|int] -o X.npy|X.mtx\n"
                 "Writes the N x K dense X that `parcheck spmm check --seed S` regenerates:\n"
                 "real = uniform in [-1, 1), int = integers in [-8, 8]. .npy: '<f8' C order;\n"
                 ".mtx: Matrix Market array (column-major), values that read back exactly.");
            return CLI_OK;
        }
        if ((rc = take_num(argc, argv, &i, "--rows", 0, INT32_MAX, &rows, &err)) ||
            (rc = take_num(argc, argv, &i, "--k", 1, 4096, &K, &err)) ||
            (rc = take_num(argc, argv, &i, "--seed", 0, INT64_MAX, &seed, &err)) ||
            (rc = take_str(argc, argv, &i, "--x", &kind, &err)) ||
            (rc = take_str(argc, argv, &i, "--x-kind", &kind, &err)) ||
            (rc = take_str(argc, argv, &i, "-o", &out, &err))) {
            if (rc < 0 && !err.msg[0])
                pc_error_set(&err, PC_EINVAL, NULL, 0, "bad value for '%s'", argv[i]);
        } else {
            pc_error_set(&err, PC_EINVAL, NULL, 0, "unknown argument '%s'", argv[i]);
        }
    }
    if (err.msg[0])
        return cli_usage_error("gen x", err.msg);
    if (rows < 0 || K < 0 || seed < 0 || !out)
        return cli_usage_error("gen x", "--rows, --k, --seed and -o are required");
    if (strcmp(kind, "real") && strcmp(kind, "int"))
        return cli_usage_error("gen x", "--x takes real or int");
    int npy = ends_with(out, ".npy");
    if (!npy && !ends_with(out, ".mtx"))
        return cli_usage_error("gen x", "-o must end in .npy or .mtx (the extension picks the format)");
    if ((unsigned long long)rows * (unsigned long long)K > (1ULL << 32))
        return cli_usage_error("gen x", "--rows x --k is larger than 2^32 values");
    double *X = NULL;
    if (spmm_make_x((int32_t)rows, (int)K, (uint64_t)seed, !strcmp(kind, "int"), &X, &err)) {
        fprintf(stderr, "parcheck gen x: %s\n", err.msg);
        return CLI_FAILED;
    }
    int rc;
    if (npy) {
        int64_t shape[2] = {rows, K};
        rc = pc_npy_write(out, PC_DTYPE_F8, 0, 2, shape, X, &err);
    } else {
        char how[160];
        snprintf(how, sizeof how, "parcheck gen x --rows %lld --k %lld --seed %lld --x %s", rows, K,
                 seed, kind);
        rc = write_x_mtx(out, X, (int32_t)rows, (int)K, how, &err);
    }
    pc_free(X);
    if (rc) {
        fprintf(stderr, "%s\n", err.msg);
        return CLI_USAGE;
    }
    return CLI_OK;
}
