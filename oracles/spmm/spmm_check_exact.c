/* spmm_check_exact.c - the exact judge of one entry (rules R1-R7 of
 * spmm_check.h), for the entries the compensated pass cannot decide.
 *
 * Every finite double is m 2^e with an integer m < 2^53 and e >= -1074, so
 * a product of two is an integer below 2^106 times 2^e, e >= -2148, and a
 * sum of up to 2^31 of them stays below 2^2080. A fixed-point accumulator
 * with its lowest bit at 2^-2176 and 136 digits of 32 bits holds such a sum
 * exactly. Digits are kept in int64 so that additions need no carry
 * propagation: each addition moves a digit by less than 2^32 and at most
 * two additions touch a digit per product, so 2^29 products fit before the
 * carries must be propagated (acc_normalize). */
#include <math.h>
#include <string.h>

#include "spmm/spmm_check_priv.h"

#define ACC_DIGITS 136
#define ACC_LSB (-2176)
#define ACC_ADDS_MAX (1L << 29)

typedef struct chk_acc {
    int64_t d[ACC_DIGITS];
    long adds;
} chk_acc;

/* Adds (neg ? -1 : 1) * v * 2^(pos + ACC_LSB) for pos >= 0. */
static void acc_add_at(chk_acc *a, int pos, uint64_t v, int neg)
{
    int at = pos >> 5;
    unsigned __int128 w = (unsigned __int128)v << (pos & 31);
    int64_t d0 = (int64_t)(uint32_t)w, d1 = (int64_t)(uint32_t)(w >> 32),
            d2 = (int64_t)(uint64_t)(w >> 64);
    if (neg) {
        a->d[at] -= d0;
        a->d[at + 1] -= d1;
        a->d[at + 2] -= d2;
    } else {
        a->d[at] += d0;
        a->d[at + 1] += d1;
        a->d[at + 2] += d2;
    }
}

/* Propagates carries: digits 0..ACC_DIGITS-2 end in [0, 2^32), the top
 * digit carries the sign. */
static void acc_normalize(chk_acc *a)
{
    for (int i = 0; i < ACC_DIGITS - 1; i++) {
        int64_t c = a->d[i] >= 0 ? a->d[i] / 4294967296LL
                                 : -((-a->d[i] + 4294967295LL) / 4294967296LL);
        a->d[i] -= c * 4294967296LL;
        a->d[i + 1] += c;
    }
    a->adds = 0;
}

static void acc_count(chk_acc *a)
{
    if (++a->adds >= ACC_ADDS_MAX)
        acc_normalize(a);
}

/* A finite double as m 2^e (m < 2^53). */
static void split(double v, uint64_t *m, int *e, int *neg)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int be = (int)((bits >> 52) & 0x7FF);
    uint64_t frac = bits & ((1ULL << 52) - 1);
    *neg = (int)(bits >> 63);
    *m = be ? frac | (1ULL << 52) : frac;
    *e = be ? be - 1075 : -1074;
}

static void acc_add_double(chk_acc *a, double v, int negate)
{
    uint64_t m;
    int e, neg;
    split(v, &m, &e, &neg);
    acc_add_at(a, e - ACC_LSB, m, neg ^ negate);
    acc_count(a);
}

/* Adds a*x exactly (both finite). */
static void acc_add_product(chk_acc *a, double x, double y)
{
    uint64_t mx, my;
    int ex, ey, nx, ny;
    split(x, &mx, &ex, &nx);
    split(y, &my, &ey, &ny);
    if (mx == 0 || my == 0)
        return;
    unsigned __int128 p = (unsigned __int128)mx * my;
    int pos = ex + ey - ACC_LSB;
    acc_add_at(a, pos, (uint64_t)p, nx ^ ny);
    acc_add_at(a, pos + 64, (uint64_t)(p >> 64), nx ^ ny);
    acc_count(a);
}

/* Sign of a normalized accumulator: -1, 0 or 1. */
static int acc_sign(const chk_acc *a)
{
    if (a->d[ACC_DIGITS - 1] < 0)
        return -1;
    for (int i = ACC_DIGITS - 1; i >= 0; i--)
        if (a->d[i] != 0)
            return 1;
    return 0;
}

/* Negates a normalized accumulator (result normalized). */
static void acc_negate(chk_acc *a)
{
    for (int i = 0; i < ACC_DIGITS; i++)
        a->d[i] = -a->d[i];
    acc_normalize(a);
}

static int acc_bit(const chk_acc *a, int pos)
{
    return (int)((a->d[pos >> 5] >> (pos & 31)) & 1);
}

