/* parcheck/parcheck.h - parcheck's checkers as a C library: judge a sparse
 * matrix product, a suffix array or a task schedule that your own code
 * computed, from your own tests, with the oracles and bounds of the
 * `parcheck spmm|sa|pets check` commands.
 *
 * Whatever is not in this file (or in parcheck/plugin.h, the plugin ABI)
 * is not published API: parcheck's other headers, functions and symbols
 * may change or vanish in any release. This header includes no other
 * parcheck header and compiles alone as C99 or C++.
 *
 * Rules (cited by number below and in docs/README-api.md):
 *
 * A1  Every function that can fail returns int: PARCHECK_OK (0) or a
 *     negative PARCHECK_E* code. It never exits, aborts on bad input or
 *     prints.
 * A2  A check function returns PARCHECK_OK whatever the verdict: a wrong
 *     answer is a report whose status is PARCHECK_FAIL, not an error. An
 *     error (bad arguments, out of memory) empties the report (status
 *     PARCHECK_NONE).
 * A3  Messages travel through caller buffers (char *msg, size_t msg_len):
 *     the text is NUL-terminated and cut to fit; msg may be NULL when
 *     msg_len is 0. A text getter returns PARCHECK_ERANGE when it had to
 *     cut (the buffer still holds the cut, terminated text).
 * A4  A report is opaque and owned by the caller: parcheck_report_new,
 *     then any number of checks (each overwrites it), then
 *     parcheck_report_free. Checks allocate nothing that outlives them;
 *     a report is not shared between threads, but separate reports may be
 *     used by concurrent checks.
 * A5  The report's metric names and where records are those of
 *     parcheck's --json output for the same check: SpMM row and col are
 *     1-based (as in Matrix Market and in the why text), the SA index is
 *     0-based, PETS task and processor ids are 1-based.
 * A6  Input arrays are read only and stay the caller's; nothing keeps a
 *     pointer to them after the call returns.
 */
#ifndef PARCHECK_PARCHECK_H_9B41D2
#define PARCHECK_PARCHECK_H_9B41D2

#include <stddef.h>
#include <stdint.h>

/* ---- version ----------------------------------------------------------- */
#define PARCHECK_VERSION_MAJOR 0
#define PARCHECK_VERSION_MINOR 2
#define PARCHECK_VERSION_PATCH 0
#define PARCHECK_VERSION_NUMBER                                                       \
    (PARCHECK_VERSION_MAJOR * 10000 + PARCHECK_VERSION_MINOR * 100 + PARCHECK_VERSION_PATCH)
#define PARCHECK_VERSION_STR2_(x) #x
#define PARCHECK_VERSION_STR_(x) PARCHECK_VERSION_STR2_(x)
#define PARCHECK_VERSION_STRING                                                       \
    PARCHECK_VERSION_STR_(PARCHECK_VERSION_MAJOR) "." PARCHECK_VERSION_STR_(          \
        PARCHECK_VERSION_MINOR) "." PARCHECK_VERSION_STR_(PARCHECK_VERSION_PATCH)

/* Marks the library's exported functions. The shared library exports
 * these and nothing else. */
#ifndef PARCHECK_API
#if defined(__GNUC__) || defined(__clang__)
#define PARCHECK_API __attribute__((visibility("default")))
#else
#define PARCHECK_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- return codes (A1), shared with plugin.h (same values, same guard) -- */
#ifndef PARCHECK_ERROR_CODES_DEFINED
#define PARCHECK_ERROR_CODES_DEFINED
enum {
    PARCHECK_OK = 0,
    PARCHECK_EINVAL = -1,   /* bad argument */
    PARCHECK_ENOMEM = -2,   /* allocation failed */
    PARCHECK_EIO = -3,      /* a file could not be read or written */
    PARCHECK_EFORMAT = -4,  /* malformed input */
    PARCHECK_ERANGE = -5,   /* size or value outside what the code handles */
    PARCHECK_EUNSUP = -6,   /* valid input the code does not support */
    PARCHECK_EUNAVAIL = -7, /* cannot run here (no device...): reported as skipped */
    PARCHECK_EDEVICE = -8,  /* device or runtime failure */
    PARCHECK_EVERIFY = -9   /* a result failed validation */
};
#endif

/* The library's PARCHECK_VERSION_NUMBER: equal to the header's when the
 * header and the library linked come from the same release. */
PARCHECK_API unsigned parcheck_version_number(void);

