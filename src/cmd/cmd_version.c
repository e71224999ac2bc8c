/* cmd_version.c — `kubectl gpu version`: what this binary is (no cluster access).
 *
 * The build identity comes from the Makefile (KGPU_GIT_COMMIT, KGPU_GIT_TREE_STATE and
 * KGPU_BUILD_EPOCH, which is SOURCE_DATE_EPOCH, so a reproducible build has a reproducible
 * date); the libraries' versions are asked of the libraries at run time, since a release
 * archive carries its own copies and a source build links whatever the system has.
 */
#include "cmd/commands.h"
#include "util/error.h"
#include "render/render.h"
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <yaml.h>

#ifndef KGPU_GIT_COMMIT
#define KGPU_GIT_COMMIT "unknown"
#endif
#ifndef KGPU_GIT_TREE_STATE
#define KGPU_GIT_TREE_STATE "unknown"
#endif
#ifndef KGPU_BUILD_EPOCH
#define KGPU_BUILD_EPOCH -1
#endif

/* the platform this binary was built for, in Go's GOOS/GOARCH words (kubectl's, krew's) */
#if defined(__linux__)
#define KGPU_OS "linux"
#elif defined(__APPLE__)
#define KGPU_OS "darwin"
#else
#define KGPU_OS "unknown"
#endif
#if defined(__x86_64__)
#define KGPU_CPU "amd64"
#elif defined(__aarch64__)
#define KGPU_CPU "arm64"
#else
#define KGPU_CPU "unknown"
#endif

static const char *version_output;
static const char *const version_formats[] = { "json", "yaml", NULL };
static const Option version_opts[] = {
    { OPT_STRING, 'o', "output", &version_output, "FORMAT", "output format", version_formats, NULL },
    OPT_END_MARK
};

/* RFC 3339 UTC, or "unknown" when the build gave no date (0: not built from a git checkout) */
static void build_date(char *buf, size_t n)
{
    long long epoch = KGPU_BUILD_EPOCH;
    time_t t = (time_t)epoch;
    struct tm tm;
    if (epoch <= 0 || !gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(buf, n, "unknown");
}

static const char *compiler(void)
{
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown";
#endif
}

/* "ncurses 6.4.20221231" -> "6.4.20221231" */
static const char *ncurses_version(void)
{
    const char *v = curses_version();
    return strncmp(v, "ncurses ", 8) == 0 ? v + 8 : v;
}

static cJSON *libraries(void)
{
    const curl_version_info_data *cv = curl_version_info(CURLVERSION_NOW);
    cJSON *libs = cJSON_CreateObject();
    cJSON_AddStringToObject(libs, "libcurl", cv->version);
    cJSON_AddStringToObject(libs, "tls", cv->ssl_version ? cv->ssl_version : "none");
    cJSON_AddStringToObject(libs, "cjson", cJSON_Version());
    cJSON_AddStringToObject(libs, "libyaml", yaml_get_version_string());
    cJSON_AddStringToObject(libs, "ncurses", ncurses_version());
    return libs;
}

static int run_version(int argc, char **argv, GlobalOptions *g, Error *out_err)
{
    (void)argc; (void)argv; (void)g;
    char date[64];
    build_date(date, sizeof date);
    cJSON *libs = libraries();
    int rc = 0;
    if (!version_output) {
        printf("kubectl-gpu version %s\n", KGPU_VERSION);
        printf("commit:    %s (%s)\n", KGPU_GIT_COMMIT, KGPU_GIT_TREE_STATE);
        printf("built:     %s with %s\n", date, compiler());
        printf("platform:  %s/%s\n", KGPU_OS, KGPU_CPU);
        const curl_version_info_data *cv = curl_version_info(CURLVERSION_NOW);
        printf("libraries: libcurl %s (%s), cJSON %s, libyaml %s, ncurses %s\n", cv->version,
               cv->ssl_version ? cv->ssl_version : "no TLS", cJSON_Version(), yaml_get_version_string(),
               ncurses_version());
    } else {
        cJSON *doc = cJSON_CreateObject();
        cJSON_AddStringToObject(doc, "apiVersion", KGPU_API_VERSION);
        cJSON_AddStringToObject(doc, "kind", "Version");
        cJSON_AddStringToObject(doc, "version", KGPU_VERSION);
        cJSON_AddStringToObject(doc, "gitCommit", KGPU_GIT_COMMIT);
        cJSON_AddStringToObject(doc, "gitTreeState", KGPU_GIT_TREE_STATE);
        cJSON_AddStringToObject(doc, "buildDate", date);
        cJSON_AddStringToObject(doc, "compiler", compiler());
        cJSON_AddStringToObject(doc, "platform", KGPU_OS "/" KGPU_CPU);
        cJSON_AddItemToObject(doc, "libraries", libs);
        libs = NULL;
        rc = version_output[0] == 'j' ? json_render(stdout, doc) : yaml_render(stdout, doc, false);
        cJSON_Delete(doc);
    }
    cJSON_Delete(libs);
    if (fflush(stdout) != 0) rc = -1;
    return rc ? EXIT_FAIL : EXIT_OK;
}

const Command cmd_version = {
    .name = "version",
    .summary = "Print the version of kubectl-gpu",
    .usage = "kubectl gpu version [-o json|yaml]",
    .description = "Prints the plugin's version, the git commit and build date it was built from, the "
                   "platform, and the versions of the libraries it runs with (libcurl and its TLS "
                   "library, cJSON, libyaml, ncurses).  Does not contact the cluster.",
    .examples = "  kubectl gpu version\n  kubectl gpu version -o json\n",
    .options = version_opts,
    .min_args = 0, .max_args = 0,
    .run = run_version,
};
