/* test_options.c — the option library (cli/options.c) handed a command table as an argument:
 * a small program of its own here (two commands and a hidden one, three global flags), never
 * kubectl gpu's table, so what the library finds it can only have found in what it was given. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/options.h"
#include "util/error.h"

static const char *g_ctx;
static bool g_all;
static int g_verbose;
static const Option test_globals[] = {
    { OPT_STRING, 0, "context", &g_ctx, "NAME", "context to use", NULL, NULL },
    { OPT_BOOL, 'A', "all-namespaces", &g_all, NULL, "all namespaces", NULL, NULL },
    { OPT_COUNT, 'v', "verbose", &g_verbose, NULL, "more detail", NULL, NULL },
    OPT_END_MARK
};

static const char *fetch_out;
static OptStrings fetch_files;
static const Option fetch_opts[] = {
    { OPT_STRING, 'o', "output", &fetch_out, "FORMAT", "output format", NULL, NULL },
    { OPT_STRINGS, 'F', "file", &fetch_files, "FILE", "a file; repeatable", NULL, "file" },
    OPT_END_MARK
};
static bool push_force;
static const Option push_opts[] = {
    { OPT_BOOL, 'f', "force", &push_force, NULL, "push anyway", NULL, NULL },
    OPT_END_MARK
};

static const Command cmd_fetch = { .name = "fetch", .summary = "Fetch things", .usage = "prog fetch [NAME...]",
                                   .options = fetch_opts, .min_args = 0, .max_args = -1 };
static const Command cmd_push = { .name = "push", .summary = "Push things", .usage = "prog push NAME",
                                  .options = push_opts, .min_args = 1, .max_args = 1 };
static const Command cmd_hidden = { .name = "__internal", .summary = "hidden", .usage = "prog __internal",
                                    .options = NULL, .min_args = 0, .max_args = -1 };
static const Command *const test_commands[] = { &cmd_fetch, &cmd_push, &cmd_hidden, NULL };
static const CliProgram prog = { test_globals, test_commands };

static int reset(void **state)
{
    (void)state;
    g_ctx = NULL; g_all = false; g_verbose = 0; fetch_out = NULL; push_force = false; fetch_files.n = 0;
    return 0;
}

/* global flags before and after the command word, the command's flags and its positionals:
 * one call, one pass */
static void test_one_pass(void **state)
{
    (void)state;
    char *argv[] = { "prog", "--context", "ctx-a", "-v", "3", "fetch", "one", "-A", "-o", "json", "two", NULL };
    CliArgs a;
    assert_int_equal(cli_parse(&prog, 11, argv, &a), 0);
    assert_ptr_equal(a.cmd, &cmd_fetch);
    assert_string_equal(a.word, "fetch");
    assert_int_equal(a.next, 6);                  /* the word after "fetch" */
    assert_string_equal(g_ctx, "ctx-a");          /* a value word before the command is not the command */
    assert_int_equal(g_verbose, 3);               /* "-v 3": a level, as kubectl takes it */
    assert_true(g_all);                           /* a global flag after the command word */
    assert_string_equal(fetch_out, "json");
    assert_int_equal(a.pos.n, 2);
    assert_string_equal(a.pos.v[0], "one");
    assert_string_equal(a.pos.v[1], "two");
    cli_args_clear(&a);
}

/* a command's flags are not global: before the command word they are unknown */
static void test_command_flag_before_word(void **state)
{
    (void)state;
    char *argv[] = { "prog", "-f", "push", "x", NULL };
    CliArgs a;
    assert_int_equal(cli_parse(&prog, 4, argv, &a), EXIT_USAGE);
    assert_false(push_force);
    cli_args_clear(&a);
    char *argv2[] = { "prog", "push", "x", "--force", NULL };
    assert_int_equal(cli_parse(&prog, 4, argv2, &a), 0);
    assert_ptr_equal(a.cmd, &cmd_push);
    assert_true(push_force);
    assert_null(fetch_out);                       /* another command's storage untouched */
    cli_args_clear(&a);
}

/* a first word that names no command ends the parse there; what follows is the caller's */
static void test_not_a_command(void **state)
{
    (void)state;
    char *argv[] = { "prog", "-A", "help", "push", "--no-such-flag", NULL };
    CliArgs a;
    assert_int_equal(cli_parse(&prog, 5, argv, &a), 0);
    assert_null(a.cmd);
    assert_string_equal(a.word, "help");
    assert_int_equal(a.next, 3);
    assert_true(g_all);
    assert_int_equal(a.pos.n, 0);
    cli_args_clear(&a);

    char *bare[] = { "prog", "--context=c", NULL };
    assert_int_equal(cli_parse(&prog, 2, bare, &a), 0);
    assert_null(a.word);
    assert_null(a.cmd);
    assert_int_equal(a.next, 2);
    assert_string_equal(g_ctx, "c");
    cli_args_clear(&a);
}

