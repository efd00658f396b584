/* sam.h - internals of parcheck-sa-mpi, the distributed suffix-array
 * program. Not part of libparcheck: compiled with mpicc only.
 *
 * Distribution: text positions and suffix-array positions are both cut in
 * P blocks, block r = [floor(r n / P), floor((r+1) n / P)) (empty blocks
 * when n < P). Every count handed to MPI is a number of elements (bytes of
 * text, int32 values, 8- or 12-byte records), never of bytes of a larger
 * type, and n <= 2^31 - 1, so no int count or displacement can overflow. */
#ifndef SAM_H
#define SAM_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* The run: communicator, this rank, the sizes of the distribution. */
typedef struct sam_ctx {
    MPI_Comm comm;
    int rank, np, threads;
    int verbose;         /* SAM_VERBOSE=1: per-round timings on stderr; 2: and per rank */
    int64_t n;           /* text length */
    int64_t lo, hi;      /* this rank's block */
    int64_t *bounds;     /* bounds[r] = first position of block r, r in [0, np] */
    double per_pos;      /* np / n: the block of x is about x * per_pos */
    MPI_Datatype t_pair; /* sam_pair, 8 bytes */
    MPI_Datatype t_tup;  /* sam_tup, 12 bytes */
} sam_ctx;

/* A (destination index, value) pair routed to the owner of the index. */
typedef struct sam_pair {
    uint32_t idx, val;
} sam_pair;

/* A sort record: 64-bit key (hi, lo) and the text position. */
typedef struct sam_tup {
    uint32_t hi, lo, idx;
} sam_tup;

static inline uint64_t sam_key(const sam_tup *t)
{
    return (uint64_t)t->hi << 32 | t->lo;
}

/* Below this many elements a loop runs on one thread: the fork costs more. */
#define SAM_PAR_MIN 65536

/* Finished positions carry this bit in the rank array. */
#define SAM_DONE 0x80000000u

/* Prints "parcheck-sa-mpi: rank R: message" and aborts every rank
 * (MPI_Abort, exit status 2). For errors after MPI_Init that one rank
 * alone sees (allocation failure, MPI error). */
