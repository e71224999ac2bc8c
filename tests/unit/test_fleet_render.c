/* Unit tests: render/fleet.c — the fleet's JSON documents and table from each context's own
 * document: totals over the contexts that answered, a figure one of them cannot give (idle GPUs
 * without metrics) null and "?" in the total, never 0; free GPUs per product; a failed context
 * listed with its error in JSON and without a row in the table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "render/fleet.h"
#include "util/util.h"

/* a GPUStatus document as `status -o json` prints it (the fields the fleet reads): nodes given
 * as "name:product:physical:inUse:free" */
static cJSON *status_doc(const char *idle, double pending, const char *const *nodes)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "kind", "GPUStatus");
    cJSON *sum = cJSON_AddObjectToObject(d, "summary"), *phys = cJSON_AddObjectToObject(sum, "physical");
    cJSON *list = cJSON_AddArrayToObject(d, "nodes");
    double gpus = 0, in_use = 0, free_ = 0, n = 0;
    for (; *nodes; nodes++, n++) {
        char name[64], product[64];
        double p, u, f;
        assert_int_equal(sscanf(*nodes, "%63[^:]:%63[^:]:%lf:%lf:%lf", name, product, &p, &u, &f), 5);
        cJSON *node = cJSON_CreateObject();
        cJSON_AddStringToObject(node, "name", name);
        cJSON_AddStringToObject(node, "product", product);
        cJSON_AddNumberToObject(node, "physicalGPUs", p);
        cJSON_AddBoolToObject(node, "ready", true);
        cJSON_AddBoolToObject(node, "schedulable", true);
        cJSON *np = cJSON_AddObjectToObject(node, "physical");
        cJSON_AddNumberToObject(np, "inUse", u);
        cJSON_AddNumberToObject(np, "free", f);
        cJSON_AddArrayToObject(node, "problems");
        cJSON_AddItemToArray(list, node);
        gpus += p; in_use += u; free_ += f;
    }
    cJSON_AddNumberToObject(sum, "gpuNodes", n);
    cJSON_AddNumberToObject(sum, "physicalGPUs", gpus);
    cJSON_AddNumberToObject(sum, "pendingGPUPods", pending);
    cJSON_AddNumberToObject(phys, "inUse", in_use);
    if (idle) cJSON_AddNumberToObject(phys, "idleAllocated", atof(idle));
    else cJSON_AddNullToObject(phys, "idleAllocated");
    cJSON_AddNumberToObject(phys, "free", free_);
    cJSON_AddNumberToObject(phys, "unavailable", gpus - in_use - free_);
    return d;
}

/* what fleet_render_* print to stdout */
static char *render(FleetKind kind, RenderFormat fmt, cJSON *const *docs, const char *const *names,
                    const char *const *errors, size_t n)
{
    char path[] = "/tmp/kgpu-test-fleet-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    dup2(fd, STDOUT_FILENO);
    FleetRender *r = fleet_render_new(kind, fmt, false, false);
    for (size_t i = 0; i < n; i++) fleet_render_context(r, names[i], errors[i], docs[i]);
    int rc = fleet_render_finish(r);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    close(fd);
    assert_int_equal(rc, 0);
    size_t len = 0;
    char *msg = NULL, *text = util_read_file(path, &len, &msg);
    unlink(path);
    assert_non_null(text);
    free(msg);
    return text;
}

static const char *const east_nodes[] = { "e1:NVIDIA-H100-80GB-HBM3:8:2:6", "e2:NVIDIA-A100-SXM4-80GB:8:8:0", NULL };
static const char *const west_nodes[] = { "w1:NVIDIA-H100-80GB-HBM3:8:5:3", NULL };

static void test_status_json(void **state)
{
    (void)state;
    cJSON *docs[] = { status_doc("1", 2, east_nodes), NULL, status_doc(NULL, 1, west_nodes) };
    const char *names[] = { "east", "down", "west" }, *errors[] = { NULL, "cannot reach the API server", NULL };
    char *out = render(FLEET_STATUS, RENDER_JSON, docs, names, errors, 3);
    cJSON *d = cJSON_Parse(out);
    assert_non_null(d);
    assert_string_equal(cJSON_GetObjectItem(d, "kind")->valuestring, "GPUFleetStatus");
    cJSON *ctxs = cJSON_GetObjectItem(d, "contexts");
    assert_int_equal(cJSON_GetArraySize(ctxs), 3);
    cJSON *down = cJSON_GetArrayItem(ctxs, 1);
    assert_string_equal(cJSON_GetObjectItem(down, "context")->valuestring, "down");
    assert_string_equal(cJSON_GetObjectItem(down, "error")->valuestring, "cannot reach the API server");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(down, "status")));
    cJSON *east = cJSON_GetArrayItem(ctxs, 0);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(east, "error")));
    assert_true(cJSON_Compare(cJSON_GetObjectItem(east, "status"), docs[0], true));   /* passed on whole */
    cJSON *s = cJSON_GetObjectItem(d, "summary"), *p = cJSON_GetObjectItem(s, "physical");
    assert_int_equal(cJSON_GetObjectItem(s, "contexts")->valueint, 3);
    assert_int_equal(cJSON_GetObjectItem(s, "answered")->valueint, 2);
    assert_int_equal(cJSON_GetObjectItem(s, "physicalGPUs")->valueint, 16 + 8);
    assert_int_equal(cJSON_GetObjectItem(p, "inUse")->valueint, 10 + 5);
    assert_int_equal(cJSON_GetObjectItem(p, "free")->valueint, 6 + 3);
    assert_int_equal(cJSON_GetObjectItem(s, "pendingGPUPods")->valueint, 3);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(p, "idleAllocated")));   /* west has no metrics */
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(s, "waitingWorkloads"))); /* no context has queues */
    cJSON *by = cJSON_GetObjectItem(s, "freeGPUsByProduct");
    cJSON *h100 = cJSON_GetObjectItem(by, "H100-80GB-HBM3");
    assert_int_equal(cJSON_GetObjectItem(h100, "free")->valueint, 6 + 3);
    assert_int_equal(cJSON_GetObjectItem(h100, "mostOnOneNode")->valueint, 6);
    assert_null(cJSON_GetObjectItem(by, "A100-SXM4-80GB"));                 /* none free */
    cJSON_Delete(d);
    free(out);
    cJSON_Delete(docs[0]);
    cJSON_Delete(docs[2]);
}

