/* sa_sais_level.h - the passes of one SA-IS level, written once for every
 * kind of text: included by sa_sais.c with SAIS_CH the symbol type
 * (uint8_t for the input, uint16_t or int32_t for a reduced string) and
 * SAIS_FN(x) giving each function a name of its own per type.
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
 * (H, one per thread, sais_hist_stride(K) entries apart) and the
 * histograms are summed; with threads and no histograms (a large
 * alphabet: few threads meet on one counter), the threads add to C
 * atomically. */
static void SAIS_FN(count)(const SAIS_CH *T, int32_t n, int32_t *C, int32_t K, int32_t *H,
                           int threads)
{
    memset(C, 0, sizeof *C * (size_t)K);
    if (!H && threads > 1) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int32_t i = 0; i < n; i++)
            __atomic_add_fetch(&C[T[i]], 1, __ATOMIC_RELAXED);
        return;
    }
    if (!H) {
        for (int32_t i = 0; i < n; i++)
            C[T[i]]++;
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        int32_t *h = H + (size_t)t * sais_hist_stride(K);
        memset(h, 0, sizeof *h * (size_t)K);
        int64_t lo = (int64_t)n * t / nt, hi = (int64_t)n * (t + 1) / nt;
        for (int64_t i = lo; i < hi; i++)
            h[T[i]]++;
#pragma omp barrier
#pragma omp for schedule(static)
        for (int32_t c = 0; c < K; c++)
            for (int u = 0; u < nt; u++)
                C[c] += H[(size_t)u * sais_hist_stride(K) + (size_t)c];
    }
}

/* Runs BODY for i from `from` down to `to`, with p = i + 1 and lms = 1
 * when p is an LMS position (else 0); sn is the type of from + 1 (1 = S;
 * suffix n-1 is L). Types are derived in the same scan without a branch:
 * suffix i is S exactly when T[i] < T[i+1] + (i+1 is S), a tie being S
 * when i+1 is. The bodies use lms without branching too: on text the LMS
 * positions follow no pattern a branch predictor could learn, and the
 * branching scans spent most of their time in mispredictions. */
#define SAIS_SCAN_R2L(T, from, to, sn, p, lms, BODY)                                    \
    do {                                                                               \
        int sn_ = (sn);                                                                \
        for (int32_t i_ = (from); i_ >= (to); i_--) {                                  \
            int s_ = (int64_t)(T)[i_] < (int64_t)(T)[i_ + 1] + sn_;                    \
            int lms = sn_ > s_;                                                        \
            int32_t p = i_ + 1;                                                        \
            BODY;                                                                      \
            sn_ = s_;                                                                  \
        }                                                                              \
    } while (0)

/* Type of suffix i of T[0..n): 1 = S, 0 = L (the last suffix is L). */
static int SAIS_FN(type_at)(const SAIS_CH *T, int32_t n, int32_t i)
{
    int32_t j = i;
    while (j + 1 < n && T[j] == T[j + 1])
        j++;
    return j + 1 < n && T[j] < T[j + 1];
}

/* Puts every LMS suffix at the end of its bucket (B = bucket ends, moved
 * down); SA must be zeroed. Returns the number of LMS suffixes. A position
 * that is not LMS writes to a scratch entry instead (no branch). */
static int32_t SAIS_FN(place_lms)(const SAIS_CH *T, int32_t n, int32_t *SA, int32_t *B)
{
    int32_t m = 0, scratch = 0;
    SAIS_SCAN_R2L(T, n - 2, 0, 0, p, lms, {
        sais_put_lms(SA, &B[T[p]], p, lms, &scratch);
        m += lms;
    });
    return m;
}

/* place_lms on the threads (H: one histogram per thread, as count's, free
 * scratch after count): the positions cut into one block per thread; a block's first
 * type is found from its first pair of unequal symbols (or, when the block
 * is one run, from the next block's, resolved right to left by one
 * thread); each thread counts its block's LMS suffixes per bucket, the
 * buckets' slots are handed out rightmost block first, and each thread
 * places its block. The entries land where place_lms puts them: it goes
 * right to left as well. Without histograms (a large alphabet) the threads
 * take their slots from B atomically: the order of a bucket's LMS
 * suffixes then depends on the threads, which SA-IS allows (the induced
 * sort orders distinct LMS substrings whatever it starts from, and equal
 * ones get one name), so the names, the reduced string and SA do not.
 * Returns m. */
static int32_t SAIS_FN(place_lms_par)(const SAIS_CH *T, int32_t n, int32_t *SA, int32_t *B,
                                      int32_t K, int32_t *H, int threads)
{
    int typ[SAIS_MAX_PARTS + 1]; /* typ[t] = type of block t's first position */
    int32_t m = 0;
    if (threads > SAIS_MAX_PARTS)
        threads = SAIS_MAX_PARTS;
#pragma omp parallel num_threads(threads) reduction(+ : m)
    {
        int t = omp_get_thread_num(), nth = omp_get_num_threads();
        /* block t: the scan's i in [lo, hi), positions p = i + 1 */
        int32_t lo, hi;
        sais_part_of(0, n - 1, t, nth, &lo, &hi);
        if (t > 0) {
            int32_t j = lo;
            while (j < hi && T[j] == T[j + 1])
                j++;
            typ[t] = j < hi ? T[j] < T[j + 1] : -1; /* -1: the type at hi */
        }
#pragma omp barrier
#pragma omp single
        {
            typ[nth] = 0; /* suffix n-1 is L */
            for (int u = nth - 1; u > 0; u--)
                if (typ[u] < 0)
                    typ[u] = typ[u + 1];
        }
        if (!H) {
            SAIS_SCAN_R2L(T, hi - 1, lo, typ[t + 1], p, lms, {
                if (lms)
                    SA[__atomic_sub_fetch(&B[T[p]], 1, __ATOMIC_RELAXED)] = p;
                m += lms;
            });
        } else {
            int32_t *h = H + (size_t)t * sais_hist_stride(K);
            memset(h, 0, sizeof *h * (size_t)K);
            SAIS_SCAN_R2L(T, hi - 1, lo, typ[t + 1], p, lms, { h[T[p]] += lms; });
#pragma omp barrier
#pragma omp for schedule(static)
            for (int32_t c = 0; c < K; c++) {
                int32_t e = B[c];
                for (int u = nth - 1; u >= 0; u--) {
                    int32_t k = H[(size_t)u * sais_hist_stride(K) + (size_t)c];
                    H[(size_t)u * sais_hist_stride(K) + (size_t)c] = e;
                    e -= k;
                }
                B[c] = e;
            }
            int32_t scratch = 0;
            SAIS_SCAN_R2L(T, hi - 1, lo, typ[t + 1], p, lms, {
                sais_put_lms(SA, &h[T[p]], p, lms, &scratch);
                m += lms;
            });
        }
    }
    return m;
}

