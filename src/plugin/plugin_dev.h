/* plugin_dev.h - device buffers for SpMM entries with PARCHECK_F_DEVICE.
 *
 * The CUDA runtime is loaded when first needed (dlopen of libcudart), so
 * parcheck builds and runs without CUDA and only such an entry asks for
 * it. Used in the worker only: CUDA state never crosses a process. */
#ifndef PLUGIN_DEV_H
#define PLUGIN_DEV_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the runtime and checks that a device is there. Returns 0, or
 * PARCHECK_EUNAVAIL (no runtime, no device) with the reason in msg. */
int plugin_dev_open(char *msg, size_t msg_len);

/* Device copy of host[0..n) (n may be 0: a unique small buffer). *dev is
 * released with plugin_dev_free. Returns 0 or PARCHECK_EDEVICE with msg. */
int plugin_dev_upload(void **dev, const void *host, size_t n, char *msg, size_t msg_len);

/* dev[0..n) = host[0..n). Returns 0 or PARCHECK_EDEVICE with msg. */
int plugin_dev_put(void *dev, const void *host, size_t n, char *msg, size_t msg_len);

/* host[0..n) = dev[0..n). Returns 0 or PARCHECK_EDEVICE with msg. */
int plugin_dev_download(void *host, const void *dev, size_t n, char *msg, size_t msg_len);

/* Waits for the device. Returns 0 or PARCHECK_EDEVICE with msg. */
int plugin_dev_sync(char *msg, size_t msg_len);

/* Releases a device buffer (NULL is a no-op). */
void plugin_dev_free(void *dev);

#ifdef __cplusplus
}
#endif

#endif
