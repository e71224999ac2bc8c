/* Unit tests: exec credential plugins (reference §5) — small shell scripts play the plugin:
 * invocation contract (args, env, KUBERNETES_EXEC_INFO, stdin), ExecCredential parsing, every
 * failure with its message, the timeout, and the per-process cache. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "util/error.h"
#include "sources/kubeconfig.h"
#include "util/util.h"

static char dir[PATH_MAX];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/kgpu-exec-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    exec_credential_cache_clear();
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* writes an executable script; returns its path (caller frees) */
static char *script(const char *name, const char *body)
{
    char *p = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    chmod(p, 0755);
    return p;
}

static void rc_init(RestConfig *rc, const char *command, const char *api)
{
    memset(rc, 0, sizeof *rc);
    rc->server = xstrdup("https://gpu.example.test:6443");
    rc->has_exec = true;
    rc->exec.command = xstrdup(command);
    rc->exec.api_version = xstrdup(api ? api : "client.authentication.k8s.io/v1");
    rc->exec.interactive_mode = xstrdup("Never");
    rc->user_name = xstrdup("ci");
    rc->user_origin = xstrdup("/home/a/.kube/config");
}

#define V1 "client.authentication.k8s.io/v1"
#define CRED(api, status) "{\"kind\":\"ExecCredential\",\"apiVersion\":\"" api "\",\"status\":" status "}"

static void expect_run_error(const char *name, const char *body, const char *want)
{
    char *p = script(name, body);
    RestConfig rc;
    rc_init(&rc, p, NULL);
    ExecCredential cred;
    Error err = { 0 };
    int r = exec_credential_run(&rc, 5, &cred, &err);
    if (r == 0 || !strstr(err.msg, want)) {
        fprintf(stderr, "plugin %s: rc=%d, message:\n  %s\nwanted:\n  %s\n", name, r, err.msg, want);
        if (r == 0) exec_credential_clear(&cred);
        fail();
    }
    /* the prefix names the kubeconfig and user; the message is one line */
    assert_true(str_starts_with(err.msg, "kubeconfig /home/a/.kube/config: user \"ci\": "));
    assert_null(strchr(err.msg, '\n'));
    restconfig_clear(&rc);
    free(p);
}

static void test_token_and_contract(void **state)
{
    (void)state;
    char *info = xasprintf("%s/info.json", dir), *envf = xasprintf("%s/env.txt", dir);
    char *body = xasprintf(
        "printf '%%s' \"$KUBERNETES_EXEC_INFO\" > %s\n"
        "{ echo \"args=$*\"; echo \"profile=$AWS_PROFILE\"; echo \"stdin=$(readlink /proc/self/fd/0)\"; } > %s\n"
        "echo '" CRED(V1, "{\"token\":\"plugin-token\",\"expirationTimestamp\":\"2099-01-01T00:00:00Z\"}") "'",
        info, envf);
    char *p = script("ok.sh", body);
    RestConfig rc;
    rc_init(&rc, p, NULL);
    strvec_push(&rc.exec.args, "get-token");
    strvec_push(&rc.exec.args, "--cluster=prod");
    strvec_push(&rc.exec.env, "AWS_PROFILE=gpu");
    rc.exec.provide_cluster_info = true;
    rc.ca_data = xstrdup("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    rc.tls_server_name = xstrdup("api.internal.test");
    rc.exec_cluster_config = xstrdup("{\"audience\":\"gpu\"}");
    setenv("AWS_PROFILE", "should-be-replaced", 1);
    ExecCredential cred;
    Error err = { 0 };
    assert_int_equal(exec_credential_run(&rc, 5, &cred, &err), 0);
    unsetenv("AWS_PROFILE");
    assert_string_equal(cred.token, "plugin-token");
    assert_null(cred.client_cert_pem);
    assert_int_equal(cred.expiry, 4070908800LL);
    exec_credential_clear(&cred);

    char *env = util_read_file(envf, NULL, NULL);
    assert_non_null(env);
    assert_non_null(strstr(env, "args=get-token --cluster=prod\n"));
    assert_non_null(strstr(env, "profile=gpu\n"));
    assert_non_null(strstr(env, "stdin=/dev/null\n"));     /* not interactive: no stdin */
    free(env);

    char *text = util_read_file(info, NULL, NULL);
    cJSON *j = cJSON_Parse(text);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "kind")->valuestring, "ExecCredential");
    assert_string_equal(cJSON_GetObjectItem(j, "apiVersion")->valuestring, V1);
    cJSON *spec = cJSON_GetObjectItem(j, "spec");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(spec, "interactive")));
    cJSON *cl = cJSON_GetObjectItem(spec, "cluster");
    assert_string_equal(cJSON_GetObjectItem(cl, "server")->valuestring, "https://gpu.example.test:6443");
    assert_string_equal(cJSON_GetObjectItem(cl, "tls-server-name")->valuestring, "api.internal.test");
    assert_string_equal(cJSON_GetObjectItem(cl, "certificate-authority-data")->valuestring,
                        "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCkFBQUEKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(cl, "config"), "audience")->valuestring, "gpu");
    cJSON_Delete(j);
    free(text);

    /* without provideClusterInfo there is no spec.cluster */
    rc.exec.provide_cluster_info = false;
    assert_int_equal(exec_credential_run(&rc, 5, &cred, &err), 0);
    exec_credential_clear(&cred);
    text = util_read_file(info, NULL, NULL);
    assert_null(strstr(text, "\"cluster\""));
    free(text);
    restconfig_clear(&rc);
    free(p); free(body); free(info); free(envf);
}

