#define _POSIX_C_SOURCE 200809L
#include "pc_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pc_alloc.h"

int pc_file_read_all(const char *path, size_t max_bytes, unsigned char **data,
                     size_t *size, pc_error *err)
{
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return pc_error_set(err, PC_EIO, path, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return pc_error_set(err, PC_EIO, path, 0, "not a regular file");
    }
    if ((unsigned long long)st.st_size > max_bytes) {
        fclose(f);
        return pc_error_set(err, PC_ERANGE, path, 0,
                            "file of %lld bytes is larger than the limit of %zu bytes",
                            (long long)st.st_size, max_bytes);
    }
    size_t n = (size_t)st.st_size;
    unsigned char *buf = pc_malloc(n + 1);
    if (!buf) {
        fclose(f);
        return pc_error_nomem(err, "reading a file");
    }
    size_t got = n ? fread(buf, 1, n, f) : 0;
    int bad = ferror(f) || got != n;
    fclose(f);
    if (bad) {
        pc_free(buf);
        return pc_error_set(err, PC_EIO, path, 0, "read error");
    }
    buf[n] = '\0';
    *data = buf;
    *size = n;
    return PC_OK;
}

int pc_file_write_all(const char *path, const void *data, size_t n, pc_error *err)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return pc_error_set(err, PC_EIO, path, 0, "cannot open for writing: %s", strerror(errno));
    size_t put = n ? fwrite(data, 1, n, f) : 0;
    int bad = put != n;
    if (fclose(f) != 0)
        bad = 1;
    if (bad)
        return pc_error_set(err, PC_EIO, path, 0, "write failed");
    return PC_OK;
}

int pc_file_map_open(const char *path, pc_file_map *m, pc_error *err)
{
    static const unsigned char empty[1];
    m->data = NULL;
    m->size = 0;
    m->base = NULL;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return pc_error_set(err, PC_EIO, path, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return pc_error_set(err, PC_EIO, path, 0, "not a regular file");
    }
    if (st.st_size == 0) {
        close(fd);
        m->data = empty;
        return PC_OK;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (p == MAP_FAILED)
        return pc_error_set(err, PC_EIO, path, 0, "cannot map %lld bytes: %s",
                            (long long)st.st_size, strerror(e));
    m->base = p;
    m->data = p;
    m->size = (size_t)st.st_size;
    return PC_OK;
}

void pc_file_map_close(pc_file_map *m)
{
    if (m->base)
        munmap(m->base, m->size);
    m->data = NULL;
    m->size = 0;
    m->base = NULL;
}