/* The library's PARCHECK_VERSION_STRING ("0.2.0"); static storage. */
PARCHECK_API const char *parcheck_version_string(void);

/* The short name of a return code: "OK", "EINVAL", ... "EVERIFY"; "E?"
 * for a value that is none of them. Static storage. */
PARCHECK_API const char *parcheck_error_name(int code);

/* ---- the report (A4) --------------------------------------------------- */
typedef struct parcheck_report parcheck_report;

/* parcheck_report_status values. */
enum parcheck_status {
    PARCHECK_NONE = 0, /* no verdict: new, or the last check returned an error (A2) */
    PARCHECK_PASS = 1,
    PARCHECK_FAIL = 2
};

/* A new, empty report (status PARCHECK_NONE), about 42 KiB.
 * Returns NULL when out of memory. Release with parcheck_report_free. */
PARCHECK_API parcheck_report *parcheck_report_new(void);

/* Releases rep; NULL is a no-op. */
PARCHECK_API void parcheck_report_free(parcheck_report *rep);

/* PARCHECK_PASS, PARCHECK_FAIL or PARCHECK_NONE (also for rep NULL). */
PARCHECK_API int parcheck_report_status(const parcheck_report *rep);

/* The verdict in words into buf[0..len) (A3): on a fail, the first failure
 * ("Y(3,2) = 16.400000000999999 is 1e-09 from the reference
 * 16.399999999999999, past the bound 3.64e-15 (1 bad entries)"); on a
 * pass "" (PETS: the makespan beside PETS's own).
 * Returns PARCHECK_OK, PARCHECK_ERANGE (cut) or PARCHECK_EINVAL (rep
 * NULL, or buf NULL with len > 0). */
PARCHECK_API int parcheck_report_why(const parcheck_report *rep, char *buf, size_t len);

/* How far the damage goes, one line into buf[0..len) (A3): "rows 6, 40-52
 * wrong; all other rows within bound" (SpMM), the counts of the broken SA
 * rule, "2 violations: overlap 1 precedence 1" (PETS); "" on a pass.
 * Returns as parcheck_report_why. */
PARCHECK_API int parcheck_report_summary(const parcheck_report *rep, char *buf, size_t len);

/* The metric called name into *value (booleans as 0 or 1). Names, by
 * domain (A5; docs/README-api.md says what each means):
 *   SpMM  max_rel_err mean_rel_err max_err_over_bound unit_roundoff
 *         entries_checked exact_required bad_entries bad_rows
 *         slow_path_entries slow_undecided slow_special
 *   SA    sa_equal lcp_equal (when an LCP was given) lrs_length lrs_pos
 *         lrs_pos2 (when the SA is right) n width
 *   PETS  valid makespan lower_bound slr pets_insertion_makespan
 *         pets_append_makespan violations
 * Returns PARCHECK_OK, or PARCHECK_EINVAL (a NULL argument, or no metric of
 * that name in this report; *value is then left alone). */
PARCHECK_API int parcheck_report_metric(const parcheck_report *rep, const char *name,
                                        double *value);

/* The number of metrics in rep (0 for NULL or an empty report), and the
 * name of the i-th, 0 <= i < count (NULL otherwise; valid until rep is
 * checked again or freed). */
PARCHECK_API int parcheck_report_metric_count(const parcheck_report *rep);
PARCHECK_API const char *parcheck_report_metric_name(const parcheck_report *rep, int i);

/* The located failures ("where" records, A5): at most 10, the first ones
 * in the domain's order; 0 on a pass. */
PARCHECK_API int parcheck_report_where_count(const parcheck_report *rep);

/* Field key of the i-th where record (0 <= i < where_count). Keys, by
 * domain:
 *   SpMM  row col (1-based) got expected bound
 *   SA    index rule ("permutation", "order", "lcp"), then by rule:
 *         permutation: sa problem ("duplicate", "out of range") first_index;
 *         order: sa_prev sa prev_bytes bytes inverted succ_prev_index
 *         succ_index; lcp: got expected
 *   PETS  rule ("missing", "duplicate", "processor", "negative",
 *         "duration", "overlap", "precedence") task other proc start finish
 * _int: an integer or boolean field into *value (an SA value of a uint64
 *       array above INT64_MAX is text: read it with _str).
 * _num: a numeric, integer or boolean field into *value.
 * _str: any field as text into buf[0..len) (A3): numbers as %.17g.
 * Each returns PARCHECK_OK, PARCHECK_EINVAL (a NULL argument, i out of
 * range, no such key, or a field of another kind) or, for _str,
 * PARCHECK_ERANGE (cut). */
