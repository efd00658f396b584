/* sa_sais_level.h - the passes of one SA-IS level, written once for both
 * kinds of text: included by sa_sais.c with SAIS_CH the symbol type
 * (uint8_t for the input, int32_t for a reduced string) and SAIS_FN(x)
 * giving each function a name of its own per type.
 *
 * Types are never stored. A virtual sentinel below every symbol ends the
 * text, so suffix n-1 is L-type; suffix j is S-type when T[j] < T[j+1], or
 * T[j] == T[j+1] and j+1 is S-type. An entry of SA is the suffix s
 * ("plain") or ~s ("flagged", negative) when suffix s-1 is S-type: the
 * L pass induces from plain entries only and the S pass from flagged ones,
 * which is the type test each pass needs, read from the entry it already
 * holds instead of from a bit vector at a random place. A flag is set when
 * an entry is written, from the two symbols before it, which sit in the
 * cache line just loaded for the bucket. */

/* Prefetch distance of the passes, in entries: the text symbol of the
 * entry 2 PF ahead is touched so that it is cached when its turn comes;
 * with a large alphabet (SAIS_BIG_K, the reduced strings) the bucket
 * pointer of the entry PF ahead too, its symbol being cached by then. */
#ifndef SAIS_PF
#define SAIS_PF 32
#endif

/* C[0..K) = number of occurrences of each symbol of T[0..n). With threads
 * and a small alphabet, each thread counts a block into its own histogram
 * (H, threads x K) and the histograms are summed. */
static void SAIS_FN(count)(const SAIS_CH *T, int32_t n, int32_t *C, int32_t K, int32_t *H,
                           int threads)
{
    (void)threads; /* read only by OpenMP pragmas: unused without OpenMP */
    memset(C, 0, sizeof *C * (size_t)K);
    if (!H) {
        for (int32_t i = 0; i < n; i++)
            C[T[i]]++;
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        int32_t *h = H + (size_t)t * (size_t)K;
        memset(h, 0, sizeof *h * (size_t)K);
        int64_t lo = (int64_t)n * t / nt, hi = (int64_t)n * (t + 1) / nt;
        for (int64_t i = lo; i < hi; i++)
            h[T[i]]++;
#pragma omp barrier
#pragma omp for schedule(static)
        for (int32_t c = 0; c < K; c++)
            for (int u = 0; u < nt; u++)
                C[c] += H[(size_t)u * (size_t)K + (size_t)c];
    }
}

/* Calls back for every LMS position p of T[0..n), right to left (so the
 * first call is the last LMS position). Types are derived in one scan. */
#define SAIS_FOR_LMS_R2L(T, n, p, BODY)                                                  \
    do {                                                                               \
        int s_next_ = 0; /* type of i+1: 1 = S; n-1 is L */                            \
        for (int32_t i_ = (n) - 2; i_ >= 0; i_--) {                                    \
            int s_ = (T)[i_] < (T)[i_ + 1] || ((T)[i_] == (T)[i_ + 1] && s_next_);     \
            if (!s_ && s_next_) {                                                      \
                int32_t p = i_ + 1;                                                    \
                BODY;                                                                  \
            }                                                                          \
            s_next_ = s_;                                                              \
        }                                                                              \
    } while (0)

/* Puts every LMS suffix at the end of its bucket (B = bucket ends, moved
 * down); SA must be zeroed. Returns the number of LMS suffixes. */
static int32_t SAIS_FN(place_lms)(const SAIS_CH *T, int32_t n, int32_t *SA, int32_t *B)
{
    int32_t m = 0;
    SAIS_FOR_LMS_R2L(T, n, p, { SA[--B[T[p]]] = p; m++; });
    return m;
}

/* Gather of the L pass over SA[lo..hi): for each plain entry s > 0, the
 * bucket of s-1 and the entry that will go there (flagged when s-2 is
 * S-type); c = -1 for an entry that induces nothing as read now. This is
 * where the random text accesses of the pass are, so it runs on helper
 * threads while the scatter of the previous block goes on. */