static void test_cert_credential_and_v1beta1(void **state)
{
    (void)state;
    char *p = script("cert.sh",
        "echo '{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1beta1\","
        "\"status\":{\"clientCertificateData\":\"-----BEGIN CERTIFICATE-----\\nX\\n-----END CERTIFICATE-----\","
        "\"clientKeyData\":\"-----BEGIN PRIVATE KEY-----\\nY\\n-----END PRIVATE KEY-----\"}}'");
    RestConfig rc;
    rc_init(&rc, p, "client.authentication.k8s.io/v1beta1");
    ExecCredential cred;
    Error err = { 0 };
    assert_int_equal(exec_credential_run(&rc, 5, &cred, &err), 0);
    assert_null(cred.token);
    assert_string_equal(cred.client_cert_pem, "-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----");
    assert_non_null(strstr(cred.client_key_pem, "PRIVATE KEY"));
    assert_int_equal(cred.expiry, 0);
    exec_credential_clear(&cred);
    restconfig_clear(&rc);
    free(p);
}

static void test_failures(void **state)
{
    (void)state;
    /* the plugin's stderr reaches ours */
    char *errf = xasprintf("%s/stderr.txt", dir);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    FILE *capture = fopen(errf, "w");
    dup2(fileno(capture), STDERR_FILENO);
    expect_run_error("fail.sh", "echo 'login expired, run fake-auth login' >&2; exit 3",
                     "fail.sh failed with exit code 3");
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    fclose(capture);
    char *text = util_read_file(errf, NULL, NULL);
    assert_string_equal(text, "login expired, run fake-auth login\n");
    free(text);
    free(errf);
    expect_run_error("fail2.sh", "exit 3", "fail2.sh failed with exit code 3");
    expect_run_error("garbage.sh", "echo 'Please visit https://login.example.test/device'",
                     "garbage.sh returned invalid output: not JSON (an ExecCredential JSON object of client.authentication.k8s.io/v1 was expected)");
    expect_run_error("empty.sh", "exit 0", "empty.sh returned invalid output: nothing on stdout");
    expect_run_error("kind.sh", "echo '{\"kind\":\"Foo\",\"apiVersion\":\"" V1 "\",\"status\":{\"token\":\"t\"}}'",
                     "kind.sh returned invalid output: kind is \"Foo\", not ExecCredential");
    expect_run_error("version.sh", "echo '" CRED("client.authentication.k8s.io/v1beta1", "{\"token\":\"t\"}") "'",
                     "exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin returned version client.authentication.k8s.io/v1beta1");
    expect_run_error("nostatus.sh", "echo '{\"kind\":\"ExecCredential\",\"apiVersion\":\"" V1 "\"}'",
                     "exec plugin didn't return a status field");
    expect_run_error("notoken.sh", "echo '" CRED(V1, "{}") "'",
                     "exec plugin didn't return a token or cert/key pair");
    expect_run_error("onlycert.sh", "echo '" CRED(V1, "{\"clientCertificateData\":\"C\"}") "'",
                     "exec plugin returned only certificate or key, not both");
    expect_run_error("badexp.sh", "echo '" CRED(V1, "{\"token\":\"t\",\"expirationTimestamp\":\"tomorrow\"}") "'",
                     "exec plugin returned an invalid status.expirationTimestamp");
    expect_run_error("signal.sh", "kill -9 $$", "signal.sh was killed by signal 9");
    expect_run_error("big.sh", "head -c 1100000 /dev/zero | tr '\\0' 'x'", "big.sh wrote more than 1048576 bytes on stdout");
}

