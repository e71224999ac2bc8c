/* status_node.c — one GPU node as `status -o json` lists it (render/status.h:
 * status_node_json): below status.c, which puts the nodes in its document, and status_view.c,
 * which sorts, lists and columns them from this object. */
#include "render/status.h"
#include "render/status_dra.h"
#include "analysis/health.h"
#include "analysis/physical.h"
#include <cjson/cJSON.h>
#include <math.h>

static void add_num_or_null(cJSON *o, const char *key, double v)
{
    if (isnan(v)) cJSON_AddNullToObject(o, key);
    else cJSON_AddNumberToObject(o, key, round(v * 10) / 10);
}

void status_json_str_or_null(cJSON *o, const char *key, const char *v)
{
    if (v) cJSON_AddStringToObject(o, key, v);
    else cJSON_AddNullToObject(o, key);
}

static void add_fact_source(cJSON *o, const char *fact, FactSource s, const char *detail, bool resources_only)
{
    if (s == FACT_GFD && !*detail) return;
    if (s == FACT_NONE && !*detail) return;          /* nothing to say: e.g. no MIG at all */
    cJSON *f = cJSON_AddObjectToObject(o, fact);
    cJSON_AddStringToObject(f, "source", inventory_fact_source_name(s));
    if (resources_only) cJSON_AddBoolToObject(f, "resourcesOnly", true);
    if (*detail) cJSON_AddStringToObject(f, "detail", detail);
}

