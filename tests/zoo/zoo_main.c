/* zoo_main.c - runs the zoo (zoo.h) and prints one line per entry, then
 *   zoo: N of N wrong implementations rejected
 * and the SUMMARY line of ci/run-tests.sh; a slipped class is named.
 * Usage: zoo [--only NAME] | zoo --race NAME THREADS | zoo --list */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zoo.h"

static const zoo_entry *const zoo_tables[] = {
    zoo_spmm_entries, zoo_sa_entries, zoo_pets_entries, zoo_sched_entries, NULL};

int main(int argc, char **argv)
{
    const char *only = NULL;
    if (argc == 4 && !strcmp(argv[1], "--race"))
        return zoo_spmm_race_once(argv[2], atoi(argv[3])) ? 2 : 0;
    if (argc == 3 && !strcmp(argv[1], "--only"))
        only = argv[2];
    else if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (int t = 0; zoo_tables[t]; t++)
            for (const zoo_entry *e = zoo_tables[t]; e->name; e++)
                printf("%-28s %s%s\n", e->name, e->control ? "(control) " : "", e->bug);
        return 0;
    } else if (argc != 1) {
        fprintf(stderr, "usage: zoo [--only NAME] | zoo --race NAME THREADS | zoo --list\n");
        return 2;
    }
    int wrong = 0, rejected = 0, controls = 0, accepted = 0, broken = 0;
    char slipped[1024] = "";
    for (int t = 0; zoo_tables[t]; t++) {
        for (const zoo_entry *e = zoo_tables[t]; e->name; e++) {
            if (only && strcmp(only, e->name))
                continue;
            char msg[512] = "";
            int r = e->run(e, msg, sizeof msg);
            const char *verdict;
            if (r == ZOO_BROKEN) {
                broken++;
                verdict = "BROKEN";
            } else if (e->control) {
                controls++;
                accepted += r == ZOO_REJECTED;
                verdict = r == ZOO_REJECTED ? "accepted" : "FAIL control rejected";
            } else {
                wrong++;
                rejected += r == ZOO_REJECTED;
                verdict = r == ZOO_REJECTED ? "rejected" : "FAIL slipped";
            }
            if (r != ZOO_REJECTED) {
                size_t l = strlen(slipped);
                snprintf(slipped + l, sizeof slipped - l, "%s%s", l ? ", " : "", e->name);
            }
            printf("%-10s %-28s %s: %s\n", verdict, e->name, e->bug, msg);
        }
    }
    printf("zoo: %d of %d wrong implementations rejected", rejected, wrong);
    if (slipped[0])
        printf(" (not rejected, or controls refused: %s)", slipped);
    printf("; %d of %d correct controls accepted\n", accepted, controls);
    int failed = (wrong - rejected) + (controls - accepted) + broken;
    printf("SUMMARY passed=%d failed=%d skipped=0\n", rejected + accepted, failed);
    return failed ? 1 : 0;
}