/* Gather of the L pass over SA[lo..hi), entries all final: for each plain
 * entry s > 0, the bucket of s-1 and the entry that will go there (flagged
 * when s-2 is S-type); c = -1 for an entry that induces nothing. This is
 * where the random text reads of a shared block are, done by every thread
 * on its part of the block. With h (the thread's histogram, K entries,
 * zeroed by the caller) it also counts the entries of each bucket. */
static void SAIS_FN(gather_l)(const SAIS_CH *T, const int32_t *SA, int32_t lo, int32_t hi,
                              sais_slot *out, int32_t *h)
{
    for (int32_t i = lo; i < hi; i++) {
        int32_t f = i < hi - SAIS_PF ? SA[i + SAIS_PF] : 0;
        if (f > 0)
            __builtin_prefetch(&T[f - 1]);
        int32_t s = SA[i];
        sais_slot *o = &out[i - lo];
        o->c = -1;
        if (s > 0) {
            int32_t j = s - 1;
            SAIS_CH c = T[j];
            o->c = (int32_t)c;
            o->v = j > 0 && T[j - 1] < c ? ~j : j;
            if (h)
                h[c]++;
        }
    }
}

/* Scatter of the L pass over SA[lo..hi) in order: each plain entry s > 0
 * puts s-1 at the head of its bucket (B = heads, moved up), with the text
 * of the entries ahead prefetched (and, with a large alphabet, their
 * bucket heads) up to SA[lim) (lim >= hi): a short run between shared ones
 * prefetches for the runs after it, which a pass of short runs needs. */
static void SAIS_FN(scatter_l)(const SAIS_CH *T, int32_t *SA, int32_t lo, int32_t hi, int32_t lim,
                               int32_t *B)
{
    for (int32_t i = lo; i < hi; i++) {
        int32_t f = i < lim - 2 * SAIS_PF ? SA[i + 2 * SAIS_PF] : 0;
        if (f > 0)
            __builtin_prefetch(&T[f - 1]);
        int32_t g = SAIS_BIG_K && i < lim - SAIS_PF ? SA[i + SAIS_PF] : 0;
        if (g > 0)
            __builtin_prefetch(&B[T[g - 1]], 1);
        int32_t s = SA[i];
        if (s <= 0)
            continue;
        int32_t j = s - 1, c = (int32_t)T[j];
        SA[B[c]++] = j > 0 && T[j - 1] < T[j] ? ~j : j;
    }
}

/* Gather of the S pass over SA[lo..hi): as gather_l, for the flagged
 * entries ~s (s-1 is S-type; flagged again when s-2 is S-type too). */
static void SAIS_FN(gather_s)(const SAIS_CH *T, const int32_t *SA, int32_t lo, int32_t hi,
                              sais_slot *out, int32_t *h)
{
    for (int32_t i = hi - 1; i >= lo; i--) {
        int32_t f = i >= lo + SAIS_PF ? SA[i - SAIS_PF] : 0;
        if (f < 0)
            __builtin_prefetch(&T[~f - 1]);
        int32_t s = SA[i];
        sais_slot *o = &out[i - lo];
        o->c = -1;
        if (s < 0) {
            int32_t j = ~s - 1;
            SAIS_CH c = T[j];
            o->c = (int32_t)c;
            o->v = j > 0 && T[j - 1] <= c ? ~j : j;
            if (h)
                h[c]++;
        }
    }
}

/* Scatter of the S pass over SA[lo..hi), right to left: each flagged entry
 * ~s puts s-1 at the tail of its bucket (B = tails, moved down); with
 * unflag the entry is stored back as s. Prefetches down to SA[lim] (lim <=
 * lo), as scatter_l. */
static void SAIS_FN(scatter_s)(const SAIS_CH *T, int32_t *SA, int32_t lo, int32_t hi, int32_t lim,
                               int32_t *B, int unflag)
{
    for (int32_t i = hi - 1; i >= lo; i--) {
        int32_t f = i >= lim + 2 * SAIS_PF ? SA[i - 2 * SAIS_PF] : 0;
        if (f < 0)
            __builtin_prefetch(&T[~f - 1]);
        int32_t g = SAIS_BIG_K && i >= lim + SAIS_PF ? SA[i - SAIS_PF] : 0;
        if (g < 0)
            __builtin_prefetch(&B[T[~g - 1]], 1);
        int32_t s = SA[i];
        if (s >= 0)
            continue;
        s = ~s;
        if (unflag)
            SA[i] = s;
        int32_t j = s - 1, c = (int32_t)T[j];
        SA[--B[c]] = j > 0 && T[j - 1] <= T[j] ? ~j : j;
    }
}

/* Serial part of a pass, on thread 0 (pass order: left to right for L,
 * right to left for S; *pos = the next entry for L, one past it for S):
 * scatters directly the runs of filled entries too short to share (with
 * one thread, everything left), skips empty entries, and returns in
 * [*lo, *hi) the next stretch to share, or an empty range when the pass is
 * over: a run of filled entries (at most share of them) when it has at
 * least hist_min entries (its slots then come from per-thread histograms)
 * and g_sais_share_min per thread; else, with fwd, the next fwd_len
 * entries whatever they hold (*is_fwd = 1: a block whose own inductions
 * are forwarded, see induce), from g_sais_share_min entries per thread.
 * With win, once the next max(g_sais_share_min * nt, hist_min) entries
 * are all filled (a run long enough to share, whatever its end), it
 * returns instead the next share entries whatever they hold (*is_win = 1,
 * *pos left at the run's start): the threads look for the run's end in
 * them together (see induce). */
