/* app.c — the program's command table and its dispatch: the option library (cli/options.h)
 * parses the whole command line once against the table, then the command named runs. */
#include "cmd/commands.h"
#include "cmd/cmd_common.h"
#include "render/output_template.h"
#include "util/error.h"
#include "model/labels.h"
#include "util/log.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <curl/curl.h>

static const Command *const commands[] = {
    &cmd_status, &cmd_pending, &cmd_explain, &cmd_fit, &cmd_plan, &cmd_top,
    &cmd_snapshot, &cmd_version, &cmd_completion, &cmd_complete, NULL
};

const CliProgram app_program = { global_options, commands };

static bool want_color(const GlobalOptions *g)
{
    if (g->no_color) return false;
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc) return false;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0) return false;
    return isatty(STDOUT_FILENO);
}

/* The end of every run: the one place a command's error is printed (an error the run recovered
 * from is not), with where to read the usage after a usage error.  Output that could not be
 * written is an error too. */
static int finish(const Command *cmd, int rc, Error *err)
{
    fflush(stdout);
    if (rc == EXIT_OK && ferror(stdout)) rc = EXIT_FAIL;
    if (rc != EXIT_OK && !err->set && ferror(stdout)) error_set(err, "writing output failed");
    if (rc != EXIT_OK && err->set) {
        char hint[160];
        if (rc == EXIT_USAGE) cli_usage_hint(hint, sizeof hint, cmd ? cmd->name : NULL);
        cli_print_error(err, rc == EXIT_USAGE ? hint : NULL);
    }
    return rc;
}

/* --version: what `kubectl gpu version` prints */
static int print_version(GlobalOptions *g)
{
    Error err = { 0 };
    return finish(NULL, cmd_version.run(0, NULL, g, &err), &err);
}

/* `kubectl gpu help [COMMAND]`, or a word that names no command */
static int not_a_command(const char *word, int argc, char **argv, int next)
{
    if (strcmp(word, "help") == 0) {
        const Command *c = next < argc ? command_find(&app_program, argv[next]) : NULL;
        options_print_help(stdout, &app_program, c);
        return EXIT_OK;
    }
    const char *near = command_suggest(&app_program, word);
    Error err = { 0 };
    error_set(&err, "unknown command \"%s\" for \"kubectl gpu\"", word);
    char *hint = xasprintf("%s%s%sRun 'kubectl gpu --help' for the list of commands.\n",
                           near ? "\nDid you mean this?\n\t" : "", near ? near : "", near ? "\n\n" : "");
    cli_print_error(&err, hint);
    free(hint);
    return EXIT_USAGE;
}

/* the positionals' count against what the command takes: 0, or EXIT_USAGE after the error */
static int check_arg_count(const Command *cmd, const Strvec *pos)
{
    if ((int)pos->n >= cmd->min_args && (cmd->max_args < 0 || (int)pos->n <= cmd->max_args)) return 0;
    Error err = { 0 };
    if (cmd->max_args == 0) error_set(&err, "%s takes no arguments, got \"%s\"", cmd->name, pos->v[0]);
    else error_set(&err, "wrong number of arguments for %s", cmd->name);
    char *hint = xasprintf("Usage: %s\n", cmd->usage);
    cli_print_error(&err, hint);
    free(hint);
    return EXIT_USAGE;
}

/* a malformed -l is a usage error, whichever command: 0, or EXIT_USAGE after the error */
static int check_selector(const Command *cmd, const GlobalOptions *g)
{
    if (!g->selector || !*g->selector) return 0;
    LabelSelector sel = { 0 };
    Error se = { 0 };
    int bad = label_selector_parse(&sel, g->selector, &se) < 0;
    label_selector_clear(&sel);
    if (!bad) return 0;
    Error err = { 0 };
    error_set(&err, "-l: %s", se.msg);
    return finish(cmd, EXIT_USAGE, &err);
}

/* --contexts, --all-contexts: status, pending and top only (cmd/fleet.h); 0, or EXIT_USAGE after the error */
static int check_fleet(const Command *cmd, const GlobalOptions *g)
{
    bool fleet = g->contexts || g->all_contexts;
    if (!(fleet || g->max_concurrent_contexts)) return 0;
    bool ours = cmd == &cmd_status || cmd == &cmd_pending || cmd == &cmd_top;
    if (ours && fleet) return 0;
    Error err = { 0 };
    if (ours) error_set(&err, "--max-concurrent-contexts: only with --contexts or --all-contexts");
    else error_set(&err, "--contexts, --all-contexts and --max-concurrent-contexts: status, pending and top only");
    return finish(cmd, EXIT_USAGE, &err);
}

