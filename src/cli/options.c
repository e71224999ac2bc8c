/* options.c — the table-driven option parser, at the bottom of the CLI: it is handed the
 * program's global flags and command table (CliProgram) and includes only util.
 *
 * Flags may appear anywhere after the subcommand (kubectl passes them through to plugins in
 * the order typed): "--name=value", "--name value", "-n value", "-nvalue", "-Av" (bundled
 * booleans/counters), "--" ends the flags.  Unknown flags and bad values are usage errors
 * (exit 2) naming the flag.
 */
#include "cli/options.h"
#include "util/error.h"
#include "util/suggest.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const Option *find_short(const Option *const *tables, size_t n, char c);

static const Option *find_long(const Option *const *tables, size_t n, const char *name, size_t len)
{
    if (len == 1 && name[0] == 'v') {          /* kubectl's (klog's) --v=LEVEL */
        const Option *o = find_short(tables, n, 'v');
        if (o && o->type == OPT_COUNT) return o;
    }
    for (size_t t = 0; t < n; t++)
        for (const Option *o = tables[t]; o->type != OPT_END; o++)
            if (strlen(o->long_name) == len && strncmp(o->long_name, name, len) == 0) return o;
    return NULL;
}

static const Option *find_short(const Option *const *tables, size_t n, char c)
{
    for (size_t t = 0; t < n; t++)
        for (const Option *o = tables[t]; o->type != OPT_END; o++)
            if (o->short_name && o->short_name == c) return o;
    return NULL;
}

/* the long flag of the tables nearest to name (for "did you mean"), or NULL */
static const char *nearest_long(const Option *const *tables, size_t n, const char *name, size_t len)
{
    const char *cands[128];
    size_t k = 0;
    for (size_t t = 0; t < n; t++)
        for (const Option *o = tables[t]; o->type != OPT_END && k + 1 < sizeof cands / sizeof *cands; o++)
            cands[k++] = o->long_name;
    cands[k] = NULL;
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), name);
    return suggest_nearest(word, cands);
}

/* a verbosity level written as its own word after -v/--v/--verbose ("-v 3", as kubectl
 * takes it): 0..10, digits only */
static bool level_word(const char *s, int *level)
{
    int64_t v;
    if (!s || !*s || strspn(s, "0123456789") != strlen(s) || !str_to_int64(s, &v) || v > 10)
        return false;
    *level = (int)v;
    return true;
}

/* s as a terminal may show it: str_printable's cleaning (C0 controls and DEL as spaces, bytes
 * that are not UTF-8 as U+FFFD), then the C1 controls (U+0080-U+009F, which some terminals
 * obey) as one space each, as render's text_clean does for every other sink */
static char *printable_line(const char *s)
{
    char *c = str_printable(s, SIZE_MAX);
    size_t o = 0;
    for (size_t i = 0; c[i]; i++) {
        if ((unsigned char)c[i] == 0xC2 && (unsigned char)c[i + 1] >= 0x80 && (unsigned char)c[i + 1] <= 0x9F) {
            c[o++] = ' ';
            i++;
            continue;
        }
        c[o++] = c[i];
    }
    c[o] = '\0';
    return c;
}

void cli_print_error(const Error *err, const char *hint)
{
    char *msg = printable_line(err->msg);
    fprintf(stderr, "error: %s\n", msg);
    free(msg);
    if (hint) fputs(hint, stderr);
}

void cli_usage_hint(char *buf, size_t n, const char *cmdname)
{
    snprintf(buf, n, "See 'kubectl gpu %s%s--help' for usage.\n", cmdname ? cmdname : "", cmdname ? " " : "");
}

static int usage_error(const char *cmdname, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(const char *cmdname, const char *fmt, ...)
{
    Error e = { 0 };
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.msg, sizeof e.msg, fmt, ap);
    va_end(ap);
    e.set = true;
    char hint[160];
    cli_usage_hint(hint, sizeof hint, cmdname);
    cli_print_error(&e, hint);
    return EXIT_USAGE;
}

