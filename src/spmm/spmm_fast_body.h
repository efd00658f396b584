/* spmm_fast_body.h - the row kernel of csr-cpu-fast, included once per
 * instruction set by spmm_fast_kernels.c with:
 *   FAST_FN(name)   the instance's name
 *   FAST_TARGET     its target attribute (empty for the portable one)
 *   FAST_MADD(c,a,b) c + a*b on fast_v4 (fused where the target has FMA)
 *   FAST_MAXNV      most fast_v4 accumulators kept in registers
 * For K > 1 every y(i,k) sums row i's products in stored order, starting
 * from 0 (the first column block) or from the y(i,k) an earlier block left;
 * at K = 1 a row's products go to two interleaved sums, added to it. */

/* Rows r0 .. r1-1 of block b, all K columns, FAST_MAXNV*4 at a time. */
static FAST_TARGET void FAST_FN(fast_rows)(const spmm_fast_block *b, const double *X, int K,
                                           double *Y, int32_t r0, int32_t r1, int first, int pf)
{
    const int32_t *irp = b->irp, *ja = b->ja;
    const double *as = b->as;
    /* the last entry a prefetch may name (the arrays are not padded) */
    const int32_t plast = b->nnz > 0 ? b->nnz - 1 : 0;
    const fast_v4 zero = {0, 0, 0, 0};
    for (int32_t i = r0; i < r1; i++) {
        const int32_t p0 = irp[i], p1 = irp[i + 1];
        double *y = Y + (size_t)i * K;
        int k0 = 0;
#define FAST_ROW_VEC(NV)                                                                   \
        do {                                                                               \
            fast_v4 acc[NV];                                                               \
            for (int j = 0; j < (NV); j++)                                                 \
                acc[j] = first ? zero : fast_load(y + k0 + 4 * j);                         \
            for (int32_t p = p0; p < p1; p++) {                                            \
                if (pf) {                                                                  \
                    int32_t q = p + FAST_PF_DIST < plast ? p + FAST_PF_DIST : plast;       \
                    const char *xq = (const char *)(X + (size_t)ja[q] * K + k0);          \
                    for (int l = 0; l < (NV) * 32; l += 64)                                \
                        __builtin_prefetch(xq + l, 0, 3);                                  \
                }                                                                          \
                const double *x = X + (size_t)ja[p] * K + k0;                              \
                const fast_v4 a = zero + as[p];                                            \
                for (int j = 0; j < (NV); j++)                                             \
                    acc[j] = FAST_MADD(acc[j], a, fast_load(x + 4 * j));                   \
            }                                                                              \
            for (int j = 0; j < (NV); j++)                                                 \
                fast_store(y + k0 + 4 * j, acc[j]);                                        \
            k0 += 4 * (NV);                                                                \
        } while (0)
        while (K - k0 >= 4 * FAST_MAXNV)
            FAST_ROW_VEC(FAST_MAXNV);
#if FAST_MAXNV > 4
        if (K - k0 >= 16)
            FAST_ROW_VEC(4);
#endif
        if (K - k0 >= 8)
            FAST_ROW_VEC(2);
        if (K - k0 >= 4)
            FAST_ROW_VEC(1);
#undef FAST_ROW_VEC
        if (K == 1) {
            /* One column: two interleaved partial sums halve the chain of
             * dependent additions that bounds a row (the oracle's bound
             * holds for any order; integer sums stay exact). */
            double a0 = 0.0, a1 = 0.0;
            int32_t p = p0;
            if (pf)
                for (; p + 1 < p1; p += 2) {
                    int32_t q = p + FAST_PF_DIST < plast ? p + FAST_PF_DIST : plast;
                    __builtin_prefetch(X + ja[q], 0, 3);
                    __builtin_prefetch(X + ja[q + (q < plast)], 0, 3);
                    a0 += as[p] * X[ja[p]];
                    a1 += as[p + 1] * X[ja[p + 1]];
                }
            else
                for (; p + 1 < p1; p += 2) {
                    a0 += as[p] * X[ja[p]];
                    a1 += as[p + 1] * X[ja[p + 1]];
                }
            if (p < p1)
                a0 += as[p] * X[ja[p]];
            y[0] = first ? a0 + a1 : y[0] + (a0 + a1);
            continue;
        }
        /* 1 to 3 columns left: scalar, with the prefetch for scattered
         * columns (the X line, not its neighbours) */
        for (; k0 < K; k0++) {
            double acc = first ? 0.0 : y[k0];
            for (int32_t p = p0; p < p1; p++) {
                if (pf) {
                    int32_t q = p + FAST_PF_DIST < plast ? p + FAST_PF_DIST : plast;
                    __builtin_prefetch(X + (size_t)ja[q] * K + k0, 0, 3);
                }
                acc += as[p] * X[(size_t)ja[p] * K + k0];
            }
            y[k0] = acc;
        }
    }
}
