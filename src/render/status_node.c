/* status_node.c — one GPU node as `status -o json` lists it (render/status.h:
 * status_node_write, written through the JSON writer; status_node_json, the same as a tree):
 * below status.c, which streams the nodes into its document, and status_view.c, which sorts
 * and columns them from the tree. */
#include "render/status.h"
#include "render/status_dra.h"
#include "analysis/health.h"
#include "analysis/physical.h"
#include "render/json_writer.h"
#include <cjson/cJSON.h>
#include <math.h>

/* one decimal, or null when unknown (NaN: jw_number's null) */
static void num1(JsonWriter *jw, const char *key, double v) { jw_number(jw, key, round(v * 10) / 10); }

static void add_fact_source(JsonWriter *jw, const char *fact, FactSource s, const char *detail, bool resources_only)
{
    if (s == FACT_GFD && !*detail) return;
    if (s == FACT_NONE && !*detail) return;          /* nothing to say: e.g. no MIG at all */
    jw_object_begin(jw, fact);
    jw_string(jw, "source", inventory_fact_source_name(s));
    if (resources_only) jw_bool(jw, "resourcesOnly", true);
    if (*detail) jw_string(jw, "detail", detail);
    jw_end(jw);
}

static void write_holders(JsonWriter *jw, const NodeStatus *n, bool metrics)
{
    jw_array_begin(jw, "pods");
    for (size_t i = 0; i < n->npods; i++) {
        const HolderPod *p = &n->pods[i];
        jw_object_begin(jw, NULL);
        jw_string(jw, "namespace", p->ns);
        jw_string(jw, "name", p->name);
        jw_string(jw, "phase", node_status_holder_phase(p));
        jw_object_begin(jw, "resources");
        for (size_t k = 0; k < p->nres; k++) jw_number(jw, p->res[k].name, (double)p->res[k].count);
        jw_end(jw);
        if (metrics) {
            HolderUsage u = node_status_holder_usage(n, p);
            num1(jw, "memoryUsedMiB", u.mem_used_mib);
            num1(jw, "utilization", u.util);
        }
        jw_end(jw);
    }
    jw_end(jw);
}

static void write_gpus(JsonWriter *jw, const NodeStatus *n)
{
    jw_array_begin(jw, "gpus");
    for (size_t i = 0; i < n->ngpus; i++) {
        const GpuDevice *g = &n->gpus[i];
        jw_object_begin(jw, NULL);
        jw_number(jw, "index", g->index);
        jw_string(jw, "uuid", g->uuid);
        if (g->mig_profile) {
            jw_string(jw, "migProfile", g->mig_profile);
            jw_number(jw, "migInstance", g->mig_instance);
        }
        num1(jw, "memoryUsedMiB", g->mem_used_mib);
        num1(jw, "memoryTotalMiB", g->mem_total_mib);
        num1(jw, "utilization", g->util);
        if (g->util_out_of_range || g->mem_out_of_range) {     /* the reading was impossible */
            jw_array_begin(jw, "outOfRange");
            if (g->util_out_of_range) jw_string(jw, NULL, "utilization");
            if (g->mem_out_of_range) jw_string(jw, NULL, "memoryUsedMiB");
            jw_end(jw);
        }
        if (!isnan(g->temp_c)) num1(jw, "temperatureC", g->temp_c);
        if (!isnan(g->power_w)) num1(jw, "powerW", g->power_w);
        if (g->unhealthy) jw_string(jw, "unhealthy", g->unhealthy);
        if (g->beyond_node) jw_bool(jw, "beyondNode", true);
        if (g->pod) {
            jw_object_begin(jw, "pod");
            jw_string(jw, "namespace", g->pod_ns);
            jw_string(jw, "name", g->pod);
            jw_end(jw);
        }
        jw_number(jw, "holders", g->holders);
        jw_bool(jw, "idleAllocated", g->idle_allocated);
        jw_end(jw);
    }
    jw_end(jw);
}

/* GPU health (analysis/health.h): unhealthy GPUs named by index, more counted by the device
 * plugin alone, and every signal that said so */
static void write_health(JsonWriter *jw, const NodeHealth *h)
{
    jw_object_begin(jw, "health");
    jw_number(jw, "unhealthyGPUs", health_count(h));
    jw_array_begin(jw, "gpus");
    for (size_t i = 0; i < h->ngpus; i++) {
        jw_object_begin(jw, NULL);
        jw_number(jw, "index", h->gpus[i].index);
        jw_string(jw, "reason", h->gpus[i].why);
        jw_end(jw);
    }
    jw_end(jw);
    jw_array_begin(jw, "signals");
    for (size_t i = 0; i < h->signals.n; i++) jw_string(jw, NULL, h->signals.v[i]);
    jw_end(jw);
    jw_end(jw);
}

