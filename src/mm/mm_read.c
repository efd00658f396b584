/* mm_read.c - Matrix Market reader (see mm.h and docs/README-mm.md).
 *
 * The buffer is walked line by line with explicit bounds (it need not be
 * NUL-terminated and may contain NUL bytes); tokens are copied into a small
 * NUL-terminated buffer before strtod, so no libc routine reads past len.
 * Nothing is allocated before the header has been checked against the int32
 * index range and against the number of bytes left in the buffer. */
#include "mm.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pc_alloc.h"
#include "pc_file.h"

/* Longest number token accepted (digits of a double or an index). */
#define MM_TOKEN_MAX 256
/* Fewest bytes one entry takes in the file, its line end included
 * ("i j\n", "i j v\n", "v\n"); the last line may lack its newline. */
#define MIN_BYTES_PATTERN 4
#define MIN_BYTES_VALUE 6
#define MIN_BYTES_ARRAY 2
/* Largest file mm_read_file reads (the reader keeps it all in memory). */
#define MM_FILE_MAX ((size_t)1 << 36)
/* Integers past 2^53 are not all representable in double. */
#define MM_INT_EXACT 9007199254740992.0

typedef struct mm_tok {
    const char *p;
    size_t n;
} mm_tok;

/* Line cursor over buf[0..len). */
typedef struct mm_lines {
    const char *buf, *end, *next;
    long lineno;
} mm_lines;

/* Reader state: the buffer, the name used in messages, the header. */
typedef struct mm_parse {
    const char *name;
    pc_error *err;
    mm_lines lines;
    const char *lp, *le; /* the current line, CR stripped */
    int format, field, symmetry;
    int64_t rows, cols, declared;
    int short_file;  /* the bytes left cannot hold the declared entries */
    int64_t ai, aj;  /* array format: position of the next value */
    long size_lineno;
} mm_parse;

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Advances to the next line; returns 0 at the end of the buffer. */
static int lines_next(mm_lines *L, const char **lp, const char **le)
{
    if (L->next >= L->end)
        return 0;
    const char *s = L->next;
    const char *nl = memchr(s, '\n', (size_t)(L->end - s));
    const char *e = nl ? nl : L->end;
    L->next = nl ? nl + 1 : L->end;
    L->lineno++;
    while (e > s && e[-1] == '\r')
        e--;
    *lp = s;
    *le = e;
    return 1;
}

/* Takes the next whitespace-separated token of [*p, e); 0 when none. */
static int tok_next(const char **p, const char *e, mm_tok *t)
{
    const char *s = *p;
    while (s < e && is_space(*s))
        s++;
    if (s == e) {
        *p = s;
        return 0;
    }
    const char *b = s;
    while (s < e && !is_space(*s))
        s++;
    t->p = b;
    t->n = (size_t)(s - b);
    *p = s;
    return 1;
}

static int tok_is(const mm_tok *t, const char *word)
{
    size_t n = strlen(word);
    return t->n == n && strncasecmp(t->p, word, n) == 0;
}

/* A printable excerpt of a token for messages, cut with "..." to fit cap
 * bytes (nothing shown when cap < 4). */
