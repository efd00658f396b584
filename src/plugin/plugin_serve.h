/* plugin_serve.h - what a worker does with a segment: load the plugin, then
 * describe its table or run one entry (prepare, 1 + reps timed runs,
 * release). The same code serves the worker process and --no-fork. */
#ifndef PLUGIN_SERVE_H
#define PLUGIN_SERVE_H

#include "plugin_seg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Serves seg->hdr->mode on seg (mapped with the worker's protections).
 * Writes wstatus, code, msg, times and, in describe mode, the entry
 * records into the header; never writes the done mark (the caller does,
 * once nothing of the plugin runs any more). Never returns an error: every
 * failure is a status in the header. */
void plugin_serve(plugin_seg *seg);

/* Records the phase and run index the worker enters, with its start time
 * (read by the parent's timeout). */
void plugin_serve_phase(plugin_hdr *h, int phase, int run_index);

#ifdef __cplusplus
}
#endif

#endif