/* what the flags imply beyond their values: environment fallbacks, colour, the sources' view */
static void derive_globals(GlobalOptions *g)
{
    g->namespace_explicit = g->namespace_ != NULL;
    if (!g->prometheus_token) g->prometheus_token = getenv("KUBECTL_GPU_PROMETHEUS_TOKEN");
    if (!g->prometheus_user) g->prometheus_user = getenv("KUBECTL_GPU_PROMETHEUS_BASIC_AUTH");
    g->color = want_color(g);
    g->source = global_options_source_config(g);
    log_set_verbosity(g->verbose);
}

/* the command's -o when it asks for a template and the command writes JSON (its -o takes
 * "json"): the option, else NULL */
static const Option *template_output(const Command *cmd)
{
    for (const Option *o = cmd->options; o && o->type != OPT_END; o++) {
        if (o->type != OPT_STRING || strcmp(o->long_name, "output") != 0 || !o->choices) continue;
        bool json = false;
        for (const char *const *c = o->choices; *c; c++) json |= strcmp(*c, "json") == 0;
        const char *v = *(const char **)o->value;
        return json && output_template_format(v) ? o : NULL;
    }
    return NULL;
}

/* a bool flag of the command that is set (e.g. --watch) */
static bool flag_set(const Command *cmd, const char *name)
{
    for (const Option *o = cmd->options; o && o->type != OPT_END; o++)
        if (o->type == OPT_BOOL && strcmp(o->long_name, name) == 0) return *(bool *)o->value;
    return false;
}

/* -o jsonpath=/go-template=: the command runs with -o json and the template reads what it
 * printed (cmd_common.h) */
static int run_templated(const Command *cmd, const Option *out, const Strvec *pos, GlobalOptions *g, Error *err)
{
    OutputTemplate *t = output_template_new(*(const char **)out->value, err);
    if (!t) return EXIT_USAGE;
    if (flag_set(cmd, "watch")) {
        output_template_free(t);
        error_set(err, "-o %s: not with -w (a template reads one document)", *(const char **)out->value);
        return EXIT_USAGE;
    }
    *(const char **)out->value = "json";
    CmdTemplateRun r;
    int rc = cmd_template_begin(&r, err) < 0 ? EXIT_FAIL : cmd->run((int)pos->n, pos->v, g, err);
    if (r.tmp) rc = cmd_template_end(&r, t, rc, err);
    output_template_free(t);
    return rc;
}

static int run_command(const Command *cmd, const Strvec *pos, GlobalOptions *g)
{
    if (g->help) {
        options_print_help(stdout, &app_program, cmd);
        return EXIT_OK;
    }
    if (g->version) return print_version(g);
    int rc = check_arg_count(cmd, pos);
    if (!rc) rc = check_selector(cmd, g);
    if (!rc) rc = check_fleet(cmd, g);
    if (rc) return rc;
    derive_globals(g);
    g->program = &app_program;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Error err = { 0 };
    const Option *tout = template_output(cmd);
    rc = tout ? run_templated(cmd, tout, pos, g, &err) : cmd->run((int)pos->n, pos->v, g, &err);
    curl_global_cleanup();
    return finish(cmd, rc, &err);
}

int app_main(int argc, char **argv)
{
    GlobalOptions *g = &global_storage;
    memset(g, 0, sizeof *g);
    for (size_t k = 0; commands[k]; k++) options_reset(commands[k]->options);

    CliArgs args;
    int rc = cli_parse(&app_program, argc, argv, &args);
    if (!rc && !args.cmd) {
        if (g->version) rc = print_version(g);
        else if (!args.word) options_print_help(stdout, &app_program, NULL);  /* bare `kubectl gpu`: as kubectl does */
        else rc = not_a_command(args.word, argc, argv, args.next);
    } else if (!rc) {
        rc = run_command(args.cmd, &args.pos, g);
    }
    cli_args_clear(&args);
    return rc;
}