PARCHECK_API int parcheck_report_where_int(const parcheck_report *rep, int i, const char *key,
                                           int64_t *value);
PARCHECK_API int parcheck_report_where_num(const parcheck_report *rep, int i, const char *key,
                                           double *value);
PARCHECK_API int parcheck_report_where_str(const parcheck_report *rep, int i, const char *key,
                                           char *buf, size_t len);

/* The i-th where record as one line "key=value key=value ..." into
 * buf[0..len) (A3), for test failure messages. Returns as _str. */
PARCHECK_API int parcheck_report_where_line(const parcheck_report *rep, int i, char *buf,
                                            size_t len);

/* ---- SpMM: Y = A X ------------------------------------------------------ */

/* Element types of dense matrices, and the precision a product is judged in. */
enum parcheck_dtype { PARCHECK_F64 = 0, PARCHECK_F32 = 1 };
enum parcheck_order { PARCHECK_ROW_MAJOR = 0, PARCHECK_COL_MAJOR = 1 };

/* A dense rows x K matrix in the caller's memory (plain data; this layout
 * is part of the ABI of major version 0). Entry (r, k) is data[r*ld + k]
 * (row-major, ld >= K) or data[r + k*ld] (column-major, ld >= rows); ld 0
 * means packed (K or rows). */
typedef struct parcheck_dense {
    const void *data;   /* double (PARCHECK_F64) or float (PARCHECK_F32) */
    int dtype;          /* enum parcheck_dtype */
    int order;          /* enum parcheck_order */
    int64_t ld;         /* leading dimension, or 0 */
} parcheck_dense;

/* Judges Y against A X. An entry of Y passes when it is within
 * 2 gamma_{n_i} (|A||X|)_ik of the exact sum of its products (n_i the
 * entries of row i, gamma_n = n u / (1 - n u), u = 2^-53 or 2^-24), and
 * must equal the exact result when every value of A and X is an integer
 * and no partial sum passes 2^53 (2^24 in fp32). Verdicts are exact (the
 * reference is computed exactly where the bound cannot decide) and do not
 * depend on threads.
 * m, n      A is m x n; m, n >= 0.
 * nnz       stored entries, >= 0; == rowptr[m].
 * rowptr    [0..m] row i holds entries rowptr[i] .. rowptr[i+1]-1;
 *           rowptr[0] == 0, non-decreasing.
 * colind    [0..nnz) column of each entry in [0, n), any order within a
 *           row (can be NULL when nnz == 0).
 * values    [0..nnz) the entries (inf and NaN allowed; can be NULL when
 *           nnz == 0).
 * X         n x K; any dtype and order (values widened exactly).
 * Y         m x K, the result to judge; an entry still holding the poison
 *           of parcheck_spmm_poison fails as "never written".
 * K         columns of X and Y, >= 1.
 * precision PARCHECK_F64, or PARCHECK_F32 for a Y computed in single
 *           precision (A and X rounded to float first, u = 2^-24).
 * threads   OpenMP threads, >= 1; 0 for OpenMP's default.
 * report    receives the verdict (A2, A5); not NULL.
 * msg       [0..msg_len) receives the reason of an error (A3).
 * Work space: about 8 n K bytes when X is not row-major double or
 * precision is PARCHECK_F32, plus 1 KiB per 2^18 entries; freed on every
 * path. Returns PARCHECK_OK (verdict in report), PARCHECK_EINVAL (a NULL
 * pointer, a size out of range, a malformed CSR: the message says which)
 * or PARCHECK_ENOMEM. */
PARCHECK_API int parcheck_check_spmm(int32_t m, int32_t n, int64_t nnz, const int64_t *rowptr,
                                     const int32_t *colind, const double *values,
                                     const parcheck_dense *X, const parcheck_dense *Y, int32_t K,
                                     int precision, int threads, parcheck_report *report,
                                     char *msg, size_t msg_len);

/* Fills Y[0..count) (double or float by dtype) with the "never written"
 * pattern, a quiet NaN whose payload no arithmetic produces: call it
 * before your kernel so that a missed entry is reported as such.
 * Returns PARCHECK_OK or PARCHECK_EINVAL (count < 0, Y NULL with
 * count > 0, unknown dtype). */
PARCHECK_API int parcheck_spmm_poison(void *Y, int dtype, int64_t count);

/* ---- suffix arrays ------------------------------------------------------ */

