/* app.c — finds the subcommand, parses flags once for all commands, runs it. */
#include "cmd/commands.h"
#include "util/error.h"
#include "cli/options.h"
#include "model/labels.h"
#include "render/text.h"
#include "util/log.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <curl/curl.h>

const Command *const commands[] = {
    &command_status, &command_pending, &command_explain, &command_plan, &command_top,
    &command_snapshot, &command_version, &command_completion, &command___complete, NULL
};

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
    return finish(NULL, command_version.run(0, NULL, g, &err), &err);
}

int kgpu_main(int argc, char **argv)
{
    GlobalOptions *g = &global_storage;
    memset(g, 0, sizeof *g);
    for (size_t k = 0; commands[k]; k++) options_reset(commands[k]->options);
    const Option *const global_only[] = { global_options };

    /* global flags may come before the subcommand word */
    int i = 1;
    Strvec pre = STRVEC_INIT;
    while (i < argc && argv[i][0] == '-' && argv[i][1] != '\0') {
        /* a flag that takes a value consumes the next word too */
        const char *a = argv[i];
        bool takes = false;
        for (const Option *o = global_options; o->type != OPT_END; o++) {
            if (o->type == OPT_COUNT && i + 1 < argc && a[strcspn(a, "=")] == '\0' &&
                strspn(argv[i + 1], "0123456789") == strlen(argv[i + 1]) &&
                ((a[1] == '-' && (strcmp(a + 2, o->long_name) == 0 || strcmp(a + 2, "v") == 0)) ||
                 (a[1] != '-' && a[strlen(a) - 1] == o->short_name)))
                takes = true;                   /* -v 3, --v 3: a level, as kubectl takes it */
            if (o->type == OPT_BOOL || o->type == OPT_COUNT) continue;
            if ((a[1] == '-' && strcmp(a + 2, o->long_name) == 0) ||
                (a[1] != '-' && a[1] == o->short_name && a[2] == '\0'))
                takes = true;
        }
        i += takes ? 2 : 1;
    }
    int rc = options_parse(i - 1, argv + 1, global_only, 1, &pre, NULL);
    if (rc) { strvec_clear(&pre); return rc; }
    strvec_clear(&pre);

    if (g->version) return print_version(g);
    if (i >= argc) {                  /* bare `kubectl gpu`: help on stdout, as kubectl does */
        options_print_help(stdout, NULL);
        return EXIT_OK;
    }
    if (strcmp(argv[i], "help") == 0) {
        const Command *c = i + 1 < argc ? command_find(argv[i + 1]) : NULL;
        options_print_help(stdout, c);
        return EXIT_OK;
    }
    const Command *cmd = command_find(argv[i]);
    if (!cmd) {
        const char *near = command_suggest(argv[i]);
        Error err = { 0 };
        error_set(&err, "unknown command \"%s\" for \"kubectl gpu\"", argv[i]);
        char *hint = xasprintf("%s%s%sRun 'kubectl gpu --help' for the list of commands.\n",
                               near ? "\nDid you mean this?\n\t" : "", near ? near : "", near ? "\n\n" : "");
        cli_print_error(&err, hint);
        free(hint);
        return EXIT_USAGE;
    }
    const Option *const tables[] = { global_options, cmd->options };
    Strvec pos = STRVEC_INIT;
    rc = options_parse(argc - i - 1, argv + i + 1, tables, cmd->options ? 2 : 1, &pos, cmd->name);
    if (rc) { strvec_clear(&pos); return rc; }
    if (g->help) {
        options_print_help(stdout, cmd);
        strvec_clear(&pos);
        return EXIT_OK;
    }
    if (g->version) {
        strvec_clear(&pos);
        return print_version(g);
    }
    if ((int)pos.n < cmd->min_args || (cmd->max_args >= 0 && (int)pos.n > cmd->max_args)) {
        Error err = { 0 };
        if (cmd->max_args == 0) error_set(&err, "%s takes no arguments, got \"%s\"", cmd->name, pos.v[0]);
        else error_set(&err, "wrong number of arguments for %s", cmd->name);
        char *hint = xasprintf("Usage: %s\n", cmd->usage);
        cli_print_error(&err, hint);
        free(hint);
        strvec_clear(&pos);
        return EXIT_USAGE;
    }
    g->namespace_explicit = g->namespace_ != NULL;
    if (g->selector && *g->selector) {    /* a malformed -l is a usage error, whichever command */
        LabelSelector sel = { 0 };
        Error se = { 0 };
        int bad = label_selector_parse(&sel, g->selector, &se) < 0;
        label_selector_clear(&sel);
        if (bad) {
            Error err = { 0 };
            error_set(&err, "-l: %s", se.msg);
            strvec_clear(&pos);
            return finish(cmd, EXIT_USAGE, &err);
        }
    }
    if (!g->prometheus_token) g->prometheus_token = getenv("KUBECTL_GPU_PROMETHEUS_TOKEN");
    if (!g->prometheus_user) g->prometheus_user = getenv("KUBECTL_GPU_PROMETHEUS_BASIC_AUTH");
    g->color = want_color(g);
    g->source = options_source_config(g);
    log_set_verbosity(g->verbose);

    curl_global_init(CURL_GLOBAL_DEFAULT);
    Error err = { 0 };
    rc = cmd->run((int)pos.n, pos.v, g, &err);
    curl_global_cleanup();
    rc = finish(cmd, rc, &err);
    strvec_clear(&pos);
    return rc;
}
