/* cmd_sa_check.c - `parcheck sa check`: judges a suffix array (and an LCP
 * array) that another program wrote, with the checker of
 * oracles/sa/sa_check.h. The text and both arrays are mapped, never
 * copied: the SA of a 2^31-byte text at 64 bits is 17 GB. */
#include <stdio.h>
#include <string.h>

#include "check_fill.h"
#include "cli.h"
#include "pc_alloc.h"
#include "pc_cli.h"
#include "pc_file.h"
#include "pc_npy.h"
#include "pc_result.h"
#include "pc_time.h"
#include "sa/sa_check.h"

/* Raw files are read in place as the host's integers. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "raw SA/LCP files are little-endian: a big-endian host would need a byte swap");

#define CHECK_USAGE "usage: parcheck sa check TEXT --sa F [--lcp F] [--width 32|64] [--name N] " \
                    "[--json FILE|-]\n" \
                    "  SA/LCP: raw little-endian int32 (default) or int64 (--width 64), or .npy of\n" \
                    "  <i4 <u4 <i8 <u8 with n entries (1-D, or 2-D (n,1)); n = the text's bytes.\n"

typedef struct check_opts {
    const char *text, *sa, *lcp, *name, *json;
    long long width;
} check_opts;

static int check_parse(int argc, char **argv, check_opts *o, int *help)
{
    pc_error err;
    pc_error_clear(&err);
    *o = (check_opts){ .width = 32 };
    *help = 0;
    for (int i = 1; i < argc && !err.code; i++) {
        const char *v = NULL;
        int rc;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            *help = 1;
            return PC_OK;
        }
        if ((rc = pc_cli_take(argc, argv, &i, "--sa", &v, &err)) != 0) {
            if (rc > 0) o->sa = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--lcp", &v, &err)) != 0) {
            if (rc > 0) o->lcp = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--width", &v, &err)) != 0) {
            if (rc > 0 && pc_cli_parse_long("--width", v, 32, 64, &o->width, &err) == PC_OK &&
                o->width != 32 && o->width != 64)
                pc_error_set(&err, PC_EINVAL, NULL, 0, "--width: %lld is not 32 or 64", o->width);
        } else if ((rc = pc_cli_take(argc, argv, &i, "--name", &v, &err)) != 0) {
            if (rc > 0) o->name = v;
        } else if ((rc = pc_cli_take(argc, argv, &i, "--json", &v, &err)) != 0) {
            if (rc > 0) o->json = v;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            pc_error_set(&err, PC_EINVAL, NULL, 0, "unknown option '%s'", argv[i]);
        } else if (!o->text) {
            o->text = argv[i];
        } else {
            pc_error_set(&err, PC_EINVAL, NULL, 0, "more than one TEXT ('%s')", argv[i]);
        }
    }
    if (!err.code && !o->text)
        pc_error_set(&err, PC_EINVAL, NULL, 0, "no TEXT file");
    if (!err.code && !o->sa)
        pc_error_set(&err, PC_EINVAL, NULL, 0, "no suffix array (--sa F)");
    if (err.code) {
        cli_usage_error("sa check", err.msg);
        return err.code;
    }
    return PC_OK;
}

/* One mapped SA or LCP file and how its elements read. */
typedef struct int_file {
    pc_file_map map;
    const void *data;     /* the n elements, inside map */
    int type;             /* enum sa_check_type */
    char format[24];      /* "raw int32", "npy <u8" */
} int_file;

/* The element type of an integer .npy dtype, or -1. */
static int npy_to_check_type(int dtype)
{
    switch (dtype) {
    case PC_DTYPE_I4: return SA_CHECK_I32;
    case PC_DTYPE_U4: return SA_CHECK_U32;
    case PC_DTYPE_I8: return SA_CHECK_I64;
    case PC_DTYPE_U8: return SA_CHECK_U64;
    default: return -1;
    }
}

/* Refuses an SA type whose values cannot name every position of an
 * n-byte text (int32 beyond 2^31 bytes, uint32 beyond 2^32): no such file
 * can be right, and the user needs to hear why, not "duplicates". (An LCP
 * file is not refused: its values are compared exactly anyway.) */