static void test_secret_not_in_errors(void **state)
{
    (void)state;
    /* a wrong apiVersion next to a token: the message must not repeat the token */
    expect_run_error("leak.sh", "echo '" CRED("client.authentication.k8s.io/v1beta1", "{\"token\":\"s3cr3t-token\"}") "'",
                     "plugin returned version");
    char *p = script("leak2.sh", "echo '{\"token\":\"s3cr3t-token\"'");
    RestConfig rc;
    rc_init(&rc, p, NULL);
    ExecCredential cred;
    Error err = { 0 };
    assert_int_equal(exec_credential_run(&rc, 5, &cred, &err), -1);
    assert_null(strstr(err.msg, "s3cr3t"));
    restconfig_clear(&rc);
    free(p);
}

static void test_not_found(void **state)
{
    (void)state;
    RestConfig rc;
    rc_init(&rc, "kgpu-no-such-plugin", NULL);
    rc.exec.install_hint = xstrdup("Install it with:\n  brew install kgpu-auth\n");
    ExecCredential cred;
    Error err = { 0 };
    assert_int_equal(exec_credential_run(&rc, 5, &cred, &err), -1);
    assert_string_equal(err.msg, "kubeconfig /home/a/.kube/config: user \"ci\": exec: executable "
                        "kgpu-no-such-plugin not found; Install it with:   brew install kgpu-auth");
    restconfig_clear(&rc);

    char *abs = xasprintf("%s/missing/plugin", dir);
    rc_init(&rc, abs, NULL);
    error_clear(&err);
    assert_int_equal(exec_credential_run(&rc, 5, &cred, &err), -1);
    char *want = xasprintf("exec: executable %s not found", abs);
    assert_non_null(strstr(err.msg, want));
    free(want);
    restconfig_clear(&rc);
    free(abs);

    /* found but not executable */
    char *p = script("noexec.sh", "exit 0");
    chmod(p, 0644);
    rc_init(&rc, p, NULL);
    error_clear(&err);
    assert_int_equal(exec_credential_run(&rc, 5, &cred, &err), -1);
    assert_non_null(strstr(err.msg, "could not be started: Permission denied"));
    restconfig_clear(&rc);
    free(p);

    /* a bare name is looked up on PATH */
    p = script("kgpu-path-plugin", "echo '" CRED(V1, "{\"token\":\"from-path\"}") "'");
    const char *old = getenv("PATH");
    char *saved = xstrdup(old ? old : "/usr/bin:/bin");
    char *path = xasprintf("%s:%s", saved, dir);
    setenv("PATH", path, 1);
    rc_init(&rc, "kgpu-path-plugin", NULL);
    error_clear(&err);
    assert_int_equal(exec_credential_run(&rc, 5, &cred, &err), 0);
    assert_string_equal(cred.token, "from-path");
    exec_credential_clear(&cred);
    setenv("PATH", saved, 1);
    restconfig_clear(&rc);
    free(saved); free(path); free(p);
}