/* val is the choice c, or c ends in '=' and val is c's word with or without a value */
static bool choice_matches(const char *c, const char *val)
{
    size_t n = strlen(c);
    if (n && c[n - 1] == '=') return strncmp(c, val, n - 1) == 0 && (val[n - 1] == '\0' || val[n - 1] == '=');
    return strcmp(c, val) == 0;
}

/* a value not among the choices: the error lists them (kubectl lists the formats -o allows) */
static int bad_choice(const Option *o, const char *flag, const char *val, const char *cmdname)
{
    char list[512] = "";
    for (const char *const *c = o->choices; *c; c++) {
        size_t n = strlen(*c);
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s%s", c == o->choices ? "" : ", ", *c,
                 n && (*c)[n - 1] == '=' ? "..." : "");
    }
    bool output = strcmp(o->long_name, "output") == 0 && o->short_name == 'o';
    return usage_error(cmdname, "invalid value \"%s\" for %s: allowed %s are %s", val, flag,
                       output ? "formats" : "values", list);
}

static int set_value(const Option *o, const char *flag, const char *val, const char *cmdname)
{
    switch (o->type) {
    case OPT_STRING:
        if (o->choices) {
            bool okv = false;
            for (const char *const *c = o->choices; *c; c++) if (choice_matches(*c, val)) okv = true;
            if (!okv) return bad_choice(o, flag, val, cmdname);
        }
        *(const char **)o->value = val;
        return 0;
    case OPT_STRINGS: {
        OptStrings *sv = o->value;
        if (sv->n >= OPT_STRINGS_MAX) return usage_error(cmdname, "%s given more than %d times", flag, OPT_STRINGS_MAX);
        sv->v[sv->n++] = val;
        return 0;
    }
    case OPT_INT: {
        int64_t v;
        if (!str_to_int64(val, &v) || v < 0 || v > 1000000)
            return usage_error(cmdname, "invalid number \"%s\" for %s", val, flag);
        *(int *)o->value = (int)v;
        return 0;
    }
    case OPT_DOUBLE: {
        char *end;
        double v = strtod(val, &end);
        if (!*val || *end || v != v || v < 0 || v > 1e9)
            return usage_error(cmdname, "invalid number \"%s\" for %s", val, flag);
        *(double *)o->value = v;
        return 0;
    }
    case OPT_DURATION: {
        double s;
        if (!util_duration_parse(val, &s))
            return usage_error(cmdname, "invalid duration \"%s\" for %s (use e.g. 30s, 5m, 1h, 7d)", val, flag);
        *(double *)o->value = s;
        return 0;
    }
    default:
        return 0;
    }
}

/* --name, --name=value, --name value (which moves *i to the value) */
static int parse_long(int argc, char **argv, int *i, const Option *const *tables, size_t ntables,
                      const char *cmdname)
{
    const char *a = argv[*i];
    const char *name = a + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const Option *o = find_long(tables, ntables, name, len);
    char flag[128];
    snprintf(flag, sizeof flag, "--%.*s", (int)(len > 100 ? 100 : len), name);
    if (!o) {
        const char *near = nearest_long(tables, ntables, name, len);
        if (near) return usage_error(cmdname, "unknown flag: %s (did you mean --%s?)", flag, near);
        return usage_error(cmdname, "unknown flag: %s", flag);
    }
    if (o->type == OPT_BOOL) {
        if (eq) {
            if (strcmp(eq + 1, "true") == 0) *(bool *)o->value = true;
            else if (strcmp(eq + 1, "false") == 0) *(bool *)o->value = false;
            else return usage_error(cmdname, "invalid value \"%s\" for %s (true or false)", eq + 1, flag);
        } else {
            *(bool *)o->value = true;
        }
        return 0;
    }
    if (o->type == OPT_COUNT) {
        if (eq) {
            int64_t v;
            if (!str_to_int64(eq + 1, &v) || v < 0 || v > 10)
                return usage_error(cmdname, "invalid value \"%s\" for %s", eq + 1, flag);
            *(int *)o->value = (int)v;
        } else if (*i + 1 < argc && level_word(argv[*i + 1], (int *)o->value)) {
            ++*i;                                /* --v 3, --verbose 3 */
        } else {
            (*(int *)o->value)++;
        }
        return 0;
    }
    const char *val;
    if (eq) val = eq + 1;
    else if (*i + 1 < argc) val = argv[++*i];
    else return usage_error(cmdname, "flag needs an argument: %s", flag);
    return set_value(o, flag, val, cmdname);
}

