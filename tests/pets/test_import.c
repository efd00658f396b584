/* test_import.c - STG, WfCommons and DAX files of the shared data folder (dags/):
 * imported, scheduled by every implementation, equal to the oracle and
 * valid; STG optimal makespans are lower bounds; bad files refused; the
 * allocation-failure loop over each importer. */
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include "pc_alloc.h"
#include "pets_priv.h"
#include "pets_tutil.h"

typedef int (*importer)(const char *, const pets_import_params *, pets_dag *, pc_error *);

/* Imports and checks every file of dags/<dir> ending in ext; returns how many. */
static int import_dir(const char *dir, const char *ext, importer imp, int procs, double eta)
{
    const char *base = tu_data(dir);
    char dpath[4096];
    snprintf(dpath, sizeof dpath, "%s", base);
    DIR *d = opendir(dpath);
    ck_assert_ptr_nonnull(d);
    struct dirent *de;
    int count = 0;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name), le = strlen(ext);
        if (l <= le || strcmp(de->d_name + l - le, ext))
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dpath, de->d_name);
        pets_import_params ip;
        pets_import_defaults(&ip);
        ip.procs = procs;
        ip.eta = eta;
        ip.seed = 7;
        pets_dag g;
        pc_error err;
        ck_assert_msg(imp(path, &ip, &g, &err) == 0, "%s", err.msg);
        ck_assert_int_ge(tu_check_all(&g, de->d_name), 2);
        pets_dag_free(&g);
        count++;
    }
    closedir(d);
    return count;
}

/* Which importers the build has: STG always (plain text), WfCommons with
 * jansson, DAX with libxml2, nothing else. */
START_TEST(importers_available)
{
    ck_assert_int_eq(pets_import_available("stg"), 1);
    ck_assert_int_eq(pets_import_available("wfcommons"), PC_HAVE_JANSSON);
    ck_assert_int_eq(pets_import_available("dax"), PC_HAVE_LIBXML2);
    ck_assert_int_eq(pets_import_available("nosuch"), 0);
    /* an importer the build lacks refuses with what to install, the graph
     * zeroed (pets.h) */
    static const struct {
        importer imp;
        const char *fmt, *path, *msg;
    } lacking[] = {
        {pets_import_wfcommons, "wfcommons", "w.json",
         "w.json: WfCommons import is not in this build (jansson missing: apt-get install libjansson-dev)"},
        {pets_import_dax, "dax", "w.dax",
         "w.dax: DAX import is not in this build (libxml2 missing: apt-get install libxml2-dev)"},
    };
    for (size_t k = 0; k < sizeof lacking / sizeof lacking[0]; k++) {
        if (pets_import_available(lacking[k].fmt))
            continue;
        pets_dag g, zero;
        memset(&g, 0xab, sizeof g);
        memset(&zero, 0, sizeof zero);
        pets_import_params ip;
        pets_import_defaults(&ip);
        pc_error err;
        ck_assert_int_eq(lacking[k].imp(lacking[k].path, &ip, &g, &err), PC_EUNAVAIL);
        ck_assert_str_eq(err.msg, lacking[k].msg);
        ck_assert_msg(memcmp(&g, &zero, sizeof g) == 0, "%s: the graph is not zeroed", lacking[k].fmt);
    }
}
END_TEST

START_TEST(stg_files)
{
    if (!tu_data("stg"))
        PC_SKIP("no shared data");
    ck_assert_int_ge(import_dir("stg", ".stg", pets_import_stg, 2, 0), 10);
    ck_assert_int_ge(import_dir("stg", ".stg", pets_import_stg, 4, 0.5), 10);
}
END_TEST

START_TEST(wfcommons_files)
{
    if (!tu_data("wfcommons"))
        PC_SKIP("no shared data");
    if (!pets_import_available("wfcommons"))
        PC_SKIP("built without jansson");
    ck_assert_int_ge(import_dir("wfcommons", ".json", pets_import_wfcommons, 4, 0.5), 5);
}
END_TEST

START_TEST(dax_files)
{
    if (!tu_data("dax"))
        PC_SKIP("no shared data");
    if (!pets_import_available("dax"))
        PC_SKIP("built without libxml2");
    ck_assert_int_ge(import_dir("dax", ".xml", pets_import_dax, 3, 0.5), 5);
}
END_TEST

/* HEFT_paper.xml is the Topcuoglu graph: its file sizes / 125 are the
 * golden graph's communication costs, but for edge 3 -> 7 (20 there, 23 in
 * the paper). */
