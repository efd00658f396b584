/* mm_dense.c - dense X / Y reader (.npy and Matrix Market array; see
 * mm_dense.h). The Matrix Market part is its own small parser rather than
 * mm_read.c's: a dense Y may hold NaN (a wrong answer, to be judged, not
 * refused), and it reads straight into the dense array. */
#include "mm_dense.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pc_alloc.h"
#include "pc_file.h"
#include "pc_npy.h"

/* Longest value token accepted (a double needs 24 characters). */
#define DENSE_TOKEN_MAX 64
/* Integers past 2^53 are not all representable in double. */
#define DENSE_INT_EXACT 9007199254740992.0

void mm_dense_free(mm_dense *d)
{
    pc_free(d->data);
    memset(d, 0, sizeof *d);
}

/* "Y must be 12 x 4 (A has 12 rows and K = 4)" and the like. */
static int shape_fail(const char *name, const mm_dense_want *w, const char *have, int64_t rows,
                      int64_t cols, long line, pc_error *err)
{
    char must[96];
    if (w->rows >= 0 && w->cols >= 0)
        snprintf(must, sizeof must, "be %lld x %lld", (long long)w->rows, (long long)w->cols);
    else if (w->rows >= 0)
        snprintf(must, sizeof must, "have %lld rows", (long long)w->rows);
    else
        snprintf(must, sizeof must, "have %lld columns", (long long)w->cols);
    return pc_error_set(err, PC_EFORMAT, name, line, "%s (%lld, %lld) but %s must %s%s%s%s", have,
                        (long long)rows, (long long)cols, w->what ? w->what : "the array", must,
                        w->why_shape ? " (" : "", w->why_shape ? w->why_shape : "",
                        w->why_shape ? ")" : "");
}

static int shape_ok(const mm_dense_want *w, int64_t rows, int64_t cols)
{
    return (w->rows < 0 || rows == w->rows) && (w->cols < 0 || cols == w->cols);
}

static int read_npy(const char *name, const unsigned char *buf, size_t len,
                    const mm_dense_want *w, mm_dense *out, pc_error *err)
{
    pc_npy_info info;
    int rc = pc_npy_parse(buf, len, len, name, &info, err);
    if (rc)
        return rc;
    if (info.dtype != PC_DTYPE_F8 && !(w->allow_f4 && info.dtype == PC_DTYPE_F4))
        return pc_error_set(err, PC_EUNSUP, name, 0, "dtype '%s' cannot hold %s: save it as '<f8'%s",
                            pc_dtype_name(info.dtype), w->what ? w->what : "the array",
                            w->allow_f4 ? " (or '<f4' for a single-precision result)" : "");
    if (!shape_ok(w, info.shape[0], info.shape[1]))
        return shape_fail(name, w, "the header's shape is", info.shape[0], info.shape[1], 0, err);
    /* pc_npy_parse checked data_bytes against the file: the allocation is
     * sized by what the file holds */
    void *data = pc_malloc(info.data_bytes ? info.data_bytes : 1);
    if (!data)
        return pc_error_nomem(err, "reading a dense array");
    if (info.data_bytes)
        memcpy(data, buf + info.data_offset, info.data_bytes);
    out->rows = info.shape[0];
    out->cols = info.shape[1];
    out->dtype = info.dtype;
    out->col_major = info.ndim == 2 && info.fortran_order;
    out->from_npy = 1;
    out->data = data;
    return PC_OK;
}

/* A cursor over the lines of a Matrix Market text. */
typedef struct dense_text {
    const char *name;
    const char *next, *end;   /* unread bytes */
    const char *lp, *le;      /* current line, CR and trailing blanks stripped */
    long line;
    pc_error *err;
} dense_text;

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Moves to the next line; 0 at the end of the text. */
static int text_line(dense_text *t)
{
    if (t->next >= t->end)
        return 0;
    const char *nl = memchr(t->next, '\n', (size_t)(t->end - t->next));
    t->lp = t->next;
    t->le = nl ? nl : t->end;
    t->next = nl ? nl + 1 : t->end;
    t->line++;
    while (t->lp < t->le && blank(*t->lp))
        t->lp++;
    while (t->le > t->lp && blank(t->le[-1]))
        t->le--;
    return 1;
}

/* Moves to the next line that is neither blank nor a '%' comment. */
static int text_data_line(dense_text *t)
{
    while (text_line(t))
        if (t->lp < t->le && *t->lp != '%')
            return 1;
    return 0;
}

/* Splits the current line into at most max words; returns the count (max
 * + 1 when there are more). */