static void write_node(JsonWriter *jw, const NodeStatus *n, bool metrics)
{
    jw_object_begin(jw, NULL);
    jw_string(jw, "name", n->name);
    jw_string(jw, "product", n->product);
    const NodeInventory *v = n->inv;
    if (v->physical >= 0) jw_number(jw, "physicalGPUs", v->physical);
    else jw_null(jw, "physicalGPUs");                              /* cannot be counted */
    if (v->whole_gpus >= 0) jw_number(jw, "wholeGPUs", v->whole_gpus);
    else jw_null(jw, "wholeGPUs");
    jw_number(jw, "migDevices", v->mig_devices);
    jw_number(jw, "gpuMemoryMiB", (double)n->memory_mib);
    jw_number(jw, "gpuMemoryPerGPUMiB", (double)n->memory_per_gpu_mib);
    jw_string(jw, "migStrategy", mig_strategy_name(n->mig_strategy));
    jw_bool(jw, "migEnabled", n->mig_enabled);
    jw_string(jw, "migConfig", n->mig_config);
    jw_string(jw, "migConfigState", n->mig_config_state);
    jw_object_begin(jw, "sharing");
    jw_string(jw, "strategy", inventory_sharing_name(v));
    if (n->replicas > 0) jw_number(jw, "replicas", n->replicas);
    else jw_null(jw, "replicas");
    if (v->sharing_src != FACT_GFD) jw_string(jw, "source", inventory_fact_source_name(v->sharing_src));
    jw_end(jw);
    /* per fact not read from current GFD labels: where it came from and how */
    jw_object_begin(jw, "sources");
    /* the product's signal is always said (node.h: GFD > clouds' labels > DRA > none) */
    jw_object_begin(jw, "product");
    jw_string(jw, "source", cloud_product_source_name(n->product ? v->product_src : PRODUCT_SRC_NONE));
    if (*v->product_detail) jw_string(jw, "detail", v->product_detail);
    jw_end(jw);
    add_fact_source(jw, "physicalGPUs", v->physical < 0 ? FACT_NONE : v->physical_src, v->physical_detail,
                    v->physical_unsure);
    add_fact_source(jw, "gpuMemory", v->memory_per_gpu_mib ? v->memory_src : FACT_NONE, v->memory_detail, false);
    add_fact_source(jw, "mig", v->mig_src, v->mig_detail, false);
    add_fact_source(jw, "sharing", v->sharing_src, v->sharing_detail, false);
    jw_end(jw);
    jw_bool(jw, "ready", n->ready);
    jw_bool(jw, "schedulable", n->schedulable);
    status_node_physical_write(jw, n, metrics);
    jw_object_begin(jw, "resources");
    for (size_t i = 0; i < n->nres; i++) {
        jw_object_begin(jw, n->res[i].name);
        jw_number(jw, "capacity", (double)n->res[i].capacity);
        jw_number(jw, "allocatable", (double)n->res[i].allocatable);
        jw_number(jw, "allocated", (double)n->res[i].allocated);
        jw_end(jw);
    }
    jw_end(jw);
    write_holders(jw, n, metrics);
    if (metrics) {
        num1(jw, "memoryUsedMiB", n->mem_used_mib);
        num1(jw, "memoryTotalMiB", n->mem_total_mib);
        num1(jw, "utilization", n->util);
        jw_number(jw, "idleAllocatedGPUs", physical_idle_node(n));
        write_gpus(jw, n);
    }
    write_health(jw, &n->health);
    if (metrics && n->metrics_beyond) jw_number(jw, "metricsDevicesBeyondNode", n->metrics_beyond);
    jw_array_begin(jw, "problems");
    for (size_t i = 0; i < n->nproblems; i++) {
        jw_object_begin(jw, NULL);
        jw_string(jw, "code", problem_code_name(n->problems[i].code));
        jw_string(jw, "message", n->problems[i].message);
        jw_end(jw);
    }
    jw_end(jw);
    status_dra_node_write(jw, n);
    jw_end(jw);
}

void status_node_write(JsonWriter *jw, const GpuStatus *st, size_t i)
{
    write_node(jw, &st->gpu_node_list[i], st->has_metrics);
}

cJSON *status_node_json(const GpuStatus *st, size_t i)
{
    JsonWriter *jw = jw_tree_new();
    if (jw) status_node_write(jw, st, i);
    return jw_tree_finish(jw);
}