START_TEST(dax_heft_paper)
{
    const char *p = tu_data("dax/HEFT_paper.xml");
    if (!p)
        PC_SKIP("no shared data");
    if (!pets_import_available("dax"))
        PC_SKIP("built without libxml2");
    pets_import_params ip;
    pets_import_defaults(&ip);
    ip.procs = 3;
    ip.bandwidth = 125;
    ip.time_scale = 1;
    pets_dag a, b;
    pc_error err;
    ck_assert_msg(pets_import_dax(p, &ip, &a, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(pets_dag_read(tu_data("golden/topcuoglu2002.txt"), &b, &err), 0);
    ck_assert_int_eq(a.nedges, b.nedges);
    for (int32_t e = 0; e < a.nedges; e++) {
        ck_assert_int_eq(a.edge_from[e], b.edge_from[e]);
        ck_assert_int_eq(a.edge_to[e], b.edge_to[e]);
        if (a.edge_from[e] != 2 || a.edge_to[e] != 6)
            ck_assert_int_eq(a.edge_comm[e], b.edge_comm[e]);
    }
    pets_dag_free(&a);
    pets_dag_free(&b);
}
END_TEST

/* Case50_P_OPT.csv: optimal makespans on P identical processors without
 * communication; no schedule may beat them. */
START_TEST(stg_optimal_bounds)
{
    if (!tu_data("stg"))
        PC_SKIP("no shared data");
    int checked = 0;
    for (int P = 2; P <= 4; P += 2) {
        char csv[4096];
        snprintf(csv, sizeof csv, "%s", tu_data(P == 2 ? "stg/Case50_2_OPT.csv" : "stg/Case50_4_OPT.csv"));
        FILE *f = fopen(csv, "r");
        ck_assert_ptr_nonnull(f);
        char line[256];
        while (fgets(line, sizeof line, f)) {
            char name[64];
            int procs;
            long opt;
            if (sscanf(line, "50/%63[^,],%d,%ld", name, &procs, &opt) != 3)
                continue;
            char rel[128];
            snprintf(rel, sizeof rel, "stg/%s", name);
            const char *path = tu_data(rel);
            if (access(path, R_OK) != 0)
                continue;
            ck_assert_int_eq(procs, P);
            pets_import_params ip;
            pets_import_defaults(&ip);
            ip.procs = P;
            pets_dag g;
            pc_error err;
            ck_assert_msg(pets_import_stg(path, &ip, &g, &err) == 0, "%s", err.msg);
            for (int policy = 0; policy < 2; policy++) {
                pets_solution ref;
                tu_oracle(&g, policy, &ref);
                ck_assert_msg(ref.makespan >= opt, "%s on %d: makespan %lld beats the optimum %ld", name, P,
                              (long long)ref.makespan, opt);
                for (int i = 0; i < pets_nimpls; i++)
                    tu_check_impl(&pets_impls[i], &g, policy, &ref, name);
                pets_solution_free(&ref);
            }
            pets_dag_free(&g);
            checked++;
        }
        fclose(f);
    }
    ck_assert_int_ge(checked, 20);
}
END_TEST

typedef struct bad_import {
    importer imp;
    const char *fmt;
    const char *text;
    int code;
    const char *msg; /* the whole message after the directory; a final '*': its start */
} bad_import;

static const bad_import bads[] = {
    {pets_import_stg, "stg", "", PC_EFORMAT, "bad.stg: empty STG file"},
    {pets_import_stg, "stg", "2\n0 0 0\n1 5 1 0\n2 0 1 1\n", PC_EFORMAT, "bad.stg:4: 3 task lines for 2 tasks (expected 2 or 4)"},
    {pets_import_stg, "stg", "1\n0 0 0\n1 5 1 2\n2 0 1 1\n", PC_EFORMAT, "bad.stg:4: edge 2 3: the graph has a cycle through it"},
    {pets_import_stg, "stg", "1\n0 0 0\n1 5 1 7\n2 0 1 1\n", PC_EFORMAT, "bad.stg:3: task 1: unknown predecessor 7"},
    {pets_import_stg, "stg", "1\n0 0 0\n1 -5 1 0\n2 0 1 1\n", PC_ERANGE, "bad.stg:3: negative or too large number"},
    /* a cost is at most 2^40 = 1099511627776 (PETS_MAX_VALUE) */
    {pets_import_stg, "stg", "1\n0 0 0\n1 1099511627777 1 0\n2 0 1 1\n", PC_ERANGE, "bad.stg:3: negative or too large number"},
    {pets_import_stg, "stg", "1\n0 0 0\n1 99999999999999999999 1 0\n2 0 1 1\n", PC_ERANGE, "bad.stg:3: negative or too large number"},
    {pets_import_stg, "stg", "1\n0 0 0\n1 5 1 0 0\n2 0 1 1\n", PC_EFORMAT, "bad.stg:3: task 1: more than 1 predecessors"},
    {pets_import_stg, "stg", "1\n0 0 0\n1 5-3 1 0\n2 0 1 1\n", PC_EFORMAT, "bad.stg:3: not a whole number"},
    {pets_import_stg, "stg", "1\n0 0 0\n1 +5 1 0\n2 0 1 1\n", PC_EFORMAT, "bad.stg:3: not a whole number"},
    {pets_import_stg, "stg", "1\n0 0 0\n2 5 1 0\n2 0 1 1\n", PC_EFORMAT, "bad.stg:3: task id 2, expected 1"},
    {pets_import_stg, "stg", "1\n0 0 0\n1 5 2 0\n2 0 1 1\n", PC_EFORMAT, "bad.stg:3: task 1: expected 2 predecessors"},
    {pets_import_stg, "stg", "1000000\n0 0 0\n", PC_EFORMAT, "bad.stg:1: declares 1000000 tasks but the file holds only 14 bytes"},
    /* without the dummy rows a predecessor may name one of them: unknown */
    {pets_import_stg, "stg", "2\n0 5 0\n1 5 1 3\n", PC_EFORMAT, "bad.stg:3: unknown predecessor 3"},
    {pets_import_stg, "stg", "0\n0 0 0\n1 0 1 0\n", PC_EFORMAT, "bad.stg:1: expected the task count (1..16777214) alone on the first line"},
    {pets_import_stg, "stg", "1\n0 0 0\n1 5 1 0\n2 0 1 1\n2 0 1 1\n", PC_EFORMAT, "bad.stg:5: more than 3 task lines"},
    {pets_import_wfcommons, "wfcommons", "{\"workflow\": [1, 2,\n}", PC_EFORMAT, "bad.wfcommons:2: *"},
    {pets_import_wfcommons, "wfcommons", "{\"workflow\": {}}", PC_EFORMAT, "bad.wfcommons: not a WfCommons 1.5 instance (needs workflow.specification.tasks and workflow.execution.tasks)"},
    {pets_import_wfcommons, "wfcommons",
     "{\"workflow\":{\"specification\":{\"tasks\":[{\"id\":\"a\",\"parents\":[\"zz\"]}],\"files\":[]},"
     "\"execution\":{\"tasks\":[{\"id\":\"a\",\"runtimeInSeconds\":1}]}}}", PC_EFORMAT, "bad.wfcommons: task a: unknown parent"},
    {pets_import_wfcommons, "wfcommons",
     "{\"workflow\":{\"specification\":{\"tasks\":[{\"id\":\"a\",\"parents\":[\"a\"]}],\"files\":[]},"
     "\"execution\":{\"tasks\":[{\"id\":\"a\",\"runtimeInSeconds\":1}]}}}", PC_EFORMAT, "bad.wfcommons: edge 1 1: self-loop"},
    {pets_import_wfcommons, "wfcommons",
     "{\"workflow\":{\"specification\":{\"tasks\":[{\"id\":\"a\",\"parents\":[]}],\"files\":[]},"
     "\"execution\":{\"tasks\":[]}}}", PC_EFORMAT, "bad.wfcommons: task a has no runtime in workflow.execution"},
    {pets_import_wfcommons, "wfcommons",
     "{\"workflow\":{\"specification\":{\"tasks\":[{\"id\":\"a\",\"parents\":[],\"inputFiles\":\"f\"}],"
     "\"files\":[]},\"execution\":{\"tasks\":[{\"id\":\"a\",\"runtimeInSeconds\":1}]}}}", PC_EFORMAT, "bad.wfcommons: task a: inputFiles is not an array"},
    {pets_import_wfcommons, "wfcommons",
     "{\"workflow\":{\"specification\":{\"tasks\":[{\"id\":\"a\",\"parents\":[],\"outputFiles\":[7]}],"
     "\"files\":[]},\"execution\":{\"tasks\":[{\"id\":\"a\",\"runtimeInSeconds\":1}]}}}", PC_EFORMAT, "bad.wfcommons: task a: outputFiles holds a non-string"},
    {pets_import_wfcommons, "wfcommons",
     "{\"workflow\":{\"specification\":{\"tasks\":[{\"id\":\"a\",\"parents\":[]}],\"files\":[]},"
     "\"execution\":{\"tasks\":[{\"id\":\"a\",\"runtimeInSeconds\":-1}]}}}", PC_ERANGE, "bad.wfcommons: task a: runtime -1 is negative or too large"},
    {pets_import_dax, "dax", "<adag><job id=\"a\" runtime=\"1\"></adag>", PC_EFORMAT, "bad.dax:1: XML: *"},
    {pets_import_dax, "dax", "<dag/>", PC_EFORMAT, "bad.dax:1: root element is not <adag>"},
    {pets_import_dax, "dax", "<adag>\n<job id=\"a\"/>\n</adag>", PC_EFORMAT, "bad.dax:2: job a: missing or bad runtime"},
    {pets_import_dax, "dax",
     "<adag>\n<job id=\"a\" runtime=\"1\"/>\n<child ref=\"a\">\n<parent ref=\"b\"/>\n</child>\n</adag>", PC_EFORMAT, "bad.dax:4: <parent> names no job"},
    {pets_import_dax, "dax",
     "<adag>\n<job id=\"a\" runtime=\"1\"/>\n<job id=\"b\" runtime=\"1\"/>\n"
     "<child ref=\"a\"><parent ref=\"b\"/></child>\n<child ref=\"b\"><parent ref=\"a\"/></child>\n</adag>", PC_EFORMAT, "bad.dax:5: edge 1 2: the graph has a cycle through it"},
    /* a <child> without ref names no job (not the second one) */
    {pets_import_dax, "dax",
     "<adag>\n<job id=\"a\" runtime=\"1\"/>\n<job id=\"b\" runtime=\"1\"/>\n<child>\n<parent ref=\"a\"/>\n</child>\n</adag>", PC_EFORMAT, "bad.dax:4: <child> names no job"},
    {pets_import_dax, "dax", "<adag>\n<job id=\"a\" runtime=\"1\"/>\n<job id=\"a\" runtime=\"2\"/>\n</adag>", PC_EFORMAT, "bad.dax:3: job id a given twice"},
    /* a declared entity is not expanded: refused, not read as its name */
    /* of two repeated ids, the repeat that comes first in the file */
    {pets_import_dax, "dax",
     "<adag>\n<job id=\"b\" runtime=\"1\"/>\n<job id=\"a\" runtime=\"1\"/>\n<job id=\"b\" runtime=\"2\"/>\n"
     "<job id=\"a\" runtime=\"2\"/>\n</adag>",
     PC_EFORMAT, "bad.dax:4: job id b given twice"},
    {pets_import_dax, "dax", "<!DOCTYPE adag [<!ENTITY e \"x\">]>\n<adag>\n<job id=\"a&e;\" runtime=\"1\"/></adag>", PC_EFORMAT, "bad.dax:3: <job id>: entity references are not expanded"},
    /* DTD default attributes are not read */
    {pets_import_dax, "dax", "<!DOCTYPE adag [<!ATTLIST job runtime CDATA \"5\">]>\n<adag><job id=\"a\"/></adag>", PC_EFORMAT, "bad.dax:2: job a: missing or bad runtime"},
    {pets_import_dax, "dax", "<adag><job id=\"a\" runtime=\"1\"/></adag><adag/>", PC_EFORMAT, "bad.dax:1: XML: *"},
};

START_TEST(bad_import_files)
{
    char dir[] = "/tmp/pets-bad-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        if (!pets_import_available(bads[i].fmt))
            continue;
        char path[256];
        snprintf(path, sizeof path, "%s/bad.%s", dir, bads[i].fmt);
        FILE *f = fopen(path, "w");
        fputs(bads[i].text, f);
        fclose(f);
        pets_import_params ip;
        pets_import_defaults(&ip);
        pets_dag g;
        pc_error err;
        pc_error_clear(&err);
        int rc = bads[i].imp(path, &ip, &g, &err);
        ck_assert_msg(rc == bads[i].code, "case %zu: rc %d (%s)", i, rc, err.msg);
        size_t dl = strlen(dir), ml = strlen(bads[i].msg);
        int prefix = ml > 0 && bads[i].msg[ml - 1] == '*';
        ck_assert_msg(!strncmp(err.msg, dir, dl) && err.msg[dl] == '/' &&
                          (prefix ? !strncmp(err.msg + dl + 1, bads[i].msg, ml - 1)
                                  : !strcmp(err.msg + dl + 1, bads[i].msg)),
                      "case %zu: '%s', expected '%s/%s'", i, err.msg, dir, bads[i].msg);
        ck_assert_int_eq(pc_alloc_live(), 0);
        unlink(path);
    }
    rmdir(dir);
}
END_TEST

/* Writes text to a new temporary file made from the template path (its
 * name comes back in path). */
static void write_temp(char *path, const char *text)
{
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Writes text to a temporary .dax file and imports it with ip. */
static int import_text_with(const char *text, const pets_import_params *ip, pets_dag *g, pc_error *err)
{
    char path[] = "/tmp/pets-dax-XXXXXX";
    write_temp(path, text);
    pc_error_clear(err);
    int rc = pets_import_dax(path, ip, g, err);
    unlink(path);
    return rc;
}

/* Imports text with ip and checks its edges: exactly ne, edge k from
 * task from[k] to to[k] (0-based) costing comm[k] (-1: any cost). */
static void assert_edges(const char *text, const pets_import_params *ip, int ne, const int32_t *from,
                         const int32_t *to, const int64_t *comm)
{
    pets_dag g;
    pc_error err;
    ck_assert_msg(import_text_with(text, ip, &g, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(g.nedges, ne);
    for (int k = 0; k < ne; k++)
        ck_assert_msg(g.edge_from[k] == from[k] && g.edge_to[k] == to[k] &&
                          (comm[k] < 0 || g.edge_comm[k] == comm[k]),
                      "edge %d: %d -> %d costing %lld", k, g.edge_from[k], g.edge_to[k],
                      (long long)g.edge_comm[k]);
    pets_dag_free(&g);
}

/* Writes text to a temporary .dax file and imports it on 2 processors. */
static int import_text(const char *text, pets_dag *g, pc_error *err)
{
    pets_import_params ip;
    pets_import_defaults(&ip);
    ip.procs = 2;
    return import_text_with(text, &ip, g, err);
}

/* Index of edge a -> b in g, or -1. */
static int edge_index(const pets_dag *g, int32_t a, int32_t b)
{
    for (int32_t k = 0; k < g->nedges; k++)
        if (g->edge_from[k] == a && g->edge_to[k] == b)
            return k;
    return -1;
}

/* The XML forms the SAX2 reader must take as a tree reader would: only
 * <job>/<child> under the root and <uses>/<parent> under them count;
 * namespaces, comments, CDATA, PIs and other elements are skipped;
 * '&amp;' and character references are decoded. */
START_TEST(dax_xml_forms)
{
    if (!pets_import_available("dax"))
        PC_SKIP("built without libxml2");
    pets_dag g;
    pc_error err;
    const char *text =
        "<?xml version=\"1.0\"?>\n<!-- a comment -->\n"
        "<d:adag xmlns:d=\"http://pegasus.isi.edu/schema/DAX\" xmlns:o=\"urn:other\">\n"
        "<?pi ignored?><![CDATA[<job id=\"cdata\" runtime=\"1\"/>]]>\n"
        "<d:job id=\"a&amp;b\" runtime=\"2\" o:runtime=\"9\">"
        "<uses file=\"f\" link=\"output\" size=\"250000000\"/><x><uses file=\"f\" link=\"output\" size=\"5e8\"/></x>"
        "</d:job>\n"
        "<x><job id=\"nested\" runtime=\"1\"/></x>\n"
        "<job id=\"c\" runtime=\"3\"><uses name=\"f\" link=\"input\"/></job>\n"
        "<child ref=\"c\"><parent ref=\"a&#38;b\"/><x><parent ref=\"c\"/></x></child>\n"
        "</d:adag>\n";
    ck_assert_msg(import_text(text, &g, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(g.ntasks, 2);
    ck_assert_int_eq(g.nedges, 1);
    int k = edge_index(&g, 0, 1);
    ck_assert_int_ge(k, 0);
    /* 250 MB at 125e6 B/s = 2 s = 2000 units (the <uses> inside <x> is not read) */
    ck_assert_int_eq(g.edge_comm[k], 2000);
    /* the runtime of the first job is its own, not the o: namespace's */
    ck_assert_int_eq(g.cost[0] + g.cost[1], 2 * 2000);
    pets_dag_free(&g);
    ck_assert_int_eq(pc_alloc_live(), 0);

    /* line numbers past 65535 (a tree keeps 16 bits of them) */
    size_t nl = 70000;
    char *big = malloc(nl + 64);
    ck_assert_ptr_nonnull(big);
    strcpy(big, "<adag>");
    memset(big + 6, '\n', nl);
    strcpy(big + 6 + nl, "<job id=\"a\"/></adag>");
    ck_assert_int_eq(import_text(big, &g, &err), PC_EFORMAT);
    ck_assert_msg(strstr(err.msg, ":70001: job a: missing or bad runtime"), "%s", err.msg);
    free(big);
    ck_assert_int_eq(pc_alloc_live(), 0);
}
END_TEST

/* What the shared workflow step (pets_import_workflow) makes of the
 * parsed DAX: a graph without edges, and the bytes of an edge summed over
 * its files in name order (a task's file references are sorted by file),
 * deterministic where a sum in document order would round, at bandwidth
 * 1 B/s and 1 unit/s, to another unit. */
START_TEST(dax_workflow_edges)
{
    if (!pets_import_available("dax"))
        PC_SKIP("built without libxml2");
    pets_dag g;
    pc_error err;
    ck_assert_msg(import_text("<adag><job id=\"a\" runtime=\"1\"/><job id=\"b\" runtime=\"2\"/></adag>", &g, &err) ==
                      0,
                  "%s", err.msg);
    ck_assert_int_eq(g.ntasks, 2);
    ck_assert_int_eq(g.nedges, 0);
    pets_dag_free(&g);
    /* z is 2^39 + 1/2 - 2^-12 bytes, b1..b4 2^-14 each (an ulp of z is
     * 2^-13): z first keeps z (each small term is half an ulp, a tie to
     * even), which rounds down; b1..b4 first add 2 ulps, z + 2^-12 = 2^39 +
     * 1/2, which rounds up */
    const char *text = "<adag>\n"
                       "<job id=\"p\" runtime=\"1\">"
                       "<uses file=\"z\" link=\"output\" size=\"549755813888.499755859375\"/>"
                       "<uses file=\"b1\" link=\"output\" size=\"0.00006103515625\"/>"
                       "<uses file=\"b2\" link=\"output\" size=\"0.00006103515625\"/>"
                       "<uses file=\"b3\" link=\"output\" size=\"0.00006103515625\"/>"
                       "<uses file=\"b4\" link=\"output\" size=\"0.00006103515625\"/></job>\n"
                       "<job id=\"c\" runtime=\"1\">"
                       "<uses file=\"z\" link=\"input\"/><uses file=\"b1\" link=\"input\"/>"
                       "<uses file=\"b2\" link=\"input\"/><uses file=\"b3\" link=\"input\"/>"
                       "<uses file=\"b4\" link=\"input\"/></job>\n"
                       "<child ref=\"c\"><parent ref=\"p\"/></child>\n</adag>\n";
    pets_import_params ip;
    pets_import_defaults(&ip);
    ip.procs = 1;
    ip.bandwidth = 1;
    ip.time_scale = 1;
    ck_assert_msg(import_text_with(text, &ip, &g, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(g.nedges, 1);
    ck_assert_int_eq(g.edge_comm[0], (1LL << 39) + 1);
    pets_dag_free(&g);
    /* an edge costs only what its parent writes and its child reads: c
     * also reads "in", which no job writes (a workflow input), and "y",
     * which only a writes; b -> c (the second edge) carries 5 bytes */
    text = "<adag>\n"
           "<job id=\"a\" runtime=\"1\"><uses file=\"y\" link=\"output\" size=\"3\"/></job>\n"
           "<job id=\"b\" runtime=\"1\"><uses file=\"x\" link=\"output\" size=\"5\"/></job>\n"
           "<job id=\"c\" runtime=\"1\"><uses file=\"in\" link=\"input\" size=\"1000\"/>"
           "<uses file=\"x\" link=\"input\"/><uses file=\"y\" link=\"input\"/></job>\n"
           "<child ref=\"c\"><parent ref=\"a\"/><parent ref=\"b\"/></child>\n</adag>\n";
    assert_edges(text, &ip, 2, (const int32_t[]){0, 1}, (const int32_t[]){2, 2},
                 (const int64_t[]){3, 5});
    /* a (parent, child) pair given twice, another child of the same parent
     * between them: one edge, as if given once */
    text = "<adag>\n"
           "<job id=\"a\" runtime=\"1\"><uses file=\"x\" link=\"output\" size=\"5\"/></job>\n"
           "<job id=\"b\" runtime=\"1\"><uses file=\"x\" link=\"input\"/></job>\n"
           "<job id=\"c\" runtime=\"1\"><uses file=\"x\" link=\"input\"/></job>\n"
           "<child ref=\"b\"><parent ref=\"a\"/></child>\n"
           "<child ref=\"c\"><parent ref=\"a\"/></child>\n"
           "<child ref=\"b\"><parent ref=\"a\"/></child>\n</adag>\n";
    assert_edges(text, &ip, 2, (const int32_t[]){0, 0}, (const int32_t[]){1, 2},
                 (const int64_t[]){5, 5});
    /* the pair given twice is its parent's last, and another parent's
     * edge follows it: still one edge for the pair */
    text = "<adag>\n"
           "<job id=\"a\" runtime=\"1\"/>\n<job id=\"b\" runtime=\"1\"/>\n"
           "<job id=\"c\" runtime=\"1\"/>\n<job id=\"d\" runtime=\"1\"/>\n"
           "<child ref=\"b\"><parent ref=\"a\"/></child>\n"
           "<child ref=\"b\"><parent ref=\"a\"/></child>\n"
           "<child ref=\"d\"><parent ref=\"c\"/></child>\n</adag>\n";
    assert_edges(text, &ip, 2, (const int32_t[]){0, 2}, (const int32_t[]){1, 3},
                 (const int64_t[]){-1, -1});
    ck_assert_int_eq(pc_alloc_live(), 0);
}
END_TEST

/* A WfCommons file's communication: the bytes of the files a parent
 * writes and its child reads, here on the second task of the list (the
 * child), so each task's inputs and outputs must be filed under that task. */
START_TEST(wfcommons_workflow_edges)
{
    if (!pets_import_available("wfcommons"))
        PC_SKIP("built without jansson");
    const char *text =
        "{\"workflow\":{\"specification\":{\"tasks\":["
        "{\"id\":\"p\",\"parents\":[],\"outputFiles\":[\"f\",\"g\"]},"
        "{\"id\":\"c\",\"parents\":[\"p\"],\"inputFiles\":[\"f\"],\"outputFiles\":[\"h\"]}],"
        "\"files\":[{\"id\":\"f\",\"sizeInBytes\":1000},{\"id\":\"g\",\"sizeInBytes\":20},"
        "{\"id\":\"h\",\"sizeInBytes\":300}]},"
        "\"execution\":{\"tasks\":[{\"id\":\"p\",\"runtimeInSeconds\":2},"
        "{\"id\":\"c\",\"runtimeInSeconds\":3}]}}}";
    char path[] = "/tmp/pets-wfc-XXXXXX";
    write_temp(path, text);
    pets_import_params ip;
    pets_import_defaults(&ip);
    ip.procs = 1;
    ip.bandwidth = 1;
    ip.time_scale = 1;
    pets_dag g;
    pc_error err;
    int rc = pets_import_wfcommons(path, &ip, &g, &err);
    unlink(path);
    ck_assert_msg(rc == 0, "%s", err.msg);
    ck_assert_int_eq(g.ntasks, 2);
    ck_assert_int_eq(g.nedges, 1);
    ck_assert_int_eq(g.edge_from[0], 0);
    ck_assert_int_eq(g.edge_to[0], 1);
    ck_assert_int_eq(g.edge_comm[0], 1000); /* f only: g is not read, h is c's own */
    pets_dag_free(&g);
    ck_assert_int_eq(pc_alloc_live(), 0);
}
END_TEST

static const char *g_path;
static importer g_imp;
static pets_dag g_dag;

static int op_import(void *ctx)
{
    (void)ctx;
    pets_import_params ip;
    pets_import_defaults(&ip);
    ip.eta = 0.5;
    return g_imp(g_path, &ip, &g_dag, NULL);
}

static void op_free(void *ctx)
{
    (void)ctx;
    pets_dag_free(&g_dag);
}

/* The processor count of an import is checked before any cost is
 * allocated: 0 and more than PETS_MAX_PROCS are refused, named. */
START_TEST(processor_counts_refused)
{
    char path[] = "/tmp/pets-stg-XXXXXX";
    write_temp(path, "1\n0 0 0\n1 5 1 0\n2 0 1 1\n");
    static const int32_t procs[] = {0, PETS_MAX_PROCS + 1, 1, PETS_MAX_PROCS};
    for (int k = 0; k < 4; k++) {
        pets_import_params ip;
        pets_import_defaults(&ip);
        ip.procs = procs[k];
        pets_dag g;
        pc_error err;
        pc_error_clear(&err);
        int rc = pets_import_stg(path, &ip, &g, &err);
        if (k >= 2) { /* 1 and the limit itself are fine */
            ck_assert_msg(rc == 0, "%s", err.msg);
            ck_assert_int_eq(g.nprocs, procs[k]);
            pets_dag_free(&g);
            continue;
        }
        ck_assert_int_eq(rc, PC_ERANGE);
        char want[128];
        snprintf(want, sizeof want, "%s: 3 tasks on %d processors: too many costs", path, procs[k]);
        ck_assert_str_eq(err.msg, want);
    }
    unlink(path);
    ck_assert_int_eq(pc_alloc_live(), 0);
    /* seconds to time units: rounded half up; below zero (however little)
     * or past the cost limit refused */
    static const struct {
        double sec, scale;
        int rc;
        int64_t units;
    } unit[] = {{2.5, 1.0, 0, 3}, {0.4, 1.0, 0, 0}, {-0.0, 1.0, 0, 0}, {1.5, 10.0, 0, 15},
                {-0.4, 1.0, PC_ERANGE, 0}, {-1e-300, 1.0, PC_ERANGE, 0},
                {(double)PETS_MAX_VALUE, 1.0, 0, PETS_MAX_VALUE}, {(double)PETS_MAX_VALUE, 2.0, PC_ERANGE, 0}};
    for (size_t k = 0; k < sizeof unit / sizeof unit[0]; k++) {
        int64_t u = -7;
        ck_assert_int_eq(pets_import_units(unit[k].sec, unit[k].scale, &u), unit[k].rc);
        ck_assert_int_eq(u, unit[k].rc ? -7 : unit[k].units);
    }
    /* the task count, which every importer bounds itself before: refused
     * by the shared finish too, by name */
    static const int32_t counts[] = {0, PETS_MAX_TASKS + 1};
    for (int k = 0; k < 2; k++) {
        pets_import_params ip;
        pets_import_defaults(&ip);
        pets_dag g;
        pc_error err;
        int64_t mean[1] = {1};
        ck_assert_int_eq(pets_import_finish(&g, "w.json", counts[k], mean, NULL, 0, &ip, &err), PC_ERANGE);
        char want[96];
        snprintf(want, sizeof want, "w.json: %d tasks: must be within [1, %d]", counts[k], PETS_MAX_TASKS);
        ck_assert_str_eq(err.msg, want);
    }
}
END_TEST

START_TEST(alloc_failures)
{
    if (!tu_data("stg"))
        PC_SKIP("no shared data");
    static char p1[4096], p2[4096], p3[4096];
    snprintf(p1, sizeof p1, "%s", tu_data("stg/rand0000.stg"));
    snprintf(p2, sizeof p2, "%s", tu_data("wfcommons/helloworld-forkjoin-10-chameleon.json"));
    snprintf(p3, sizeof p3, "%s", tu_data("dax/Montage_25.xml"));
    g_path = p1;
    g_imp = pets_import_stg;
    ck_assert_int_gt(pc_test_alloc_loop(op_import, op_free, NULL, 100000), 3);
    if (pets_import_available("wfcommons")) {
        g_path = p2;
        g_imp = pets_import_wfcommons;
        ck_assert_int_gt(pc_test_alloc_loop(op_import, op_free, NULL, 100000), 3);
    }
    if (pets_import_available("dax")) {
        g_path = p3;
        g_imp = pets_import_dax;
        ck_assert_int_gt(pc_test_alloc_loop(op_import, op_free, NULL, 100000), 3);
    }
}
END_TEST

static Suite *suite_import(void)
{
    Suite *s = suite_create("pets_import");
    TCase *tc = pc_tcase("import");
    tcase_add_test(tc, importers_available);
    tcase_add_test(tc, stg_files);
    tcase_add_test(tc, wfcommons_files);
    tcase_add_test(tc, wfcommons_workflow_edges);
    tcase_add_test(tc, dax_files);
    tcase_add_test(tc, dax_heft_paper);
    tcase_add_test(tc, dax_xml_forms);
    tcase_add_test(tc, dax_workflow_edges);
    tcase_add_test(tc, stg_optimal_bounds);
    tcase_add_test(tc, bad_import_files);
    tcase_add_test(tc, processor_counts_refused);
    tcase_add_test(tc, alloc_failures);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return pc_test_run(suite_import()); }
