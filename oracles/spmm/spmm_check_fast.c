/* spmm_check_fast.c - the compensated pass of the SpMM checker.
 *
 * For each row i and each group of up to 8 columns k (one vector lane per
 * column, the row's entries in order), Dot2 of Ogita, Rump and Oishi
 * (SIAM J. Sci. Comput. 26(6), 2005) runs beside the |A||X| sum of R1:
 *     h = fl(a x)             rr = fl(a x - h)        (one fma)
 *     (P, q) = TwoSum(P, h)   P + q == P_old + h exactly
 *     s = fl(s + fl(q + rr))  ab = fl(ab + |h|)
 * and the entry is judged from d = fl(fl(y - P) - s), an estimate of
 * D = y - S (S the exact sum), with a bound e on |D - d| derived below.
 *
 * The bound. u = 2^-53 (the double arithmetic of this pass, whatever the
 * judged precision), eta = 2^-1075, n = n_i <= 2^31 so n u <= 2^-22,
 * gamma_n = n u / (1 - n u), H = sum |h_l| (exact).
 *  (1) rr_l = rho_l + eps_l with rho_l = a_l x_l - h_l exactly and
 *      |eps_l| <= eta: rho_l is representable unless the product's last bit
 *      is below 2^-1074, and then |rho_l| < 2^-1021 where doubles are
 *      2^-1074 apart. |rho_l| <= u |h_l| + eta.
 *  (2) TwoSum is exact for finite operands, so
 *      S = sum h_l + sum rho_l = P + sum (q_l + rho_l).
 *  (3) s is a recursive sum of n terms t_l = fl(q_l + rr_l), each term
 *      rounded at most n times (additions never lose to underflow):
 *      |s - sum (q_l + rr_l)| <= gamma_n sum |q_l + rr_l|.
 *  (4) |q_l| <= u |P_l| <= u (1 + gamma_n) H and |rr_l| <= u |h_l| + 2 eta,
 *      so sum |q_l + rr_l| <= u (n + 1)(1 + gamma_n) H + 2 n eta; the
 *      recursive sum ab of the |h_l| satisfies H <= ab / (1 - gamma_n).
 *      Hence e_s = |s - (S - P)| <= 2 n (n + 1) u^2 ab + 2 n eta (the
 *      factors (1 + gamma_n)^2 / (1 - gamma_n) < 1 + 2^-19 fit in the 2).
 *  (5) d1 = fl(y - P) and d = fl(d1 - s) err by at most u |d1| and u |d|,
 *      so |D - d| <= e = u (|d1| + |d|) + e_s.
 * e_hat below is computed in double with every rounding pointing down
 * accounted for: A1 = fl(|d1| + |d|) >= (1 - u)(|d1| + |d|),
 * fl(A1 2^-52) >= 2 u A1 - eta, cn = fl(n (n + 1)) 2^-104 >= 4 (1 - u) n (n + 1) u^2,
 * fl(cn ab) >= cn ab (1 - u) - eta, tail = (2n + 4) 2^-1074 = (4n + 8) eta,
 * and two final additions of non-negative terms lose a factor (1 - u)^2:
 * the relative parts keep a factor 2 (1 - u)^4 >= 1 and the absolute part
 * (4n + 6)(1 - u)^2 eta >= 2 n eta. So e_hat >= e.
 * Decisions against the double threshold T (R2):
 *  pass when fl(fl(|d| + e_hat)(1 + 2^-50)) <= T: the sum loses at most a
 *      factor (1 - u) (nothing when it is subnormal, where addition is
 *      exact) and (1 + 2^-50)(1 - u)^2 >= 1, so the left side is at least
 *      |d| + e >= |D|;
 *  fail when fl(fl(|d| - e_hat)(1 - 2^-50)) > T: when |d| - e_hat > 0 the
 *      left side is at most (|d| - e_hat)(1 + u)^2 (1 - 2^-50) <= |d| - e
 *      <= |D| (subnormal results are exact; a product falling below 2^-1022
 *      from v >= 2^-1022 errs by eta < v (2^-50 - 2u)), and when it is <= 0
 *      so is the left side;
 *  otherwise the entry goes to the exact judge (spmm_check_exact.c), as do
 *      entries whose P, s or ab is not finite or whose ab exceeds 2^1000
 *      (far from overflow in any step above).
 * R6 (exact mode): integer data with ab <= 2^53 make every product and
 * partial sum exact, so rr = q = s = 0, P = S, and y must equal P.
 * The code below must be compiled without contraction of a*b+c into fma
 * (the pragma; gcc's -std=c11 does not contract either). */
