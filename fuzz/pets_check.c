/* pets_check.c - checks shared by the PETS fuzz targets (see pets_check.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pc_alloc.h"
#include "pets/pets_oracle.h"
#include "pets_check.h"

static void check_structure(const char *who, const pets_dag *d)
{
    FUZZ_CHECK(d->ntasks >= 1 && d->ntasks <= PETS_MAX_TASKS && d->nprocs >= 1 &&
                        d->nprocs <= PETS_MAX_PROCS && d->nedges >= 0,
                    "%s: shape %d tasks, %d procs, %d edges", who, d->ntasks, d->nprocs,
                    d->nedges);
    int64_t n = d->ntasks, P = d->nprocs;
    for (int64_t k = 0; k < n * P; k++)
        FUZZ_CHECK(d->cost[k] >= 0 && d->cost[k] <= PETS_MAX_VALUE, "%s: cost %lld", who,
                        (long long)d->cost[k]);
    FUZZ_CHECK(d->succ_off[0] == 0 && d->succ_off[n] == d->nedges && d->pred_off[0] == 0 &&
                        d->pred_off[n] == d->nedges,
                    "%s: CSR offsets do not span the %d edges", who, d->nedges);
    for (int32_t k = 0; k < d->nedges; k++) {
        int32_t a = d->edge_from[k], b = d->edge_to[k];
        FUZZ_CHECK(a >= 0 && a < n && b >= 0 && b < n && a != b, "%s: edge %d: %d -> %d",
                        who, k, a, b);
        FUZZ_CHECK(d->edge_comm[k] >= 0 && d->edge_comm[k] <= PETS_MAX_VALUE,
                        "%s: edge %d: comm %lld", who, k, (long long)d->edge_comm[k]);
        if (k > 0)
            FUZZ_CHECK(d->edge_from[k - 1] < a || (d->edge_from[k - 1] == a &&
                                                         d->edge_to[k - 1] < b),
                            "%s: edge list not sorted / repeated at %d", who, k);
        /* the edge is in a's successor list and b's predecessor list */
        int found = 0;
        for (int32_t j = d->succ_off[a]; j < d->succ_off[a + 1]; j++)
            found += d->succ[j] == b && d->succ_comm[j] == d->edge_comm[k];
        FUZZ_CHECK(found == 1, "%s: edge %d->%d in the successor lists %d times", who, a,
                        b, found);
        found = 0;
        for (int32_t j = d->pred_off[b]; j < d->pred_off[b + 1]; j++)
            found += d->pred[j] == a && d->pred_comm[j] == d->edge_comm[k];
        FUZZ_CHECK(found == 1, "%s: edge %d->%d in the predecessor lists %d times", who,
                        a, b, found);
    }
    for (int32_t t = 0; t < n; t++) {
        FUZZ_CHECK(d->succ_off[t] <= d->succ_off[t + 1] && d->pred_off[t] <= d->pred_off[t + 1],
                        "%s: CSR offsets decrease at task %d", who, t);
        for (int32_t j = d->succ_off[t] + 1; j < d->succ_off[t + 1]; j++)
            FUZZ_CHECK(d->succ[j - 1] < d->succ[j], "%s: successors of %d unsorted", who, t);
        for (int32_t j = d->pred_off[t] + 1; j < d->pred_off[t + 1]; j++)
            FUZZ_CHECK(d->pred[j - 1] < d->pred[j], "%s: predecessors of %d unsorted", who,
                            t);
    }
}

static void check_same_graph(const char *who, const pets_dag *a, const pets_dag *b)
{
    FUZZ_CHECK(a->ntasks == b->ntasks && a->nprocs == b->nprocs && a->nedges == b->nedges,
                    "%s: round trip: %d/%d/%d became %d/%d/%d", who, a->ntasks, a->nprocs,
                    a->nedges, b->ntasks, b->nprocs, b->nedges);
    size_t cells = (size_t)a->ntasks * (size_t)a->nprocs, ne = (size_t)a->nedges;
    FUZZ_CHECK(!memcmp(a->cost, b->cost, cells * sizeof *a->cost),
                    "%s: round trip changed a cost", who);
    FUZZ_CHECK(!ne || (!memcmp(a->edge_from, b->edge_from, ne * sizeof *a->edge_from) &&
                            !memcmp(a->edge_to, b->edge_to, ne * sizeof *a->edge_to) &&
                            !memcmp(a->edge_comm, b->edge_comm, ne * sizeof *a->edge_comm)),
                    "%s: round trip changed an edge", who);
}

static void round_trip(const char *who, const pets_dag *dag)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    FUZZ_CHECK(f != NULL, "open_memstream");
    FUZZ_CHECK(pets_dag_fwrite(f, dag, "fuzz round trip") == 0, "%s: writer failed", who);
    FUZZ_CHECK(fclose(f) == 0, "fclose");
    pets_dag back;
    pc_error err;
    pc_error_clear(&err);
    int rc = pets_dag_parse(text, len, "(round trip)", &back, &err);
    FUZZ_CHECK(rc == 0, "%s: the written graph is refused: %s\n%.2000s", who, err.msg, text);
    check_same_graph(who, dag, &back);
    pets_dag_free(&back);
    free(text);
}