/* short flags, possibly bundled: -Av, -nkube-system, -n kube-system, -v=3 */
static int parse_short(int argc, char **argv, int *i, const Option *const *tables, size_t ntables,
                       const char *cmdname)
{
    const char *a = argv[*i];
    for (const char *p = a + 1; *p; p++) {
        const Option *o = find_short(tables, ntables, *p);
        char flag[3] = { '-', *p, 0 };
        if (!o) return usage_error(cmdname, "unknown shorthand flag: '%s' in %s", flag + 1, a);
        if (o->type == OPT_BOOL) { *(bool *)o->value = true; continue; }
        if (o->type == OPT_COUNT) {
            if (p[1] == '=' || (p[1] >= '0' && p[1] <= '9')) {
                const char *v = p[1] == '=' ? p + 2 : p + 1;
                int64_t n;
                if (!str_to_int64(v, &n) || n < 0 || n > 10)
                    return usage_error(cmdname, "invalid value \"%s\" for %s", v, flag);
                *(int *)o->value = (int)n;
                break;
            }
            if (!p[1] && *i + 1 < argc && level_word(argv[*i + 1], (int *)o->value)) {
                ++*i;                                /* -v 3 */
                break;
            }
            (*(int *)o->value)++;
            continue;
        }
        const char *val;
        if (p[1]) val = p[1] == '=' ? p + 2 : p + 1;
        else if (*i + 1 < argc) val = argv[++*i];
        else return usage_error(cmdname, "flag needs an argument: %s", flag);
        int rc = set_value(o, flag, val, cmdname);
        if (rc) return rc;
        break;
    }
    return 0;
}

/* the flag word argv[*i] against the tables; a value in the next word moves *i past it */
static int parse_flag(int argc, char **argv, int *i, const Option *const *tables, size_t ntables,
                      const char *cmdname)
{
    return argv[*i][1] == '-' ? parse_long(argc, argv, i, tables, ntables, cmdname)
                              : parse_short(argc, argv, i, tables, ntables, cmdname);
}

int options_parse(int argc, char **argv, const Option *const *tables, size_t ntables,
                  Strvec *pos, const char *cmdname)
{
    bool only_pos = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (only_pos || a[0] != '-' || a[1] == '\0') { strvec_push(pos, a); continue; }
        if (strcmp(a, "--") == 0) { only_pos = true; continue; }
        int rc = parse_flag(argc, argv, &i, tables, ntables, cmdname);
        if (rc) return rc;
    }
    return 0;
}

int cli_parse(const CliProgram *prog, int argc, char **argv, CliArgs *out)
{
    memset(out, 0, sizeof *out);
    out->next = argc;
    const Option *tables[2] = { prog->global_options, NULL };
    size_t ntables = 1;
    int i = 1;
    for (; i < argc && !out->word; i++) {        /* global flags, then the subcommand word */
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) continue;
        if (a[0] != '-' || a[1] == '\0') { out->word = a; break; }
        int rc = parse_flag(argc, argv, &i, tables, ntables, NULL);
        if (rc) return rc;
    }
    if (!out->word) return 0;
    out->next = i + 1;
    out->cmd = command_find(prog, out->word);
    if (!out->cmd) return 0;                     /* "help", a typo: the caller's to answer */
    if (out->cmd->options) tables[ntables++] = out->cmd->options;
    return options_parse(argc - out->next, argv + out->next, tables, ntables, &out->pos, out->cmd->name);
}

void cli_args_clear(CliArgs *a)
{
    strvec_clear(&a->pos);
}

/* the width help is wrapped to: $COLUMNS, else the terminal's, else 80 (kubectl wraps its
 * help to the terminal too); at least 40 */
static size_t help_width(FILE *f)
{
    const char *cols = getenv("COLUMNS");
    int64_t v;
    if (cols && str_to_int64(cols, &v) && v >= 40 && v <= 1000) return (size_t)v;
    struct winsize ws;
    if (isatty(fileno(f)) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) return ws.ws_col;
    return 80;
}