static void test_status_table(void **state)
{
    (void)state;
    cJSON *docs[] = { status_doc("1", 2, east_nodes), NULL, status_doc("0", 1, west_nodes) };
    const char *names[] = { "east", "down", "west" }, *errors[] = { NULL, "refused", NULL };
    char *out = render(FLEET_STATUS, RENDER_TEXT, docs, names, errors, 3);
    assert_non_null(strstr(out, "Fleet: 2 of 3 context(s) answered"));
    /* TOTAL: GPUs 24, in use 15, idle 1 (both have metrics here), free 9, unavailable 0, pending 3 */
    assert_non_null(strstr(out, "\nTOTAL   "));
    char *total = strstr(out, "\nTOTAL");
    char line[256];
    sscanf(total + 1, "%255[^\n]", line);
    char word[16];
    double v[6];
    assert_int_equal(sscanf(line, "%15s %lf %lf %lf %lf %lf %lf", word, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]), 7);
    assert_true(v[0] == 24 && v[1] == 15 && v[2] == 1 && v[3] == 9 && v[4] == 0 && v[5] == 3);
    assert_null(strstr(out, "\ndown "));                                   /* no row for a failed context */
    assert_non_null(strstr(out, "\neast      e1 "));                       /* nodes: CONTEXT first */
    assert_non_null(strstr(out, "H100-80GB-HBM3   9 "));                    /* free H100s across the fleet */
    assert_non_null(strstr(out, "east (6), west (3)"));
    free(out);
    cJSON_Delete(docs[0]);
    docs[0] = status_doc(NULL, 2, east_nodes);                             /* east without metrics */
    out = render(FLEET_STATUS, RENDER_TEXT, docs, names, errors, 3);
    total = strstr(out, "\nTOTAL");
    sscanf(total + 1, "%255[^\n]", line);
    char idle[8];
    assert_int_equal(sscanf(line, "%15s %lf %lf %7s", word, &v[0], &v[1], idle), 4);
    assert_string_equal(idle, "?");                                        /* unknown, not 0 */
    free(out);
    cJSON_Delete(docs[0]);
    cJSON_Delete(docs[2]);
}

static void test_pending_json(void **state)
{
    (void)state;
    cJSON *doc = cJSON_Parse("{\"kind\": \"GPUPending\", \"namespace\": null, \"pods\": ["
                             "{\"namespace\": \"ml\", \"name\": \"p1\", \"created\": true, \"requests\": {\"nvidia.com/gpu\": 8},"
                             " \"verdict\": \"Insufficient\", \"reason\": \"busy\", \"ageSeconds\": 60},"
                             "{\"namespace\": \"ml\", \"name\": \"p2\", \"created\": true, \"requests\": {\"nvidia.com/gpu\": 1},"
                             " \"verdict\": \"Taint\", \"reason\": \"tainted\", \"ageSeconds\": 7200}], \"warnings\": []}");
    cJSON *docs[] = { doc, NULL };
    const char *names[] = { "east", "down" }, *errors[] = { NULL, "Unauthorized" };
    char *out = render(FLEET_PENDING, RENDER_JSON, docs, names, errors, 2);
    cJSON *d = cJSON_Parse(out);
    assert_string_equal(cJSON_GetObjectItem(d, "kind")->valuestring, "GPUFleetPending");
    cJSON *east = cJSON_GetArrayItem(cJSON_GetObjectItem(d, "contexts"), 0);
    assert_true(cJSON_Compare(cJSON_GetObjectItem(east, "pending"), doc, true));
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(d, "summary"), "pendingGPUPods")->valueint, 2);
    cJSON_Delete(d);
    free(out);
    out = render(FLEET_PENDING, RENDER_TEXT, docs, names, errors, 2);
    assert_non_null(strstr(out, "Fleet: 1 of 2 context(s) answered; 2 pending GPU pod(s)\n"));
    assert_non_null(strstr(out, "CONTEXT   NAMESPACE   NAME   GPUS"));
    /* 7200 s: kubectl's age under 3 h is in minutes (util_format_age) */
    assert_non_null(strstr(out, "\neast      ml          p2     nvidia.com/gpu:1   120m   Taint "));
    free(out);
    cJSON_Delete(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_json), cmocka_unit_test(test_status_table), cmocka_unit_test(test_pending_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
