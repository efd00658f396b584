/* cli_util.c - the few helpers every parcheck subcommand prints with. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_error(const char *cmd, const char *msg)
{
    fprintf(stderr, "parcheck %s: %s\n", cmd, msg);
    return CLI_USAGE;
}

/* The error comes first so that it is the line a user sees; the usage text
 * is one --help away rather than pushed in front of it. */
int cli_usage_error(const char *cmd, const char *msg)
{
    cli_error(cmd, msg);
    fprintf(stderr, "see 'parcheck %s --help'\n", cmd);
    return CLI_USAGE;
}

int cli_is_help(const char *arg)
{
    return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

/* The reasons of the lines printed since the last cli_list_end. More
 * distinct reasons than this in one list print in full on their line. */
#define LIST_NOTES 16
static char list_notes[LIST_NOTES][256];
static int list_nnotes;

/* The note number (1-based) of why, added when new; 0 when the table is
 * full. */
static int list_note(const char *why)
{
    for (int k = 0; k < list_nnotes; k++)
        if (!strcmp(list_notes[k], why))
            return k + 1;
    if (list_nnotes == LIST_NOTES)
        return 0;
    snprintf(list_notes[list_nnotes], sizeof list_notes[0], "%s", why);
    return ++list_nnotes;
}

void cli_list_line(FILE *f, const char *name, int available, const char *why,
                   const char *desc)
{
    int note = available ? 0 : list_note(why ? why : "");
    if (available)
        fprintf(f, "  %-28s available    %s\n", name, desc);
    else if (note)
        fprintf(f, "  %-28s unavailable  %s [%d]\n", name, desc, note);
    else
        fprintf(f, "  %-28s unavailable  %s (%s)\n", name, desc, why);
}

void cli_list_end(FILE *f)
{
    if (list_nnotes)
        fputs("unavailable because:\n", f);
    for (int k = 0; k < list_nnotes; k++)
        fprintf(f, "  [%d] %s\n", k + 1, list_notes[k]);
    list_nnotes = 0;
}