static void SAIS_FN(induce_serial)(const SAIS_CH *T, int32_t *SA, int32_t n, int32_t *B,
                                   int spass, int unflag, int nt, int32_t share,
                                   int32_t hist_min, int fwd, int32_t fwd_len, int win,
                                   int32_t *pos, int32_t *lo, int32_t *hi, int *is_fwd,
                                   int *is_win)
{
    int32_t p = *pos, least = g_sais_share_min * nt;
    int32_t sure = least > hist_min ? least : hist_min; /* a run this long is shared */
    *lo = *hi = 0;
    *is_fwd = *is_win = 0;
    for (;;) {
        if (nt <= 1) { /* everything left, in one call */
            if (spass)
                SAIS_FN(scatter_s)(T, SA, 0, p, 0, B, unflag);
            else
                SAIS_FN(scatter_l)(T, SA, p, n, n, B);
            p = spass ? 0 : n;
        }
        if (spass) {
            while (p > 0 && SA[p - 1] == 0)
                p--;
            if (p <= 0)
                break;
            if (win && p >= sure && sais_prev_empty(SA, p - 1, p - sure) == p - sure) {
                *lo = p > share ? p - share : 0;
                *hi = p;
                *is_win = 1;
                break;
            }
            int32_t r = sais_prev_empty(SA, p - 1, p > share ? p - share : 0);
            if (p - r >= least && p - r >= hist_min) {
                *lo = r;
                *hi = p;
                p = r;
                break;
            }
            if (fwd && p >= least) {
                *lo = p > fwd_len ? p - fwd_len : 0;
                *hi = p;
                *is_fwd = 1;
                p = *lo;
                break;
            }
            SAIS_FN(scatter_s)(T, SA, r, p, 0, B, unflag);
            p = r;
        } else {
            while (p < n && SA[p] == 0)
                p++;
            if (p >= n)
                break;
            if (win && n - p >= sure && sais_next_empty(SA, p + 1, p + sure) == p + sure) {
                *lo = p;
                *hi = n - p > share ? p + share : n;
                *is_win = 1;
                break;
            }
            int32_t r = sais_next_empty(SA, p + 1, n - p > share ? p + share : n);
            if (r - p >= least && r - p >= hist_min) {
                *lo = p;
                *hi = r;
                p = r;
                break;
            }
            if (fwd && n - p >= least) {
                *lo = p;
                *hi = n - p > fwd_len ? p + fwd_len : n;
                *is_fwd = 1;
                p = *hi;
                break;
            }
            SAIS_FN(scatter_l)(T, SA, p, r, n, B);
            p = r;
        }
    }
    *pos = p;
}

/* A forwarded induction: the entry v just given a slot inside the block
 * being shared becomes that slot's record q (empty at the gather), with
 * what it induces in turn (gather_l, gather_s), so that its own step comes
 * in this block as in a serial pass. */
static inline void SAIS_FN(forward)(const SAIS_CH *T, int32_t v, int spass, sais_slot *q)
{
    q->c = -1;
    if (!spass && v > 0) {
        int32_t j = v - 1;
        SAIS_CH c = T[j];
        q->c = (int32_t)c;
        q->v = j > 0 && T[j - 1] < c ? ~j : j;
    } else if (spass && v < 0) {
        int32_t j = ~v - 1;
        SAIS_CH c = T[j];
        q->c = (int32_t)c;
        q->v = j > 0 && T[j - 1] <= c ? ~j : j;
    }
}

/* A forwarding block's slots, one by one in pass order, on one thread:
 * each record buf[i - lo] of SA[lo..hi) that induces gets its slot from
 * B (c becomes the slot, -1 where it induces nothing). A slot inside the
 * block is an entry this block's scan still has to meet, so its record is
 * made now (forward). With spill, a slot inside the next block [nlo, nhi)
 * (gathered before this block's writes) is listed there as (slot, value)
 * pairs, *nspill of them, for the next block's turn. Without a branch on
 * whether an entry induces (about half do, in no pattern): one that does
 * not reads and writes back B[K], a counter that stays 0. */
static void SAIS_FN(assign_slots)(const SAIS_CH *T, sais_slot *buf, int32_t lo, int32_t hi,
                                  int32_t *B, int32_t K, int spass, int32_t *spill, int32_t nlo,
                                  int32_t nhi, int32_t *nspill)
{
    uint32_t len = (uint32_t)(hi - lo), nlen = (uint32_t)(nhi - nlo);
    int32_t ns = 0;
    for (uint32_t k = 0; k < len; k++) {
        sais_slot *o = &buf[spass ? len - 1 - k : k];
        if (SAIS_BIG_K && k + SAIS_PF < len) {
            const sais_slot *f = &buf[spass ? len - 1 - k - SAIS_PF : k + SAIS_PF];
            __builtin_prefetch(&B[f->c >= 0 ? f->c : K], 1);
        }
        int32_t c = o->c, src = c >= 0, at = src ? c : K;
        int32_t slot = spass ? B[at] - src : B[at];
        B[at] = spass ? slot : slot + src;
        o->c = src ? slot : -1;
        if (src & ((uint32_t)(slot - lo) < len)) {
            SAIS_FN(forward)(T, o->v, spass, &buf[slot - lo]);
        } else if (spill && (src & ((uint32_t)(slot - nlo) < nlen))) {
            spill[2 * ns] = slot;
            spill[2 * ns + 1] = o->v;
            ns++;
        }
    }
    if (nspill)
        *nspill = ns;
}

/* The writes of the records buf[i - lo] of SA[a..b) (a part of the block
 * [lo, ..)), in pass order; with unflag (an S pass that is not a
 * forwarding block's) each source's entry stored back unflagged. h: the
 * thread's first slots per bucket of a histogram run, else NULL (c is
 * the slot). */
static void SAIS_FN(write_part)(int32_t *SA, const sais_slot *buf, int32_t lo, int32_t a,
                                int32_t b, int32_t *h, int spass, int unflag)
{
    if (spass) {
        for (int32_t i = b - 1; i >= a; i--) {
            const sais_slot *o = &buf[i - lo];
            if (o->c < 0)
                continue;
            SA[h ? --h[o->c] : o->c] = o->v;
            if (unflag)
                SA[i] = ~SA[i];
        }
    } else {
        for (int32_t i = a; i < b; i++) {
            const sais_slot *o = &buf[i - lo];
            if (o->c >= 0)
                SA[h ? h[o->c]++ : o->c] = o->v;
        }
    }
}

/* Block b of a pipelined pass over SA[0..n) in blocks of len entries, in
 * pass order: [*lo, *hi) (empty past the last block). */
static void SAIS_FN(piped_block)(int32_t n, int32_t len, int spass, int32_t b, int32_t *lo,
                                 int32_t *hi)
{
    int64_t a = (int64_t)b * len, e = a + len < n ? a + len : n;
    if (a >= n)
        a = e = n;
    *lo = (int32_t)(spass ? n - e : a);
    *hi = (int32_t)(spass ? n - a : e);
}