static int check_capacity(int type, int64_t n, const check_opts *o, const char *path,
                          int is_sa, pc_error *err)
{
    if (!is_sa)
        return PC_OK;
    int64_t max = type == SA_CHECK_I32 ? (int64_t)INT32_MAX + 1
                  : type == SA_CHECK_U32 ? (int64_t)UINT32_MAX + 1 : INT64_MAX;
    if (n <= max)
        return PC_OK;
    return pc_error_set(err, PC_ERANGE, path, 0,
                        "%s entries cannot index the %lld-byte text %s (at most %lld bytes); "
                        "write 64-bit entries%s", sa_check_type_name(type), (long long)n,
                        o->text, (long long)max, type == SA_CHECK_I32 ? " and give --width 64" : "");
}

/* Reads the header of a .npy SA/LCP: an integer dtype, n elements (1-D,
 * or 2-D with one dimension 1), data aligned for its type. */
static int open_npy(int_file *f, int64_t n, const check_opts *o, const char *path, int is_sa,
                    pc_error *err)
{
    pc_npy_info info;
    int rc = pc_npy_parse(f->map.data, f->map.size, f->map.size, path, &info, err);
    if (rc != PC_OK)
        return rc;
    f->type = npy_to_check_type(info.dtype);
    if (f->type < 0)
        return pc_error_set(err, PC_EUNSUP, path, 0,
                            "dtype '%s' is not an integer type: need '<i4', '<u4', '<i8' or '<u8'",
                            pc_dtype_name(info.dtype));
    rc = check_capacity(f->type, n, o, path, is_sa, err);
    if (rc != PC_OK)
        return rc;
    int64_t len = info.shape[0] * info.shape[1]; /* no overflow: pc_npy_parse checked the bytes */
    int flat = info.ndim == 1 || info.shape[0] == 1 || info.shape[1] == 1;
    if (!flat || len != n) {
        char shape[48];
        if (info.ndim == 1)
            snprintf(shape, sizeof shape, "(%lld,)", (long long)info.shape[0]);
        else
            snprintf(shape, sizeof shape, "(%lld, %lld)", (long long)info.shape[0],
                     (long long)info.shape[1]);
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "shape %s holds %lld entries; the %lld-byte text %s needs %lld in "
                            "one dimension", shape, (long long)len, (long long)n, o->text,
                            (long long)n);
    }
    if (info.data_offset % info.item_bytes != 0)
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "data starts at byte %zu, not a multiple of %zu (numpy aligns it to 64)",
                            info.data_offset, info.item_bytes);
    snprintf(f->format, sizeof f->format, "npy %s", pc_dtype_name(info.dtype));
    f->data = f->map.data + info.data_offset;
    return PC_OK;
}

/* A raw file of n little-endian int32 (--width 32) or int64 entries. */
static int open_raw(int_file *f, int64_t n, const check_opts *o, const char *path, int is_sa,
                    pc_error *err)
{
    f->type = o->width == 64 ? SA_CHECK_I64 : SA_CHECK_I32;
    int rc = check_capacity(f->type, n, o, path, is_sa, err);
    if (rc != PC_OK)
        return rc;
    size_t w = (size_t)o->width / 8, want = (size_t)n * w, have = f->map.size;
    if (have != want) {
        const char *hint = have < want ? "truncated" : "oversized";
        if (w == 4 && have == (size_t)n * 8)
            hint = "64-bit entries? give --width 64";
        else if (w == 8 && have == (size_t)n * 4)
            hint = "32-bit entries? drop --width 64";
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "%zu bytes, expected %zu (%lld int%d entries for the %lld-byte text "
                            "%s): %s", have, want, (long long)n, (int)o->width, (long long)n,
                            o->text, hint);
    }
    snprintf(f->format, sizeof f->format, "raw int%d", (int)o->width);
    f->data = f->map.data;
    return PC_OK;
}

/* Maps path (the SA when is_sa, else the LCP) and finds its n elements.
 * PC_OK, or PC_EIO / PC_EFORMAT / PC_EUNSUP / PC_ERANGE with "path: what
 * is wrong" (f is then closed). */
static int int_file_open(int_file *f, const char *path, int64_t n, const check_opts *o,
                         int is_sa, pc_error *err)
{
    memset(f, 0, sizeof *f);
    int rc = pc_file_map_open(path, &f->map, err);
    if (rc != PC_OK)
        return rc;
    rc = pc_npy_is_npy(f->map.data, f->map.size) ? open_npy(f, n, o, path, is_sa, err)
                                                  : open_raw(f, n, o, path, is_sa, err);
    if (rc != PC_OK)
        pc_file_map_close(&f->map);
    return rc;
}