void sam_die(const sam_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/* pc_malloc_array or sam_die. */
void *sam_alloc(const sam_ctx *c, size_t count, size_t size, const char *what);

/* Fills the block bounds and creates the record datatypes (sam_ctx_free
 * frees them). Dies if the bounds cannot be allocated. */
void sam_ctx_init(sam_ctx *c, MPI_Comm comm, int64_t n, int threads);
void sam_ctx_free(sam_ctx *c);

/* First position of block r (r in [0, np]). */
static inline int64_t sam_block_lo(const sam_ctx *c, int r)
{
    return c->bounds[r];
}

/* The rank whose block holds position x (0 <= x < n). Called for every
 * routed pair: a multiplication and a table, no division. */
static inline int sam_owner(const sam_ctx *c, int64_t x)
{
    if (c->n <= 0)
        return 0;
    /* the estimate is off by at most one block (rounding); empty blocks
     * (n < np) resolve to the last rank starting at x */
    int r = (int)((double)x * c->per_pos);
    if (r >= c->np)
        r = c->np - 1;
    while (r + 1 < c->np && c->bounds[r + 1] <= x)
        r++;
    while (r > 0 && c->bounds[r] > x)
        r--;
    return r;
}

/* Sends each pair to the owner of its idx and returns what this rank
 * receives (pc_free it), *nrecv its length. The input order is free. */
sam_pair *sam_route(const sam_ctx *c, const sam_pair *pairs, size_t npairs, size_t *nrecv);

/* sam_route, then dst[idx - lo] = val for every pair received (dst is
 * this rank's block of a distributed array); frees pairs. Dies unless
 * exactly `expect` pairs arrive (SIZE_MAX: any number); what names the
 * array in that message. */
void sam_route_store(const sam_ctx *c, sam_pair *pairs, size_t npairs, uint32_t *dst,
                     size_t expect, const char *what);

/* The values v[0..m) of this rank are the entries [off, off + m) of a
 * distributed array, off = the values of the lower ranks: each goes to
 * its block, stored in dst (this rank's block, hi - lo entries). Dies
 * unless the pieces cover the blocks exactly (what names the array). */
void sam_store_run(const sam_ctx *c, const uint32_t *v, size_t m, uint32_t *dst,
                   const char *what);

/* The alphabet of the whole text (MPI_Allreduce of the bytes of every
 * block text[0..b)): code[v] = 1..sigma for the bytes present, in byte
 * order, 0 for the others. Returns the bits a code needs, bits(sigma). */
int sam_alphabet(const sam_ctx *c, const uint8_t *text, size_t b, uint32_t code[256]);

/* Fetches vals[x - lo_owner] on the owners of the global positions
 * want[0..k) (ascending, all < n) into got[0..k): one request and one reply
 * Alltoallv. vals is this rank's block of the distributed array. */
void sam_fetch(const sam_ctx *c, const uint32_t *want, size_t k, const uint32_t *vals,
               uint32_t *got);

/* Sorts the records of all ranks by key (sam_sort_by: random samples,
 * ties split by (rank, position) so equal keys balance too, one
 * Alltoallv, then sam_radix_sort). Takes ownership of a[0..m)
 * and returns this rank's slice of the global order (pc_free it), *mout
 * its length. */
sam_tup *sam_sort(const sam_ctx *c, sam_tup *a, size_t m, size_t *mout);

/* Turns the digit counts of nt threads (thread u's count of digit d at
 * hist[u * stride + d], d < buckets) into each thread's first slot for
 * each digit: digits in order, threads in order within a digit, so that
 * a scatter by thread chunks is stable. The radix sorts share it. */
static inline void sam_hist_offsets(size_t *hist, size_t buckets, int nt, size_t stride)
{
    size_t off = 0;
    for (size_t d = 0; d < buckets; d++)
        for (int u = 0; u < nt; u++) {
            size_t x = hist[(size_t)u * stride + d];
            hist[(size_t)u * stride + d] = off;
            off += x;
        }
}

/* LSD radix sort of a[0..m) by key with threads OpenMP threads, digits
 * where every key agrees skipped; tmp holds m records. Returns the buffer
 * that holds the result (a or tmp). */
sam_tup *sam_radix_sort(sam_tup *a, sam_tup *tmp, size_t m, int threads);

/* Statistics of the construction. */
typedef struct sam_stats {
    int rounds;
    double sort_s;
} sam_stats;

/* Bytes after its block that a rank reads for the first keys. */
#define SAM_WINDOW_AHEAD 62

/* Bytes the doubling's first round sorts by: as many codes of `bits`
 * bits as fit 63 bits, at most the window a rank holds. */
static inline int sam_round0_len(int bits)
{
    int K = 63 / bits;
    return K > SAM_WINDOW_AHEAD + 1 ? SAM_WINDOW_AHEAD + 1 : K;
}

/* Prefix doubling on global ranks. text = T[lo, min(n, hi + 62)), the
 * block plus the SAM_WINDOW_AHEAD bytes after it, freed (pc_free) once the
 * first keys are built. Returns this rank's block of SA
 * (SA[lo..hi), pc_free it) and, in *R, this rank's block of the inverse
 * suffix array (ISA[lo..hi)). */
int32_t *sam_build(const sam_ctx *c, uint8_t *text, uint32_t **R, sam_stats *st);

/* LCP of this rank's SA block from the whole text T (n bytes), the SA
 * block and the ISA block: Phi routed to the owners of text positions,
 * PLCP by Kasai's argument on each rank's positions, routed back to
 * suffix-array order. Returns LCP[lo..hi) (pc_free it); *len, *pos, *pos2:
 * the longest repeat on every rank (MAXLOC reduction). */
int32_t *sam_lcp(const sam_ctx *c, const uint8_t *T, const int32_t *SA, const uint32_t *R,
                 int32_t *len, int32_t *pos, int32_t *pos2);

/* Collective reads: T[off, off + len) of path into buf (len <= n).
 * Returns 0 or an MPI error code (same on every rank). */
int sam_read(const sam_ctx *c, MPI_File fh, int64_t off, int64_t len, uint8_t *buf);

/* Absolute form of path in out (cwd prepended to a relative path): Open
 * MPI's I/O layer refused some relative names (a one-letter "z"), and the
 * ranks' working directories need not match on other launchers. */
void sam_abs_path(const char *path, char *out, size_t n);

/* Writes this rank's block v[0..hi-lo) of a distributed int32 array as
 * little-endian int32 at 4 lo in path, collectively (gather != 0: sent to
 * rank 0, which writes the file alone). Dies on error. */
void sam_write(const sam_ctx *c, const char *path, const int32_t *v, int gather);

/* ---- The DC3 path (dc3-mpi): sam_dc3.c, sam_dsort.c ---- */

/* A sample position's key at one level: the 96-bit number k0 k1 k2 (the
 * next symbols packed, see sam_dc3.c) and the position. */
typedef struct sam_tri {
    uint32_t k0, k1, k2, idx;
} sam_tri;

/* One suffix in the final DC3 step at a level: c0 = s[i], c1 = s[i+1],
 * two of the ranks rj of the sample suffixes i + j (0 past the end), the
 * two that its class compares: i mod 3 = 0: ra = r1, rb = r2; 1: ra = r0,
 * rb = r1; 2: ra = r0, rb = r2. idx = i. */
typedef struct sam_suf {
    uint32_t c0, c1, ra, rb, idx;
} sam_suf;

/* sam_suf of a level whose symbols are below 2^16 (the text always):
 * cc = c0 << 16 | c1, 16 bytes instead of 20 (the final sort moves every
 * record through its memory-bound passes several times). */
typedef struct sam_suf16 {
    uint32_t cc, ra, rb, idx;
} sam_suf16;

/* One suffix in the first level of dc3-mpi when it runs DC7 (sam_dc3.c):
 * sy = the symbols s[i..i+6) packed from the top bit down, `bits` <= 9
 * bits each, and i mod 7 in its lowest 3 bits (sy_hi the upper word);
 * r[k] the rank of the k-th sample position (i + t mod 7 in {0, 1, 3}) of
 * [i, i + 7), 0 past the end; idx = i. */
typedef struct sam_suf7 {
    uint32_t sy_hi, sy_lo, r[3], idx;
} sam_suf7;

/* The difference cover of dc3-mpi's DC7 level: the residues {0, 1, 3}
 * mod 7 are its sample. Every table of the DC7 code derives from this. */
static inline int sam_dc7_sample(int64_t residue)
{
    return residue == 0 || residue == 1 || residue == 3;
}

/* Sets the symbol width of the sam_suf7 records sorted next (main thread,
 * before their sort). */
void sam_suf7_setup(int bits);

/* Buckets of the records a[b..e) of rank me against ns splitters sp
 * (each: rank, index, record): dest[i] = bucket x groups + the record's
 * group (see sam_order), counted in h (see sam_dsort.c). */
typedef void sam_bucket_fn(const uint32_t *sp, int ns, const void *a, size_t b, size_t e,
                           uint32_t me, uint16_t *dest, size_t *h);

/* A total order on records of `words` 32-bit words for sam_sort_by:
 * cmp (qsort's contract), the same comparison inlined into the bucket
 * search, the MPI datatype of one record, and a local
 * sort that takes ownership of its array and returns the sorted slice in
 * the form its caller wants (pc_free it), dying on failure: the records
 * for triples, only the positions (uint32) for suffixes. groups (>= 1):
 * the classes the buckets function tells apart; the exchange delivers
 * them apart, group g at a[group[g] .. group[g + 1]), so that the local
 * sort needs no pass to split them. */
typedef struct sam_order {
    int words;
    MPI_Datatype type;
    int (*cmp)(const void *a, const void *b);
    sam_bucket_fn *buckets;
    void *(*local_sort)(const sam_ctx *c, void *a, size_t m, const size_t *group);
    int groups;
} sam_order;

/* Triples by (k0, k1, k2). */
int sam_tri_cmp(const void *a, const void *b);
/* Suffixes by the DC3 rule: two sample suffixes by r0; i mod 3 = 0 against
 * j mod 3 = 1 (or 0) by (c0, r1); against j mod 3 = 2 by (c0, c1, r2). */
int sam_suf_cmp(const void *a, const void *b);
int sam_suf16_cmp(const void *a, const void *b);
/* Records by their 64-bit key. */
int sam_tup_cmp(const void *a, const void *b);
/* Suffixes by the DC7 rule: the first l symbols, then the ranks at
 * offset l, l the first offset where both windows hold a sample position. */
int sam_suf7_cmp(const void *a, const void *b);
sam_bucket_fn sam_tri_buckets, sam_suf_buckets, sam_suf16_buckets, sam_tup_buckets,
    sam_suf7_buckets;
/* LSD radix sort of triples. */
void *sam_tri_local_sort(const sam_ctx *c, void *a, size_t m, const size_t *group);
/* The two classes radix sorted ((c0, r1) and r0), then merged by
 * sam_suf_cmp; returns the positions (idx) in the merged order. */
void *sam_suf_local_sort(const sam_ctx *c, void *a, size_t m, const size_t *group);
void *sam_suf16_local_sort(const sam_ctx *c, void *a, size_t m, const size_t *group);
/* The four classes outside the sample each radix sorted (their first
 * symbols up to the next sample position, then its rank), the sample
 * placed by rank, the five merged by sam_suf7_cmp; returns the positions
 * in the merged order. */
void *sam_suf7_local_sort(const sam_ctx *c, void *a, size_t m, const size_t *group);

/* Sorts the records of all ranks in o's order (sample sort: random
 * samples, splitters with ties split by (rank, index), one Alltoallv,
 * o->local_sort). Takes ownership of a[0..m); returns this rank's slice of
 * the global order as o->local_sort gives it (pc_free it), *mout its
 * length. */
void *sam_sort_by(const sam_ctx *c, const sam_order *o, void *a, size_t m, size_t *mout);

/* Levels at most SAM_DC3_BASE_DEFAULT / P symbols long (at least
 * SAM_DC3_BASE_MIN) are gathered on rank 0 and solved there (SA-IS on the
 * symbols as fixed-width big-endian bytes); SAM_DC3_BASE=N in the
 * environment sets the length (tests force the distributed levels on
 * small inputs with SAM_DC3_BASE=0). */
#define SAM_DC3_BASE_DEFAULT ((int64_t)1 << 20)
#define SAM_DC3_BASE_MIN ((int64_t)1 << 14)

/* Distributed DC3 (skew) on the text block text[0 .. window) = T[lo,
 * min(n, hi + SAM_WINDOW_AHEAD)), freed here (pc_free). Returns this
 * rank's block of SA (SA[lo..hi), pc_free it); *levels receives the number
 * of levels sorted in a distributed way. */
int32_t *sam_dc3_build(const sam_ctx *c, uint8_t *text, int *levels);

/* --algo auto (sam_probe.c): the work prefix doubling would do on this
 * text, in sorts of all n suffixes (>= 1), estimated from a sample of
 * windows and the occurrences of each in every block; exact enough to
 * tell whether it exceeds `most`. text[0..len) is what this rank holds
 * (its block, then up to SAM_WINDOW_AHEAD bytes); K the first round's
 * length (sam_round0_len). Under verbose rank 0 prints the estimate.
 * Collective. */
double sam_probe_doubling(const sam_ctx *c, const uint8_t *text, size_t len, int K, double most);

/* The estimate above which --algo auto runs DC3 instead of doubling. On
 * the GPU machine's host at 16 ranks (64 MiB of six input classes) the
 * doubling took 0.54 to 0.61 s per estimated sort and DC3 2.6 to 3.4 s
 * (1.1 s on random bytes), so 5 sorts; SAM_AUTO_ROUNDS=X in the
 * environment sets it. */
#define SAM_AUTO_ROUNDS 5.0

/* This rank's block of the inverse of a permutation of [0, n) from its
 * block v[0..hi-lo) (pc_free it): (v[k], lo + k) routed to the owner of
 * v[k]. ISA from SA, SA from ISA. what names the result in messages. */
uint32_t *sam_invert(const sam_ctx *c, const uint32_t *v, const char *what);

#endif