static void SAIS_FN(gather_l)(const SAIS_CH *T, const int32_t *SA, int32_t lo, int32_t hi,
                              sais_slot *out)
{
    for (int32_t i = lo; i < hi; i++) {
        int32_t f = i < hi - SAIS_PF ? sais_load(&SA[i + SAIS_PF]) : 0;
        if (f > 0)
            __builtin_prefetch(&T[f - 1]);
        int32_t s = sais_load(&SA[i]);
        sais_slot *o = &out[i - lo];
        o->c = -1;
        if (s > 0) {
            int32_t j = s - 1;
            SAIS_CH c = T[j];
            o->c = (int32_t)c;
            o->v = j > 0 && T[j - 1] < c ? ~j : j;
        }
    }
}

/* Scatter of the L pass over SA[lo..hi) in order: each plain entry s > 0
 * puts s-1 at the head of its bucket (B = heads, moved up), taking the
 * gathered slot (in, or NULL when the block was not gathered in time)
 * when it was gathered from this same entry, else reading the text itself
 * (the entry was written after its gather) with the text of the entries
 * ahead prefetched. */
static void SAIS_FN(scatter_l)(const SAIS_CH *T, int32_t *SA, int32_t lo, int32_t hi,
                               const sais_slot *in, int32_t *B)
{
    for (int32_t i = lo; i < hi; i++) {
        if (!in) {
            int32_t f = i < hi - 2 * SAIS_PF ? sais_load(&SA[i + 2 * SAIS_PF]) : 0;
            if (f > 0)
                __builtin_prefetch(&T[f - 1]);
            int32_t g = SAIS_BIG_K && i < hi - SAIS_PF ? sais_load(&SA[i + SAIS_PF]) : 0;
            if (g > 0)
                __builtin_prefetch(&B[T[g - 1]], 1);
        } else if (SAIS_BIG_K && i < hi - SAIS_PF && in[i + SAIS_PF - lo].c >= 0) {
            __builtin_prefetch(&B[in[i + SAIS_PF - lo].c], 1);
        }
        int32_t s = sais_load(&SA[i]);
        if (s <= 0)
            continue;
        const sais_slot *g = in ? &in[i - lo] : NULL;
        int32_t j = s - 1, c, v;
        if (g && g->c >= 0 && sais_unflag(g->v) == j) {
            c = g->c;
            v = g->v;
        } else {
            c = (int32_t)T[j];
            v = j > 0 && T[j - 1] < T[j] ? ~j : j;
        }
        sais_store(&SA[B[c]++], v);
    }
}

/* Gather of the S pass over SA[lo..hi): as gather_l, for the flagged
 * entries ~s (s-1 is S-type; flagged again when s-2 is S-type too). */
static void SAIS_FN(gather_s)(const SAIS_CH *T, const int32_t *SA, int32_t lo, int32_t hi,
                              sais_slot *out)
{
    for (int32_t i = hi - 1; i >= lo; i--) {
        int32_t f = i >= lo + SAIS_PF ? sais_load(&SA[i - SAIS_PF]) : 0;
        if (f < 0)
            __builtin_prefetch(&T[~f - 1]);
        int32_t s = sais_load(&SA[i]);
        sais_slot *o = &out[i - lo];
        o->c = -1;
        if (s < 0) {
            int32_t j = ~s - 1;
            SAIS_CH c = T[j];
            o->c = (int32_t)c;
            o->v = j > 0 && T[j - 1] <= c ? ~j : j;
        }
    }
}

/* Scatter of the S pass over SA[lo..hi), right to left: each flagged entry
 * ~s puts s-1 at the tail of its bucket (B = tails, moved down); with
 * unflag the entry is stored back as s. */
