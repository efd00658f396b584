/* pets_topo.c - topological order for the oracle: depth-first search on
 * linked adjacency lists built from the plain edge list, reversed
 * post-order. Independent of src/pets's Kahn queues. */
#include <string.h>

#include "pc_alloc.h"
#include "pets_oracle.h"

int pets_oracle_topo(const pets_dag *dag, int32_t *topo, pc_error *err)
{
    int32_t n = dag->ntasks, m = dag->nedges;
    int32_t *head = pc_malloc_array((size_t)n, sizeof *head);   /* first out-edge */
    int32_t *next = pc_malloc_array((size_t)m + 1, sizeof *next); /* next out-edge */
    int32_t *stack = pc_malloc_array((size_t)n, sizeof *stack);
    int32_t *iter = pc_malloc_array((size_t)n, sizeof *iter);   /* edge to try next */
    unsigned char *mark = pc_calloc((size_t)n, 1);               /* 1 open, 2 closed */
    int rc = PC_OK;
    if (!head || !next || !stack || !iter || !mark) {
        rc = pc_error_nomem(err, "oracle topological order");
        goto out;
    }
    for (int32_t v = 0; v < n; v++)
        head[v] = -1;
    for (int32_t e = m - 1; e >= 0; e--) {
        next[e] = head[dag->edge_from[e]];
        head[dag->edge_from[e]] = e;
    }
    int32_t placed = n;
    for (int32_t root = 0; root < n && !rc; root++) {
        if (mark[root])
            continue;
        int32_t sp = 0;
        stack[sp++] = root;
        mark[root] = 1;
        iter[root] = head[root];
        while (sp > 0) {
            int32_t v = stack[sp - 1];
            int32_t e = iter[v];
            if (e < 0) {
                mark[v] = 2;
                topo[--placed] = v;
                sp--;
                continue;
            }
            iter[v] = next[e];
            int32_t w = dag->edge_to[e];
            if (mark[w] == 1) {
                rc = pc_error_set(err, PC_EVERIFY, NULL, 0, "oracle: cycle through task %ld", (long)w + 1);
                break;
            }
            if (!mark[w]) {
                mark[w] = 1;
                iter[w] = head[w];
                stack[sp++] = w;
            }
        }
    }
out:
    pc_free(head);
    pc_free(next);
    pc_free(stack);
    pc_free(iter);
    pc_free(mark);
    return rc;
}