#pragma STDC FP_CONTRACT OFF

#include <math.h>
#include <string.h>

#include "spmm/spmm_check_priv.h"

#define CHK_W 8
/* Largest |A||X| the pass judges; above it the exact judge does. */
#define CHK_FAST_AB_MAX 0x1p1000

#define CHK_INLINE static inline __attribute__((always_inline))

/* Reads y(i, k0..k0+W) as doubles, with the R3 test on the stored bits. */
CHK_INLINE void load_y(const chk_ctx *c, int64_t i, int k0, int W, double *y, int *pois)
{
    const spmm_check_dense *Y = &c->Y;
    for (int t = 0; t < W; t++) {
        int64_t at = Y->layout == SPMM_CHECK_ROW_MAJOR ? i * Y->ld + k0 + t
                                                        : i + (int64_t)(k0 + t) * Y->ld;
        if (Y->dtype == SPMM_CHECK_F64) {
            uint64_t b;
            memcpy(&b, (const double *)Y->data + at, sizeof b);
            pois[t] = b == SPMM_CHECK_POISON64;
            memcpy(&y[t], &b, sizeof b);
        } else {
            uint32_t b;
            float f;
            memcpy(&b, (const float *)Y->data + at, sizeof b);
            memcpy(&f, &b, sizeof f);
            pois[t] = b == SPMM_CHECK_POISON32;
            y[t] = f;
        }
    }
}

/* Per-row constants of the decision. */
typedef struct row_consts {
    double gamma;   /* gamma_n of the judged precision (R1) */
    double allow;   /* n 2 eta of R2 */
    double cn;      /* n (n + 1) 2^-104, see (4) */
    double tail;    /* (2n + 4) 2^-1074 */
} row_consts;

/* Judges one entry from the pass's P, s, ab (see the derivation above). */
CHK_INLINE void fast_judge(const chk_ctx *c, chk_block *B, int64_t i, int k, double P, double s,
                           double ab, double y, int pois, const row_consts *rc)
{
    chk_verdict v;
    if (!(ab <= CHK_FAST_AB_MAX) || !isfinite(P) || !isfinite(s) || c->force_exact) {
        B->slow_special++;
        chk_exact_entry(c, i, k, y, pois, &v);
        chk_block_note(c, B, i, k, y, &v);
        return;
    }
    v.b = rc->gamma * ab;
    v.bound = 2.0 * v.b + rc->allow;
    v.ref = P + s;
    v.errv = 0.0;
    v.r2 = 0;
    if (pois) {
        v.reason = SPMM_CHECK_NEVER_WRITTEN;
    } else if (!isfinite(y)) {
        v.reason = SPMM_CHECK_NOT_FINITE;
    } else if (c->exact) {
        if (ab > c->exact_limit)
            B->exact_broken = 1; /* the whole pass runs again without R6 */
        v.r2 = 1;
        v.ref = P;
        v.errv = fabs(y - P);
        v.reason = y == P ? SPMM_CHECK_OK : SPMM_CHECK_NOT_EXACT;
    } else {
        double d1 = y - P;
        double d = d1 - s;
        double ad = fabs(d);
        v.r2 = 1;
        v.errv = ad;
        if (ab == 0.0 && y == 0.0) {
            /* every |a x| <= eta: |S| <= n eta <= T */
            v.reason = SPMM_CHECK_OK;
        } else {
            double e_hat = (fabs(d1) + ad) * 0x1p-52 + (rc->cn * ab + rc->tail);
            if ((ad + e_hat) * (1.0 + 0x1p-50) <= v.bound) {
                v.reason = SPMM_CHECK_OK;
            } else if ((ad - e_hat) * (1.0 - 0x1p-50) > v.bound) {
                v.reason = SPMM_CHECK_OVER_BOUND;
            } else {
                B->slow_undecided++;
                chk_exact_entry(c, i, k, y, pois, &v);
            }
        }
    }
    chk_block_note(c, B, i, k, y, &v);
}