static void SAIS_FN(scatter_s)(const SAIS_CH *T, int32_t *SA, int32_t lo, int32_t hi,
                               const sais_slot *in, int32_t *B, int unflag)
{
    for (int32_t i = hi - 1; i >= lo; i--) {
        if (!in) {
            int32_t f = i >= lo + 2 * SAIS_PF ? sais_load(&SA[i - 2 * SAIS_PF]) : 0;
            if (f < 0)
                __builtin_prefetch(&T[~f - 1]);
            int32_t g = SAIS_BIG_K && i >= lo + SAIS_PF ? sais_load(&SA[i - SAIS_PF]) : 0;
            if (g < 0)
                __builtin_prefetch(&B[T[~g - 1]], 1);
        } else if (SAIS_BIG_K && i >= lo + SAIS_PF && in[i - SAIS_PF - lo].c >= 0) {
            __builtin_prefetch(&B[in[i - SAIS_PF - lo].c], 1);
        }
        int32_t s = sais_load(&SA[i]);
        if (s >= 0)
            continue;
        s = ~s;
        if (unflag)
            sais_store(&SA[i], s);
        const sais_slot *g = in ? &in[i - lo] : NULL;
        int32_t j = s - 1, c, v;
        if (g && g->c >= 0 && sais_unflag(g->v) == j) {
            c = g->c;
            v = g->v;
        } else {
            c = (int32_t)T[j];
            v = j > 0 && T[j - 1] <= T[j] ? ~j : j;
        }
        sais_store(&SA[--B[c]], v);
    }
}

/* One induce pass over SA in blocks of x->block entries, in the order of
 * the pass (left to right for L, right to left for S). Thread 0 scatters
 * every block, in order, and never waits: a block that the other threads
 * have gathered (its ring slot tagged with its number) is scattered from
 * the slots, any other directly from the text. The other threads claim
 * blocks ahead of the scatter and gather them into the ring, waiting (and
 * yielding the core) only while the ring is full. Entries written into a
 * block after its gather are detected by the scatter (the slot does not
 * match) and read again, so the result does not depend on the timing,
 * and one thread runs the same scatter with no slots. L pass: the
 * sentinel's turn comes first and puts n-1 at the head of its bucket;
 * heads always lie right of the scan, tails left of it, so every entry is
 * final when the scatter reads it. */
static void SAIS_FN(induce)(const SAIS_CH *T, int32_t *SA, int32_t n, int32_t *B,
                            sais_ctx *x, int spass, int unflag)
{
    if (!spass) {
        int32_t j = n - 1;
        SA[B[T[j]]++] = j > 0 && T[j - 1] < T[j] ? ~j : j;
    }
    int32_t nb = (int32_t)(((int64_t)n + x->block - 1) / x->block);
    int nt = x->ring > 0 && n >= g_sais_par_induce_min ? x->threads : 1;
    (void)nt; /* read only by OpenMP pragmas: unused without OpenMP */
    int32_t done = 0, next = 0; /* blocks scattered; next block to claim */
    for (int r = 0; r < x->ring; r++)
        x->tag[r] = -1;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        if (omp_get_thread_num() == 0) {
            for (int32_t k = 0; k < nb; k++) {
                int32_t lo, hi, r = x->ring ? k % x->ring : 0;
                sais_block_range(n, x->block, k, spass, &lo, &hi);
                const sais_slot *in = NULL;
                if (x->ring && __atomic_load_n(&x->tag[r], __ATOMIC_ACQUIRE) == k)
                    in = x->buf + (size_t)r * (size_t)x->block;
                if (spass)
                    SAIS_FN(scatter_s)(T, SA, lo, hi, in, B, unflag);
                else
                    SAIS_FN(scatter_l)(T, SA, lo, hi, in, B);
                __atomic_store_n(&done, k + 1, __ATOMIC_RELEASE);
            }
        } else {
            for (;;) {
                int32_t k = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED), d;
                if (k >= nb)
                    break;
                /* a block the scatter is about to reach would be gathered
                 * for nothing: jump to the middle of the ring ahead of it
                 * (a gather costs about what a direct scatter does, so a
                 * helper right behind the scatter is always overtaken) */
                d = __atomic_load_n(&done, __ATOMIC_ACQUIRE);
                if (k <= d + 1) {
                    int32_t want = d + x->ring / 2, cur = k + 1;
                    while (cur < want && !__atomic_compare_exchange_n(&next, &cur, want, 0,
                                                                      __ATOMIC_RELAXED,
                                                                      __ATOMIC_RELAXED))
                        ;
                    continue;
                }
                /* block k's slot last held block k - ring: wait until that
                 * one is scattered */
                while ((d = __atomic_load_n(&done, __ATOMIC_ACQUIRE)) + x->ring <= k)
                    sched_yield();
                if (k <= d)
                    continue;
                int32_t lo, hi, r = k % x->ring;
                sais_block_range(n, x->block, k, spass, &lo, &hi);
                sais_slot *out = x->buf + (size_t)r * (size_t)x->block;
                if (spass)
                    SAIS_FN(gather_s)(T, SA, lo, hi, out);
                else
                    SAIS_FN(gather_l)(T, SA, lo, hi, out);
                __atomic_store_n(&x->tag[r], k, __ATOMIC_RELEASE);
            }
        }
    }
}