/* text from column `at` to `width`, in words, continuation lines indented to `indent`; a word
 * may also break after a '|' (a choice list "(a|b|c)" wraps between its choices, never inside
 * one), and a piece longer than the room is put on a line of its own, whole */
static void print_wrapped(FILE *f, const char *text, size_t at, size_t indent, size_t width)
{
    size_t col = at;
    bool first = true, glued = false;         /* glued: the piece continues the word before */
    for (const char *p = text; *p;) {
        if (*p == ' ') { while (*p == ' ') p++; glued = false; continue; }
        size_t n = strcspn(p, " |");
        if (p[n] == '|') n++;
        size_t need = n + (first || glued ? 0 : 1);
        if (!first && col + need > width) {
            fprintf(f, "\n%*s", (int)indent, "");
            col = indent;
        } else if (!first && !glued) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", (int)n, p);
        col += n;
        first = false;
        glued = p[n - 1] == '|';
        p += n;
    }
    fputc('\n', f);
}

/* one option per entry: the flag, then its help wrapped beside it (or below it when the flag
 * is wider than the column), its choices at the end */
static void print_options(FILE *f, const Option *opts, size_t width)
{
    enum { COLUMN = 30 };                      /* where the help starts */
    for (const Option *o = opts; o->type != OPT_END; o++) {
        char left[128];
        int n = 0;
        if (o->short_name) n = snprintf(left, sizeof left, "  -%c, --%s", o->short_name, o->long_name);
        else n = snprintf(left, sizeof left, "      --%s", o->long_name);
        if (o->argname && n > 0 && (size_t)n < sizeof left)
            snprintf(left + n, sizeof left - (size_t)n, " %s", o->argname);
        Strbuf help = STRBUF_INIT;
        strbuf_adds(&help, o->help);
        if (o->choices) {
            strbuf_adds(&help, " (");
            for (const char *const *c = o->choices; *c; c++) strbuf_addf(&help, "%s%s", c == o->choices ? "" : "|", *c);
            strbuf_addch(&help, ')');
        }
        size_t l = strlen(left);
        if (l + 2 <= COLUMN) {
            fprintf(f, "%-*s", COLUMN, left);
        } else {
            fprintf(f, "%s\n%*s", left, COLUMN, "");
        }
        print_wrapped(f, strbuf_str(&help), COLUMN, COLUMN, width);
        strbuf_clear(&help);
    }
}

void options_print_help(FILE *f, const CliProgram *prog, const Command *cmd)
{
    size_t width = help_width(f);
    if (!cmd) {
        fputs("kubectl gpu — GPUs of a Kubernetes cluster as they really are: inventory and\n"
              "allocation, why GPU pods are Pending, and GPU sharing plans from observed usage.\n\n"
              "Usage:\n  kubectl gpu COMMAND [flags]\n\nCommands:\n", f);
        for (const Command *const *c = prog->commands; *c; c++) {
            if (strncmp((*c)->name, "__", 2) == 0) continue;   /* hidden: __complete */
            fprintf(f, "  %-12s %s\n", (*c)->name, (*c)->summary);
        }
        fputs("\nGlobal flags:\n", f);
        print_options(f, prog->global_options, width);
        fputs("\nExit status: 0 success, 1 the request could not be answered, 2 usage error.\n"
              "Use 'kubectl gpu COMMAND --help' for more about a command; 'man kubectl-gpu' for all.\n", f);
        return;
    }
    /* kubectl's order: what it does in a line, examples, options, usage; the long
     * description is the man page's */
    fprintf(f, "%s.\n", cmd->summary);
    if (cmd->examples) fprintf(f, "\nExamples:\n%s", cmd->examples);
    if (cmd->options && cmd->options->type != OPT_END) {
        fputs("\nOptions:\n", f);
        print_options(f, cmd->options, width);
    }
    fputs("\nUsage:\n", f);
    for (const char *line = cmd->usage; *line;) {        /* each line of it wrapped, indented */
        size_t n = strcspn(line, "\n");
        char *one = xstrndup(line, n);
        bool more = line != cmd->usage;                   /* a continuation line of it */
        fputs(more ? "       " : "  ", f);
        print_wrapped(f, one, more ? 7 : 2, 7, width);
        free(one);
        line += n + (line[n] == '\n');
    }
    fputc('\n', f);
    print_wrapped(f, "Global flags (-n, -A, --context, -v, ...): 'kubectl gpu --help'.  All the details: "
                     "'man kubectl-gpu'.", 0, 0, width);
}