/* One induce pass of a level whose slots are all assigned one by one
 * (forwarding blocks, see induce: its alphabet is too large for the
 * histograms, or larger than SAIS_PIPED_HIST_K), on nt >= 2 threads,
 * pipelined: thread 0 assigns the slots of block b while the other
 * threads write block b-1, unflag it (the final S pass) and gather block
 * b+1. The blocks are the next g_sais_piped_block * nt entries, whatever
 * they hold. The gather of block b+1 misses the entries that block b
 * fills in it (its writes come after); thread 0 lists them as it assigns
 * block b's slots (spill) and makes their records before block b+1's
 * turn, as forward does within a block. So the writes are the serial
 * pass's. Thread 0 thus does the serial step alone and without pause,
 * where induce's forwarding blocks left the other threads waiting for it
 * and it waiting for their gathers and writes (thread 0's slot loop was
 * half of the induce time of the first reduced levels at 16 threads).
 * The buffer holds two blocks' records and the spill list. */
static void SAIS_FN(induce_piped)(const SAIS_CH *T, int32_t *SA, int32_t n, int32_t K,
                                  int32_t *B, sais_ctx *x, int spass, int unflag, int nt)
{
    int32_t len = g_sais_piped_block * nt;
    int32_t nblk = (int32_t)(((int64_t)n + len - 1) / len);
    sais_slot *rec[2] = { x->buf, x->buf + len };
    int32_t *spill = (int32_t *)(void *)(x->buf + 2 * (size_t)len), nspill = 0;
    sais_barrier bar = { 0, 0 }, hbar = { 0, 0 };
    /* the load check of induce: from the SAIS_SOLO_RUNS-th block, thread
     * 0 compares the helpers' CPU time with the pass's wall time; solo is
     * the block after which it goes on alone */
    double t0 = pc_time_now();
    int64_t partner_ns = 0;
    int32_t solo = -1, lo, hi;
    g_sais_piped_passes++;
#pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num(), nth = omp_get_num_threads();
        /* the helpers: threads 1.., or thread 0 itself when alone */
        int H = nth > 1 ? nth - 1 : 1, u = nth > 1 ? t - 1 : 0;
        double cpu = t > 0 ? sais_thread_cpu() : 0;
        int32_t blo, bhi, a, e;
        SAIS_FN(piped_block)(n, len, spass, 0, &blo, &bhi);
        sais_part_of(blo, bhi, t, nth, &a, &e);
        if (spass)
            SAIS_FN(gather_s)(T, SA, a, e, rec[0] + (a - blo), NULL);
        else
            SAIS_FN(gather_l)(T, SA, a, e, rec[0] + (a - blo), NULL);
        sais_barrier_wait(&bar, nth);
        for (int32_t b = 0; b < nblk; b++) {
            if (t == 0) {
                int32_t nlo, nhi;
                sais_slot *cur = rec[b & 1];
                SAIS_FN(piped_block)(n, len, spass, b, &blo, &bhi);
                SAIS_FN(piped_block)(n, len, spass, b + 1, &nlo, &nhi);
                for (int32_t k = 0; k < nspill; k++)
                    SAIS_FN(forward)(T, spill[2 * k + 1], spass, &cur[spill[2 * k] - blo]);
                SAIS_FN(assign_slots)(T, cur, blo, bhi, B, K, spass, spill, nlo, nhi, &nspill);
                if (nth > 1 && g_sais_may_solo && b + 1 >= SAIS_SOLO_RUNS && b + 1 < nblk) {
                    double had = 1e-9 * (double)__atomic_load_n(&partner_ns, __ATOMIC_RELAXED);
                    if (g_sais_may_solo > 1 || had < 0.5 * (nth - 1) * (pc_time_now() - t0))
                        __atomic_store_n(&solo, b, __ATOMIC_RELAXED);
                }
            }
            if (t > 0 || nth == 1) {
                if (b > 0) {
                    SAIS_FN(piped_block)(n, len, spass, b - 1, &blo, &bhi);
                    sais_part_of(blo, bhi, u, H, &a, &e);
                    SAIS_FN(write_part)(SA, rec[(b - 1) & 1], blo, a, e, NULL, spass, 0);
                }
                sais_barrier_wait(&hbar, nth > 1 ? H : 1);
                if (b > 0 && unflag) /* the block's forwarded entries are written now */
                    sais_unflag_range(SA, a, e);
                if (b + 1 < nblk) {
                    SAIS_FN(piped_block)(n, len, spass, b + 1, &blo, &bhi);
                    sais_part_of(blo, bhi, u, H, &a, &e);
                    if (spass)
                        SAIS_FN(gather_s)(T, SA, a, e, rec[(b + 1) & 1] + (a - blo), NULL);
                    else
                        SAIS_FN(gather_l)(T, SA, a, e, rec[(b + 1) & 1] + (a - blo), NULL);
                }
            }
            if (t > 0) {
                double now = sais_thread_cpu();
                __atomic_add_fetch(&partner_ns, (int64_t)(1e9 * (now - cpu)), __ATOMIC_RELAXED);
                cpu = now;
            }
            sais_barrier_wait(&bar, nth);
            /* solo == b, not >= 0: thread 0 may be past the barrier and
             * deciding on block b + 1 already */
            if (__atomic_load_n(&solo, __ATOMIC_RELAXED) == b)
                break;
        }
        if (solo < 0) { /* the last block's writes, then its flags */
            SAIS_FN(piped_block)(n, len, spass, nblk - 1, &blo, &bhi);
            sais_part_of(blo, bhi, t, nth, &a, &e);
            SAIS_FN(write_part)(SA, rec[(nblk - 1) & 1], blo, a, e, NULL, spass, 0);
            if (unflag) {
                sais_barrier_wait(&bar, nth);
                sais_unflag_range(SA, a, e);
            }
        }
    }
    x->loaded = solo >= 0;
    if (solo < 0)
        return;
    /* alone: block solo's writes and flags (its slots are assigned; the
     * blocks before it are written), then the rest of the pass serially
     * from SA itself (the next block's records, gathered early, are not
     * used) */
    SAIS_FN(piped_block)(n, len, spass, solo, &lo, &hi);
    SAIS_FN(write_part)(SA, rec[solo & 1], lo, lo, hi, NULL, spass, 0);
    if (unflag)
        sais_unflag_range(SA, lo, hi);
    if (spass)
        SAIS_FN(scatter_s)(T, SA, 0, lo, 0, B, unflag);
    else
        SAIS_FN(scatter_l)(T, SA, hi, n, n, B);
}