/* After the first S pass (flags kept, B = the S regions' starts): moves the
 * LMS suffixes, now sorted by their LMS substrings, to SA[0..m), in order.
 * C holds the bucket sizes. Returns m. */
static int32_t SAIS_FN(collect_lms)(int32_t *SA, const int32_t *C, const int32_t *B, int32_t K)
{
    int32_t m = 0, end = 0;
    for (int32_t c = 0; c < K; c++) {
        end += C[c];
        for (int32_t i = B[c]; i < end; i++)
            if (SA[i] > 0)
                SA[m++] = SA[i];
    }
    return m;
}

/* Names the m sorted LMS substrings (SA[0..m)): equal substrings get equal
 * names, in sorted order, and the reduced string (names in text order) is
 * written to SA[n-m..n). SA[m..n) is the work space: the slot of LMS
 * position p is SA[m + p/2] (LMS positions are at least 2 apart). Returns
 * the number of distinct names. */
static int32_t SAIS_FN(name_lms)(const SAIS_CH *T, int32_t n, int32_t *SA, int32_t m)
{
    int32_t *W = SA + m;
    memset(W, 0, sizeof *W * (size_t)(n - m));
    /* lengths up to and including the next LMS symbol; the last LMS
     * substring runs into the sentinel (one past n), so it equals no other */
    int32_t next = n;
    SAIS_FOR_LMS_R2L(T, n, p, { W[p / 2] = next - p + 1; next = p; });
    int32_t names = 0, prev = -1, prev_len = 0;
    for (int32_t i = 0; i < m; i++) {
        if (i < m - SAIS_PF) {
            int32_t q = SA[i + SAIS_PF];
            __builtin_prefetch(&W[q / 2], 1);
            __builtin_prefetch(&T[q]);
        }
        int32_t p = SA[i], len = W[p / 2];
        int same = len == prev_len && (int64_t)p + len <= n && (int64_t)prev + len <= n;
        for (int32_t k = 0; same && k < len; k++)
            same = T[p + k] == T[prev + k];
        if (!same) {
            names++;
            prev = p;
            prev_len = len;
        }
        W[p / 2] = names; /* 1-based: 0 marks a slot without an LMS position */
    }
    int32_t j = n;
    for (int32_t i = n - 1; i >= m; i--)
        if (SA[i] != 0)
            SA[--j] = SA[i] - 1;
    return names;
}

/* SA[0..m) holds ranks into the list of LMS positions (text order): turns
 * them into positions, using SA[n-m..n) for the list. */
static void SAIS_FN(lms_positions)(const SAIS_CH *T, int32_t n, int32_t *SA, int32_t m)
{
    int32_t *L = SA + n - m, j = m;
    SAIS_FOR_LMS_R2L(T, n, p, { L[--j] = p; });
    for (int32_t i = 0; i < m; i++) {
        if (i < m - SAIS_PF)
            __builtin_prefetch(&L[SA[i + SAIS_PF]]);
        SA[i] = L[SA[i]];
    }
}