/* 1 when a bit below pos is set (normalized, non-negative accumulator). */
static int acc_any_below(const chk_acc *a, int pos)
{
    int at = pos >> 5;
    if (a->d[at] & ((1LL << (pos & 31)) - 1))
        return 1;
    for (int i = at - 1; i >= 0; i--)
        if (a->d[i] != 0)
            return 1;
    return 0;
}

/* The normalized, non-negative value rounded to the nearest double (ties
 * to even), inf past the range. */
static double acc_round(const chk_acc *a)
{
    int top = ACC_DIGITS - 1;
    while (top >= 0 && a->d[top] == 0)
        top--;
    if (top < 0)
        return 0.0;
    int hb = top * 32 + 63 - __builtin_clzll((unsigned long long)a->d[top]);
    int E = hb + ACC_LSB;                 /* the value lies in [2^E, 2^(E+1)) */
    int q = E - 52 > -1074 ? E - 52 : -1074; /* exponent of the last kept bit */
    if (E > 1023)
        return INFINITY;
    int cut = q - ACC_LSB;                /* >= 1102: bits below it exist */
    uint64_t mant = 0;
    for (int pos = hb; pos >= cut; pos--)
        mant = mant << 1 | (uint64_t)acc_bit(a, pos);
    int round = acc_bit(a, cut - 1), sticky = acc_any_below(a, cut - 1);
    if (round && (sticky || (mant & 1)))
        mant++;
    return ldexp((double)mant, q); /* exact: mant <= 2^53 */
}

/* R4's equality: NaN matches any NaN. */
static int same_ieee(double y, double ref)
{
    return isnan(ref) ? isnan(y) : y == ref;
}

static double round_prec(const chk_ctx *c, double v)
{
    return c->fp32 ? (double)(float)v : v;
}

void chk_exact_entry(const chk_ctx *c, int64_t i, int k, double y, int poison, chk_verdict *v)
{
    chk_acc acc;
    memset(&acc, 0, sizeof acc);
    double special = 0.0, absax = 0.0;
    int64_t p0 = c->rowptr[i], p1 = c->rowptr[i + 1];
    for (int64_t p = p0; p < p1; p++) {
        double a = round_prec(c, c->val[p]);
        double x = c->X[(int64_t)c->col[p] * c->ldx + k];
        double h = a * x;
        if (isfinite(h))
            acc_add_product(&acc, a, x);
        else
            special += h; /* R4: inf, -inf and NaN combine the IEEE way */
        absax += fabs(h); /* R1: fl(|a||x|) == |fl(a x)| */
    }
    acc_normalize(&acc);
    int64_t n = p1 - p0;
    double nu = (double)n * c->u;
    double gamma = nu < 1.0 ? nu / (1.0 - nu) : INFINITY;
    memset(v, 0, sizeof *v);
    v->b = gamma * absax;
    v->bound = 2.0 * v->b + (double)n * c->eta2;
    if (special != 0.0) {
        v->ref = special;
    } else {
        chk_acc mag = acc;
        int s = acc_sign(&mag);
        if (s < 0)
            acc_negate(&mag);
        v->ref = s < 0 ? -acc_round(&mag) : acc_round(&mag);
    }
    if (poison) {
        v->reason = SPMM_CHECK_NEVER_WRITTEN;
        return;
    }
    if (!isfinite(v->ref) || !isfinite(absax)) {
        v->reason = same_ieee(y, v->ref) ? SPMM_CHECK_OK : SPMM_CHECK_NOT_REPRODUCED;
        return;
    }
    if (!isfinite(y)) {
        v->reason = SPMM_CHECK_NOT_FINITE;
        return;
    }
    /* D = S - y exactly, then |D| against T: (D - T) <= 0 or (D + T) >= 0. */
    acc_add_double(&acc, y, 1);
    acc_normalize(&acc);
    int sd = acc_sign(&acc);
    chk_acc cmp = acc;
    if (sd != 0 && isfinite(v->bound)) {
        acc_add_double(&cmp, v->bound, sd > 0);
        acc_normalize(&cmp);
    }
    int within = sd == 0 || !isfinite(v->bound) || (sd > 0 ? acc_sign(&cmp) <= 0 : acc_sign(&cmp) >= 0);
    if (sd < 0)
        acc_negate(&acc);
    v->errv = acc_round(&acc);
    v->r2 = 1;
    if (c->exact)
        v->reason = y == v->ref ? SPMM_CHECK_OK : SPMM_CHECK_NOT_EXACT;
    else
        v->reason = within ? SPMM_CHECK_OK : SPMM_CHECK_OVER_BOUND;
}