/* One induce pass (L: left to right, bucket heads in B; S: right to left,
 * bucket tails, unflag as in scatter_s), in one body for 1 and T threads.
 * Each step reads entries that earlier steps of the pass may have written,
 * so the pass is cut at empty entries: a run of filled entries ahead of the
 * scan is final (an L pass writes only empty entries right of the scan, an
 * S pass, whose regions level() empties first, only empty ones left of
 * it), so its steps only write outside the run. Such a run of at least
 * g_sais_share_min entries per thread is shared: every thread gathers the
 * (bucket, value) pairs of its part (the random text reads), the buckets
 * become slots in pass order (from per-thread histograms where the
 * alphabet allows them, else on thread 0, one bucket counter per entry),
 * and every thread writes its part; shorter runs, and everything with one
 * thread, are scattered directly. Where the histograms serve, the threads
 * also find together where a long run ends (a window). The levels whose
 * slots are all assigned one by one go to induce_piped. The writes are
 * the serial ones, so the result does not depend on the threads. L pass:
 * the sentinel's turn comes first and puts n-1 at the head of its
 * bucket. */
static void SAIS_FN(induce)(const SAIS_CH *T, int32_t *SA, int32_t n, int32_t K, int32_t *B,
                            sais_ctx *x, int spass, int unflag)
{
    if (!spass) {
        int32_t j = n - 1;
        SA[B[T[j]]++] = j > 0 && T[j - 1] < T[j] ? ~j : j;
    }
    int nt = sais_par(x, n) ? x->threads : 1;
    int32_t pos = spass ? n : 0, lo = 0, hi = 0, share = x->block * nt;
    sais_slot *buf = x->buf;
    /* per-thread histograms for the runs of at least hist_min entries
     * (their sums cost K per run); the rest of the pass, where threads
     * enough pay for thread 0's step (fwd), in blocks whose slots thread 0
     * assigns one by one, forwarding the inductions that land inside the
     * block (most runs of a large alphabet's level are short: they hold few
     * entries each, so the filled stretch ahead of the scan is short too) */
    int32_t *hist = K <= x->hist_k ? x->hist : NULL;
    int32_t hist_min = hist ? 2 * K : INT32_MAX;
    int fwd = nt >= g_sais_fwd_threads;
    int32_t fwd_len = g_sais_fwd_block * nt;
    if (!hist && !fwd)
        nt = 1; /* nothing would be shared */
    if ((!hist || K > SAIS_PIPED_HIST_K) && fwd && g_sais_piped && !x->loaded) {
        SAIS_FN(induce_piped)(T, SA, n, K, B, x, spass, unflag, nt);
        return;
    }
    /* the stretch shared last (plo, phi) and whether it was a forwarding
     * block: its flags are cleared by the threads after it (unflag) */
    int32_t plo = 0, phi = 0;
    int is_fwd = 0, was_fwd = 0;
    /* Runs of the histograms end where the threads find it together (a
     * window, see induce_serial): thread 0 alone looked for the first
     * empty entry of every run, and at 16 threads that scan was half of
     * each pass over the byte level (a shared run is up to a million
     * entries). stop[u]: where part u of the window first meets an empty
     * entry in pass order (L: the first one, S: one past the last one). */
    int win = nt > 1 && nt <= SAIS_MAX_PARTS && hist != NULL
              && share >= (g_sais_share_min * nt > hist_min ? g_sais_share_min * nt : hist_min);
    int is_win = 0;
    int32_t stop[SAIS_MAX_PARTS];
    sais_barrier bar = { 0, 0 };
    /* the pass's start, the partners' CPU time in it (nanoseconds, summed)
     * and whether the rest of it runs on thread 0 (SAIS_SOLO_RUNS) */
    double t0 = nt > 1 ? pc_time_now() : 0;
    int64_t partner_ns = 0;
    int32_t runs = 0;
    int solo = 0;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int t = omp_get_thread_num(), nth = omp_get_num_threads();
        double cpu = t > 0 ? sais_thread_cpu() : 0;
        for (;;) {
            if (t == 0) {
                plo = lo;
                phi = hi;
                was_fwd = is_fwd;
                is_fwd = 0;
                /* the check starts at the 2nd run after a pass that went on
                 * alone: a loaded machine stays loaded for a while */
                if (nth > 1 && g_sais_may_solo && ++runs >= (x->loaded ? 2 : SAIS_SOLO_RUNS)
                    && !solo) {
                    double had = 1e-9 * (double)__atomic_load_n(&partner_ns, __ATOMIC_RELAXED);
                    if (g_sais_may_solo > 1 || had < 0.5 * (nth - 1) * (pc_time_now() - t0))
                        solo = 1;
                }
                if (solo) /* the partners leave; the rest is below */
                    lo = hi = 0;
                else
                    SAIS_FN(induce_serial)(T, SA, n, B, spass, unflag, nth, share, hist_min, fwd,
                                           fwd_len, win && nth == nt, &pos, &lo, &hi, &is_fwd,
                                           &is_win);
            }
            sais_barrier_wait(&bar, nth);
            if (was_fwd && unflag) {
                /* the last block's entries, all passed by now, unflagged
                 * (a forwarded entry's slot may be in another thread's
                 * part: no write of a source's own entry in the block) */
                int32_t a, b;
                sais_part_of(plo, phi, t, nth, &a, &b);
                sais_unflag_range(SA, a, b);
            }
            if (lo >= hi)
                break;
            int32_t a, b, rl = lo, rh = hi; /* the run */
            if (is_win) {
                stop[t] = sais_window_stop(SA, lo, hi, t, nth, spass);
                sais_barrier_wait(&bar, nth);
                sais_window_run(stop, lo, hi, nth, spass, &rl, &rh);
                if (t == 0) {
                    pos = spass ? rl : rh;
                    g_sais_win_runs++;
                }
            }
            sais_part_of(rl, rh, t, nth, &a, &b);
            int use_h = !is_fwd && rh - rl >= hist_min;
            int32_t *h = use_h ? hist + (size_t)t * sais_hist_stride(K) : NULL;
            if (h)
                memset(h, 0, sizeof *h * (size_t)K);
            if (spass)
                SAIS_FN(gather_s)(T, SA, a, b, buf + (a - rl), h);
            else
                SAIS_FN(gather_l)(T, SA, a, b, buf + (a - rl), h);
            sais_barrier_wait(&bar, nth);
            if (use_h) {
                /* each thread's first slot per bucket, the parts taken in
                 * pass order (the S pass meets the last part first and
                 * fills a bucket downwards from its tail); the buckets are
                 * shared out among the threads */
                int32_t c0, c1;
                sais_part_of(0, K, t, nth, &c0, &c1);
                for (int32_t c = c0; c < c1; c++) {
                    int32_t head = B[c];
                    for (int u = 0; u < nth; u++) {
                        size_t at = (size_t)(spass ? nth - 1 - u : u) * sais_hist_stride(K);
                        int32_t *hu = hist + at;
                        int32_t k = hu[c];
                        hu[c] = head;
                        head += spass ? -k : k;
                    }
                    B[c] = head;
                }
            } else if (t == 0) {
                SAIS_FN(assign_slots)(T, buf, rl, rh, B, K, spass, NULL, 0, 0, NULL);
            }
            sais_barrier_wait(&bar, nth);
            /* the writes of the part, in pass order */
            SAIS_FN(write_part)(SA, buf, rl, a, b, h, spass, unflag && !is_fwd);
            if (t > 0) {
                double now = sais_thread_cpu();
                __atomic_add_fetch(&partner_ns, (int64_t)(1e9 * (now - cpu)), __ATOMIC_RELAXED);
                cpu = now;
            }
            sais_barrier_wait(&bar, nth);
        }
        if (t == 0 && solo) { /* the partners wait in OpenMP's barrier, not in ours */
            int32_t lo1, hi1; /* not lo, hi: the partners may still be reading them */
            int f1;
            SAIS_FN(induce_serial)(T, SA, n, B, spass, unflag, 1, share, hist_min, 0, 0, 0, &pos,
                                   &lo1, &hi1, &f1, &f1);
        }
    }
    if (nt > 1)
        x->loaded = solo;
}