static const char *format_names[] = { "", "table", "wide", "json", "yaml", "text", "script", "name",
                                      "custom-columns" };

const char *output_format_name(OutputFormat f)
{
    return (size_t)f < sizeof format_names / sizeof *format_names ? format_names[f] : "?";
}

int output_format_parse(const char *s, const OutputFormat *allowed, size_t nallowed,
                        OutputFormat *out, const char *cmdname)
{
    if (!s) { *out = allowed[0]; return 0; }
    for (size_t i = 0; i < nallowed; i++) {
        if (strcmp(s, format_names[allowed[i]]) == 0) { *out = allowed[i]; return 0; }
        if (allowed[i] == OUT_COLUMNS && (choice_matches("custom-columns=", s) || choice_matches("custom-columns-file=", s))) {
            *out = OUT_COLUMNS;
            return 0;
        }
    }
    char list[128] = "";
    for (size_t i = 0; i < nallowed; i++) {
        strncat(list, format_names[allowed[i]], sizeof list - strlen(list) - 1);
        if (i + 1 < nallowed) strncat(list, "|", sizeof list - strlen(list) - 1);
    }
    usage_error(cmdname, "unknown output format \"%s\" (use -o %s)", s, list);
    return -1;
}

const char *command_suggest(const CliProgram *prog, const char *name)
{
    const char *cands[32];
    size_t k = 0;
    for (const Command *const *c = prog->commands; *c && k + 1 < sizeof cands / sizeof *cands; c++)
        if (strncmp((*c)->name, "__", 2) != 0) cands[k++] = (*c)->name;   /* hidden: __complete */
    cands[k] = NULL;
    return suggest_nearest(name, cands);
}

const Command *command_find(const CliProgram *prog, const char *name)
{
    for (const Command *const *c = prog->commands; *c; c++)
        if (strcmp((*c)->name, name) == 0) return *c;
    return NULL;
}

/* The declared defaults, recorded the first time a value is seen (before any parse wrote to
 * it) and written back at the start of every later run. */
typedef struct {
    void *value;
    OptType type;
    union { bool b; const char *s; int i; double d; } v;
} OptDefault;
enum { OPT_DEFAULTS_MAX = 256 };
static OptDefault opt_defaults[OPT_DEFAULTS_MAX];
static size_t nopt_defaults;

static void opt_save(OptDefault *d, const Option *o)
{
    d->value = o->value;
    d->type = o->type;
    switch (o->type) {
    case OPT_BOOL: d->v.b = *(bool *)o->value; break;
    case OPT_STRING: d->v.s = *(const char **)o->value; break;
    case OPT_INT: case OPT_COUNT: d->v.i = *(int *)o->value; break;
    case OPT_STRINGS: d->v.i = ((OptStrings *)o->value)->n; break;
    default: d->v.d = *(double *)o->value; break;
    }
}

static void opt_restore(const OptDefault *d)
{
    switch (d->type) {
    case OPT_BOOL: *(bool *)d->value = d->v.b; break;
    case OPT_STRING: *(const char **)d->value = d->v.s; break;
    case OPT_INT: case OPT_COUNT: *(int *)d->value = d->v.i; break;
    case OPT_STRINGS: ((OptStrings *)d->value)->n = d->v.i; break;
    default: *(double *)d->value = d->v.d; break;
    }
}

void options_reset(const Option *table)
{
    for (const Option *o = table; o && o->type != OPT_END; o++) {
        size_t k = 0;
        while (k < nopt_defaults && opt_defaults[k].value != o->value) k++;
        if (k < nopt_defaults) opt_restore(&opt_defaults[k]);
        else if (nopt_defaults < OPT_DEFAULTS_MAX) opt_save(&opt_defaults[nopt_defaults++], o);
    }
}