/* Places the sorted LMS suffixes SA[0..m) at the ends of their buckets, in
 * order (B = bucket ends, moved down), zeroing every other entry. The i-th
 * goes to a slot >= i, so going from the last down overwrites nothing
 * still to be read. */
static void SAIS_FN(place_sorted_lms)(const SAIS_CH *T, int32_t n, int32_t *SA, int32_t m,
                                      int32_t *B)
{
    memset(SA + m, 0, sizeof *SA * (size_t)(n - m));
    for (int32_t i = m - 1; i >= 0; i--) {
        if (i >= SAIS_PF)
            __builtin_prefetch(&T[SA[i - SAIS_PF]]);
        int32_t p = SA[i];
        SA[i] = 0;
        SA[--B[T[p]]] = p;
    }
}

/* Sorts the suffixes of T[0..n) (symbols in [0, K)) into SA[0..n): one
 * SA-IS level, recursing on the reduced string of the LMS substrings when
 * their names are not all distinct. The reduced string lives in the upper
 * half of SA and its suffix array in the lower half, so the recursion
 * takes no memory but its bucket arrays (freed across the recursion when
 * the alphabet is large). Returns PC_OK or PC_ENOMEM. */
static int SAIS_FN(level)(const SAIS_CH *T, int32_t *SA, int32_t n, int32_t K,
                          sais_ctx *x, pc_error *err)
{
    if (n <= 1) {
        if (n == 1)
            SA[0] = 0;
        return PC_OK;
    }
    int32_t *C = NULL, *B, *H = NULL;
    int rc = sais_buckets_alloc(n, K, x->threads, &C, &H, err);
    if (rc != PC_OK)
        return rc;
    B = C + K;
    SAIS_FN(count)(T, n, C, K, H, x->threads);
    sais_bucket_ends(C, B, K);
    memset(SA, 0, sizeof *SA * (size_t)n);
    int32_t m = SAIS_FN(place_lms)(T, n, SA, B);
    if (m > 1) {
        sais_bucket_starts(C, B, K);
        SAIS_FN(induce)(T, SA, n, B, x, 0, 0);
        sais_bucket_ends(C, B, K);
        SAIS_FN(induce)(T, SA, n, B, x, 1, 0);
        m = SAIS_FN(collect_lms)(SA, C, B, K);
        int32_t names = SAIS_FN(name_lms)(T, n, SA, m);
        if (names < m) {
            int keep = sais_keep_buckets(K);
            if (!keep) {
                pc_free(C);
                pc_free(H);
                C = H = NULL;
            }
            rc = sais_reduced(SA + n - m, SA, m, names, x, err);
            if (rc == PC_OK && !keep) {
                rc = sais_buckets_alloc(n, K, x->threads, &C, &H, err);
                if (rc == PC_OK)
                    SAIS_FN(count)(T, n, C, K, H, x->threads);
            }
            if (rc != PC_OK) {
                pc_free(C);
                pc_free(H);
                return rc;
            }
            B = C + K;
        } else {
            const int32_t *r = SA + n - m;
            for (int32_t i = 0; i < m; i++)
                SA[r[i]] = i;
        }
    } else {
        SA[0] = 0; /* at most one LMS suffix: its rank is 0 */
    }
    if (m > 0)
        SAIS_FN(lms_positions)(T, n, SA, m);
    sais_bucket_ends(C, B, K);
    SAIS_FN(place_sorted_lms)(T, n, SA, m, B);
    sais_bucket_starts(C, B, K);
    SAIS_FN(induce)(T, SA, n, B, x, 0, 0);
    sais_bucket_ends(C, B, K);
    SAIS_FN(induce)(T, SA, n, B, x, 1, 1);
    pc_free(C);
    pc_free(H);
    return PC_OK;
}