static const char *tok_show(const mm_tok *t, char *out, size_t cap)
{
    if (cap < 4) { /* no room for "...": nothing shown (cap - 4 would wrap) */
        if (cap)
            out[0] = '\0';
        return out;
    }
    size_t n = t->n < cap - 4 ? t->n : cap - 4;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t->p[i];
        out[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    if (n < t->n) {
        memcpy(out + n, "...", 4);
    } else {
        out[n] = '\0';
    }
    return out;
}

/* 1 when the line is blank or a comment ('%' after optional spaces). */
static int line_is_skip(const char *p, const char *e)
{
    while (p < e && is_space(*p))
        p++;
    return p == e || *p == '%';
}

static int fail(mm_parse *P, int code, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Records "name:line: message" with code; returns code. */
static int fail(mm_parse *P, int code, long line, const char *fmt, ...)
{
    char msg[PC_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return pc_error_set(P->err, code, P->name, line, "%s", msg);
}

enum { NUM_OK, NUM_BAD, NUM_BIG };

/* Parses a decimal integer token ([+-]digits) into int64. */
static int parse_int(const mm_tok *t, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    if (i < t->n && (t->p[i] == '+' || t->p[i] == '-'))
        neg = t->p[i++] == '-';
    if (i == t->n)
        return NUM_BAD;
    uint64_t v = 0;
    int big = 0;
    for (; i < t->n; i++) {
        char c = t->p[i];
        if (c < '0' || c > '9')
            return NUM_BAD;
        if (v > ((uint64_t)INT64_MAX - (uint64_t)(c - '0')) / 10)
            big = 1;
        else
            v = v * 10 + (uint64_t)(c - '0');
    }
    if (big)
        return NUM_BIG;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return NUM_OK;
}

/* "inf", "infinity" with an optional sign, any case: GraphBLAS writes its
 * infinite values so (matrix_fp64.mtx, skew_fp64.mtx of the shared data). */
static int parse_inf(const mm_tok *t, double *out)
{
    mm_tok u = *t;
    double s = 1.0;
    if (u.n && (u.p[0] == '+' || u.p[0] == '-')) {
        s = u.p[0] == '-' ? -1.0 : 1.0;
        u.p++;
        u.n--;
    }
    if (tok_is(&u, "inf") || tok_is(&u, "infinity")) {
        *out = s * INFINITY;
        return 1;
    }
    return 0;
}

static int tok_is_nan(const mm_tok *t)
{
    mm_tok u = *t;
    if (u.n && (u.p[0] == '+' || u.p[0] == '-')) {
        u.p++;
        u.n--;
    }
    return u.n >= 3 && strncasecmp(u.p, "nan", 3) == 0;
}

/* Parses the value token of an entry on line `line` for field P->field. */
static int parse_value(mm_parse *P, const mm_tok *t, long line, double *out)
{
    char show[48];
    if (parse_inf(t, out))
        return PC_OK;
    if (tok_is_nan(t))
        return fail(P, PC_EFORMAT, line, "NaN value '%s' is not allowed",
                    tok_show(t, show, sizeof show));
    if (P->field == MM_FIELD_INTEGER) {
        int64_t v;
        int r = parse_int(t, &v);
        if (r == NUM_BAD)
            return fail(P, PC_EFORMAT, line, "bad integer value '%s'",
                        tok_show(t, show, sizeof show));
        if (r == NUM_BIG || v > (int64_t)MM_INT_EXACT || v < -(int64_t)MM_INT_EXACT)
            return fail(P, PC_ERANGE, line,
                        "integer value '%s' is past 2^53, not exactly representable as a double",
                        tok_show(t, show, sizeof show));
        /* "-0" stays -0.0, as a real field would read it */
        *out = (t->p[0] == '-' && v == 0) ? -0.0 : (double)v;
        return PC_OK;
    }
    /* real: plain decimal notation only (no hex floats, no nan(...)) */
    for (size_t i = 0; i < t->n; i++) {
        char c = t->p[i];
        if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
            return fail(P, PC_EFORMAT, line, "bad real value '%s'",
                        tok_show(t, show, sizeof show));
    }
    if (t->n >= MM_TOKEN_MAX)
        return fail(P, PC_EFORMAT, line, "value '%s' is too long",
                    tok_show(t, show, sizeof show));
    char buf[MM_TOKEN_MAX];
    memcpy(buf, t->p, t->n);
    buf[t->n] = '\0';
    char *end = NULL;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + t->n || t->n == 0)
        return fail(P, PC_EFORMAT, line, "bad real value '%s'",
                    tok_show(t, show, sizeof show));
    if (errno == ERANGE && fabs(v) == HUGE_VAL)
        return fail(P, PC_ERANGE, line, "value '%s' overflows a double",
                    tok_show(t, show, sizeof show));
    *out = v; /* underflow to a subnormal or zero is kept */
    return PC_OK;
}

/* The four banner words and what each may be; value -1: valid Matrix
 * Market that parcheck does not compute with. "double" is read as "real",
 * as several writers spell it. */
static const struct banner_slot {
    const char *what, *expected;
    struct banner_word {
        const char *word;
        int value;
    } words[6];
} g_banner[4] = {
    { "object", "matrix", { { "matrix", 0 }, { "vector", -1 }, { NULL, 0 } } },
    { "format", "coordinate or array",
      { { "coordinate", MM_COORDINATE }, { "array", MM_ARRAY }, { NULL, 0 } } },
    { "field", "real, integer or pattern",
      { { "real", MM_FIELD_REAL }, { "double", MM_FIELD_REAL }, { "integer", MM_FIELD_INTEGER },
        { "pattern", MM_FIELD_PATTERN }, { "complex", -1 }, { NULL, 0 } } },
    { "symmetry", "general, symmetric or skew-symmetric",
      { { "general", MM_GENERAL }, { "symmetric", MM_SYMMETRIC },
        { "skew-symmetric", MM_SKEW_SYMMETRIC }, { "hermitian", -1 }, { NULL, 0 } } },
};

/* Reads and checks the banner on line 1. */
static int parse_banner(mm_parse *P)
{
    const char *p, *e;
    if (!lines_next(&P->lines, &p, &e))
        return fail(P, PC_EFORMAT, 1, "empty file: missing %%%%MatrixMarket banner");
    mm_tok w[5];
    int n = 0;
    mm_tok extra;
    while (n < 5 && tok_next(&p, e, &w[n]))
        n++;
    int has_extra = tok_next(&p, e, &extra);
    mm_tok head = w[0];
    if (n > 0 && head.n && head.p[0] == '%') {
        head.p++;
        head.n--;
        if (head.n && head.p[0] == '%') {
            head.p++;
            head.n--;
        }
    }
    if (n == 0 || w[0].p[0] != '%' || !tok_is(&head, "MatrixMarket"))
        return fail(P, PC_EFORMAT, 1, "missing %%%%MatrixMarket banner");
    static const char *const what[] = { "", "object", "format", "field", "symmetry" };
    if (n < 5)
        return fail(P, PC_EFORMAT, 1, "banner is missing the %s word", what[n]);
    if (has_extra)
        return fail(P, PC_EFORMAT, 1, "unexpected words after the banner's symmetry");
    int value[4];
    for (int k = 0; k < 4; k++) {
        const struct banner_slot *b = &g_banner[k];
        const struct banner_word *bw = b->words;
        while (bw->word && !tok_is(&w[k + 1], bw->word))
            bw++;
        char show[48];
        tok_show(&w[k + 1], show, sizeof show);
        if (!bw->word)
            return fail(P, PC_EFORMAT, 1, "bad %s '%s' (expected %s)", b->what, show,
                        b->expected);
        if (bw->value < 0)
            return fail(P, PC_EUNSUP, 1, "unsupported %s '%s' (parcheck reads %s)", b->what,
                        show, b->expected);
        value[k] = bw->value;
    }
    P->format = value[1];
    P->field = value[2];
    P->symmetry = value[3];
    if (P->field == MM_FIELD_PATTERN && P->format == MM_ARRAY)
        return fail(P, PC_EFORMAT, 1, "field 'pattern' is not allowed with format 'array'");
    if (P->field == MM_FIELD_PATTERN && P->symmetry == MM_SKEW_SYMMETRIC)
        return fail(P, PC_EFORMAT, 1, "field 'pattern' is not allowed with 'skew-symmetric'");
    return PC_OK;
}

/* Next data line (skipping blank and comment lines); 0 at the end. */
static int next_data_line(mm_parse *P)
{
    while (lines_next(&P->lines, &P->lp, &P->le))
        if (!line_is_skip(P->lp, P->le))
            return 1;
    return 0;
}

/* Parses one size token: a count in [0, max]. */
static int parse_size(mm_parse *P, const mm_tok *t, const char *what, int64_t max,
                      int64_t *out)
{
    long line = P->lines.lineno;
    char show[48];
    int64_t v = 0;
    int r = parse_int(t, &v);
    if (r == NUM_BAD)
        return fail(P, PC_EFORMAT, line, "bad %s '%s' in the size line", what,
                    tok_show(t, show, sizeof show));
    if ((r == NUM_OK && v < 0) || (r == NUM_BIG && t->p[0] == '-'))
        return fail(P, PC_EFORMAT, line, "negative %s '%s' in the size line", what,
                    tok_show(t, show, sizeof show));
    if (r == NUM_BIG || v > max)
        return fail(P, PC_ERANGE, line, "%s '%s' is larger than the supported %lld", what,
                    tok_show(t, show, sizeof show), (long long)max);
    *out = v;
    return PC_OK;
}

/* Reads the size line and checks it against the int32 index range; sets
 * *stored (the entries the file must hold) and P->short_file when the bytes
 * left cannot hold them. */
static int parse_size_line(mm_parse *P, int64_t *stored)
{
    if (!next_data_line(P))
        return fail(P, PC_EFORMAT, P->lines.lineno > 0 ? P->lines.lineno : 1,
                    "missing size line");
    long line = P->lines.lineno;
    const char *p = P->lp;
    mm_tok t[3], extra;
    int want = P->format == MM_COORDINATE ? 3 : 2;
    static const char *const what[] = { "row count", "column count", "entry count" };
    for (int k = 0; k < want; k++)
        if (!tok_next(&p, P->le, &t[k]))
            return fail(P, PC_EFORMAT, line, "size line is missing the %s", what[k]);
    if (tok_next(&p, P->le, &extra))
        return fail(P, PC_EFORMAT, line, "unexpected text after the size line");
    int rc = parse_size(P, &t[0], what[0], INT32_MAX, &P->rows);
    if (!rc)
        rc = parse_size(P, &t[1], what[1], INT32_MAX, &P->cols);
    if (!rc && want == 3)
        rc = parse_size(P, &t[2], what[2], MM_MAX_NNZ, &P->declared);
    if (rc)
        return rc;
    if (P->symmetry != MM_GENERAL && P->rows != P->cols)
        return fail(P, PC_EFORMAT, line, "a %s matrix must be square, not %lld x %lld",
                    P->symmetry == MM_SYMMETRIC ? "symmetric" : "skew-symmetric",
                    (long long)P->rows, (long long)P->cols);
    uint64_t left = (uint64_t)(P->lines.end - P->lines.next);
    uint64_t min_bytes;
    if (P->format == MM_ARRAY) {
        uint64_t n = (uint64_t)P->rows, full = (uint64_t)P->rows * (uint64_t)P->cols;
        uint64_t in_file = full, expanded = full;
        if (P->symmetry == MM_SYMMETRIC)
            in_file = n * (n + 1) / 2;
        else if (P->symmetry == MM_SKEW_SYMMETRIC)
            in_file = n * (n - (n > 0)) / 2, expanded = n * (n - (n > 0));
        if (expanded > (uint64_t)MM_MAX_NNZ)
            return fail(P, PC_ERANGE, line, "dense %lld x %lld matrix has more than %lld entries",
                        (long long)P->rows, (long long)P->cols, (long long)MM_MAX_NNZ);
        P->declared = (int64_t)in_file;
        min_bytes = MIN_BYTES_ARRAY;
    } else {
        min_bytes = P->field == MM_FIELD_PATTERN ? MIN_BYTES_PATTERN : MIN_BYTES_VALUE;
    }
    /* declared <= 2^31, min_bytes <= 6: no overflow. The last line may
     * lack its newline, hence left + 1. */
    P->short_file = (uint64_t)P->declared * min_bytes > left + 1;
    P->size_lineno = line;
    *stored = P->declared;
    return PC_OK;
}

/* Parses one coordinate entry line into 0-based (i, j) and v. */
static int parse_coord_line(mm_parse *P, long line, int32_t *oi, int32_t *oj, double *ov)
{
    char show[48];
    const char *p = P->lp;
    mm_tok ti, tj, tv, extra;
    int64_t i = 0, j = 0;
    tok_next(&p, P->le, &ti); /* the line is not blank: there is one */
    if (!tok_next(&p, P->le, &tj))
        return fail(P, PC_EFORMAT, line, "truncated entry: missing column index");
    int ri = parse_int(&ti, &i), rj = parse_int(&tj, &j);
    if (ri == NUM_BAD)
        return fail(P, PC_EFORMAT, line, "bad row index '%s'", tok_show(&ti, show, sizeof show));
    if (rj == NUM_BAD)
        return fail(P, PC_EFORMAT, line, "bad column index '%s'", tok_show(&tj, show, sizeof show));
    if (ri == NUM_BIG || i < 1 || i > P->rows)
        return fail(P, PC_EFORMAT, line, "row index %s outside 1..%lld",
                    tok_show(&ti, show, sizeof show), (long long)P->rows);
    if (rj == NUM_BIG || j < 1 || j > P->cols)
        return fail(P, PC_EFORMAT, line, "column index %s outside 1..%lld",
                    tok_show(&tj, show, sizeof show), (long long)P->cols);
    double v = 1.0;
    if (P->field != MM_FIELD_PATTERN) {
        if (!tok_next(&p, P->le, &tv))
            return fail(P, PC_EFORMAT, line, "truncated entry: missing value");
        int rc = parse_value(P, &tv, line, &v);
        if (rc)
            return rc;
    }
    if (tok_next(&p, P->le, &extra))
        return fail(P, PC_EFORMAT, line, "unexpected text '%s' after the entry",
                    tok_show(&extra, show, sizeof show));
    if (P->symmetry != MM_GENERAL && j > i)
        return fail(P, PC_EFORMAT, line,
                    "entry (%lld, %lld) above the diagonal: a %s file stores only the "
                    "lower triangle", (long long)i, (long long)j,
                    P->symmetry == MM_SYMMETRIC ? "symmetric" : "skew-symmetric");
    if (P->symmetry == MM_SKEW_SYMMETRIC && i == j && v != 0.0)
        return fail(P, PC_EFORMAT, line,
                    "non-zero diagonal entry (%lld, %lld) in a skew-symmetric file",
                    (long long)i, (long long)j);
    *oi = (int32_t)(i - 1);
    *oj = (int32_t)(j - 1);
    *ov = v;
    return PC_OK;
}

/* Parses one value line of an array file; the position comes from the
 * cursor P->ai, P->aj: column-major, the lower triangle (symmetric) or the
 * strict lower triangle (skew) column by column. */
static int parse_array_line(mm_parse *P, long line, int32_t *oi, int32_t *oj, double *ov)
{
    char show[48];
    const char *p = P->lp;
    mm_tok tv, extra;
    tok_next(&p, P->le, &tv);
    int rc = parse_value(P, &tv, line, ov);
    if (rc)
        return rc;
    if (tok_next(&p, P->le, &extra))
        return fail(P, PC_EFORMAT, line, "unexpected text '%s' after the value",
                    tok_show(&extra, show, sizeof show));
    *oi = (int32_t)P->ai;
    *oj = (int32_t)P->aj;
    if (++P->ai == P->rows) {
        P->aj++;
        /* first row of column j: 0 (general), j (symmetric), j + 1 (skew) */
        P->ai = P->symmetry == MM_GENERAL ? 0
              : P->aj + (P->symmetry == MM_SKEW_SYMMETRIC);
    }
    return PC_OK;
}

/* Reads the P->declared entries into m, or only checks them when m is
 * NULL; refuses missing and extra data lines. */
static int read_entries(mm_parse *P, mm_coo *m)
{
    int64_t k = 0;
    P->ai = P->symmetry == MM_SKEW_SYMMETRIC;
    P->aj = 0;
    while (next_data_line(P)) {
        long line = P->lines.lineno;
        if (k == P->declared)
            return fail(P, PC_EFORMAT, line, "too many entries: data after the %lld declared",
                        (long long)P->declared);
        int32_t i = 0, j = 0;
        double v = 0.0;
        int rc = P->format == MM_COORDINATE ? parse_coord_line(P, line, &i, &j, &v)
                                            : parse_array_line(P, line, &i, &j, &v);
        if (rc)
            return rc;
        if (m) {
            m->row[k] = i;
            m->col[k] = j;
            m->val[k] = v;
        }
        k++;
    }
    if (k < P->declared)
        return fail(P, PC_EFORMAT, P->lines.lineno,
                    "too few entries: %lld of the %lld declared (truncated file?)",
                    (long long)k, (long long)P->declared);
    return PC_OK;
}

/* Mirrors the off-diagonal entries of a symmetric or skew file into a new
 * matrix (the diagonal is not duplicated); frees m's arrays on success. */
static int expand_symmetric(mm_parse *P, mm_coo *m)
{
    int64_t off = 0;
    for (int64_t k = 0; k < m->nnz; k++)
        off += m->row[k] != m->col[k];
    if (m->nnz + off > MM_MAX_NNZ)
        return fail(P, PC_ERANGE, 0,
                    "%lld entries after symmetric expansion, more than the supported %lld",
                    (long long)(m->nnz + off), (long long)MM_MAX_NNZ);
    mm_coo x;
    int rc = mm_coo_alloc(&x, m->rows, m->cols, m->nnz + off, P->err);
    if (rc)
        return rc;
    double sign = P->symmetry == MM_SKEW_SYMMETRIC ? -1.0 : 1.0;
    int64_t o = 0;
    for (int64_t k = 0; k < m->nnz; k++) {
        x.row[o] = m->row[k];
        x.col[o] = m->col[k];
        x.val[o++] = m->val[k];
        if (m->row[k] != m->col[k]) {
            x.row[o] = m->col[k];
            x.col[o] = m->row[k];
            x.val[o++] = sign * m->val[k];
        }
    }
    pc_free(m->row);
    pc_free(m->col);
    pc_free(m->val);
    m->row = x.row;
    m->col = x.col;
    m->val = x.val;
    m->nnz = x.nnz;
    return PC_OK;
}

int mm_read_buffer(const char *name, const char *buf, size_t len, mm_coo *out,
                   pc_error *err)
{
    memset(out, 0, sizeof *out);
    mm_parse P;
    memset(&P, 0, sizeof P);
    P.name = name ? name : "<buffer>";
    P.err = err;
    P.lines.buf = buf ? buf : "";
    P.lines.end = P.lines.buf + (buf ? len : 0);
    P.lines.next = P.lines.buf;
    int64_t stored = 0;
    int rc = parse_banner(&P);
    if (!rc)
        rc = parse_size_line(&P, &stored);
    if (rc)
        return rc;
    if (P.short_file) {
        /* Too few bytes for the declared entries: nothing is allocated; a
         * checking pass finds the line that is wrong (at the latest, too few
         * entries at the end). */
        rc = read_entries(&P, NULL);
        if (!rc)
            rc = fail(&P, PC_EFORMAT, P.size_lineno,
                      "%lld entries declared, more than the rest of the file can hold",
                      (long long)P.declared);
        return rc;
    }
    mm_coo m;
    rc = mm_coo_alloc(&m, (int32_t)P.rows, (int32_t)P.cols, stored, err);
    if (rc)
        return rc;
    m.field = P.field;
    m.symmetry = P.symmetry;
    m.format = P.format;
    m.declared = P.declared;
    rc = read_entries(&P, &m);
    if (!rc && P.symmetry != MM_GENERAL)
        rc = expand_symmetric(&P, &m);
    if (!rc)
        rc = mm_coo_normalize(&m, err);
    if (!rc) {
        /* only duplicates of inf and -inf can sum to NaN */
        for (int64_t k = 0; k < m.nnz; k++)
            if (isnan(m.val[k])) {
                rc = pc_error_set(err, PC_ERANGE, P.name, 0,
                                  "duplicate entries at (%ld, %ld) sum to NaN (inf + -inf)",
                                  (long)m.row[k] + 1, (long)m.col[k] + 1);
                break;
            }
    }
    if (rc) {
        mm_coo_free(&m);
        return rc;
    }
    *out = m;
    return PC_OK;
}

int mm_read_file(const char *path, mm_coo *out, pc_error *err)
{
    memset(out, 0, sizeof *out);
    unsigned char *data = NULL;
    size_t size = 0;
    int rc = pc_file_read_all(path, MM_FILE_MAX, &data, &size, err);
    if (rc)
        return rc;
    rc = mm_read_buffer(path, (const char *)data, size, out, err);
    pc_free(data);
    return rc;
}