/* Element types of SA and LCP arrays. */
enum parcheck_int_type {
    PARCHECK_INT32 = 0,
    PARCHECK_UINT32 = 1,
    PARCHECK_INT64 = 2,
    PARCHECK_UINT64 = 3
};

/* Judges sa (and lcp when given) as the suffix array of text: sa[i] is the
 * start of the i-th smallest suffix, bytes compared as unsigned, a proper
 * prefix first; lcp[0] = 0 and lcp[i] is the longest common prefix of the
 * suffixes sa[i-1] and sa[i]. Checked in O(n) by rules the report names:
 * permutation, order (Burkhardt-Kaerkkaeinen), lcp (Phi method).
 * text      [0..n) any bytes (NUL included); can be NULL when n == 0.
 * n         text length, >= 0 (2^31 and more included).
 * sa        [0..n) elements of sa_type.
 * lcp       [0..n) elements of lcp_type, or NULL: not checked (the longest
 *           repeat is still reported for a right SA).
 * report    receives the verdict (A2, A5); not NULL.
 * msg       [0..msg_len) receives the reason of an error (A3).
 * Work space: 4 (n + 1) bytes (8 (n + 1) when n >= 2^32); freed on every
 * path. Returns PARCHECK_OK (verdict in report), PARCHECK_EINVAL (n < 0,
 * a NULL array, an unknown type) or PARCHECK_ENOMEM. */
PARCHECK_API int parcheck_check_sa(const uint8_t *text, int64_t n, const void *sa, int sa_type,
                                   const void *lcp, int lcp_type, parcheck_report *report,
                                   char *msg, size_t msg_len);

/* ---- PETS: a schedule of a task graph ----------------------------------- */

/* Judges a schedule of a task graph on heterogeneous processors. Task and
 * processor ids are 1-based everywhere here, as in .dag and schedule
 * files. Rules, in the order the where records list them: every task has
 * a row (missing), only one (duplicate; the first row counts), on a
 * processor 1..nprocs (processor), at times >= 0 (negative), lasting its
 * cost there (duration), overlapping no other task on that processor
 * ([start, finish), an empty interval overlaps nothing: overlap), and
 * starting after each predecessor's finish plus the edge's communication
 * cost when they run on different processors (precedence). Then the
 * makespan, the critical-path lower bound (minimum costs, no
 * communication), SLR = makespan / bound, and the makespans of PETS's own
 * schedules (insertion and append policies) for comparison.
 * ntasks, nprocs  1..2^24 tasks, 1..1024 processors.
 * cost      [0..ntasks*nprocs) cost of task t on processor p at
 *           (t-1)*nprocs + (p-1), each in [0, 2^40].
 * nedges    edges, >= 0.
 * edge_from, edge_to  [0..nedges) task ids 1..ntasks: edge_from[e] must
 *           finish before edge_to[e] starts; no self-loop, no duplicate,
 *           no cycle (can be NULL when nedges == 0).
 * edge_comm [0..nedges) communication cost of each edge in [0, 2^40], or
 *           NULL for all 0.
 * nrows     schedule rows, >= 0.
 * task, proc, start, finish  [0..nrows) one row each: task ids in
 *           1..ntasks (any order, missing and repeated tasks are judged,
 *           not refused), processor ids (out of range: judged), times
 *           within +-2^62 (can be NULL when nrows == 0).
 * report    receives the verdict (A2, A5); not NULL.
 * msg       [0..msg_len) receives the reason of an error (A3); a bad edge
 *           is named "edges:E:" with E its 1-based position.
 * Work space O(ntasks nprocs + nedges + nrows); freed on every path.
 * Returns PARCHECK_OK (verdict in report), PARCHECK_EINVAL (a NULL
 * pointer, nrows < 0, a row's task outside 1..ntasks), PARCHECK_ERANGE (a
 * size, cost or time past the limits above), PARCHECK_EFORMAT (an edge to
 * an unknown task, a self-loop, a duplicate edge, a cycle) or
 * PARCHECK_ENOMEM. */
PARCHECK_API int parcheck_check_pets(int32_t ntasks, int32_t nprocs, const int64_t *cost,
                                     int64_t nedges, const int32_t *edge_from,
                                     const int32_t *edge_to, const int64_t *edge_comm,
                                     int64_t nrows, const int64_t *task, const int64_t *proc,
                                     const int64_t *start, const int64_t *finish,
                                     parcheck_report *report, char *msg, size_t msg_len);

#ifdef __cplusplus
}
#endif

#endif
