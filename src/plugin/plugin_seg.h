/* plugin_seg.h - the shared segment of plugin_proto.h: layout, creation by
 * the parent, mapping with protections by the worker, canary checks. */
#ifndef PLUGIN_SEG_H
#define PLUGIN_SEG_H

#include <stddef.h>
#include <stdint.h>

#include "pc_error.h"
#include "plugin_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct plugin_seg {
    int fd;                 /* the memfd, -1 when none */
    unsigned char *base;    /* this process's mapping of the whole segment */
    size_t len;
    plugin_hdr *hdr;        /* == base */
    /* This process's own copy of the section table: plugin code shares the
     * header and might overwrite the one there. */
    plugin_sec sec[PLUGIN_SEC_MAX];
} plugin_seg;

/* Creates a segment with section k of sizes[k] bytes (sizes[k] < 0: absent)
 * where output[k] says whether the worker writes it (guard pages and canaries
 * around it). Maps it read-write, zeroes the header and fills in magic,
 * proto, seg_len, the section table and the canaries; the caller fills the
 * rest of the header and the inputs. Owns the fd and the mapping until
 * plugin_seg_close. Returns 0, PC_EDEVICE (memfd/mmap refused, with the
 * system's reason) or PC_ERANGE (sizes beyond the address space). */
int plugin_seg_create(plugin_seg *s, const int64_t *sizes, const int *output, pc_error *err);

/* Address of section k in this process's mapping, or NULL when absent. */
void *plugin_seg_at(const plugin_seg *s, int k);

/* Fills section k with the 8-byte pattern repeated (little-endian bytes of
 * pattern; a tail shorter than 8 gets its first bytes). */
void plugin_seg_fill(plugin_seg *s, int k, uint64_t pattern);

/* Checks the canaries around every output section. Returns 1 when intact;
 * else 0 with *sec the first damaged section and *before / *after the
 * number of bytes changed in front of and behind it. */
int plugin_seg_canaries_ok(const plugin_seg *s, int *sec, long *before, long *after);

/* Worker side: maps the segment of fd (checking magic, proto and that the
 * file is as long as the header says) read-write, then makes the inputs
 * read-only and the guard pages inaccessible. Returns 0, PC_EFORMAT (not a
 * segment of this build) or PC_EDEVICE (mmap/mprotect refused). */
int plugin_seg_map_worker(plugin_seg *s, int fd, pc_error *err);

/* Applies the worker's protections to an already mapped segment (--no-fork
 * runs in the parent's own mapping). Returns 0 or PC_EDEVICE. */
int plugin_seg_protect(plugin_seg *s, pc_error *err);

/* Restores read-write access to the whole mapping (after --no-fork). */
void plugin_seg_unprotect(plugin_seg *s);

/* Name of the section that holds byte offset off of the segment, with
 * where it falls ("input 'ja'", "past the end of output 'Y'", ...), for
 * crash reports; domain selects the section names. */
void plugin_seg_describe_offset(const plugin_seg *s, int domain, uint64_t off, char *buf,
                                size_t n);

/* Name of section k in domain ("ja", "Y", "times"...). */
const char *plugin_seg_name(int domain, int k);

/* Unmaps and closes (safe on a zeroed or closed segment). */
void plugin_seg_close(plugin_seg *s);

#ifdef __cplusplus
}
#endif

#endif
