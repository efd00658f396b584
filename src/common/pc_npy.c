/* pc_npy.c - .npy header reader and writer (format in pc_npy.h). */
#include "pc_npy.h"

#include <stdio.h>
#include <string.h>


static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

static const struct {
    const char *descr;
    int dtype;
    size_t size;
} npy_types[] = {
    {"<f8", PC_DTYPE_F8, 8}, {"<f4", PC_DTYPE_F4, 4}, {"<i4", PC_DTYPE_I4, 4},
    {"<u4", PC_DTYPE_U4, 4}, {"<i8", PC_DTYPE_I8, 8}, {"<u8", PC_DTYPE_U8, 8},
};
#define NPY_NTYPES (int)(sizeof npy_types / sizeof npy_types[0])

const char *pc_dtype_name(int dtype)
{
    for (int i = 0; i < NPY_NTYPES; i++)
        if (npy_types[i].dtype == dtype)
            return npy_types[i].descr;
    return "?";
}

size_t pc_dtype_size(int dtype)
{
    for (int i = 0; i < NPY_NTYPES; i++)
        if (npy_types[i].dtype == dtype)
            return npy_types[i].size;
    return 0;
}

int pc_npy_is_npy(const unsigned char *buf, size_t len)
{
    return len >= sizeof npy_magic && memcmp(buf, npy_magic, sizeof npy_magic) == 0;
}

/* A cursor over the header's dict literal. */
typedef struct npy_lex {
    const char *p, *end;
    const char *path;
    pc_error *err;
} npy_lex;

static void lex_space(npy_lex *x)
{
    while (x->p < x->end && (*x->p == ' ' || *x->p == '\t'))
        x->p++;
}

static int lex_fail(npy_lex *x, const char *what)
{
    return pc_error_set(x->err, PC_EFORMAT, x->path, 0, "not a valid .npy header: %s", what);
}

/* Consumes the character c (after blanks); 1 when it was there. */
static int lex_take(npy_lex *x, char c)
{
    lex_space(x);
    if (x->p < x->end && *x->p == c) {
        x->p++;
        return 1;
    }
    return 0;
}

/* A quoted Python string without escapes, copied into out[0..cap). */
static int lex_string(npy_lex *x, char *out, size_t cap)
{
    lex_space(x);
    if (x->p >= x->end || (*x->p != '\'' && *x->p != '"'))
        return lex_fail(x, "expected a quoted string");
    char q = *x->p++;
    size_t n = 0;
    while (x->p < x->end && *x->p != q) {
        if (*x->p == '\\' || n + 1 >= cap)
            return lex_fail(x, "string too long or escaped");
        out[n++] = *x->p++;
    }
    if (x->p >= x->end)
        return lex_fail(x, "unterminated string");
    x->p++;
    out[n] = '\0';
    return PC_OK;
}

/* A non-negative decimal (Python 2 may append 'L'). */
static int lex_dim(npy_lex *x, int64_t *v)
{
    lex_space(x);
    if (x->p >= x->end || *x->p < '0' || *x->p > '9')
        return lex_fail(x, "expected a dimension");
    int64_t r = 0;
    while (x->p < x->end && *x->p >= '0' && *x->p <= '9') {
        int d = *x->p++ - '0';
        if (r > (INT64_MAX - d) / 10)
            return pc_error_set(x->err, PC_ERANGE, x->path, 0, "a dimension of the shape overflows");
        r = r * 10 + d;
    }
    if (x->p < x->end && *x->p == 'L')
        x->p++;
    *v = r;
    return PC_OK;
}

static int lex_shape(npy_lex *x, int64_t *shape, int *ndim)
{
    if (!lex_take(x, '('))
        return lex_fail(x, "'shape' is not a tuple");
    *ndim = 0;
    while (!lex_take(x, ')')) {
        int64_t d = 0;
        int rc = lex_dim(x, &d);
        if (rc)
            return rc;
        if (*ndim >= 2)
            return pc_error_set(x->err, PC_EUNSUP, x->path, 0,
                                "arrays of more than 2 dimensions are not supported");
        shape[(*ndim)++] = d;
        if (!lex_take(x, ',')) {
            if (!lex_take(x, ')'))
                return lex_fail(x, "expected ',' or ')' in 'shape'");
            break;
        }
    }
    return PC_OK;
}