/* After the first S pass (flags kept, B = the S regions' starts): moves the
 * LMS suffixes, now sorted by their LMS substrings, to SA[0..m), in order.
 * C holds the bucket sizes (n entries in all). Returns m. The positions
 * are cut into one part per thread (the bucket where each
 * part starts found by one pass over C); each thread compacts the LMS
 * entries of its part to the part's start (a write never passes the read),
 * then the compacted parts are moved down in order, one memmove each. */
static int32_t SAIS_FN(collect_lms)(int32_t *SA, int32_t n, const int32_t *C, const int32_t *B,
                                    int32_t K, int threads)
{
    int np = threads > SAIS_MAX_PARTS ? SAIS_MAX_PARTS : threads < 1 ? 1 : threads;
    /* part u: positions [pb[u], pb[u + 1]), its first bucket cb[u], which
     * starts at sb[u] */
    int32_t pb[SAIS_MAX_PARTS + 1], cb[SAIS_MAX_PARTS + 1], sb[SAIS_MAX_PARTS + 1];
    int32_t cnt[SAIS_MAX_PARTS];
    int u = 0;
    int32_t start = 0;
    for (int32_t c = 0; c < K && u < np; c++) {
        int32_t end = start + C[c];
        for (int32_t p = (int32_t)((int64_t)n * u / np); u < np && p < end;
             p = (int32_t)((int64_t)n * u / np)) {
            pb[u] = p;
            cb[u] = c;
            sb[u] = start;
            u++;
        }
        start = end;
    }
    for (; u < np; u++) { /* parts past the last bucket (n = 0) */
        pb[u] = n;
        cb[u] = K;
        sb[u] = n;
    }
    pb[np] = n;
#pragma omp parallel for num_threads(np) schedule(static, 1)
    for (int v = 0; v < np; v++) {
        int32_t w = pb[v], lim = pb[v + 1], s = sb[v];
        for (int32_t c = cb[v]; c < K && s < lim; c++) {
            int32_t end = s + C[c];
            int32_t lo = B[c] > pb[v] ? B[c] : pb[v], hi = end < lim ? end : lim;
            for (int32_t i = lo; i < hi; i++)
                if (SA[i] > 0)
                    SA[w++] = SA[i];
            s = end;
        }
        cnt[v] = w - pb[v];
    }
    int32_t m = 0;
    for (int v = 0; v < np; v++) {
        if (m != pb[v]) /* one part (one thread): already in place */
            memmove(SA + m, SA + pb[v], sizeof *SA * (size_t)cnt[v]);
        m += cnt[v];
    }
    return m;
}

/* Names the m sorted LMS substrings (SA[0..m)): equal substrings get equal
 * names, in sorted order, and the reduced string (names in text order) is
 * written to SA[n-m..n). SA[m..n) is the work space: the slot of LMS
 * position p is SA[m + p/2] (LMS positions are at least 2 apart); work
 * holds 2 nt int32_t counters when nt > 1. The length scan goes in parts
 * (one per thread); parts[0] gets their number and parts[1..] the LMS
 * positions of each, for lms_positions (parts[0] = 0: not recorded, more
 * than SAIS_MAX_PARTS parts). Returns the number of distinct names. */
static int32_t SAIS_FN(name_lms)(const SAIS_CH *T, int32_t n, int32_t *SA, int32_t m, int nt,
                                 void *work, int32_t *parts)
{
    (void)nt; /* read only by OpenMP pragmas: unused without OpenMP */
    int32_t *W = SA + m, w_end = (n - 1) / 2 + 1; /* W[p / 2], 0 < p < n */
    memset(W, 0, sizeof *W * (size_t)w_end);
    /* lengths up to and including the next LMS symbol; the last LMS
     * substring runs into the sentinel (one past n), so it equals no other.
     * In parts of even bounds (positions 2k and 2k+1 share W[k]), each
     * scanned from the type of its last position; a part's last LMS
     * position learns its length once every part has found its first
     * (work: the first of each part, -1 for none). */
    int32_t *firsts = (int32_t *)(void *)work;
    parts[0] = 0;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int t = omp_get_thread_num(), nth = omp_get_num_threads();
        int32_t found = 0;
        int32_t plo = (int32_t)((int64_t)n * t / nth) & ~1;
        int32_t phi = t == nth - 1 ? n : (int32_t)((int64_t)n * (t + 1) / nth) & ~1;
        int32_t next = nth > 1 ? -1 : n, last = -1;
        if (phi - plo >= 2) {
            SAIS_SCAN_R2L(T, phi - 2, plo > 0 ? plo - 1 : 0, SAIS_FN(type_at)(T, n, phi - 1), p,
                          lms, {
                W[p / 2] |= (next - p + 1) & -lms; /* one LMS position per entry at most */
                last = (lms & (last < 0)) ? p : last;
                next = lms ? p : next;
                found += lms;
            });
        }
        if (nth > 1) {
            firsts[t] = next >= plo ? next : -1; /* -1 also when the part is empty */
            if (nth <= SAIS_MAX_PARTS) {
                parts[1 + t] = found;
                if (t == 0)
                    parts[0] = nth;
            }
#pragma omp barrier
            if (last >= 0) {
                int32_t after = n;
                for (int u = t + 1; u < nth && after == n; u++)
                    if (firsts[u] >= 0)
                        after = firsts[u];
                W[last / 2] = after - last + 1;
            }
        }
    }
    /* in parallel parts: each part names its entries from 1 (the random
     * text reads), then adds the names of the parts before it; one part
     * (one thread) is done in the first pass */
    int32_t names = 0, *cnt = (int32_t *)(void *)work;