static void test_interactive_always_without_tty(void **state)
{
    (void)state;
    if (isatty(STDIN_FILENO)) skip();
    char *p = script("always.sh", "exit 0");
    RestConfig rc;
    rc_init(&rc, p, NULL);
    free(rc.exec.interactive_mode);
    rc.exec.interactive_mode = xstrdup("Always");
    ExecCredential cred;
    Error err = { 0 };
    assert_int_equal(exec_credential_run(&rc, 5, &cred, &err), -1);
    assert_non_null(strstr(err.msg, "cannot support interactive mode: standard input is not a terminal (interactiveMode: Always)"));
    restconfig_clear(&rc);
    free(p);
}

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_timeout(void **state)
{
    (void)state;
    /* a plugin that hangs, and one whose child keeps stdout open: both are stopped */
    const char *bodies[] = { "exec sleep 30", "sleep 30 & wait", "echo '" CRED(V1, "{\"token\":\"t\"}") "'; exec sleep 30 >/dev/null" };
    for (size_t i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "hang%zu.sh", i);
        char *p = script(name, bodies[i]);
        RestConfig rc;
        rc_init(&rc, p, NULL);
        ExecCredential cred;
        Error err = { 0 };
        double t0 = mono();
        assert_int_equal(exec_credential_run(&rc, 0.5, &cred, &err), -1);
        double took = mono() - t0;
        assert_true(took < 5);
        assert_non_null(strstr(err.msg, "did not finish within 0.5 s and was stopped"));
        restconfig_clear(&rc);
        free(p);
    }
}

static void test_cache(void **state)
{
    (void)state;
    char *count = xasprintf("%s/count", dir);
    char *body = xasprintf("echo run >> %s\n"
                           "echo '" CRED(V1, "{\"token\":\"cached-token\",\"expirationTimestamp\":\"2099-01-01T00:00:00Z\"}") "'",
                           count);
    char *p = script("cache.sh", body);
    RestConfig rc;
    rc_init(&rc, p, NULL);
    const ExecCredential *c1, *c2;
    Error err = { 0 };
    exec_credential_cache_clear();
    assert_int_equal(exec_credential_get(&rc, 5, false, 0, &c1, &err), 0);
    assert_int_equal(exec_credential_get(&rc, 5, false, 0, &c2, &err), 0);
    assert_string_equal(c2->token, "cached-token");
    char *runs = util_read_file(count, NULL, NULL);
    assert_string_equal(runs, "run\n");                     /* ran once */
    free(runs);
    assert_int_equal(exec_credential_get(&rc, 5, true, 0, &c2, &err), 0);     /* after a 401 */
    runs = util_read_file(count, NULL, NULL);
    assert_string_equal(runs, "run\nrun\n");
    free(runs);
    /* another server is another cache entry */
    free(rc.server);
    rc.server = xstrdup("https://other.example.test");
    assert_int_equal(exec_credential_get(&rc, 5, false, 0, &c2, &err), 0);
    runs = util_read_file(count, NULL, NULL);
    assert_string_equal(runs, "run\nrun\nrun\n");
    free(runs);
    restconfig_clear(&rc);
    free(p); free(body);

    /* an expired credential is fetched again on every use */
    unlink(count);
    body = xasprintf("echo run >> %s\n"
                     "echo '" CRED(V1, "{\"token\":\"old\",\"expirationTimestamp\":\"2000-01-01T00:00:00Z\"}") "'",
                     count);
    p = script("expired.sh", body);
    rc_init(&rc, p, NULL);
    assert_int_equal(exec_credential_get(&rc, 5, false, 0, &c1, &err), 0);
    assert_int_equal(exec_credential_get(&rc, 5, false, 0, &c1, &err), 0);
    runs = util_read_file(count, NULL, NULL);
    assert_string_equal(runs, "run\nrun\n");
    free(runs);
    /* a failing run is reported and nothing is cached */
    free(rc.exec.command);
    rc.exec.command = xstrdup("/nonexistent/plugin");
    assert_int_equal(exec_credential_get(&rc, 5, false, 0, &c1, &err), -1);
    assert_non_null(strstr(err.msg, "not found"));
    restconfig_clear(&rc);
    exec_credential_cache_clear();
    free(p); free(body); free(count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_token_and_contract), cmocka_unit_test(test_cert_credential_and_v1beta1),
        cmocka_unit_test(test_failures), cmocka_unit_test(test_secret_not_in_errors),
        cmocka_unit_test(test_not_found), cmocka_unit_test(test_interactive_always_without_tty),
        cmocka_unit_test(test_timeout), cmocka_unit_test(test_cache),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