/* The base name of a path (the result's default impl name). */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

/* Runs the checker on the mapped files and fills r. Returns PC_OK (any
 * verdict) or PC_ENOMEM. */
static int check_files(const pc_file_map *text, const int_file *sa, const int_file *lcp,
                       pc_result *r, double *check_s)
{
    int64_t n = (int64_t)text->size;
    sa_check_report rep;
    pc_error err;
    pc_error_clear(&err);
    long long before = pc_alloc_bytes();
    pc_alloc_reset_peak();
    double t0 = pc_time_now();
    int rc = sa_check(text->data, n, sa->data, sa->type, lcp ? lcp->data : NULL,
                      lcp ? lcp->type : SA_CHECK_I32, 1, &rep, &err);
    *check_s = pc_time_now() - t0;
    r->peak_bytes = pc_alloc_peak() - before;
    r->model_bytes = n > 0 ? (n + 1) * (n > (int64_t)UINT32_MAX ? 8 : 4) : 0;
    pc_kv_num(&r->timings, "check_s", *check_s);
    if (rc != PC_OK) {
        pc_result_status(r, PC_STATUS_ERROR, "%s", err.msg);
        return rc;
    }
    /* lcp_equal and the repeat only where they were computed: the LCP is
     * compared, and the repeat found, only on a right SA */
    check_fill_sa(r, &rep, (int)sa_check_type_size(sa->type) * 8);
    return PC_OK;
}

int cmd_sa_check(int argc, char **argv)
{
    check_opts o;
    int help;
    if (check_parse(argc, argv, &o, &help) != PC_OK)
        return CLI_USAGE;
    if (help) {
        fputs(CHECK_USAGE, stdout);
        return CLI_OK;
    }
    double wall0 = pc_time_now();
    pc_error err;
    pc_error_clear(&err);
    pc_file_map text;
    int_file sa, lcp;
    memset(&sa, 0, sizeof sa);
    memset(&lcp, 0, sizeof lcp);
    int rc = pc_file_map_open(o.text, &text, &err);
    int64_t n = (int64_t)text.size;
    if (rc == PC_OK)
        rc = int_file_open(&sa, o.sa, n, &o, 1, &err);
    if (rc == PC_OK && o.lcp)
        rc = int_file_open(&lcp, o.lcp, n, &o, 0, &err);
    if (rc != PC_OK) {
        fprintf(stderr, "%s\n", err.msg);
        pc_file_map_close(&sa.map);
        pc_file_map_close(&text);
        return CLI_USAGE;
    }
    pc_result r;
    pc_result_init(&r, o.name ? o.name : base_name(o.sa));
    double check_s = 0;
    check_files(&text, &sa, o.lcp ? &lcp : NULL, &r, &check_s);
    pc_kv_num(&r.timings, "total_s", pc_time_now() - wall0);
    static const char *const metrics[] = { "sa_equal", "lcp_equal", "lrs_length", "lrs_pos", NULL };
    pc_run run = { .domain = "sa", .oracle_name = "Burkhardt-Kaerkkaeinen + Phi LCP (sa_check)",
                   .oracle_seconds = check_s, .nresults = 1, .results = &r,
                   .table_metrics = metrics };
    pc_kv_str(&run.input, "path", o.text);
    pc_kv_int(&run.input, "bytes", n);
    pc_kv_str(&run.input, "sa", o.sa);
    pc_kv_str(&run.input, "sa_format", sa.format);
    if (o.lcp) {
        pc_kv_str(&run.input, "lcp", o.lcp);
        pc_kv_str(&run.input, "lcp_format", lcp.format);
    }
    int exit_code = pc_run_exit_code(&run) ? CLI_FAILED : CLI_OK;
    if (o.json) {
        if (pc_run_save_json(o.json, &run, &err) != PC_OK) {
            fprintf(stderr, "%s\n", err.msg);
            exit_code = CLI_USAGE;
        }
    } else {
        pc_run_print_table(stdout, &run);
    }
    pc_file_map_close(&lcp.map);
    pc_file_map_close(&sa.map);
    pc_file_map_close(&text);
    return exit_code;
}
