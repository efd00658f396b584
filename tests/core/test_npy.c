/* src/common: the .npy header reader and writer, the read-only file map,
 * and the "where" records of a result (table and JSON). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "pc_alloc.h"
#include "pc_file.h"
#include "pc_npy.h"
#include "pc_result.h"
#include "pc_test.h"

/* A .npy image: magic, version, header length, then the dict padded with
 * spaces and '\n' as numpy pads it (total header a multiple of 64). */
static size_t npy_image(unsigned char *buf, int major, const char *dict, const void *data,
                        size_t nbytes)
{
    size_t pre = major == 1 ? 10 : 12;
    size_t dn = strlen(dict);
    size_t total = ((pre + dn + 1 + 63) / 64) * 64;
    size_t hlen = total - pre;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    buf[8] = (unsigned char)(hlen & 0xff);
    buf[9] = (unsigned char)(hlen >> 8);
    if (major != 1) {
        buf[10] = 0;
        buf[11] = 0;
    }
    memcpy(buf + pre, dict, dn);
    memset(buf + pre + dn, ' ', hlen - dn - 1);
    buf[total - 1] = '\n';
    memcpy(buf + total, data, nbytes);
    return total + nbytes;
}

static int parse(const unsigned char *buf, size_t len, pc_npy_info *info, pc_error *err)
{
    pc_error_clear(err);
    return pc_npy_parse(buf, len, len, "x.npy", info, err);
}

START_TEST(test_npy_numpy_headers_are_read)
{
    unsigned char buf[512];
    double d[6] = {1, 2, 3, 4, 5, 6};
    pc_npy_info in;
    pc_error err;
    size_t n = npy_image(buf, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", d,
                         sizeof d);
    ck_assert_int_eq(parse(buf, n, &in, &err), PC_OK);
    ck_assert_int_eq(in.dtype, PC_DTYPE_F8);
    ck_assert_int_eq(in.fortran_order, 0);
    ck_assert_int_eq(in.ndim, 2);
    ck_assert_int_eq(in.shape[0], 2);
    ck_assert_int_eq(in.shape[1], 3);
    ck_assert_int_eq(in.data_offset, 128);
    ck_assert_int_eq(in.data_bytes, 48);
    /* keys in another order, Fortran order, version 2, 1-D, Python 2's L */
    n = npy_image(buf, 2, "{'shape': (6L,), 'fortran_order': True, 'descr': '<i8'}", d, sizeof d);
    ck_assert_int_eq(parse(buf, n, &in, &err), PC_OK);
    ck_assert_int_eq(in.dtype, PC_DTYPE_I8);
    ck_assert_int_eq(in.fortran_order, 1);
    ck_assert_int_eq(in.ndim, 1);
    ck_assert_int_eq(in.shape[0], 6);
    ck_assert_int_eq(in.shape[1], 1);
    ck_assert_int_eq(in.data_offset, 128); /* 12-byte prefix + 56-byte dict, padded to 64 */
    /* an empty array */
    n = npy_image(buf, 1, "{'descr': '<u4', 'fortran_order': False, 'shape': (0, 5), }", d, 0);
    ck_assert_int_eq(parse(buf, n, &in, &err), PC_OK);
    ck_assert_int_eq(in.dtype, PC_DTYPE_U4);
    ck_assert_int_eq(in.data_bytes, 0);
}
END_TEST

START_TEST(test_npy_bad_headers_are_refused)
{
    static const struct {
        const char *dict;
        size_t data;
        int code;
        const char *msg;
    } bad[] = {
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", 40, PC_EFORMAT,
         "needs 48 data bytes, the file holds 40"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", 56, PC_EFORMAT,
         "the file holds 56"},
        {"{'descr': '>f8', 'fortran_order': False, 'shape': (6,), }", 48, PC_EUNSUP, "big-endian"},
        {"{'descr': '<c16', 'fortran_order': False, 'shape': (3,), }", 48, PC_EUNSUP,
         "'<c16' is not supported"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2, 3), }", 48, PC_EUNSUP,
         "more than 2 dimensions"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (), }", 8, PC_EUNSUP, "0-dimensional"},
        {"{'descr': '<f8', 'fortran_order': 0, 'shape': (6,), }", 48, PC_EFORMAT, "True or False"},
        {"{'descr': '<f8', 'shape': (6,), }", 48, PC_EFORMAT, "missing"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (6,), 'x': 1}", 48, PC_EFORMAT,
         "unexpected or repeated key 'x'"},
        {"{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (6,)}", 48,
         PC_EFORMAT, "repeated key 'descr'"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", 48,
         PC_ERANGE, "too large"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", 48,
         PC_ERANGE, "overflows"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (6,), } trailing", 48, PC_EFORMAT,
         "text after the dict"},
    };
    unsigned char buf[512];
    unsigned char zeros[64] = {0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pc_npy_info in;
        pc_error err;
        size_t n = npy_image(buf, 1, bad[i].dict, zeros, bad[i].data);
        ck_assert_msg(parse(buf, n, &in, &err) == bad[i].code, "case %zu: %s", i, err.msg);
        ck_assert_msg(strstr(err.msg, bad[i].msg) && !strncmp(err.msg, "x.npy: ", 7),
                      "case %zu: '%s' lacks '%s'", i, err.msg, bad[i].msg);
    }
    /* no magic, truncated prefix, header longer than the file, version 9 */
    pc_npy_info in;
    pc_error err;
    ck_assert_int_eq(parse((const unsigned char *)"PK\3\4", 4, &in, &err), PC_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "not a .npy file"));
    size_t n = npy_image(buf, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }", zeros, 48);
    ck_assert_int_eq(parse(buf, 8, &in, &err), PC_EFORMAT);
    ck_assert_int_eq(parse(buf, 40, &in, &err), PC_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "truncated .npy header"));
    buf[6] = 9;
    ck_assert_int_eq(parse(buf, n, &in, &err), PC_EUNSUP);
    /* a control byte inside the header */
    n = npy_image(buf, 1, "{'descr': '<f8',\x01 'fortran_order': False, 'shape': (6,), }", zeros, 48);
    ck_assert_int_eq(parse(buf, n, &in, &err), PC_EFORMAT);
}
END_TEST