/* "--" before the command word is skipped; after it, everything is a positional */
static void test_dashdash(void **state)
{
    (void)state;
    char *argv[] = { "prog", "--", "fetch", "-A", "--", "-o", NULL };
    CliArgs a;
    assert_int_equal(cli_parse(&prog, 6, argv, &a), 0);
    assert_ptr_equal(a.cmd, &cmd_fetch);
    assert_true(g_all);
    assert_null(fetch_out);
    assert_int_equal(a.pos.n, 1);
    assert_string_equal(a.pos.v[0], "-o");
    cli_args_clear(&a);
}

/* find and suggest look only at the table handed in; hidden names are found, never suggested */
static void test_find_suggest(void **state)
{
    (void)state;
    assert_ptr_equal(command_find(&prog, "push"), &cmd_push);
    assert_ptr_equal(command_find(&prog, "__internal"), &cmd_hidden);
    assert_null(command_find(&prog, "status"));   /* kubectl gpu's own command: not in this table */
    assert_string_equal(command_suggest(&prog, "psuh"), "push");
    assert_null(command_suggest(&prog, "__internl"));
    static const Command *const only_push[] = { &cmd_push, NULL };
    const CliProgram other = { test_globals, only_push };
    assert_string_equal(command_suggest(&prog, "fetc"), "fetch");
    assert_null(command_find(&other, "fetch"));
    assert_null(command_suggest(&other, "fetc"));  /* fetch is not in this table */
}

static char *help_text(const Command *cmd)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    options_print_help(f, &prog, cmd);
    fclose(f);
    return buf;
}

/* the top-level help lists the table's visible commands and the global flags handed in */
static void test_help(void **state)
{
    (void)state;
    char *top = help_text(NULL);
    /* each command on its line: name in a 12-column field, a space, the summary */
    assert_non_null(strstr(top, "  fetch" "        " "Fetch things\n"));
    assert_non_null(strstr(top, "  push" "         " "Push things\n"));
    assert_null(strstr(top, "__internal"));
    assert_non_null(strstr(top, "--context NAME"));
    assert_null(strstr(top, "--force"));
    free(top);
    /* a command's help in kubectl's order: summary, Options, Usage; the global flags are the
     * top level's (one line points there) */
    char *push = help_text(&cmd_push);
    assert_non_null(strstr(push, "Usage:\n  prog push NAME\n"));
    assert_non_null(strstr(push, "  -f, --force"));
    assert_null(strstr(push, "--all-namespaces"));
    assert_true(strstr(push, "\nOptions:\n") < strstr(push, "\nUsage:\n"));
    assert_non_null(strstr(push, "'kubectl gpu --help'"));
    free(push);
}

/* the one error printer cleans the message at the sink: C0 controls and DEL as spaces, a C1
 * control (U+009B, CSI to some terminals) as one space, a byte that is not UTF-8 as U+FFFD;
 * the hint goes out verbatim */
static void test_print_error_clean(void **state)
{
    (void)state;
    char path[] = "/tmp/kgpu-test-options-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    Error e = { 0 };
    error_set(&e, "a\x1b[31mb\x7f" "c\xc2\x9b" "d\xff" "e \xc3\xa9");
    cli_print_error(&e, "hint\n");
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char buf[128] = "";
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    close(fd);
    unlink(path);
    assert_string_equal(buf, "error: a [31mb c d\xef\xbf\xbd" "e \xc3\xa9\nhint\n");
}

/* a repeatable flag keeps every value in order, in each spelling; options_reset forgets them */
static void test_repeatable(void **state)
{
    (void)state;
    char *argv[] = { "prog", "fetch", "-F", "a", "--file", "-", "--file=c", "-Fd", NULL };
    CliArgs a;
    options_reset(fetch_opts);                  /* the declared default: no value */
    assert_int_equal(cli_parse(&prog, 8, argv, &a), 0);
    assert_int_equal(fetch_files.n, 4);
    assert_string_equal(fetch_files.v[0], "a");
    assert_string_equal(fetch_files.v[1], "-");     /* standard input, as a value */
    assert_string_equal(fetch_files.v[2], "c");
    assert_string_equal(fetch_files.v[3], "d");
    cli_args_clear(&a);
    options_reset(fetch_opts);
    assert_int_equal(fetch_files.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_one_pass, reset),
        cmocka_unit_test_setup(test_command_flag_before_word, reset),
        cmocka_unit_test_setup(test_not_a_command, reset),
        cmocka_unit_test_setup(test_dashdash, reset),
        cmocka_unit_test_setup(test_find_suggest, reset),
        cmocka_unit_test_setup(test_help, reset),
        cmocka_unit_test(test_print_error_clean),
        cmocka_unit_test_setup(test_repeatable, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
