#include "spmm_oracle.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"

/* A quiet NaN with a payload no arithmetic produces. */
#define POISON_BITS 0x7FF8DEADBEEF0A11ull

void spmm_oracle_poison(double *Y, int64_t len)
{
    for (int64_t i = 0; i < len; i++)
        memcpy(&Y[i], &(uint64_t){POISON_BITS}, sizeof(double));
}

static int oracle_is_poison(double y)
{
    uint64_t b;
    memcpy(&b, &y, sizeof b);
    return b == POISON_BITS;
}

/* Knuth's TwoSum: s + e == a + b exactly. */
static void two_sum(double a, double b, double *s, double *e)
{
    double x = a + b;
    double bv = x - a;
    double av = x - bv;
    *e = (a - av) + (b - bv);
    *s = x;
}

/* Adds a*b exactly-ish into the double-double (hi, lo). */
static void dd_add_product(double *hi, double *lo, double a, double b)
{
    double p = a * b;
    double pe = fma(a, b, -p); /* exact error of the product */
    double s, e;
    two_sum(*hi, p, &s, &e);
    e += *lo + pe;
    two_sum(s, e, hi, lo);
}

static int oracle_is_integer(double v)
{
    return isfinite(v) && v == floor(v) && fabs(v) <= 9007199254740992.0;
}

int spmm_oracle_compute(const mm_coo *A, const double *X, int K, spmm_oracle *o,
                        pc_error *err)
{
    memset(o, 0, sizeof *o);
    if (K < 1 || A->rows < 0)
        return pc_error_set(err, PC_EINVAL, NULL, 0, "oracle: bad K or shape");
    size_t len = (size_t)A->rows * (size_t)K;
    o->m = A->rows;
    o->K = K;
    o->hi = pc_calloc(len ? len : 1, sizeof(double));
    o->lo = pc_calloc(len ? len : 1, sizeof(double));
    o->absax = pc_calloc(len ? len : 1, sizeof(double));
    o->special = pc_calloc(len ? len : 1, sizeof(double));
    o->nrow = pc_calloc(A->rows ? (size_t)A->rows : 1, sizeof(int32_t));
    if (!o->hi || !o->lo || !o->absax || !o->special || !o->nrow) {
        spmm_oracle_free(o);
        return pc_error_nomem(err, "computing the SpMM reference");
    }
    int exact = 1;
    for (int64_t e = 0; e < A->nnz && exact; e++)
        exact = oracle_is_integer(A->val[e]);
    for (size_t i = 0; i < (size_t)A->cols * (size_t)K && exact; i++)
        exact = oracle_is_integer(X[i]);
    /* Entry by entry, in whatever order the COO holds them: the reference
     * does not depend on any storage format. */
    for (int64_t e = 0; e < A->nnz; e++) {
        int32_t i = A->row[e], j = A->col[e];
        double a = A->val[e];
        o->nrow[i]++;
        for (int k = 0; k < K; k++) {
            size_t s = (size_t)i * K + k;
            double x = X[(size_t)j * K + k];
            double p = a * x;
            if (isfinite(p))
                dd_add_product(&o->hi[s], &o->lo[s], a, x);
            else
                o->special[s] += p; /* inf, -inf and NaN combine the IEEE way */
            o->absax[s] += fabs(a) * fabs(x);
        }
    }
    /* With a non-finite product the exact sum is that IEEE value: +inf and
     * -inf together give NaN whatever the order, any NaN gives NaN. */
    for (size_t s = 0; s < len; s++)
        if (o->special[s] != 0.0) {
            o->hi[s] = o->special[s];
            o->lo[s] = 0.0;
        }
    /* Exactness also needs every partial sum below 2^53 in magnitude. */
    for (size_t s = 0; s < len && exact; s++)
        exact = o->absax[s] <= 9007199254740992.0;
    o->exact = exact;
    return PC_OK;
}

void spmm_oracle_check(const spmm_oracle *o, const double *Y, spmm_verdict *v)
{
    const double u = 0x1.0p-53;
    memset(v, 0, sizeof *v);
    v->pass = 1;
    v->unit_roundoff = u;
    double sum_rel = 0.0;
    int64_t nrel = 0;
    for (int32_t i = 0; i < o->m; i++) {
        double nu = (double)o->nrow[i] * u;
        double gamma = nu < 1.0 ? nu / (1.0 - nu) : INFINITY;
        for (int k = 0; k < o->K; k++) {
            size_t s = (size_t)i * o->K + k;
            double y = Y[s];
            double ref = o->hi[s] + o->lo[s];
            const char *bad = NULL;
            char buf[200];
            v->checked++;
            if (oracle_is_poison(y)) {
                bad = "never written";
            } else if (!isfinite(ref) || !isfinite(o->absax[s])) {
                if (isnan(ref) ? !isnan(y) : y != ref)
                    bad = "non-finite reference not reproduced";
            } else if (!isfinite(y)) {
                bad = "not finite";
            } else {
                long double d = ((long double)y - (long double)o->hi[s]) - (long double)o->lo[s];
                double errv = (double)fabsl(d);
                double b = gamma * o->absax[s];
                double over = errv == 0.0 ? 0.0 : (b > 0.0 ? errv / b : INFINITY);
                if (over > v->max_err_over_bound)
                    v->max_err_over_bound = over;
                if (ref != 0.0) {
                    double rel = errv / fabs(ref);
                    if (rel > v->max_rel_err)
                        v->max_rel_err = rel;
                    sum_rel += rel;
                    nrel++;
                }
                if (o->exact && y != ref) {
                    snprintf(buf, sizeof buf, "integer inputs but %.17g != exact %.17g", y, ref);
                    bad = buf;
                } else if (!(errv <= 2.0 * b)) {
                    snprintf(buf, sizeof buf, "|y - ref| = %.3g exceeds 2 b = %.3g (y %.17g, ref %.17g)",
                             errv, 2.0 * b, y, ref);
                    bad = buf;
                }
            }
            if (bad) {
                if (v->pass)
                    snprintf(v->why, sizeof v->why, "entry (%d,%d): %s", i, k, bad);
                v->pass = 0;
                v->bad++;
            }
        }
    }
    v->mean_rel_err = nrel ? sum_rel / (double)nrel : 0.0;
}

void spmm_oracle_free(spmm_oracle *o)
{
    pc_free(o->hi);
    pc_free(o->lo);
    pc_free(o->absax);
    pc_free(o->special);
    pc_free(o->nrow);
    memset(o, 0, sizeof *o);
}
