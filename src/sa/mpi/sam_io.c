/* sam_io.c - collective MPI-IO reads of text windows and writes of
 * distributed int32 arrays (little-endian), chunked so that no single
 * call moves more than SAM_IO_CHUNK elements. */
#include <unistd.h>
#include <stdio.h>
#include <string.h>

#include "pc_alloc.h"
#include "sam.h"

/* Elements per MPI-IO call: far below INT_MAX bytes for any element size
 * used here, and below the 2 GiB where some ROMIO versions misbehave. */
#define SAM_IO_CHUNK ((int64_t)1 << 28)

/* Number of collective calls every rank must make for len elements. */
static int64_t io_rounds(const sam_ctx *c, int64_t len)
{
    int64_t mine = (len + SAM_IO_CHUNK - 1) / SAM_IO_CHUNK, most = 0;
    MPI_Allreduce(&mine, &most, 1, MPI_INT64_T, MPI_MAX, c->comm);
    return most;
}

int sam_read(const sam_ctx *c, MPI_File fh, int64_t off, int64_t len, uint8_t *buf)
{
    int bad = MPI_SUCCESS;
    int64_t rounds = io_rounds(c, len);
    for (int64_t k = 0; k < rounds; k++) {
        int64_t b = k * SAM_IO_CHUNK, e = b + SAM_IO_CHUNK < len ? b + SAM_IO_CHUNK : len;
        int cnt = e > b ? (int)(e - b) : 0;
        MPI_Status stt;
        int rc = MPI_File_read_at_all(fh, (MPI_Offset)(off + (b < len ? b : 0)),
                                      buf + (b < len ? b : 0), cnt, MPI_BYTE, &stt);
        int got = 0;
        if (rc == MPI_SUCCESS)
            MPI_Get_count(&stt, MPI_BYTE, &got);
        if (rc == MPI_SUCCESS && got != cnt)
            rc = MPI_ERR_TRUNCATE;
        if (rc != MPI_SUCCESS)
            bad = rc;
    }
    int any = bad != MPI_SUCCESS, all = 0;
    MPI_Allreduce(&any, &all, 1, MPI_INT, MPI_MAX, c->comm);
    return all ? (bad != MPI_SUCCESS ? bad : MPI_ERR_OTHER) : MPI_SUCCESS;
}

/* The little-endian bytes of v[0..k) (a copy on big-endian hosts only). */
static const void *as_le(const sam_ctx *c, const int32_t *v, size_t k, void **tmp)
{
    *tmp = NULL;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    uint32_t *w = sam_alloc(c, k + 1, sizeof *w, "byte-swapped output");
    for (size_t i = 0; i < k; i++)
        w[i] = __builtin_bswap32((uint32_t)v[i]);
    *tmp = w;
    return w;
#else
    (void)c;
    (void)k;
    return v;
#endif
}

static void die_mpi(const sam_ctx *c, const char *path, const char *what, int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    sam_die(c, "%s: %s: %s", path, what, msg);
}

static void write_gathered(const sam_ctx *c, const char *path, const int32_t *v)
{
    int P = c->np, b = (int)(c->hi - c->lo);
    int *cnt = NULL, *dis = NULL;
    int32_t *all = NULL;
    if (c->rank == 0) {
        cnt = sam_alloc(c, 2 * (size_t)P, sizeof *cnt, "gather counts");
        dis = cnt + P;
        for (int q = 0; q < P; q++) {
            cnt[q] = (int)(sam_block_lo(c, q + 1) - sam_block_lo(c, q));
            dis[q] = (int)sam_block_lo(c, q);
        }
        all = sam_alloc(c, (size_t)c->n + 1, sizeof *all, "the gathered array");
    }
    MPI_Gatherv(v, b, MPI_INT32_T, all, cnt, dis, MPI_INT32_T, 0, c->comm);
    int ok = 1;
    if (c->rank == 0) {
        void *tmp;
        const void *bytes = as_le(c, all, (size_t)c->n, &tmp);
        FILE *f = fopen(path, "wb");
        ok = f && fwrite(bytes, 4, (size_t)c->n, f) == (size_t)c->n;
        if (f && fclose(f) != 0)
            ok = 0;
        pc_free(tmp);
        pc_free(all);
        pc_free(cnt);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, c->comm);
    if (!ok && c->rank == 0)
        sam_die(c, "%s: cannot write", path);
    MPI_Barrier(c->comm); /* rank 0 aborts everyone before this returns */
}

void sam_abs_path(const char *path, char *out, size_t n)
{
    char cwd[4096];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(out, n, "%s", path);
    else
        snprintf(out, n, "%s/%s", cwd, path);
}

void sam_write(const sam_ctx *c, const char *path, const int32_t *v, int gather)
{
    if (gather) {
        write_gathered(c, path, v);
        return;
    }
    MPI_File fh;
    char abs[8192];
    sam_abs_path(path, abs, sizeof abs);
    int rc = MPI_File_open(c->comm, abs, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS)
        die_mpi(c, path, "cannot open for writing", rc);
    rc = MPI_File_set_size(fh, (MPI_Offset)c->n * 4);
    if (rc != MPI_SUCCESS)
        die_mpi(c, path, "cannot set the size", rc);
    size_t b = (size_t)(c->hi - c->lo);
    void *tmp;
    const int32_t *w = as_le(c, v, b, &tmp);
    int64_t rounds = io_rounds(c, (int64_t)b);
    for (int64_t k = 0; k < rounds; k++) {
        int64_t s = k * SAM_IO_CHUNK, e = s + SAM_IO_CHUNK < (int64_t)b ? s + SAM_IO_CHUNK : (int64_t)b;
        if (s > (int64_t)b)
            s = (int64_t)b;
        int cnt = e > s ? (int)(e - s) : 0;
        MPI_Status stt;
        rc = MPI_File_write_at_all(fh, (MPI_Offset)(c->lo + s) * 4, w + s, cnt, MPI_INT32_T, &stt);
        if (rc != MPI_SUCCESS)
            die_mpi(c, path, "write failed", rc);
    }
    pc_free(tmp);
    rc = MPI_File_close(&fh);
    if (rc != MPI_SUCCESS)
        die_mpi(c, path, "close failed", rc);
}
