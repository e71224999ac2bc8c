/* options.h — a table-driven option parser (in the spirit of git's parse-options): one
 * declaration gives parsing, --help text, completion and the man-page consistency test.
 *
 * The bottom of the CLI: it includes only util and knows no command.  The program hands it its
 * global flags and command table (CliProgram) as arguments; the tables live with the commands
 * (cmd/app.c, cmd/global_options.c).
 *
 * Option tables are arrays terminated by OPT_END_MARK.  value points at storage owned by the
 * caller (static variables in each cmd_*.c file).  Strings stored are borrowed from argv.
 */
#ifndef KGPU_OPTIONS_H
#define KGPU_OPTIONS_H
#include <stdbool.h>
#include <stdio.h>
#include "util/util.h"

typedef enum { OPT_END, OPT_BOOL, OPT_STRING, OPT_INT, OPT_COUNT, OPT_DURATION, OPT_DOUBLE,
               OPT_STRINGS /* repeatable: each value appended to an OptStrings */ } OptType;

/* the values of a repeatable string flag (-f A -f B), borrowed from argv, in order */
#define OPT_STRINGS_MAX 64
typedef struct { const char *v[OPT_STRINGS_MAX]; int n; } OptStrings;

typedef struct {
    OptType type;
    char short_name;            /* 0 if none */
    const char *long_name;      /* without "--" */
    void *value;                /* bool*, const char**, int*, int* (count), double* (seconds), double*,
                                   OptStrings* */
    const char *argname;        /* "PATH", "NAME" ... (NULL for bools) */
    const char *help;
    const char *const *choices; /* NULL-terminated allowed values, or NULL; one ending in '='
                                 * takes any value after it ("custom-columns=" takes
                                 * "custom-columns=NAME:.name"), or the word alone */
    const char *complete;       /* completion source: "file", "node", "pod", "namespace", "context", ... */
} Option;
#define OPT_END_MARK { OPT_END, 0, NULL, NULL, NULL, NULL, NULL, NULL }

struct Error;
/* The flag values a command runs with: the program's own struct (cmd/global_options.h).  The
 * library never looks inside it; it only appears in the type of Command.run, which the
 * library never calls. */
struct GlobalOptions;

/* OUT_COLUMNS: kubectl's custom-columns=SPEC or custom-columns-file=FILE (render/custom_columns.h
 * reads the -o value itself) */
typedef enum { OUT_DEFAULT = 0, OUT_TABLE, OUT_WIDE, OUT_JSON, OUT_YAML, OUT_TEXT, OUT_SCRIPT, OUT_NAME,
               OUT_COLUMNS } OutputFormat;

/* One row of the program's command table (the table lives with the commands, cmd/app.c, as
 * git's cmd_struct table lives in git.c): what the library needs to parse the command's flags,
 * check its arguments' count and print its help.  run is the program's; the library does not
 * call it. */
typedef struct Command {
    const char *name;
    const char *summary;         /* one line */
    const char *usage;           /* "kubectl gpu status [NODE...] [flags]" */
    const char *description;     /* the long text, as the man page says it; --help prints, in
                                  * kubectl's order, summary, examples, options (wrapped to the
                                  * terminal) and usage, not this */
    const char *examples;        /* lines of examples */
    const Option *options;       /* command flags */
    int min_args, max_args;      /* positional arguments; max -1 = unbounded */
    /* argv = positionals only.  Returns an exit code; on failure with err set, main prints
     * "error: <msg>" once (and, for EXIT_USAGE, where to read the usage). */
    int (*run)(int argc, char **argv, struct GlobalOptions *g, struct Error *err);
} Command;

/* The program's command line as the library is handed it: the global flags (valid before and
 * after the subcommand word) and the commands.  The library holds no table of its own. */
typedef struct CliProgram {
    const Option *global_options;        /* OPT_END_MARK-terminated */
    const Command *const *commands;      /* NULL-terminated; names starting "__" are hidden */
} CliProgram;

/* Parse argv against the tables (flags anywhere, "--" ends them).  Positionals are collected
 * into *pos (borrowed).  On error prints a usage message naming cmdname's help and returns
 * EXIT_USAGE; returns 0 on success. */
int options_parse(int argc, char **argv, const Option *const *tables, size_t ntables,
                  Strvec *pos, const char *cmdname);

/* The whole command line, argv[1..argc-1], in one pass: global flags up to the first word
 * that is not a flag (a "--" there is skipped); that word, when it names a command of the
 * program, is the subcommand, and the rest is parsed against the global flags plus the
 * command's own, its positionals collected in pos.  A first word that names no command
 * ("help", a typo) ends the parse there: word and next tell the caller where.  Returns 0, or
 * EXIT_USAGE after printing the usage error. */
typedef struct CliArgs {
    const char *word;            /* the first non-flag word, NULL when there is none */
    const Command *cmd;          /* the command word names, NULL when it names none */
    int next;                    /* index in argv of the word after word (argc when none) */
    Strvec pos;                  /* the command's positionals, borrowed from argv */
} CliArgs;
int cli_parse(const CliProgram *prog, int argc, char **argv, CliArgs *out);
void cli_args_clear(CliArgs *a);   /* releases pos */

/* --help text: the program's (cmd NULL: its commands and global flags) or one command's, in
 * kubectl's order (summary, Examples, Options, Usage), wrapped to $COLUMNS or the terminal */
void options_print_help(FILE *f, const CliProgram *prog, const Command *cmd);
/* Option state is per run: every value a table points at is set back to what it held before
 * the first run (its declared default), so a second run in one process (a test, a fuzzer)
 * never sees the flags of the first.  Called by app_main before parsing. */
void options_reset(const Option *table);
/* value of -o as an OutputFormat; allowed lists the accepted formats; returns -1 on error
 * after printing the usage error */
int output_format_parse(const char *s, const OutputFormat *allowed, size_t nallowed,
                        OutputFormat *out, const char *cmdname);
const char *output_format_name(OutputFormat f);

/* The one printer of errors: "error: <msg>" on stderr (cleaned of control characters at the
 * sink), then hint verbatim when not NULL (what to read next).  Every command's error reaches
 * it once, from app_main; the flag parser's usage errors too. */
void cli_print_error(const struct Error *err, const char *hint);
/* "See 'kubectl gpu CMD --help' for usage.\n" (cmdname NULL: the top level's) into buf */
void cli_usage_hint(char *buf, size_t n, const char *cmdname);

/* the command of the program named name, hidden ones included, or NULL */
const Command *command_find(const CliProgram *prog, const char *name);
/* the command to suggest for a mistyped name ("did you mean"), or NULL */
const char *command_suggest(const CliProgram *prog, const char *name);
#endif