/* Four lanes as one value (GCC/clang vector extensions: AVX2 registers in
 * the FMA clone, SSE2 pairs in the portable body). Every operation is the
 * IEEE operation of the scalar code, lane by lane. */
typedef double v4d __attribute__((vector_size(32)));
typedef long long v4l __attribute__((vector_size(32)));

/* Macros rather than functions: a 32-byte vector passed by value would
 * change the calling convention between the two clones. */
#define V_LOAD(v, p) ((v) = (v4d){(p)[0], (p)[1], (p)[2], (p)[3]})
#define V_ABS(x) ((v4d)((v4l)(x) & (v4l){INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX}))
/* m ? a : b lane by lane (m all ones or all zeros per lane). */
#define V_SEL(m, a, b) ((v4d)(((v4l)(a) & (m)) | ((v4l)(b) & ~(m))))

/* Metrics of the entries that pass the common way, one slot per lane so
 * that their update is vector code; folded into the block at its end. */
typedef struct lane_metrics {
    v4d max_rel[CHK_W / 4], sum_rel[CHK_W / 4], max_over[CHK_W / 4];
    v4l nrel[CHK_W / 4];
} lane_metrics;

/* The common case in one branch-free sweep over W = 4 or 8 lanes: every
 * lane within its bound by the first test of fast_judge, nothing special.
 * Returns 0 (and changes nothing) when one lane needs more. */
CHK_INLINE int fast_all_pass(const chk_ctx *c, lane_metrics *L, const double *P, const double *s,
                             const double *ab, const double *y, const int *pois, const int W,
                             const row_consts *rc)
{
    v4d ad[CHK_W / 4], ref[CHK_W / 4], b[CHK_W / 4];
    v4l ok = ~(v4l){0, 0, 0, 0};
    if (c->exact || c->force_exact)
        return 0;
    for (int t = 0; t < W; t++)
        if (pois[t])
            return 0;
    for (int g = 0; g < W / 4; g++) {
        v4d vP, vs, vab, vy;
        V_LOAD(vP, P + 4 * g);
        V_LOAD(vs, s + 4 * g);
        V_LOAD(vab, ab + 4 * g);
        V_LOAD(vy, y + 4 * g);
        b[g] = rc->gamma * vab;
        v4d bound = 2.0 * b[g] + rc->allow;
        v4d d1 = vy - vP;
        v4d d = d1 - vs;
        ad[g] = V_ABS(d);
        v4d e_hat = (V_ABS(d1) + ad[g]) * 0x1p-52 + (rc->cn * vab + rc->tail);
        ok &= ((ad[g] + e_hat) * (1.0 + 0x1p-50) <= bound) & (vab <= CHK_FAST_AB_MAX);
        ref[g] = vP + vs;
    }
    if (!(ok[0] & ok[1] & ok[2] & ok[3]))
        return 0;
    const v4d zero = {0.0, 0.0, 0.0, 0.0};
    for (int g = 0; g < W / 4; g++) {
        v4d over = V_SEL(ad[g] == zero, zero, ad[g] / b[g]); /* 0/0 counts 0, x/0 is inf */
        L->max_over[g] = V_SEL(over > L->max_over[g], over, L->max_over[g]);
        v4l nz = ref[g] != zero;
        v4d rel = V_SEL(nz, ad[g] / V_ABS(ref[g]), zero);
        L->max_rel[g] = V_SEL(rel > L->max_rel[g], rel, L->max_rel[g]);
        L->sum_rel[g] += rel;
        L->nrel[g] -= nz;
    }
    return 1;
}

/* Row i, columns k0..k0+W. W is a constant after inlining, so that the
 * inner loop becomes W lanes of vector code. */
