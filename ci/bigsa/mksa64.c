/* mksa64 TEXT OUT: the suffix array of TEXT by libdivsufsort's divsufsort64,
 * written as raw little-endian int64 (`parcheck sa check TEXT --sa OUT --width 64`). */
#include <divsufsort64.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: mksa64 TEXT OUT\n"); return 2; }
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[1]); return 2; }
    saidx64_t n = st.st_size;
    const sauchar_t *T = n ? mmap(NULL, (size_t)n, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    saidx64_t *SA = malloc(sizeof *SA * (size_t)(n ? n : 1));
    if ((n && T == MAP_FAILED) || !SA) { perror("mmap/malloc"); return 1; }
    if (divsufsort64(T, SA, n) != 0) { fprintf(stderr, "divsufsort64 failed\n"); return 1; }
    FILE *f = fopen(argv[2], "wb");
    if (!f || fwrite(SA, sizeof *SA, (size_t)n, f) != (size_t)n || fclose(f) != 0) { perror(argv[2]); return 1; }
    return 0;
}