/* The dict literal in h[0..n). */
static int npy_parse_dict(const char *h, size_t n, const char *path, pc_npy_info *info,
                          pc_error *err)
{
    npy_lex x = {h, h + n, path, err};
    int have_descr = 0, have_order = 0, have_shape = 0, rc;
    char descr[16] = "";
    if (!lex_take(&x, '{'))
        return lex_fail(&x, "expected '{'");
    while (!lex_take(&x, '}')) {
        char key[32];
        if ((rc = lex_string(&x, key, sizeof key)))
            return rc;
        if (!lex_take(&x, ':'))
            return lex_fail(&x, "expected ':' after a key");
        if (!strcmp(key, "descr") && !have_descr) {
            if ((rc = lex_string(&x, descr, sizeof descr)))
                return rc;
            have_descr = 1;
        } else if (!strcmp(key, "fortran_order") && !have_order) {
            lex_space(&x);
            size_t left = (size_t)(x.end - x.p);
            if (left >= 4 && !memcmp(x.p, "True", 4)) {
                info->fortran_order = 1;
                x.p += 4;
            } else if (left >= 5 && !memcmp(x.p, "False", 5)) {
                info->fortran_order = 0;
                x.p += 5;
            } else {
                return lex_fail(&x, "'fortran_order' is not True or False");
            }
            have_order = 1;
        } else if (!strcmp(key, "shape") && !have_shape) {
            if ((rc = lex_shape(&x, info->shape, &info->ndim)))
                return rc;
            have_shape = 1;
        } else {
            return pc_error_set(err, PC_EFORMAT, path, 0,
                                "not a valid .npy header: unexpected or repeated key '%s'", key);
        }
        if (!lex_take(&x, ',')) {
            if (!lex_take(&x, '}'))
                return lex_fail(&x, "expected ',' or '}'");
            break;
        }
    }
    lex_space(&x);
    while (x.p < x.end && *x.p == '\n')
        x.p++;
    lex_space(&x);
    if (x.p != x.end)
        return lex_fail(&x, "text after the dict");
    if (!have_descr || !have_order || !have_shape)
        return lex_fail(&x, "'descr', 'fortran_order' or 'shape' missing");
    info->dtype = -1;
    for (int i = 0; i < NPY_NTYPES; i++)
        if (!strcmp(descr, npy_types[i].descr)) {
            info->dtype = npy_types[i].dtype;
            info->item_bytes = npy_types[i].size;
        }
    if (info->dtype < 0) {
        if (descr[0] == '>' && strlen(descr) == 3 && strchr("fiu", descr[1]))
            return pc_error_set(err, PC_EUNSUP, path, 0,
                                "dtype '%s' is big-endian; save it little-endian (arr.astype('<%s'))",
                                descr, descr + 1);
        return pc_error_set(err, PC_EUNSUP, path, 0,
                            "dtype '%s' is not supported (<f8, <f4, <i4, <u4, <i8, <u8)", descr);
    }
    if (info->ndim == 0)
        return pc_error_set(err, PC_EUNSUP, path, 0, "a 0-dimensional array is not supported");
    if (info->ndim == 1)
        info->shape[1] = 1;
    return PC_OK;
}

