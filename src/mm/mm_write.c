/* mm_write.c - Matrix Market writer: "matrix coordinate <field> general".
 *
 * Values are printed with %.17g (17 significant digits identify every
 * double, and glibc's printf/strtod round correctly), so reading the file
 * back gives the same bits. The field of m is kept when its values allow
 * it: pattern only when every value is 1.0, integer only when every value
 * is an integer of magnitude <= 2^53 (or infinite); otherwise real. */
#include "mm.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define MM_INT_EXACT 9007199254740992.0

/* The field the values of m can be written with. */
static int write_field(const mm_coo *m)
{
    int field = m->field;
    for (int64_t k = 0; k < m->nnz && field != MM_FIELD_REAL; k++) {
        double v = m->val[k];
        if (field == MM_FIELD_PATTERN && v != 1.0)
            field = MM_FIELD_REAL;
        else if (field == MM_FIELD_INTEGER && !isinf(v) &&
                 (v != floor(v) || fabs(v) > MM_INT_EXACT))
            field = MM_FIELD_REAL;
    }
    return field;
}

int mm_write_stream(FILE *f, const mm_coo *m)
{
    if (!f || !m || m->nnz < 0 || (m->nnz > 0 && (!m->row || !m->col || !m->val)))
        return PC_EINVAL;
    int field = write_field(m);
    static const char *const names[] = { "real", "integer", "pattern" };
    if (fprintf(f, "%%%%MatrixMarket matrix coordinate %s general\n%ld %ld %lld\n",
                names[field], (long)m->rows, (long)m->cols, (long long)m->nnz) < 0)
        return PC_EIO;
    for (int64_t k = 0; k < m->nnz; k++) {
        long i = (long)m->row[k] + 1, j = (long)m->col[k] + 1;
        double v = m->val[k];
        int r;
        if (field == MM_FIELD_PATTERN)
            r = fprintf(f, "%ld %ld\n", i, j);
        else if (field == MM_FIELD_INTEGER && !isinf(v))
            r = fprintf(f, "%ld %ld %.0f\n", i, j, v);
        else
            r = fprintf(f, "%ld %ld %.17g\n", i, j, v);
        if (r < 0)
            return PC_EIO;
    }
    return ferror(f) ? PC_EIO : PC_OK;
}

int mm_write_file(const char *path, const mm_coo *m, pc_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return pc_error_set(err, PC_EIO, path, 0, "cannot open for writing: %s", strerror(errno));
    int rc = mm_write_stream(f, m);
    if (fclose(f) != 0 && rc == PC_OK)
        rc = PC_EIO;
    if (rc == PC_EINVAL)
        return pc_error_set(err, rc, path, 0, "invalid matrix");
    if (rc)
        return pc_error_set(err, rc, path, 0, "write failed");
    return PC_OK;
}