CHK_INLINE void fast_chunk(const chk_ctx *c, chk_block *B, lane_metrics *L, int64_t i, int k0,
                           const int W, const row_consts *rc)
{
    int64_t p0 = c->rowptr[i], p1 = c->rowptr[i + 1];
    double P[CHK_W], s[CHK_W], ab[CHK_W];
    for (int t = 0; t < W; t++) {
        P[t] = 0.0;
        s[t] = 0.0;
        ab[t] = 0.0;
    }
    for (int64_t p = p0; p < p1; p++) {
        double a = c->fp32 ? (double)(float)c->val[p] : c->val[p];
        const double *x = c->X + (int64_t)c->col[p] * c->ldx + k0;
#pragma omp simd
        for (int t = 0; t < W; t++) {
            double h = a * x[t];
            double rr = fma(a, x[t], -h);
            double Pn = P[t] + h;
            double hv = Pn - P[t];
            double Pv = Pn - hv;
            double q = (P[t] - Pv) + (h - hv);
            s[t] = s[t] + (q + rr);
            ab[t] = ab[t] + fabs(h);
            P[t] = Pn;
        }
    }
    double y[CHK_W];
    int pois[CHK_W];
    load_y(c, i, k0, W, y, pois);
    if (W >= 4 && fast_all_pass(c, L, P, s, ab, y, pois, W, rc))
        return;
    for (int t = 0; t < W; t++)
        fast_judge(c, B, i, k0 + t, P[t], s[t], ab[t], y[t], pois[t], rc);
}

CHK_INLINE void fast_block_body(const chk_ctx *c, chk_block *B)
{
    lane_metrics L;
    memset(&L, 0, sizeof L);
    for (int64_t i = B->row0; i < B->row1; i++) {
        int64_t p0 = c->rowptr[i], p1 = c->rowptr[i + 1];
        unsigned outside = 0; /* no early exit: the test stays vector code */
        for (int64_t p = p0; p < p1; p++)
            outside |= (uint32_t)c->col[p] >= (uint32_t)c->n;
        if (outside) {
            B->bad_col_row = i;
            return;
        }
        double n = (double)(p1 - p0);
        double nu = n * c->u;
        row_consts rc = {nu < 1.0 ? nu / (1.0 - nu) : INFINITY, n * c->eta2,
                         n * (n + 1.0) * 0x1p-104, (2.0 * n + 4.0) * 0x1p-1074};
        int k0 = 0;
        for (; k0 + CHK_W <= c->K; k0 += CHK_W)
            fast_chunk(c, B, &L, i, k0, CHK_W, &rc);
        if (c->K - k0 >= 4) {
            fast_chunk(c, B, &L, i, k0, 4, &rc);
            k0 += 4;
        }
        for (; k0 < c->K; k0++)
            fast_chunk(c, B, &L, i, k0, 1, &rc);
    }
    for (int g = 0; g < CHK_W / 4; g++)
        for (int t = 0; t < 4; t++) {
            B->max_over = L.max_over[g][t] > B->max_over ? L.max_over[g][t] : B->max_over;
            B->max_rel = L.max_rel[g][t] > B->max_rel ? L.max_rel[g][t] : B->max_rel;
            B->sum_rel += L.sum_rel[g][t];
            B->nrel += L.nrel[g][t];
        }
}

static int g_allow_fma = 1, g_force_exact = 0;

void chk_test_hooks(int allow_fma, int force_exact)
{
    g_allow_fma = allow_fma != 0;
    g_force_exact = force_exact != 0;
}

int chk_fast_force_exact(void)
{
    return g_force_exact;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The same body compiled for AVX2 with FMA: fma() becomes one instruction
 * instead of a libm call (the default x86-64-v2 target has no FMA). */
__attribute__((target("avx2,fma"))) static void fast_block_fma(const chk_ctx *c, chk_block *B)
{
    fast_block_body(c, B);
}

int chk_fast_has_fma(void)
{
    return g_allow_fma && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#else
static void fast_block_fma(const chk_ctx *c, chk_block *B)
{
    fast_block_body(c, B);
}

int chk_fast_has_fma(void)
{
    return 0;
}
#endif

/* The portable body: correct everywhere, fma() from libm. */
static void fast_block_generic(const chk_ctx *c, chk_block *B)
{
    fast_block_body(c, B);
}

void chk_fast_block(const chk_ctx *c, chk_block *B)
{
    if (c->use_fma)
        fast_block_fma(c, B);
    else
        fast_block_generic(c, B);
}
