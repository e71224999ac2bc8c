/* cmd_version.c — `kubectl gpu version`: the plugin's version (no cluster access). */
#include "commands.h"
#include "error.h"
#include "render.h"
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <stdio.h>

static const char *version_output;
static const char *const version_formats[] = { "json", "yaml", NULL };
static const Option version_opts[] = {
    { OPT_STRING, 'o', "output", &version_output, "FORMAT", "output format", version_formats, NULL },
    OPT_END_MARK
};

static int run_version(int argc, char **argv, GlobalOptions *g)
{
    (void)argc; (void)argv; (void)g;
    if (!version_output) {
        printf("kubectl-gpu version %s\n", KGPU_VERSION);
        return EXIT_OK;
    }
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "kind", "Version");
    cJSON_AddStringToObject(doc, "version", KGPU_VERSION);
    cJSON_AddStringToObject(doc, "libcurl", curl_version_info(CURLVERSION_NOW)->version);
    cJSON_AddStringToObject(doc, "cjson", cJSON_Version());
    int rc = version_output[0] == 'j' ? render_json(stdout, doc) : render_yaml(stdout, doc, false);
    cJSON_Delete(doc);
    return rc ? EXIT_FAIL : EXIT_OK;
}

const Command command_version = {
    .name = "version",
    .summary = "Print the version of kubectl-gpu",
    .usage = "kubectl gpu version [-o json|yaml]",
    .description = "Prints the plugin's version.  Does not contact the cluster.",
    .examples = "  kubectl gpu version\n  kubectl gpu version -o json\n",
    .options = version_opts,
    .min_args = 0, .max_args = 0,
    .run = run_version,
};