#pragma omp parallel num_threads(nt) if (nt > 1) reduction(+ : names)
    {
        int t = omp_get_thread_num(), nth = omp_get_num_threads();
        int32_t lo, hi;
        sais_part_of(0, m, t, nth, &lo, &hi);
        /* the entry before the part, read before any part renames it */
        int32_t prev = lo > 0 ? SA[lo - 1] : -1, prev_len = lo > 0 ? W[prev / 2] : 0, own = 0;
        if (nth > 1) {
#pragma omp barrier
        }
        for (int32_t i = lo; i < hi; i++) {
            if (i < hi - SAIS_PF) {
                int32_t q = SA[i + SAIS_PF];
                __builtin_prefetch(&W[q / 2], 1);
                __builtin_prefetch(&T[q]);
            }
            int32_t p = SA[i], len = W[p / 2];
            int same;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* bytes, substrings of at most 8 (most of them on text): one
             * 8-byte compare and no branch on its outcome, which follows
             * no pattern a predictor learns */
            if (sizeof(SAIS_CH) == 1 && len <= 8 && prev >= 0 && p <= n - 8 && prev <= n - 8) {
                uint64_t u, v;
                memcpy(&u, T + p, 8);
                memcpy(&v, T + prev, 8);
                same = (len == prev_len) & (((u ^ v) << (8 * (8 - len))) == 0);
            } else
#endif
            {
                same = prev >= 0 && len == prev_len && (int64_t)p + len <= n
                       && (int64_t)prev + len <= n;
                for (int32_t k = 0; same && k < len; k++)
                    same = T[p + k] == T[prev + k];
            }
            own += !same;
            W[p / 2] = own; /* 0 marks a slot without an LMS position: fixed below */
            prev = p;
            prev_len = len;
        }
        names = own;
        if (nth > 1) {
            cnt[t] = own;
#pragma omp barrier
            int32_t before = 0;
            for (int u = 0; u < t; u++)
                before += cnt[u];
            for (int32_t i = lo; before > 0 && i < hi; i++) {
                if (i < hi - SAIS_PF)
                    __builtin_prefetch(&W[SA[i + SAIS_PF] / 2], 1);
                W[SA[i] / 2] += before;
            }
        }
    }
    /* the names in text order to SA[n-m..n), without a branch (the filled
     * entries of W follow the text's LMS positions): every entry is
     * written at SA[j-1], at or above the one read, and kept when it is a
     * name (j moves down); the scan stops at the m-th name */
    int32_t j = n;
    for (int32_t i = m + w_end - 1; i >= m && j > n - m; i--) {
        int32_t v = SA[i];
        SA[j - 1] = v - 1;
        j -= v != 0;
    }
    return names;
}

/* SA[0..m) holds ranks into the list of LMS positions (text order): turns
 * them into positions, using SA[n-m..n) for the list, built by parts when
 * name_lms recorded how many LMS positions each of its parts has (parts;
 * the same bounds), else in one scan. */
static void SAIS_FN(lms_positions)(const SAIS_CH *T, int32_t n, int32_t *SA, int32_t m, int nt,
                                   const int32_t *parts)
{
    (void)nt; /* read only by OpenMP pragmas: unused without OpenMP */
    int32_t *L = SA + n - m;
    int np = nt > 1 ? parts[0] : 0;
    /* every position is written at L[j-1], kept when LMS (j moves down):
     * no branch; a part's scan stops at its first LMS position */
#pragma omp parallel for num_threads(nt) if (np > 1) schedule(static)
    for (int u = 0; u < (np > 1 ? np : 1); u++) {
        int32_t plo = 0, phi = n, j = m, before = 0;
        int sn = 0;
        if (np > 1) {
            plo = (int32_t)((int64_t)n * u / np) & ~1;
            phi = u == np - 1 ? n : (int32_t)((int64_t)n * (u + 1) / np) & ~1;
            for (int v = 0; v < u; v++)
                before += parts[1 + v];
            j = before + parts[1 + u];
            sn = phi - plo >= 2 ? SAIS_FN(type_at)(T, n, phi - 1) : 0;
        }
        for (int32_t i = phi - 2; i >= (plo > 0 ? plo - 1 : 0) && j > before; i--) {
            int s = (int64_t)T[i] < (int64_t)T[i + 1] + sn;
            L[j - 1] = i + 1;
            j -= sn > s;
            sn = s;
        }
    }
    /* in parts, each prefetching within its own (an entry of the next
     * part may be rewritten meanwhile) */
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int t = omp_get_thread_num(), nth = omp_get_num_threads();
        int32_t lo, hi;
        sais_part_of(0, m, t, nth, &lo, &hi);
        for (int32_t i = lo; i < hi; i++) {
            if (i < hi - SAIS_PF)
                __builtin_prefetch(&L[SA[i + SAIS_PF]]);
            SA[i] = L[SA[i]];
        }
    }
}

/* The place of the sorted LMS suffixes SA[0..m) of a large alphabet on
 * the threads, in rounds of at most cap entries from the top down (buf:
 * cap slots). SA[0..m) is sorted by first symbol, so the suffixes of one
 * bucket c are a stretch of it, the one at index i going to B[c] - 1 -
 * (its stretch's last index in the round - i) (B = bucket ends, moved down
 * by each round). Each thread takes a part of the round: it reads its
 * entries' buckets (the random text reads) and, for the stretch that goes
 * on past its part, that stretch's end by binary search; then every
 * source is zeroed; then every thread writes its entries, a slot >= i
 * never below the round, and the thread holding a stretch's first entry
 * moves B[c] down to that entry's slot. A stretch's first entry is marked
 * in buf by the complement of its position. */