static int text_words(const dense_text *t, const char **w, size_t *wn, int max)
{
    int n = 0;
    const char *p = t->lp;
    while (p < t->le) {
        while (p < t->le && blank(*p))
            p++;
        if (p == t->le)
            break;
        const char *b = p;
        while (p < t->le && !blank(*p))
            p++;
        if (n == max)
            return max + 1;
        w[n] = b;
        wn[n++] = (size_t)(p - b);
    }
    return n;
}

static int word_is(const char *w, size_t n, const char *s)
{
    return strlen(s) == n && strncasecmp(w, s, n) == 0;
}

/* A printable copy of a word for messages. */
static const char *word_show(const char *w, size_t n, char *buf, size_t cap)
{
    size_t k = n < cap - 4 ? n : cap - 4;
    for (size_t i = 0; i < k; i++)
        buf[i] = w[i] >= 0x20 && w[i] < 0x7f ? w[i] : '?';
    strcpy(buf + k, k < n ? "..." : "");
    return buf;
}

static int text_fail(dense_text *t, int code, const char *msg, const char *w, size_t n)
{
    char show[48];
    return pc_error_set(t->err, code, t->name, t->line, "%s%s%s%s", msg, w ? " '" : "",
                        w ? word_show(w, n, show, sizeof show) : "", w ? "'" : "");
}

/* The banner: %%MatrixMarket matrix array real|double|integer general. */
static int parse_banner(dense_text *t, int *integer)
{
    const char *w[6];
    size_t n[6];
    if (!text_line(t))
        return text_fail(t, PC_EFORMAT, "empty file", NULL, 0);
    int k = text_words(t, w, n, 5);
    if (k < 1 || !word_is(w[0], n[0], "%%MatrixMarket"))
        return text_fail(t, PC_EFORMAT, "missing %%MatrixMarket banner", NULL, 0);
    if (k != 5)
        return text_fail(t, PC_EFORMAT, "the banner needs 4 words: matrix array real general", NULL, 0);
    if (!word_is(w[1], n[1], "matrix"))
        return text_fail(t, PC_EUNSUP, "object is not 'matrix':", w[1], n[1]);
    if (word_is(w[2], n[2], "coordinate"))
        return text_fail(t, PC_EUNSUP,
                         "a dense array must be written in format 'array', not", w[2], n[2]);
    if (!word_is(w[2], n[2], "array"))
        return text_fail(t, PC_EFORMAT, "bad format", w[2], n[2]);
    *integer = word_is(w[3], n[3], "integer");
    if (!*integer && !word_is(w[3], n[3], "real") && !word_is(w[3], n[3], "double"))
        return text_fail(t, PC_EUNSUP, "field must be real or integer, not", w[3], n[3]);
    if (!word_is(w[4], n[4], "general"))
        return text_fail(t, PC_EUNSUP, "symmetry must be general, not", w[4], n[4]);
    return PC_OK;
}

/* A non-negative decimal count up to INT32_MAX; -1 when it is not one. */
static int64_t parse_count(const char *w, size_t n)
{
    int64_t v = 0;
    if (n == 0 || n > 10)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (w[i] < '0' || w[i] > '9')
            return -1;
        v = v * 10 + (w[i] - '0');
    }
    return v <= INT32_MAX ? v : -1;
}

/* One value of the field: integer, or decimal / inf / nan. */
static int parse_value(dense_text *t, const char *w, size_t n, int integer, double *out)
{
    size_t s = n > 0 && (w[0] == '+' || w[0] == '-');
    double sign = s && w[0] == '-' ? -1.0 : 1.0;
    if (!integer && (word_is(w + s, n - s, "inf") || word_is(w + s, n - s, "infinity"))) {
        *out = sign * INFINITY;
        return PC_OK;
    }
    if (!integer && word_is(w + s, n - s, "nan")) {
        *out = NAN;
        return PC_OK;
    }
    if (n == 0 || n >= DENSE_TOKEN_MAX)
        return text_fail(t, PC_EFORMAT, "bad value", w, n);
    for (size_t i = s; i < n; i++) {
        int digit = w[i] >= '0' && w[i] <= '9';
        if (!digit && (integer || !strchr(".eE+-", w[i])))
            return text_fail(t, PC_EFORMAT, integer ? "bad integer value" : "bad real value", w, n);
    }
    char buf[DENSE_TOKEN_MAX];
    memcpy(buf, w, n);
    buf[n] = '\0';
    char *end = NULL;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + n)
        return text_fail(t, PC_EFORMAT, integer ? "bad integer value" : "bad real value", w, n);
    if (errno == ERANGE && isinf(v))
        return text_fail(t, PC_ERANGE, "value overflows a double:", w, n);
    if (integer && fabs(v) > DENSE_INT_EXACT)
        return text_fail(t, PC_ERANGE, "integer value past 2^53 (not exact in double):", w, n);
    *out = v; /* an underflow to a subnormal or zero is kept */
    return PC_OK;
}