#define SAME_ARRAY(who, pol, field, n)                                                   \
    for (int32_t i_ = 0; i_ < (n); i_++)                                                 \
        FUZZ_CHECK(got.field[i_] == want.field[i_], "%s: policy %d: " #field        \
                        "[%d] = %lld, oracle %lld", who, pol, i_, (long long)got.field[i_], \
                        (long long)want.field[i_])

static void against_oracle(const char *who, const pets_dag *dag, int policy)
{
    static const pets_impl *serial;
    if (!serial)
        serial = pets_impl_find("serial");
    FUZZ_CHECK(serial != NULL, "no serial implementation");
    pets_solution got, want;
    pc_error err;
    pc_error_clear(&err);
    FUZZ_CHECK(pets_solution_alloc(&got, dag->ntasks, &err) == 0, "alloc: %s", err.msg);
    FUZZ_CHECK(pets_solution_alloc(&want, dag->ntasks, &err) == 0, "alloc: %s", err.msg);
    pets_options o = {.policy = policy, .cl_platform = -1, .cl_device = -1};
    pets_times t;
    memset(&t, 0, sizeof t);
    int rc = serial->run(dag, &o, &got, &t, &err);
    FUZZ_CHECK(rc == 0, "%s: serial failed (policy %d): %s", who, policy, err.msg);
    rc = pets_oracle_solve(dag, policy, &want, &err);
    FUZZ_CHECK(rc == 0, "%s: oracle failed (policy %d): %s", who, policy, err.msg);
    int32_t n = dag->ntasks;
    SAME_ARRAY(who, policy, level, n);
    SAME_ARRAY(who, policy, rank_scaled, n);
    SAME_ARRAY(who, policy, rank, n);
    SAME_ARRAY(who, policy, order, n);
    SAME_ARRAY(who, policy, proc, n);
    SAME_ARRAY(who, policy, start, n);
    SAME_ARRAY(who, policy, finish, n);
    FUZZ_CHECK(got.makespan == want.makespan, "%s: makespan %lld, oracle %lld", who,
                    (long long)got.makespan, (long long)want.makespan);
    int64_t lb = -1;
    rc = pets_oracle_validate(dag, &got, &lb, &err);
    FUZZ_CHECK(rc == 0, "%s: policy %d: schedule invalid: %s", who, policy, err.msg);
    FUZZ_CHECK(lb >= 0 && lb <= got.makespan, "%s: lower bound %lld, makespan %lld", who,
                    (long long)lb, (long long)got.makespan);
    pets_solution_free(&got);
    pets_solution_free(&want);
}

void pets_fuzz_check_graph(const char *who, const pets_dag *dag)
{
    check_structure(who, dag);
    round_trip(who, dag);
    against_oracle(who, dag, PETS_INSERTION);
    against_oracle(who, dag, PETS_APPEND);
}

void pets_fuzz_check_refusal(const char *who, int rc, const pc_error *err, const pets_dag *dag)
{
    FUZZ_CHECK(rc == PC_EFORMAT || rc == PC_ERANGE || rc == PC_EUNSUP || rc == PC_ENOMEM,
                    "%s: unexpected code %d: %s", who, rc, err->msg);
    FUZZ_CHECK(err->msg[0] != '\0', "%s: refusal %d without a message", who, rc);
    FUZZ_CHECK(dag->ntasks == 0 && dag->cost == NULL && dag->edge_from == NULL &&
                        dag->succ_off == NULL,
                    "%s: refused graph not left empty", who);
}

int pets_fuzz_import(pets_import_fn import, const uint8_t *data, size_t size, pets_dag *dag,
                     pc_error *err)
{
    /* one memory file for the whole process, rewritten for each input */
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("pets-fuzz", 0);
        FUZZ_CHECK(fd >= 0, "memfd_create");
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    FUZZ_CHECK(ftruncate(fd, 0) == 0, "ftruncate");
    size_t done = 0;
    while (done < size) {
        ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);
        FUZZ_CHECK(w > 0, "pwrite");
        done += (size_t)w;
    }
    pets_import_params ip;
    pets_import_defaults(&ip);
    ip.procs = 1 + (int32_t)(size % 4);
    ip.eta = 0.5;
    ip.seed = 7;
    return import(path, &ip, dag, err);
}

void pets_fuzz_import_one(const char *who, pets_import_fn import, const uint8_t *data,
                          size_t size)
{
    long live = pc_alloc_live();
    pets_dag dag;
    pc_error err;
    pc_error_clear(&err);
    int rc = pets_fuzz_import(import, data, size, &dag, &err);
    if (rc == PC_EUNAVAIL) /* importer not in this build: nothing to check */
        return;
    if (rc)
        pets_fuzz_check_refusal(who, rc, &err, &dag);
    else
        pets_fuzz_check_graph(who, &dag);
    pets_dag_free(&dag);
    FUZZ_CHECK(pc_alloc_live() == live, "%s: %ld allocations leaked", who,
                    pc_alloc_live() - live);
}