START_TEST(test_npy_write_then_map_round_trips)
{
    char path[] = "/tmp/parcheck-npy-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    float v[6] = {1.5f, -2.0f, 3.25f, 0.0f, 1e30f, -1e-30f};
    int64_t shape[2] = {3, 2};
    pc_error err;
    pc_error_clear(&err);
    ck_assert_int_eq(pc_npy_write(path, PC_DTYPE_F4, 1, 2, shape, v, &err), PC_OK);
    pc_file_map m;
    ck_assert_int_eq(pc_file_map_open(path, &m, &err), PC_OK);
    ck_assert_int_eq(m.size % 64, 24 % 64);
    pc_npy_info in;
    ck_assert_int_eq(pc_npy_parse(m.data, m.size, m.size, path, &in, &err), PC_OK);
    ck_assert_int_eq(in.dtype, PC_DTYPE_F4);
    ck_assert_int_eq(in.fortran_order, 1);
    ck_assert_int_eq(in.shape[0], 3);
    ck_assert_int_eq(in.shape[1], 2);
    ck_assert_int_eq(in.data_offset % 64, 0);
    ck_assert_mem_eq(m.data + in.data_offset, v, sizeof v);
    pc_file_map_close(&m);
    ck_assert_ptr_null(m.data);
    int64_t len[1] = {0};
    ck_assert_int_eq(pc_npy_write(path, PC_DTYPE_I4, 0, 1, len, NULL, &err), PC_OK);
    ck_assert_int_eq(pc_file_map_open(path, &m, &err), PC_OK);
    ck_assert_int_eq(pc_npy_parse(m.data, m.size, m.size, path, &in, &err), PC_OK);
    ck_assert_int_eq(in.shape[0], 0);
    pc_file_map_close(&m);
    ck_assert_int_eq(pc_npy_write(path, 99, 0, 1, len, NULL, &err), PC_EINVAL);
    /* an empty file maps to size 0; a directory and a missing file do not map */
    fd = open(path, O_WRONLY | O_TRUNC);
    close(fd);
    ck_assert_int_eq(pc_file_map_open(path, &m, &err), PC_OK);
    ck_assert_int_eq(m.size, 0);
    ck_assert_ptr_nonnull(m.data);
    pc_file_map_close(&m);
    unlink(path);
    ck_assert_int_eq(pc_file_map_open(path, &m, &err), PC_EIO);
    ck_assert_ptr_nonnull(strstr(err.msg, "cannot open"));
    ck_assert_int_eq(pc_file_map_open("/tmp", &m, &err), PC_EIO);
    ck_assert_ptr_nonnull(strstr(err.msg, "not a regular file"));
}
END_TEST

START_TEST(test_result_where_in_table_and_json)
{
    pc_result r;
    pc_result_init(&r, "y.npy");
    pc_result_status(&r, PC_STATUS_FAIL, "2 bad entries");
    for (int i = 0; i < PC_WHERE_MAX; i++) {
        pc_kvlist *w = pc_result_where_add(&r);
        ck_assert_ptr_nonnull(w);
        pc_kv_int(w, "row", 18 + i);
        pc_kv_num(w, "got", 0.1);
    }
    ck_assert_ptr_null(pc_result_where_add(&r));
    snprintf(r.where_summary, sizeof r.where_summary, "rows 18-27 wrong");
    pc_run run = {.domain = "spmm", .oracle_name = "o", .nresults = 1, .results = &r};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pc_run_print_table(f, &run);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "    at row=18 got=0.10000000000000001\n"));
    ck_assert_ptr_nonnull(strstr(buf, "    rows 18-27 wrong\n"));
    free(buf);
    f = open_memstream(&buf, &len);
    pc_run_write_json(f, &run);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "\"where\":[{\"row\":18,\"got\":0.10000000000000001}"));
    ck_assert_ptr_nonnull(strstr(buf, "\"where_summary\":\"rows 18-27 wrong\""));
    free(buf);
}
END_TEST

static Suite *suite_npy(void)
{
    Suite *s = suite_create("npy");
    TCase *tc = pc_tcase("npy");
    tcase_add_test(tc, test_npy_numpy_headers_are_read);
    tcase_add_test(tc, test_npy_bad_headers_are_refused);
    tcase_add_test(tc, test_npy_write_then_map_round_trips);
    tcase_add_test(tc, test_result_where_in_table_and_json);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_npy()); }
