/* options.h — global flags and a table-driven option parser (in the spirit of git's
 * parse-options): one declaration gives parsing, --help text, completion and the man-page
 * consistency test.
 *
 * Option tables are arrays terminated by OPT_END_MARK.  value points at storage owned by the
 * caller (static variables in each cmd_*.c file).  Strings stored are borrowed from argv.
 */
#ifndef KGPU_OPTIONS_H
#define KGPU_OPTIONS_H
#include <stdbool.h>
#include <stdio.h>
#include "sources/source_config.h"
#include "util/util.h"

typedef enum { OPT_END, OPT_BOOL, OPT_STRING, OPT_INT, OPT_COUNT, OPT_DURATION, OPT_DOUBLE } OptType;

typedef struct {
    OptType type;
    char short_name;            /* 0 if none */
    const char *long_name;      /* without "--" */
    void *value;                /* bool*, const char**, int*, int* (count), double* (seconds), double* */
    const char *argname;        /* "PATH", "NAME" ... (NULL for bools) */
    const char *help;
    const char *const *choices; /* NULL-terminated allowed values, or NULL; one ending in '='
                                 * takes any value after it ("custom-columns=" takes
                                 * "custom-columns=NAME:.name"), or the word alone */
    const char *complete;       /* completion source: "file", "node", "pod", "namespace", "context", ... */
} Option;
#define OPT_END_MARK { OPT_END, 0, NULL, NULL, NULL, NULL, NULL, NULL }

struct Error;

/* OUT_COLUMNS: kubectl's custom-columns=SPEC or custom-columns-file=FILE (render/custom_columns.h
 * reads the -o value itself) */
typedef enum { OUT_DEFAULT = 0, OUT_TABLE, OUT_WIDE, OUT_JSON, OUT_YAML, OUT_TEXT, OUT_SCRIPT, OUT_NAME,
               OUT_COLUMNS } OutputFormat;

typedef struct GlobalOptions {
    const char *kubeconfig, *context, *cluster, *user, *namespace_;
    bool all_namespaces;
    const char *selector;
    double request_timeout;      /* seconds; 0 = none */
    const char *snapshot;
    const char *prometheus;
    const char *prometheus_token;   /* also $KUBECTL_GPU_PROMETHEUS_TOKEN */
    const char *prometheus_user;    /* "user:password", also $KUBECTL_GPU_PROMETHEUS_BASIC_AUTH */
    bool no_metrics, no_color;
    int verbose;
    bool help, version;
    /* derived after parsing */
    bool color;                  /* stdout is a terminal, no --no-color, no NO_COLOR */
    bool namespace_explicit;     /* -n given */
    SourceConfig source;         /* what the sources are told (options_source_config) */
} GlobalOptions;

/* the SourceConfig of these options: kubeconfig overrides, timeout, snapshot, metrics flags,
 * verbosity (the one place the CLI's flags become the sources' configuration) */
SourceConfig options_source_config(const GlobalOptions *g);

extern const Option global_options[];
extern GlobalOptions global_storage;     /* where global_options store their values */

typedef struct Command {
    const char *name;
    const char *summary;         /* one line */
    const char *usage;           /* "kubectl gpu status [NODE...] [flags]" */
    const char *description;     /* paragraph(s) for --help and the man page */
    const char *examples;        /* lines of examples */
    const Option *options;       /* command flags */
    int min_args, max_args;      /* positional arguments; max -1 = unbounded */
    /* argv = positionals only.  Returns an exit code; on failure with err set, main prints
     * "error: <msg>" once (and, for EXIT_USAGE, where to read the usage). */
    int (*run)(int argc, char **argv, GlobalOptions *g, struct Error *err);
} Command;

/* Parse argv (after the subcommand word) against global_options + cmd->options.
 * Positionals are collected into *pos (borrowed).  On error prints a usage message and
 * returns EXIT_USAGE; returns 0 on success. */
int options_parse(int argc, char **argv, const Option *const *tables, size_t ntables,
                  Strvec *pos, const char *cmdname);
void options_print_help(FILE *f, const Command *cmd);      /* cmd NULL = top-level help */
/* Option state is per run: every value a table points at is set back to what it held before
 * the first run (its declared default), so a second run in one process (a test, a fuzzer)
 * never sees the flags of the first.  Called by kgpu_main before parsing. */
void options_reset(const Option *table);
/* value of -o as an OutputFormat; allowed lists the accepted formats; returns -1 on error
 * after printing the usage error */
int output_format_parse(const char *s, const OutputFormat *allowed, size_t nallowed,
                        OutputFormat *out, const char *cmdname);
const char *output_format_name(OutputFormat f);

/* The one printer of errors: "error: <msg>" on stderr (cleaned of control characters at the
 * sink), then hint verbatim when not NULL (what to read next).  Every command's error reaches
 * it once, from kgpu_main; the flag parser's usage errors too. */
void cli_print_error(const struct Error *err, const char *hint);
/* "See 'kubectl gpu CMD --help' for usage.\n" (cmdname NULL: the top level's) into buf */
void cli_usage_hint(char *buf, size_t n, const char *cmdname);

extern const Command *const commands[];     /* NULL-terminated, defined in commands.c */
const Command *command_find(const char *name);
/* the command to suggest for a mistyped name ("did you mean"), or NULL */
const char *command_suggest(const char *name);
#endif
