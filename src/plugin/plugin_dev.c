/* plugin_dev.c - the few CUDA runtime calls a device entry needs, looked
 * up at run time. cudaError_t is an int enum and cudaMemcpyKind's values
 * are fixed by the runtime's ABI, so no CUDA header is needed. */
#include "plugin_dev.h"

#include <dlfcn.h>
#include <stdio.h>

#include "parcheck/plugin.h"

enum { DEV_H2D = 1, DEV_D2H = 2 };

static struct {
    void *lib;
    int (*malloc_)(void **p, size_t n);
    int (*free_)(void *p);
    int (*memcpy_)(void *dst, const void *src, size_t n, int kind);
    int (*sync)(void);
    int (*count)(int *n);
    const char *(*errstr)(int e);
} g_dev;

static int dev_fail(int e, const char *what, char *msg, size_t msg_len)
{
    snprintf(msg, msg_len, "%s: %s", what, g_dev.errstr ? g_dev.errstr(e) : "CUDA error");
    return PARCHECK_EDEVICE;
}

int plugin_dev_open(char *msg, size_t msg_len)
{
    if (g_dev.lib)
        return 0;
    static const char *const names[] = {"libcudart.so", "libcudart.so.12", "libcudart.so.13",
                                        "libcudart.so.11.0"};
    void *lib = NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names && !lib; i++)
        lib = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
        snprintf(msg, msg_len, "no CUDA runtime (libcudart.so) on this machine");
        return PARCHECK_EUNAVAIL;
    }
    /* POSIX's idiom for dlsym: ISO C has no object-to-function pointer
     * conversion, so store through a void ** instead. */
    *(void **)&g_dev.malloc_ = dlsym(lib, "cudaMalloc");
    *(void **)&g_dev.free_ = dlsym(lib, "cudaFree");
    *(void **)&g_dev.memcpy_ = dlsym(lib, "cudaMemcpy");
    *(void **)&g_dev.sync = dlsym(lib, "cudaDeviceSynchronize");
    *(void **)&g_dev.count = dlsym(lib, "cudaGetDeviceCount");
    *(void **)&g_dev.errstr = dlsym(lib, "cudaGetErrorString");
    if (!g_dev.malloc_ || !g_dev.free_ || !g_dev.memcpy_ || !g_dev.sync || !g_dev.count) {
        snprintf(msg, msg_len, "libcudart.so lacks cudaMalloc/cudaMemcpy/...");
        return PARCHECK_EUNAVAIL;
    }
    int n = 0;
    if (g_dev.count(&n) != 0 || n < 1) {
        snprintf(msg, msg_len, "no NVIDIA driver or GPU on this machine");
        return PARCHECK_EUNAVAIL;
    }
    g_dev.lib = lib;
    return 0;
}

int plugin_dev_upload(void **dev, const void *host, size_t n, char *msg, size_t msg_len)
{
    *dev = NULL;
    int e = g_dev.malloc_(dev, n ? n : 64);
    if (e)
        return dev_fail(e, "cudaMalloc", msg, msg_len);
    int rc = plugin_dev_put(*dev, host, n, msg, msg_len);
    if (rc) {
        plugin_dev_free(*dev);
        *dev = NULL;
    }
    return rc;
}

int plugin_dev_put(void *dev, const void *host, size_t n, char *msg, size_t msg_len)
{
    int e = n ? g_dev.memcpy_(dev, host, n, DEV_H2D) : 0;
    return e ? dev_fail(e, "cudaMemcpy to the device", msg, msg_len) : 0;
}

int plugin_dev_download(void *host, const void *dev, size_t n, char *msg, size_t msg_len)
{
    int e = n ? g_dev.memcpy_(host, dev, n, DEV_D2H) : 0;
    return e ? dev_fail(e, "cudaMemcpy from the device", msg, msg_len) : 0;
}

int plugin_dev_sync(char *msg, size_t msg_len)
{
    int e = g_dev.sync();
    return e ? dev_fail(e, "cudaDeviceSynchronize", msg, msg_len) : 0;
}

void plugin_dev_free(void *dev)
{
    if (dev && g_dev.free_)
        g_dev.free_(dev);
}