static cJSON *node_json(const NodeStatus *n, bool metrics)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", n->name);
    status_json_str_or_null(o, "product", n->product);
    const NodeInventory *v = n->inv;
    if (v->physical >= 0) cJSON_AddNumberToObject(o, "physicalGPUs", v->physical);
    else cJSON_AddNullToObject(o, "physicalGPUs");               /* cannot be counted */
    if (v->whole_gpus >= 0) cJSON_AddNumberToObject(o, "wholeGPUs", v->whole_gpus);
    else cJSON_AddNullToObject(o, "wholeGPUs");
    cJSON_AddNumberToObject(o, "migDevices", v->mig_devices);
    cJSON_AddNumberToObject(o, "gpuMemoryMiB", (double)n->memory_mib);
    cJSON_AddNumberToObject(o, "gpuMemoryPerGPUMiB", (double)n->memory_per_gpu_mib);
    cJSON_AddStringToObject(o, "migStrategy", mig_strategy_name(n->mig_strategy));
    cJSON_AddBoolToObject(o, "migEnabled", n->mig_enabled);
    status_json_str_or_null(o, "migConfig", n->mig_config);
    status_json_str_or_null(o, "migConfigState", n->mig_config_state);
    cJSON *sh = cJSON_AddObjectToObject(o, "sharing");
    cJSON_AddStringToObject(sh, "strategy", inventory_sharing_name(v));
    if (n->replicas > 0) cJSON_AddNumberToObject(sh, "replicas", n->replicas);
    else cJSON_AddNullToObject(sh, "replicas");
    if (v->sharing_src != FACT_GFD) cJSON_AddStringToObject(sh, "source", inventory_fact_source_name(v->sharing_src));
    /* per fact not read from current GFD labels: where it came from and how */
    cJSON *src = cJSON_AddObjectToObject(o, "sources");
    /* the product's signal is always said (node.h: GFD > clouds' labels > DRA > none) */
    cJSON *ps = cJSON_AddObjectToObject(src, "product");
    cJSON_AddStringToObject(ps, "source", cloud_product_source_name(n->product ? v->product_src : PRODUCT_SRC_NONE));
    if (*v->product_detail) cJSON_AddStringToObject(ps, "detail", v->product_detail);
    add_fact_source(src, "physicalGPUs", v->physical < 0 ? FACT_NONE : v->physical_src, v->physical_detail,
                    v->physical_unsure);
    add_fact_source(src, "gpuMemory", v->memory_per_gpu_mib ? v->memory_src : FACT_NONE, v->memory_detail, false);
    add_fact_source(src, "mig", v->mig_src, v->mig_detail, false);
    add_fact_source(src, "sharing", v->sharing_src, v->sharing_detail, false);
    cJSON_AddBoolToObject(o, "ready", n->ready);
    cJSON_AddBoolToObject(o, "schedulable", n->schedulable);
    status_node_physical_json(o, n, metrics);
    cJSON *res = cJSON_AddObjectToObject(o, "resources");
    for (size_t i = 0; i < n->nres; i++) {
        cJSON *r = cJSON_AddObjectToObject(res, n->res[i].name);
        cJSON_AddNumberToObject(r, "capacity", (double)n->res[i].capacity);
        cJSON_AddNumberToObject(r, "allocatable", (double)n->res[i].allocatable);
        cJSON_AddNumberToObject(r, "allocated", (double)n->res[i].allocated);
    }
    cJSON *pods = cJSON_AddArrayToObject(o, "pods");
    for (size_t i = 0; i < n->npods; i++) {
        const HolderPod *p = &n->pods[i];
        cJSON *po = cJSON_CreateObject();
        cJSON_AddStringToObject(po, "namespace", p->ns);
        cJSON_AddStringToObject(po, "name", p->name);
        cJSON_AddStringToObject(po, "phase", node_status_holder_phase(p));
        cJSON *pr = cJSON_AddObjectToObject(po, "resources");
        for (size_t k = 0; k < p->nres; k++) cJSON_AddNumberToObject(pr, p->res[k].name, (double)p->res[k].count);
        if (metrics) {
            HolderUsage u = node_status_holder_usage(n, p);
            add_num_or_null(po, "memoryUsedMiB", u.mem_used_mib);
            add_num_or_null(po, "utilization", u.util);
        }
        cJSON_AddItemToArray(pods, po);
    }
    if (metrics) {
        add_num_or_null(o, "memoryUsedMiB", n->mem_used_mib);
        add_num_or_null(o, "memoryTotalMiB", n->mem_total_mib);
        add_num_or_null(o, "utilization", n->util);
        cJSON_AddNumberToObject(o, "idleAllocatedGPUs", physical_idle_node(n));
        cJSON *gpus = cJSON_AddArrayToObject(o, "gpus");
        for (size_t i = 0; i < n->ngpus; i++) {
            const GpuDevice *g = &n->gpus[i];
            cJSON *go = cJSON_CreateObject();
            cJSON_AddNumberToObject(go, "index", g->index);
            status_json_str_or_null(go, "uuid", g->uuid);
            if (g->mig_profile) {
                cJSON_AddStringToObject(go, "migProfile", g->mig_profile);
                cJSON_AddNumberToObject(go, "migInstance", g->mig_instance);
            }
            add_num_or_null(go, "memoryUsedMiB", g->mem_used_mib);
            add_num_or_null(go, "memoryTotalMiB", g->mem_total_mib);
            add_num_or_null(go, "utilization", g->util);
            if (g->util_out_of_range || g->mem_out_of_range) {     /* the reading was impossible */
                cJSON *oor = cJSON_AddArrayToObject(go, "outOfRange");
                if (g->util_out_of_range) cJSON_AddItemToArray(oor, cJSON_CreateString("utilization"));
                if (g->mem_out_of_range) cJSON_AddItemToArray(oor, cJSON_CreateString("memoryUsedMiB"));
            }
            if (!isnan(g->temp_c)) add_num_or_null(go, "temperatureC", g->temp_c);
            if (!isnan(g->power_w)) add_num_or_null(go, "powerW", g->power_w);
            if (g->unhealthy) cJSON_AddStringToObject(go, "unhealthy", g->unhealthy);
            if (g->beyond_node) cJSON_AddBoolToObject(go, "beyondNode", true);
            if (g->pod) {
                cJSON *h = cJSON_AddObjectToObject(go, "pod");
                status_json_str_or_null(h, "namespace", g->pod_ns);
                cJSON_AddStringToObject(h, "name", g->pod);
            }
            cJSON_AddNumberToObject(go, "holders", g->holders);
            cJSON_AddBoolToObject(go, "idleAllocated", g->idle_allocated);
            cJSON_AddItemToArray(gpus, go);
        }
    }
    /* GPU health (analysis/health.h): unhealthy GPUs named by index, more counted by the device
     * plugin alone, and every signal that said so */
    const NodeHealth *h = &n->health;
    cJSON *ho = cJSON_AddObjectToObject(o, "health");
    cJSON_AddNumberToObject(ho, "unhealthyGPUs", health_count(h));
    cJSON *hg = cJSON_AddArrayToObject(ho, "gpus");
    for (size_t i = 0; i < h->ngpus; i++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "index", h->gpus[i].index);
        cJSON_AddStringToObject(x, "reason", h->gpus[i].why);
        cJSON_AddItemToArray(hg, x);
    }
    cJSON *hs = cJSON_AddArrayToObject(ho, "signals");
    for (size_t i = 0; i < h->signals.n; i++) cJSON_AddItemToArray(hs, cJSON_CreateString(h->signals.v[i]));
    if (metrics && n->metrics_beyond) cJSON_AddNumberToObject(o, "metricsDevicesBeyondNode", n->metrics_beyond);
    cJSON *probs = cJSON_AddArrayToObject(o, "problems");
    for (size_t i = 0; i < n->nproblems; i++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "code", problem_code_name(n->problems[i].code));
        cJSON_AddStringToObject(p, "message", n->problems[i].message);
        cJSON_AddItemToArray(probs, p);
    }
    status_dra_node_json(o, n);
    return o;
}

cJSON *status_node_json(const GpuStatus *st, size_t i) { return node_json(&st->gpu_node_list[i], st->has_metrics); }
