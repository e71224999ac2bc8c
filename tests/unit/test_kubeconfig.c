/* Unit tests: kubeconfig loading (reference §1-§6) — which files, merging, relative paths,
 * selection, every auth kind, in-cluster, and every validation error with its message.
 * Fixtures: tests/fixtures/kubeconfig/; error cases write small files into a temp dir. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/error.h"
#include "sources/kubeconfig.h"

static char fix[PATH_MAX];      /* absolute tests/fixtures/kubeconfig */
static char tmpdir[PATH_MAX];

static void clean_env(void)
{
    unsetenv("KUBECONFIG");
    unsetenv("KUBERNETES_SERVICE_HOST");
    unsetenv("KUBERNETES_SERVICE_PORT");
    unsetenv("POD_NAMESPACE");
    unsetenv("KUBECTL_GPU_SA_DIR");
    char home[PATH_MAX + 16];
    snprintf(home, sizeof home, "%s/nohome", tmpdir);
    setenv("HOME", home, 1);
}

static int setup(void **state)
{
    (void)state;
    const char *root = getenv("KGPU_ROOT");
    char rel[PATH_MAX];
    snprintf(rel, sizeof rel, "%s/tests/fixtures/kubeconfig", root ? root : ".");
    if (!realpath(rel, fix)) { fprintf(stderr, "fixtures not found: %s\n", rel); return -1; }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kgpu-kubeconfig-XXXXXX");
    if (!mkdtemp(tmpdir)) return -1;
    clean_env();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static char *fixture(const char *name)
{
    return xasprintf("%s/%s", fix, name);
}

/* writes text to tmpdir/name and returns the path (caller frees) */
static char *write_cfg(const char *name, const char *text)
{
    char *p = xasprintf("%s/%s", tmpdir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static int load_with(RestConfig *rc, const char *kubeconfig, const char *context, Error *err)
{
    KubeconfigOverrides ov = { kubeconfig, context, NULL, NULL, NULL };
    error_clear(err);
    return kubeconfig_load(rc, &ov, err);
}

/* asserts that loading fails and the message contains every given piece */
static void expect_error(const char *path, const KubeconfigOverrides *ov_in, ...)
{
    KubeconfigOverrides ov = ov_in ? *ov_in : (KubeconfigOverrides){ 0 };
    if (path) ov.kubeconfig = path;
    RestConfig rc;
    Error err = { 0 };
    int r = kubeconfig_load(&rc, &ov, &err);
    if (r == 0) {
        fprintf(stderr, "expected an error loading %s\n", path ? path : "(default)");
        restconfig_clear(&rc);
        fail();
    }
    assert_true(err.set);
    assert_null(strchr(err.msg, '\n'));       /* one line */
    va_list ap;
    va_start(ap, ov_in);
    for (const char *want = va_arg(ap, const char *); want; want = va_arg(ap, const char *)) {
        if (!strstr(err.msg, want)) {
            fprintf(stderr, "error message:\n  %s\nlacks:\n  %s\n", err.msg, want);
            va_end(ap);
            fail();
        }
    }
    va_end(ap);
}

#define HEAD "apiVersion: v1\nkind: Config\n"

/* ---- which files ---- */

static void test_explicit_missing(void **state)
{
    (void)state;
    expect_error("/nonexistent/kubeconfig", NULL,
                 "kubeconfig /nonexistent/kubeconfig (--kubeconfig): No such file or directory", NULL);
}

static void test_no_kubeconfig_anywhere(void **state)
{
    (void)state;
    clean_env();
    char want[PATH_MAX + 256];
    snprintf(want, sizeof want, "no kubeconfig found (looked in %s/nohome/.kube/config); "
             "set KUBECONFIG or use --kubeconfig", tmpdir);
    expect_error(NULL, NULL, want, NULL);
    /* all files of KUBECONFIG missing: all are named */
    setenv("KUBECONFIG", "/nonexistent/a::/nonexistent/b:/nonexistent/a", 1);
    expect_error(NULL, NULL, "no kubeconfig found (looked in /nonexistent/a, /nonexistent/b); "
                 "set KUBECONFIG or use --kubeconfig", NULL);
    clean_env();
}

static void test_home_default(void **state)
{
    (void)state;
    clean_env();
    char *home = fixture("home");
    setenv("HOME", home, 1);
    RestConfig rc;
    Error err = { 0 };
    assert_int_equal(kubeconfig_load(&rc, NULL, &err), 0);
    assert_string_equal(rc.server, "https://home.example.test");
    assert_string_equal(rc.context_name, "home");
    assert_null(rc.user_name);                      /* anonymous */
    assert_null(rc.token);
    assert_string_equal(rc.namespace_, "default");
    char *want = xasprintf("%s/.kube/config", home);
    assert_string_equal(rc.origin, want);
    free(want);
    restconfig_clear(&rc);
    free(home);
    clean_env();
}

static void test_empty_file(void **state)
{
    (void)state;
    char *p = fixture("empty.yaml");
    expect_error(p, NULL, "is empty (no contexts, clusters or users)", p, NULL);
    free(p);
}

/* ---- merging ---- */

static void test_merge_first_file_wins(void **state)
{
    (void)state;
    clean_env();
    char *a = fixture("merge-a.yaml"), *b = fixture("merge-b.yaml");
    char *list = xasprintf("%s:/nonexistent/skipped:%s:%s", a, b, a);
    setenv("KUBECONFIG", list, 1);
    RestConfig rc;
    Error err = { 0 };
    /* current-context: first non-empty (merge-a's) */
    assert_int_equal(kubeconfig_load(&rc, NULL, &err), 0);
    assert_string_equal(rc.context_name, "ctx-a");
    assert_string_equal(rc.server, "https://a.example.test:6443");      /* trailing '/' dropped */
    assert_string_equal(rc.token, "token-a");
    assert_string_equal(rc.namespace_, "team-a");
    char *ca = xasprintf("%s/certs/ca.crt", fix);
    assert_string_equal(rc.ca_file, ca);                                 /* relative to merge-a */
    free(ca);
    assert_string_equal(rc.origin, a);
    restconfig_clear(&rc);

    /* same-named entries: merge-a's taken whole (no insecure, no basic auth from merge-b) */
    KubeconfigOverrides ov = { NULL, "shared-ctx", NULL, NULL, NULL };
    assert_int_equal(kubeconfig_load(&rc, &ov, &err), 0);
    assert_string_equal(rc.server, "https://from-a.example.test");
    assert_false(rc.insecure);
    assert_string_equal(rc.token, "shared-token-a");
    assert_null(rc.username);
    assert_null(rc.password);
    restconfig_clear(&rc);

    /* entries only in the second file are there too; no scheme and no TLS material -> http */
    ov.context = "ctx-b";
    assert_int_equal(kubeconfig_load(&rc, &ov, &err), 0);
    assert_string_equal(rc.server, "http://b.example.test:8443");
    assert_false(restconfig_is_tls(&rc));
    assert_string_equal(rc.token, "token-b");
    assert_string_equal(rc.cluster_origin, b);
    restconfig_clear(&rc);
    free(list);

    /* the other order: merge-b's current-context and entries win */
    list = xasprintf("%s:%s", b, a);
    setenv("KUBECONFIG", list, 1);
    assert_int_equal(kubeconfig_load(&rc, NULL, &err), 0);
    assert_string_equal(rc.context_name, "ctx-b");
    restconfig_clear(&rc);
    ov.context = "shared-ctx";
    assert_int_equal(kubeconfig_load(&rc, &ov, &err), 0);
    assert_string_equal(rc.server, "http://b.example.test:8443");    /* merge-b's shared-ctx -> c2 */
    restconfig_clear(&rc);
    free(list);
    free(a); free(b);
    clean_env();
}

/* the fleet's list (--all-contexts): merge order, a name two files define once (the first
 * file's place), missing files skipped; --kubeconfig only that file; a broken file an error */
static void test_context_names(void **state)
{
    (void)state;
    clean_env();
    char *a = fixture("merge-a.yaml"), *b = fixture("merge-b.yaml");
    char *list = xasprintf("%s:/nonexistent/skipped:%s", a, b);
    setenv("KUBECONFIG", list, 1);
    Strvec names = STRVEC_INIT;
    Error err = { 0 };
    /* merge-a: ctx-a, shared-ctx; merge-b: shared-ctx (merge-a's already), ctx-b */
    assert_int_equal(kubeconfig_context_names(NULL, &names, &err), 0);
    assert_int_equal(names.n, 3);
    assert_string_equal(names.v[0], "ctx-a");
    assert_string_equal(names.v[1], "shared-ctx");
    assert_string_equal(names.v[2], "ctx-b");
    strvec_clear(&names);
    free(list);
    list = xasprintf("%s:%s", b, a);                   /* the other order */
    setenv("KUBECONFIG", list, 1);
    assert_int_equal(kubeconfig_context_names(NULL, &names, &err), 0);
    assert_int_equal(names.n, 3);
    assert_string_equal(names.v[0], "shared-ctx");
    assert_string_equal(names.v[1], "ctx-b");
    assert_string_equal(names.v[2], "ctx-a");
    strvec_clear(&names);
    assert_int_equal(kubeconfig_context_names(b, &names, &err), 0);   /* --kubeconfig: that file only */
    assert_int_equal(names.n, 2);
    strvec_clear(&names);
    assert_int_equal(kubeconfig_context_names("/nonexistent/kc", &names, &err), -1);
    assert_non_null(strstr(err.msg, "/nonexistent/kc"));
    assert_int_equal(names.n, 0);
    free(list);
    free(a); free(b);
    clean_env();
}

static void test_explicit_file_no_merge(void **state)
{
    (void)state;
    clean_env();
    char *a = fixture("merge-a.yaml"), *b = fixture("merge-b.yaml");
    setenv("KUBECONFIG", a, 1);
    RestConfig rc;
    Error err = { 0 };
    /* --kubeconfig: only that file, KUBECONFIG ignored */
    assert_int_equal(load_with(&rc, b, NULL, &err), 0);
    assert_string_equal(rc.context_name, "ctx-b");
    restconfig_clear(&rc);
    expect_error(b, &(KubeconfigOverrides){ NULL, "ctx-a", NULL, NULL, NULL },
                 "context \"ctx-a\" does not exist (--context; contexts: shared-ctx, ctx-b)", b, NULL);
    free(a); free(b);
    clean_env();
}

static void test_overrides(void **state)
{
    (void)state;
    char *a = fixture("merge-a.yaml");
    RestConfig rc;
    Error err = { 0 };
    KubeconfigOverrides ov = { a, NULL, "shared", "shared-user", "ml-team" };
    assert_int_equal(kubeconfig_load(&rc, &ov, &err), 0);
    assert_string_equal(rc.context_name, "ctx-a");
    assert_string_equal(rc.cluster_name, "shared");
    assert_string_equal(rc.server, "https://from-a.example.test");
    assert_string_equal(rc.user_name, "shared-user");
    assert_string_equal(rc.token, "shared-token-a");
    assert_string_equal(rc.namespace_, "ml-team");
    restconfig_clear(&rc);
    expect_error(a, &(KubeconfigOverrides){ NULL, NULL, "nope", NULL, NULL },
                 "kubeconfig ", a, ": cluster \"nope\" does not exist (--cluster)", NULL);
    expect_error(a, &(KubeconfigOverrides){ NULL, NULL, NULL, "nobody", NULL },
                 ": auth info \"nobody\" does not exist (--user)", NULL);
    expect_error(a, &(KubeconfigOverrides){ NULL, NULL, NULL, NULL, "a/b" },
                 "invalid namespace \"a/b\" (--namespace)", NULL);
    free(a);
}

/* ---- relative paths ---- */

static void test_relative_paths(void **state)
{
    (void)state;
    char *p = fixture("sub/rel.yaml");
    RestConfig rc;
    Error err = { 0 };
    assert_int_equal(load_with(&rc, p, NULL, &err), 0);
    char *want = xasprintf("%s/sub/../certs/ca.crt", fix);
    assert_string_equal(rc.ca_file, want); free(want);
    want = xasprintf("%s/sub/token", fix);
    assert_string_equal(rc.token_file, want); free(want);
    want = xasprintf("%s/sub/../certs/client.crt", fix);
    assert_string_equal(rc.client_cert_file, want); free(want);
    want = xasprintf("%s/sub/../certs/client.key", fix);
    assert_string_equal(rc.client_key_file, want); free(want);
    restconfig_clear(&rc);

    /* exec.command with a '/' is a path relative to the file; a bare name stays for PATH */
    assert_int_equal(load_with(&rc, p, "exec-path", &err), 0);
    want = xasprintf("%s/sub/./bin/plugin", fix);
    assert_string_equal(rc.exec.command, want); free(want);
    assert_string_equal(rc.exec.interactive_mode, "Never");
    restconfig_clear(&rc);
    assert_int_equal(load_with(&rc, p, "exec-bare", &err), 0);
    assert_string_equal(rc.exec.command, "aws");
    assert_string_equal(rc.exec.interactive_mode, "IfAvailable");    /* v1beta1 default */
    assert_int_equal(rc.exec.args.n, 2);
    assert_string_equal(rc.exec.args.v[1], "get-token");
    restconfig_clear(&rc);

    /* a relative --kubeconfig path works the same */
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(fix), 0);
    assert_int_equal(load_with(&rc, "sub/rel.yaml", NULL, &err), 0);
    want = xasprintf("%s/sub/../certs/ca.crt", fix);
    assert_string_equal(rc.ca_file, want); free(want);
    restconfig_clear(&rc);
    assert_int_equal(chdir(cwd), 0);
    free(p);
}

/* ---- auth kinds ---- */

static void test_auth_kinds(void **state)
{
    (void)state;
    char *p = fixture("auth-kinds.yaml");
    RestConfig rc;
    Error err = { 0 };

    assert_int_equal(load_with(&rc, p, NULL, &err), 0);               /* token + data cluster */
    assert_string_equal(rc.token, "static-token");
    assert_non_null(strstr(rc.ca_data, "-----BEGIN CERTIFICATE-----"));
    assert_null(rc.ca_file);
    assert_string_equal(rc.tls_server_name, "api.internal.test");
    assert_string_equal(rc.proxy_url, "http://proxy.example.test:3128");
    assert_true(rc.disable_compression);
    assert_false(rc.insecure);
    assert_string_equal(rc.exec_cluster_config, "{\"audience\":\"gpu-tests\"}");
    assert_true(restconfig_is_tls(&rc));
    restconfig_clear(&rc);

    assert_int_equal(load_with(&rc, p, "certdata", &err), 0);
    assert_non_null(strstr(rc.client_cert_data, "BEGIN CERTIFICATE"));
    assert_non_null(strstr(rc.client_key_data, "BEGIN PRIVATE KEY"));
    assert_null(rc.client_cert_file);
    restconfig_clear(&rc);

    assert_int_equal(load_with(&rc, p, "certfiles", &err), 0);
    char *want = xasprintf("%s/certs/client.crt", fix);
    assert_string_equal(rc.client_cert_file, want); free(want);
    assert_true(rc.insecure);
    restconfig_clear(&rc);

    /* data wins over the file, with a warning */
    assert_int_equal(load_with(&rc, p, "cert-both", &err), 0);
    assert_null(rc.client_cert_file);
    assert_non_null(rc.client_cert_data);
    assert_int_equal(rc.warnings.n, 1);
    assert_non_null(strstr(rc.warnings.v[0], "client-certificate-data wins"));
    restconfig_clear(&rc);
    assert_int_equal(load_with(&rc, p, "both-ca", &err), 0);
    assert_null(rc.ca_file);
    assert_non_null(rc.ca_data);
    assert_non_null(strstr(rc.warnings.v[0], "certificate-authority-data wins"));
    restconfig_clear(&rc);

    assert_int_equal(load_with(&rc, p, "basic", &err), 0);
    assert_string_equal(rc.username, "alice");
    assert_string_equal(rc.password, "alice-password");
    assert_null(rc.token);
    restconfig_clear(&rc);

    assert_int_equal(load_with(&rc, p, "exec-v1", &err), 0);
    assert_true(rc.has_exec);
    assert_string_equal(rc.exec.command, "/usr/bin/get-token");
    assert_string_equal(rc.exec.api_version, "client.authentication.k8s.io/v1");
    assert_string_equal(rc.exec.interactive_mode, "IfAvailable");
    assert_true(rc.exec.provide_cluster_info);
    assert_string_equal(rc.exec.install_hint, "install get-token from the platform team");
    assert_int_equal(rc.exec.env.n, 2);
    assert_string_equal(rc.exec.env.v[0], "AWS_PROFILE=gpu");
    assert_string_equal(rc.exec.env.v[1], "EMPTY=");
    assert_int_equal(rc.exec.args.n, 2);
    restconfig_clear(&rc);

    assert_int_equal(load_with(&rc, p, "exec-beta", &err), 0);
    assert_string_equal(rc.exec.interactive_mode, "IfAvailable");
    restconfig_clear(&rc);

    assert_int_equal(load_with(&rc, p, "impersonate", &err), 0);
    assert_string_equal(rc.impersonate_user, "jane");
    assert_string_equal(rc.impersonate_uid, "1234");
    assert_int_equal(rc.impersonate_groups.n, 2);
    assert_string_equal(rc.impersonate_groups.v[1], "gpu-users");
    assert_int_equal(rc.impersonate_extra.n, 2);
    assert_string_equal(rc.impersonate_extra.v[0], "scopes=view");
    assert_string_equal(rc.impersonate_extra.v[1], "scopes=list");
    restconfig_clear(&rc);

    assert_int_equal(load_with(&rc, p, "oidc", &err), 0);
    assert_string_equal(rc.token, "cached-id-token");
    restconfig_clear(&rc);

    /* an explicit token wins; the (removed) provider is not consulted */
    assert_int_equal(load_with(&rc, p, "token-and-provider", &err), 0);
    assert_string_equal(rc.token, "explicit-token");
    restconfig_clear(&rc);

    assert_int_equal(load_with(&rc, p, "anonymous", &err), 0);
    assert_null(rc.user_name);
    assert_null(rc.token);
    restconfig_clear(&rc);

    /* restconfig_copy is deep: both free cleanly (ASan checks) */
    assert_int_equal(load_with(&rc, p, "exec-v1", &err), 0);
    RestConfig cp;
    restconfig_copy(&cp, &rc);
    restconfig_clear(&rc);
    assert_string_equal(cp.exec.env.v[0], "AWS_PROFILE=gpu");
    assert_string_equal(cp.server, "https://data.example.test:6443");
    restconfig_clear(&cp);
    free(p);
}

/* ---- in-cluster ---- */

static void test_in_cluster(void **state)
{
    (void)state;
    clean_env();
    setenv("KUBECONFIG", "/nonexistent/kubeconfig", 1);
    char *sa = fixture("sa");
    setenv("KUBECTL_GPU_SA_DIR", sa, 1);
    setenv("KUBERNETES_SERVICE_HOST", "10.96.0.1", 1);
    setenv("KUBERNETES_SERVICE_PORT", "443", 1);
    RestConfig rc;
    Error err = { 0 };
    assert_int_equal(kubeconfig_load(&rc, NULL, &err), 0);
    assert_true(rc.in_cluster);
    assert_string_equal(rc.server, "https://10.96.0.1:443");
    char *want = xasprintf("%s/token", sa);
    assert_string_equal(rc.token_file, want); free(want);
    want = xasprintf("%s/ca.crt", sa);
    assert_string_equal(rc.ca_file, want); free(want);
    assert_string_equal(rc.namespace_, "gpu-system");          /* trimmed file */
    assert_string_equal(rc.context_name, "in-cluster");
    restconfig_clear(&rc);

    setenv("POD_NAMESPACE", "from-env", 1);
    assert_int_equal(kubeconfig_load(&rc, NULL, &err), 0);
    assert_string_equal(rc.namespace_, "from-env");
    restconfig_clear(&rc);
    KubeconfigOverrides ov = { NULL, NULL, NULL, NULL, "from-flag" };
    assert_int_equal(kubeconfig_load(&rc, &ov, &err), 0);
    assert_string_equal(rc.namespace_, "from-flag");
    restconfig_clear(&rc);

    setenv("KUBERNETES_SERVICE_HOST", "fd00::1", 1);
    assert_int_equal(kubeconfig_load(&rc, NULL, &err), 0);
    assert_string_equal(rc.server, "https://[fd00::1]:443");
    restconfig_clear(&rc);

    /* a kubeconfig with contexts wins over in-cluster */
    char *a = fixture("merge-a.yaml");
    setenv("KUBECONFIG", a, 1);
    assert_int_equal(kubeconfig_load(&rc, NULL, &err), 0);
    assert_false(rc.in_cluster);
    restconfig_clear(&rc);
    free(a);

    /* no token file: not in a pod */
    setenv("KUBECONFIG", "/nonexistent/kubeconfig", 1);
    setenv("KUBECTL_GPU_SA_DIR", "/nonexistent/sa", 1);
    expect_error(NULL, NULL, "no kubeconfig found (looked in /nonexistent/kubeconfig)", NULL);
    free(sa);
    clean_env();
}

/* ---- validation errors ---- */

static void test_parse_errors(void **state)
{
    (void)state;
    char *p = write_cfg("syntax.yaml", HEAD "clusters: [\n  - name: x\n");
    expect_error(p, NULL, "error loading config file \"", p, "\": yaml: line", NULL);
    free(p);
    p = write_cfg("list.yaml", "- a\n- b\n");
    expect_error(p, NULL, "not a kubeconfig (the top level is not a mapping)", NULL);
    free(p);
    p = write_cfg("clusters-map.yaml", HEAD "clusters: {a: b}\n");
    expect_error(p, NULL, p, ": clusters: expected a list of {name, cluster}", NULL);
    free(p);
    p = write_cfg("noname.yaml", HEAD "clusters:\n- cluster: {server: https://x}\n");
    expect_error(p, NULL, p, ": clusters[0]: missing name", NULL);
    free(p);
    p = write_cfg("dup.yaml", HEAD "users:\n- {name: u, user: {token: a}}\n- {name: u, user: {token: b}}\n");
    expect_error(p, NULL, p, ": users: duplicate name \"u\" in list", NULL);
    free(p);
    p = write_cfg("bomb.yaml", HEAD
                  "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                  "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                  "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                  "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                  "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
                  "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n");
    expect_error(p, NULL, "document too large or too deeply nested", NULL);
    free(p);
    p = write_cfg("ccwrong.yaml", HEAD "current-context: [a]\n");
    expect_error(p, NULL, p, ": current-context: expected a string", NULL);
    free(p);
}

static void test_selection_errors(void **state)
{
    (void)state;
    char *p = write_cfg("ghost.yaml", HEAD "current-context: ghost\n"
                        "clusters:\n- {name: c, cluster: {server: https://x}}\n"
                        "contexts:\n- {name: real, context: {cluster: c}}\n");
    expect_error(p, NULL, p, ": current-context \"ghost\": context was not found for specified context: ghost", NULL);
    free(p);
    p = write_cfg("nocc.yaml", HEAD "clusters:\n- {name: c, cluster: {server: https://x}}\n"
                  "contexts:\n- {name: a, context: {cluster: c}}\n- {name: b, context: {cluster: c}}\n");
    expect_error(p, NULL, p, ": no current-context is set; use --context NAME (contexts: a, b)", NULL);
    free(p);
    p = write_cfg("noctx.yaml", HEAD "clusters:\n- {name: c, cluster: {server: https://x}}\n");
    expect_error(p, NULL, "no contexts defined", NULL);
    free(p);
    p = write_cfg("nocluster.yaml", HEAD "current-context: c\n"
                  "contexts:\n- {name: c, context: {cluster: gone, user: u}}\n");
    expect_error(p, NULL, p, ": context \"c\": cluster \"gone\" was not found for context \"c\"", NULL);
    free(p);
    p = write_cfg("nouser.yaml", HEAD "current-context: c\n"
                  "clusters:\n- {name: k, cluster: {server: https://x}}\n"
                  "contexts:\n- {name: c, context: {cluster: k, user: gone}}\n");
    expect_error(p, NULL, p, ": context \"c\": user \"gone\" was not found for context \"c\"", NULL);
    free(p);
    p = write_cfg("ctxnocluster.yaml", HEAD "current-context: c\n"
                  "clusters:\n- {name: k, cluster: {server: https://x}}\n"
                  "contexts:\n- {name: c, context: {user: u}}\n");
    expect_error(p, NULL, "context \"c\" has no cluster (field cluster); use --cluster NAME", NULL);
    free(p);
    p = write_cfg("badns.yaml", HEAD "current-context: c\n"
                  "clusters:\n- {name: k, cluster: {server: https://x}}\n"
                  "contexts:\n- {name: c, context: {cluster: k, namespace: Bad_NS}}\n");
    expect_error(p, NULL, p, ": context \"c\": namespace \"Bad_NS\" for context \"c\" does not conform to the kubernetes DNS_LABEL rules", NULL);
    /* -n replaces the context's namespace, so the bad one does not matter then */
    RestConfig rc;
    Error err = { 0 };
    KubeconfigOverrides ov = { p, NULL, NULL, NULL, "good" };
    assert_int_equal(kubeconfig_load(&rc, &ov, &err), 0);
    restconfig_clear(&rc);
    free(p);
}

#define ONE_CONTEXT(cluster_yaml, user_yaml) HEAD "current-context: c\n" \
    "clusters:\n- name: k\n  cluster:\n" cluster_yaml \
    "users:\n- name: u\n  user:\n" user_yaml \
    "contexts:\n- {name: c, context: {cluster: k, user: u}}\n"
#define SERVER "    server: https://k.example.test\n"

static void test_cluster_errors(void **state)
{
    (void)state;
    struct { const char *yaml; const char *want; } cases[] = {
        { ONE_CONTEXT("    certificate-authority: /nonexistent/ca.crt\n", "    token: t\n"),
          "cluster \"k\" (context \"c\"): no server found for cluster \"k\" (field server)" },
        { ONE_CONTEXT(SERVER "    insecure-skip-tls-verify: true\n    certificate-authority-data: TUlJ\n", "    token: t\n"),
          "cluster \"k\" (context \"c\"): specifying a root certificates file with the insecure flag is not allowed" },
        { ONE_CONTEXT(SERVER "    certificate-authority: /nonexistent/ca.crt\n", "    token: t\n"),
          "cluster \"k\" (context \"c\"): unable to read certificate-authority /nonexistent/ca.crt for k due to No such file or directory" },
        { ONE_CONTEXT(SERVER "    certificate-authority-data: \"not base64!\"\n", "    token: t\n"),
          "cluster \"k\" (context \"c\"): certificate-authority-data: not valid base64" },
        { ONE_CONTEXT(SERVER "    insecure-skip-tls-verify: maybe\n", "    token: t\n"),
          "cluster \"k\" (context \"c\"): insecure-skip-tls-verify: expected true or false" },
        { ONE_CONTEXT("    server: ftp://k.example.test\n", "    token: t\n"),
          "server \"ftp://k.example.test\": scheme must be https:// or http://" },
        { ONE_CONTEXT("    server: \"https://\"\n", "    token: t\n"),
          "server \"https://\" is not a valid URL" },
        { ONE_CONTEXT(SERVER "    proxy-url: ftp://user:secret@proxy\n", "    token: t\n"),
          "proxy-url \"ftp://proxy\": scheme must be http, https or socks5" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char name[32];
        snprintf(name, sizeof name, "cluster-%zu.yaml", i);
        char *p = write_cfg(name, cases[i].yaml);
        expect_error(p, NULL, "kubeconfig ", p, cases[i].want, NULL);
        free(p);
    }
}

static void test_user_errors(void **state)
{
    (void)state;
    struct { const char *yaml; const char *want; } cases[] = {
        { ONE_CONTEXT(SERVER, "    token: t\n    username: a\n    password: b\n"),
          "user \"u\" (context \"c\"): more than one authentication method found for u; found [token basicAuth], only one is allowed" },
        { ONE_CONTEXT(SERVER, "    client-certificate-data: TUlJ\n"),
          "client-key-data or client-key must be specified for u to use the clientCert authentication method." },
        { ONE_CONTEXT(SERVER, "    client-key: /etc/hostname\n"),
          "client-cert-data or client-cert must be specified for u to use the clientCert authentication method." },
        { ONE_CONTEXT(SERVER, "    client-certificate: /nonexistent/c.crt\n    client-key: /nonexistent/c.key\n"),
          "unable to read client-cert /nonexistent/c.crt for u due to No such file or directory" },
        { ONE_CONTEXT(SERVER, "    token: [a, b]\n"), "user \"u\" (context \"c\"): token: expected a string" },
        { ONE_CONTEXT(SERVER, "    client-key-data: \"@@@\"\n    client-certificate-data: TUlJ\n"),
          "client-key-data: not valid base64" },
        { ONE_CONTEXT(SERVER, "    exec: {command: x, apiVersion: client.authentication.k8s.io/v1, interactiveMode: Never}\n"
                              "    auth-provider: {name: oidc}\n"),
          "authProvider cannot be provided in combination with an exec plugin for u" },
        { ONE_CONTEXT(SERVER, "    exec: {command: x, apiVersion: client.authentication.k8s.io/v1}\n"),
          "interactiveMode must be specified for u to use exec authentication plugin" },
        { ONE_CONTEXT(SERVER, "    exec: {command: x, apiVersion: client.authentication.k8s.io/v1alpha1}\n"),
          "exec plugin: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\"" },
        { ONE_CONTEXT(SERVER, "    exec: {apiVersion: client.authentication.k8s.io/v1, interactiveMode: Never}\n"),
          "command must be specified for u to use exec authentication plugin" },
        { ONE_CONTEXT(SERVER, "    exec: {command: x}\n"),
          "apiVersion must be specified for u to use exec authentication plugin" },
        { ONE_CONTEXT(SERVER, "    exec: {command: x, apiVersion: client.authentication.k8s.io/v1beta1, env: [{value: v}]}\n"),
          "env variable name must be specified for u to use exec authentication plugin" },
        { ONE_CONTEXT(SERVER, "    exec: {command: x, apiVersion: client.authentication.k8s.io/v1, interactiveMode: Sometimes}\n"),
          "invalid interactiveMode for u: \"Sometimes\"" },
        { ONE_CONTEXT(SERVER, "    exec: {command: x, apiVersion: client.authentication.k8s.io/v1beta1, args: {a: b}}\n"),
          "exec.args: expected a list of strings" },
        { ONE_CONTEXT(SERVER, "    auth-provider: {name: gcp}\n"),
          "The gcp auth plugin has been removed. Please use the \"gke-gcloud-auth-plugin\"" },
        { ONE_CONTEXT(SERVER, "    auth-provider: {name: azure}\n"),
          "The azure auth plugin has been removed. Please use the https://github.com/Azure/kubelogin" },
        { ONE_CONTEXT(SERVER, "    auth-provider: {name: oidc, config: {client-id: k}}\n"),
          "auth-provider oidc has no cached id-token (auth-provider.config.id-token)" },
        { ONE_CONTEXT(SERVER, "    auth-provider: {name: keystone}\n"),
          "auth-provider: no Auth Provider found for name \"keystone\"" },
        { ONE_CONTEXT(SERVER, "    as-groups: admins\n"), "as-groups: expected a list of strings" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char name[32];
        snprintf(name, sizeof name, "user-%zu.yaml", i);
        char *p = write_cfg(name, cases[i].yaml);
        expect_error(p, NULL, "kubeconfig ", p, cases[i].want, NULL);
        free(p);
    }
}

/* messages never carry secrets, also when the field at fault is next to one */
static void test_errors_hide_secrets(void **state)
{
    (void)state;
    char *p = write_cfg("secret.yaml", ONE_CONTEXT(SERVER, "    token: super-secret-token\n    username: a\n    password: hunter2\n"));
    KubeconfigOverrides ov = { p, NULL, NULL, NULL, NULL };
    RestConfig rc;
    Error err = { 0 };
    assert_int_equal(kubeconfig_load(&rc, &ov, &err), -1);
    assert_null(strstr(err.msg, "super-secret-token"));
    assert_null(strstr(err.msg, "hunter2"));
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explicit_missing), cmocka_unit_test(test_no_kubeconfig_anywhere),
        cmocka_unit_test(test_home_default), cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_merge_first_file_wins), cmocka_unit_test(test_explicit_file_no_merge),
        cmocka_unit_test(test_overrides), cmocka_unit_test(test_relative_paths),
        cmocka_unit_test(test_auth_kinds), cmocka_unit_test(test_in_cluster),
        cmocka_unit_test(test_parse_errors), cmocka_unit_test(test_selection_errors),
        cmocka_unit_test(test_cluster_errors), cmocka_unit_test(test_user_errors),
        cmocka_unit_test(test_errors_hide_secrets), cmocka_unit_test(test_context_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