static int read_mm(const char *name, const unsigned char *buf, size_t len, const mm_dense_want *want,
                   mm_dense *out, pc_error *err)
{
    dense_text t = {name, (const char *)buf, (const char *)buf + len, NULL, NULL, 0, err};
    int integer = 0, rc;
    if ((rc = parse_banner(&t, &integer)))
        return rc;
    if (!text_data_line(&t))
        return text_fail(&t, PC_EFORMAT, "missing size line", NULL, 0);
    const char *w[3];
    size_t n[3];
    int k = text_words(&t, w, n, 2);
    if (k != 2)
        return text_fail(&t, PC_EFORMAT, "the size line of an array holds two counts: rows columns",
                         NULL, 0);
    int64_t rows = parse_count(w[0], n[0]), cols = parse_count(w[1], n[1]);
    if (rows < 0 || cols < 0)
        return text_fail(&t, PC_EFORMAT, "bad count (0 to 2^31 - 1) in the size line", w[rows < 0 ? 0 : 1],
                         n[rows < 0 ? 0 : 1]);
    if (!shape_ok(want, rows, cols))
        return shape_fail(name, want, "the size line declares", rows, cols, t.line, err);
    /* each value takes two bytes ("v\n"), the last one may lack its '\n' */
    uint64_t count = (uint64_t)rows * (uint64_t)cols, left = (uint64_t)(t.end - t.next);
    if (count * 2 > left + 1)
        return pc_error_set(err, PC_EFORMAT, name, t.line,
                            "%lld x %lld values declared but only %llu bytes follow (truncated file?)",
                            (long long)rows, (long long)cols, (unsigned long long)left);
    double *data = pc_malloc_array(count ? count : 1, sizeof *data);
    if (!data)
        return pc_error_nomem(err, "reading a Matrix Market array");
    uint64_t got = 0;
    while (rc == PC_OK && text_data_line(&t)) {
        k = text_words(&t, w, n, 1);
        if (got == count)
            rc = text_fail(&t, PC_EFORMAT, "too many values: data past the declared count", NULL, 0);
        else if (k != 1)
            rc = text_fail(&t, PC_EFORMAT, "one value per line: unexpected text after", w[0], n[0]);
        else
            rc = parse_value(&t, w[0], n[0], integer, &data[got++]);
    }
    if (rc == PC_OK && got < count)
        rc = pc_error_set(err, PC_EFORMAT, name, t.line,
                          "too few values: %llu of the %lld x %lld declared (truncated file?)",
                          (unsigned long long)got, (long long)rows, (long long)cols);
    if (rc) {
        pc_free(data);
        return rc;
    }
    out->rows = rows;
    out->cols = cols;
    out->dtype = PC_DTYPE_F8;
    out->col_major = 1;
    out->from_npy = 0;
    out->data = data;
    return PC_OK;
}

int mm_dense_read_buffer(const char *name, const unsigned char *buf, size_t len,
                         const mm_dense_want *want, mm_dense *out, pc_error *err)
{
    memset(out, 0, sizeof *out);
    name = name ? name : "<buffer>";
    if (!buf || len == 0)
        return pc_error_set(err, PC_EFORMAT, name, 0, "empty file");
    if (buf[0] == 0x93)
        return read_npy(name, buf, len, want, out, err);
    size_t i = 0;
    while (i < len && blank((char)buf[i]))
        i++;
    if (i < len && buf[i] == '%')
        return read_mm(name, buf, len, want, out, err);
    return pc_error_set(err, PC_EFORMAT, name, 0,
                        "neither a .npy file (\\x93NUMPY) nor a Matrix Market array (%%%%MatrixMarket)");
}

int mm_dense_read_file(const char *path, const mm_dense_want *want, mm_dense *out,
                       pc_error *err)
{
    memset(out, 0, sizeof *out);
    pc_file_map map;
    int rc = pc_file_map_open(path, &map, err);
    if (rc)
        return rc;
    rc = mm_dense_read_buffer(path, map.data, map.size, want, out, err);
    pc_file_map_close(&map);
    return rc;
}