static void SAIS_FN(place_sorted_par)(const SAIS_CH *T, int32_t *SA, int32_t m, int32_t *B,
                                      int threads, sais_slot *buf, int32_t cap)
{
    (void)threads; /* read only by the pragma: unused without OpenMP */
    for (int32_t r1 = m; r1 > 0;) {
        int32_t r0 = r1 > cap ? r1 - cap : 0;
#pragma omp parallel num_threads(threads)
        {
            int t = omp_get_thread_num(), nth = omp_get_num_threads();
            int32_t a, b;
            sais_part_of(r0, r1, t, nth, &a, &b);
            int32_t last = -1; /* the current stretch's last index */
            int32_t cur = -1;  /* its bucket */
            for (int32_t i = b - 1; i >= a; i--) {
                if (i >= a + SAIS_PF)
                    __builtin_prefetch(&T[SA[i - SAIS_PF]]);
                int32_t p = SA[i], c = (int32_t)T[p];
                if (c != cur) {
                    cur = c;
                    last = i;
                    if (i == b - 1) { /* it may go on past the part */
                        int32_t lo = b, hi = r1; /* first index >= b of another bucket */
                        while (lo < hi) {
                            int32_t mid = lo + (hi - lo) / 2;
                            if ((int32_t)T[SA[mid]] == c)
                                lo = mid + 1;
                            else
                                hi = mid;
                        }
                        last = lo - 1;
                    }
                }
                int first = i == r0 || (int32_t)T[SA[i - 1]] != c;
                buf[i - r0] = (sais_slot){ B[c] - 1 - (last - i), first ? ~p : p };
            }
#pragma omp barrier
            memset(SA + a, 0, sizeof *SA * (size_t)(b - a));
#pragma omp barrier
            for (int32_t i = a; i < b; i++) {
                const sais_slot *o = &buf[i - r0];
                int32_t p = o->v < 0 ? ~o->v : o->v;
                SA[o->c] = p;
                if (o->v < 0)
                    B[T[p]] = o->c;
            }
        }
        r1 = r0;
    }
}

/* Places the sorted LMS suffixes SA[0..m) at the ends of their buckets, in
 * order (B = bucket ends, moved down; C = bucket sizes), zeroing every
 * other entry. The i-th goes to a slot >= i, so going from the last down
 * overwrites nothing still to be read. With a byte alphabet the suffixes
 * of one bucket are contiguous in SA[0..m) (sorted by their first
 * symbol): each bucket's share is found by binary search and moved as a
 * block, the highest bucket first, instead of reading the text of every
 * suffix at random. A larger alphabet on threads: place_sorted_par. */
static void SAIS_FN(place_sorted_lms)(const SAIS_CH *T, int32_t n, int32_t *SA, int32_t m,
                                      int32_t *B, const int32_t *C, int32_t K, int threads,
                                      sais_slot *buf, int32_t cap)
{
    if (sizeof(SAIS_CH) == 1) {
        int32_t hi = m;
        for (int32_t c = K - 1; c >= 0; c--) {
            int32_t a = 0, b = hi; /* first i in [0, hi) with T[SA[i]] >= c */
            while (a < b) {
                int32_t mid = a + (b - a) / 2;
                if ((int32_t)T[SA[mid]] >= c)
                    b = mid;
                else
                    a = mid + 1;
            }
            B[c] -= hi - a;
            memmove(SA + B[c], SA + a, sizeof *SA * (size_t)(hi - a));
            hi = a;
        }
        /* every bucket's entries below its LMS suffixes (the sources all
         * moved by now) */
        int32_t start = 0;
        for (int32_t c = 0; c < K; c++) {
            memset(SA + start, 0, sizeof *SA * (size_t)(B[c] - start));
            start += C[c];
        }
        return;
    }
    sais_zero(SA + m, n - m, threads);
    if (threads > 1 && buf) {
        SAIS_FN(place_sorted_par)(T, SA, m, B, threads, buf, cap);
        return;
    }
    for (int32_t i = m - 1; i >= 0; i--) {
        if (i >= SAIS_PF)
            __builtin_prefetch(&T[SA[i - SAIS_PF]]);
        int32_t p = SA[i];
        SA[i] = 0;
        SA[--B[T[p]]] = p;
    }
}

/* The L pass, then the S pass (unflag: the final one, see induce), from
 * the LMS suffixes at their bucket ends (C = bucket sizes, B moved). */
static void SAIS_FN(induce_both)(const SAIS_CH *T, int32_t *SA, int32_t n, int32_t K,
                                 const int32_t *C, int32_t *B, sais_ctx *x, int unflag)
{
    sais_bucket_starts(C, B, K);
    SAIS_FN(induce)(T, SA, n, K, B, x, 0, 0);
    if (sais_par(x, n))
        sais_empty_s_regions(SA, C, B, K);
    sais_bucket_ends(C, B, K);
    SAIS_FN(induce)(T, SA, n, K, B, x, 1, unflag);
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
    int32_t parts[1 + SAIS_MAX_PARTS] = { 0 }; /* name_lms to lms_positions */
    int rc = sais_buckets_alloc(n, K, x->threads, &C, &H, err);
    if (rc != PC_OK)
        return rc;
    B = C + K;
    SAIS_FN(count)(T, n, C, K, x->loaded ? NULL : H, sais_steps_threads(x, n));
    sais_bucket_ends(C, B, K);
    int steps = sais_steps_threads(x, n);
    int32_t m = 0, names = 0;
    int hashed = 0; /* the byte level's LMS substrings named by hashing (sa_sais_hash.h) */
    if (sizeof(SAIS_CH) == 1 && g_sais_hash_mode) {
        hashed = sais_name_hashed((const uint8_t *)(const void *)T, n, SA, steps, &m, &names,
                                  parts, err);
        if (hashed < 0) {
            pc_free(C);
            pc_free(H);
            return hashed;
        }
    }
    if (!hashed) {
        sais_zero(SA, n, steps);
        m = steps > 1 ? SAIS_FN(place_lms_par)(T, n, SA, B, K, H, steps)
                      : SAIS_FN(place_lms)(T, n, SA, B);
    }
    if (m > 1) {
        if (!hashed) {
            SAIS_FN(induce_both)(T, SA, n, K, C, B, x, 0);
            m = SAIS_FN(collect_lms)(SA, n, C, B, K, sais_steps_threads(x, n));
            names = SAIS_FN(name_lms)(T, n, SA, m, sais_steps_threads(x, n), x->buf, parts);
        }
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
                    SAIS_FN(count)(T, n, C, K, x->loaded ? NULL : H, sais_steps_threads(x, n));
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
        SAIS_FN(lms_positions)(T, n, SA, m, sais_steps_threads(x, n), parts);
    sais_bucket_ends(C, B, K);
    SAIS_FN(place_sorted_lms)(T, n, SA, m, B, C, K, sais_steps_threads(x, n), x->buf,
                              x->block * x->threads);
    SAIS_FN(induce_both)(T, SA, n, K, C, B, x, 1);
    pc_free(C);
    pc_free(H);
    return PC_OK;
}