int pc_npy_parse(const unsigned char *buf, size_t len, size_t file_bytes, const char *path,
                 pc_npy_info *info, pc_error *err)
{
    memset(info, 0, sizeof *info);
    if (len > file_bytes)
        len = file_bytes;
    if (!pc_npy_is_npy(buf, len))
        return pc_error_set(err, PC_EFORMAT, path, 0, "not a .npy file (no \\x93NUMPY magic)");
    if (len < 10)
        return pc_error_set(err, PC_EFORMAT, path, 0, "truncated .npy header");
    int major = buf[6];
    size_t hlen, pre;
    if (major == 1) {
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
        pre = 10;
    } else if (major == 2 || major == 3) {
        if (len < 12)
            return pc_error_set(err, PC_EFORMAT, path, 0, "truncated .npy header");
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        pre = 12;
    } else {
        return pc_error_set(err, PC_EUNSUP, path, 0, ".npy format version %d.%d is not supported",
                            major, buf[7]);
    }
    if (hlen > len - pre)
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "truncated .npy header (%zu header bytes declared, %zu in the file)",
                            hlen, len - pre);
    for (size_t i = 0; i < hlen; i++)
        if (buf[pre + i] < 0x20 && buf[pre + i] != '\n' && buf[pre + i] != '\t')
            return pc_error_set(err, PC_EFORMAT, path, 0,
                                "not a valid .npy header: control byte 0x%02x", buf[pre + i]);
    int rc = npy_parse_dict((const char *)buf + pre, hlen, path, info, err);
    if (rc)
        return rc;
    info->data_offset = pre + hlen;
    /* rows * cols * itemsize must not overflow, then must fill the file */
    uint64_t r = (uint64_t)info->shape[0], c = (uint64_t)info->shape[1];
    if (c != 0 && r > (uint64_t)SIZE_MAX / c / info->item_bytes)
        return pc_error_set(err, PC_ERANGE, path, 0, "shape (%lld, %lld) is too large",
                            (long long)info->shape[0], (long long)info->shape[1]);
    info->data_bytes = (size_t)(r * c) * info->item_bytes;
    size_t have = file_bytes - info->data_offset;
    if (have != info->data_bytes)
        return pc_error_set(err, PC_EFORMAT, path, 0,
                            "the header's shape (%lld, %lld) of %s needs %zu data bytes, the file holds %zu",
                            (long long)info->shape[0], (long long)info->shape[1],
                            pc_dtype_name(info->dtype), info->data_bytes, have);
    return PC_OK;
}

int pc_npy_write(const char *path, int dtype, int fortran_order, int ndim, const int64_t *shape,
                 const void *data, pc_error *err)
{
    size_t item = pc_dtype_size(dtype);
    if (!item || ndim < 1 || ndim > 2 || shape[0] < 0 || (ndim == 2 && shape[1] < 0))
        return pc_error_set(err, PC_EINVAL, path, 0, "pc_npy_write: bad dtype or shape");
    char dict[128];
    int dn;
    if (ndim == 1)
        dn = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (%lld,), }",
                      pc_dtype_name(dtype), fortran_order ? "True" : "False", (long long)shape[0]);
    else
        dn = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (%lld, %lld), }",
                      pc_dtype_name(dtype), fortran_order ? "True" : "False", (long long)shape[0],
                      (long long)shape[1]);
    /* magic + version + length + dict + spaces + '\n', a multiple of 64 */
    size_t total = ((10 + (size_t)dn + 1 + 63) / 64) * 64;
    size_t hlen = total - 10;
    unsigned char head[192];
    memcpy(head, npy_magic, 6);
    head[6] = 1;
    head[7] = 0;
    head[8] = (unsigned char)(hlen & 0xff);
    head[9] = (unsigned char)(hlen >> 8);
    memcpy(head + 10, dict, (size_t)dn);
    memset(head + 10 + dn, ' ', hlen - (size_t)dn - 1);
    head[total - 1] = '\n';
    uint64_t cells = (uint64_t)shape[0] * (ndim == 2 ? (uint64_t)shape[1] : 1);
    FILE *f = fopen(path, "wb");
    if (!f)
        return pc_error_set(err, PC_EIO, path, 0, "cannot open for writing");
    int bad = fwrite(head, 1, total, f) != total;
    if (!bad && cells)
        bad = fwrite(data, item, (size_t)cells, f) != (size_t)cells;
    if (fclose(f) != 0)
        bad = 1;
    return bad ? pc_error_set(err, PC_EIO, path, 0, "write failed") : PC_OK;
}
