/* node_doc.c — a GPU node as a TextDoc (node_doc.h): the pane under top's node list and the
 * full node screen. */
#include "render/node_doc.h"
#include "node_doc_parts.h"
#include "analysis/physical.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *node_doc_resource_kind(const NodeStatus *n, const char *resource)
{
    if (str_starts_with(resource, "nvidia.com/mig-")) return "MIG devices";
    if (str_eq(resource, "nvidia.com/gpu.shared") || (str_eq(resource, "nvidia.com/gpu") && n->sharing != SHARING_NONE))
        return n->sharing == SHARING_MPS ? "MPS slots" : "time-slicing slots";
    if (str_eq(resource, "nvidia.com/gpu")) return "whole GPUs";
    return NULL;
}

/* a percent of a device: "-" unknown, "?" for what cannot be one (inf, < 0, > 100): never "inf%" */
static void fmt_pct(char *out, size_t n, double v)
{
    if (isnan(v)) snprintf(out, n, "-");
    else if (!isfinite(v) || v < 0 || v > 100.5) snprintf(out, n, "?");
    else snprintf(out, n, "%.0f%%", v);
}

TextAttr node_doc_attr(const NodeStatus *n)
{
    if (!n->ready) return TA_ERROR;
    for (size_t i = 0; i < n->nproblems; i++) {
        ProblemCode c = n->problems[i].code;
        if (c == PROBLEM_NO_DEVICE_PLUGIN || c == PROBLEM_MIG_INVALID || c == PROBLEM_MIG_CONFIG_FAILED) return TA_ERROR;
    }
    return n->nproblems ? TA_WARN : TA_OK;
}

static const char *mig_words(const NodeStatus *n)
{
    if (n->product && str_ends_with(n->product, "-MIG-INVALID")) return "MIG invalid";
    if (!n->mig_enabled) return NULL;
    return n->mig_strategy == MIG_SINGLE ? "MIG single" : "MIG mixed";
}

char *node_doc_summary(const NodeStatus *n)
{
    Strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, n->short_product ? n->short_product : "-");
    if (n->physical_gpus > 0)
        strbuf_addf(&sb, ", %d%s GPU%s", n->physical_gpus, n->inv->physical_unsure ? "*" : "", n->physical_gpus == 1 ? "" : "s");
    else strbuf_adds(&sb, ", ? GPUs");
    if (n->memory_per_gpu_mib > 0) strbuf_addf(&sb, " x %.0fGi", (double)n->memory_per_gpu_mib / 1024.0);
    const char *mig = mig_words(n);
    if (mig) strbuf_addf(&sb, ", %s", mig);
    char *mode = node_status_mode(n);        /* the same words as status's MODE column */
    if (n->sharing != SHARING_NONE || n->inv->sharing_known != INV_SHARING_KNOWN) strbuf_addf(&sb, ", %s", mode);
    free(mode);
    char *w = node_status_word(n);
    strbuf_addf(&sb, ", %s", w);
    free(w);
    return strbuf_detach(&sb);
}

static void pod_resources(Strbuf *sb, const HolderPod *p)
{
    for (size_t k = 0; k < p->nres; k++)
        strbuf_addf(sb, "%s%s %lld", k ? ", " : "", node_doc_short_resource(p->res[k].name), (long long)p->res[k].count);
    if (!p->nres) strbuf_adds(sb, "-");
}

/* a field label (textdoc.h): "Node" on the screen, "Node:" printed; "" continues the field */
static void label(TextDoc *d, const char *l, int width) { text_label(d, l, width); }

/* ------------------------------------------------------------------ the pane */

void node_doc_pane(TextDoc *d, const NodeDocData *td, const NodeStatus *n)
{
    const int lw = 11;
    for (size_t i = 0; i < n->nproblems; i++) {
        label(d, i ? "" : "Problems", lw);
        text_add(d, node_doc_attr(n) == TA_ERROR ? TA_ERROR : TA_WARN, problem_code_name(n->problems[i].code));
        text_add(d, TA_NORMAL, ": ");
        text_add(d, TA_NORMAL, n->problems[i].message);
    }
    label(d, "Resources", lw);
    if (!n->nres) text_add(d, TA_DIM, "no GPU resource advertised");
    for (size_t i = 0; i < n->nres; i++) {
        char *item = xasprintf("%s %lld/%lld%s", node_doc_short_resource(n->res[i].name),
                               (long long)n->res[i].allocated, (long long)n->res[i].allocatable,
                               i + 1 < n->nres ? "  " : "");
        text_wrap(d, lw, TA_NORMAL, item);
        free(item);
    }
    node_doc_dra_line(d, n, lw);
    if (td->status->has_metrics) {
        char mem[32], tot[32], util[16];
        node_doc_fmt_mib(mem, sizeof mem, n->mem_used_mib);
        node_doc_fmt_mib(tot, sizeof tot, n->mem_total_mib);
        fmt_pct(util, sizeof util, n->util);
        label(d, "Usage", lw);
        text_addf(d, TA_NORMAL, "util %s  memory %s of %s", util, mem, tot);
        if (physical_idle_node(n)) text_addf(d, TA_WARN, "  %d held but idle", physical_idle_node(n));
    }
    if (health_count(&n->health)) {      /* analysis/health.h: which GPUs and why */
        label(d, "Health", lw);
        Strbuf hb = STRBUF_INIT;
        strbuf_addf(&hb, "%d GPU%s unhealthy", health_count(&n->health),
                    health_count(&n->health) == 1 ? "" : "s");
        for (size_t i = 0; i < n->health.ngpus; i++)
            strbuf_addf(&hb, "%s GPU %d %s", i ? ";" : ":", n->health.gpus[i].index, n->health.gpus[i].why);
        text_wrap(d, lw, TA_ERROR, strbuf_str(&hb));
        strbuf_clear(&hb);
    }
    if (!n->npods) {
        label(d, "Pods", lw);
        text_add(d, TA_DIM, "none hold GPUs here");
    }
    for (size_t i = 0; i < n->npods; i++) {
        const HolderPod *p = &n->pods[i];
        char *l = xasprintf("Pods (%zu)", n->npods);
        label(d, i ? "" : l, lw);
        free(l);
        text_addf(d, TA_NORMAL, "%s/%s", p->ns, p->name);
        Strbuf sb = STRBUF_INIT;
        pod_resources(&sb, p);
        text_add(d, TA_DIM, "  ");
        text_add(d, TA_NORMAL, strbuf_str(&sb));
        strbuf_clear(&sb);
        if (p->phase != PHASE_RUNNING) text_addf(d, TA_WARN, "  %s", node_status_holder_phase(p));
        if (td->status->has_metrics && p->has_usage) {
            char mem[32], util[16];
            HolderUsage u = node_status_holder_usage(n, p);
            node_doc_fmt_mib(mem, sizeof mem, u.mem_used_mib);
            fmt_pct(util, sizeof util, u.util);
            text_addf(d, TA_DIM, "  mem %s util %s", mem, util);
        }
    }
}

/* ------------------------------------------------------------------ the node screen */

static void section(TextDoc *d, const char *title)
{
    text_newline(d);
    text_newline(d);
    text_add(d, TA_COLUMNS, title);
}

static void node_resources(TextDoc *d, const NodeStatus *n)
{
    section(d, "RESOURCES");
    if (!n->nres) {
        text_newline(d);
        text_add(d, TA_DIM, "  none: the node advertises no GPU resource");
        return;
    }
    int nw = 8;
    for (size_t i = 0; i < n->nres; i++) {
        int w = text_width(n->res[i].name);
        if (w > nw) nw = w;
    }
    text_newline(d);
    text_add(d, TA_DIM, "  NAME");
    text_pad(d, 2 + nw + 2);
    text_add(d, TA_DIM, "CAPACITY  ALLOCATABLE  ALLOCATED");
    for (size_t i = 0; i < n->nres; i++) {
        const ResourceAlloc *r = &n->res[i];
        text_newline(d);
        text_addf(d, TA_NORMAL, "  %s", r->name);
        text_pad(d, 2 + nw + 2);
        text_addf(d, TA_NORMAL, "%8lld  %11lld  %9lld  ", (long long)r->capacity, (long long)r->allocatable,
                  (long long)r->allocated);
        text_bar(d, 6, r->allocatable > 0 ? (double)r->allocated / (double)r->allocatable : NAN, TA_BAR_ALLOC);
        const char *kind = node_doc_resource_kind(n, r->name);
        if (kind) text_addf(d, TA_DIM, "  %s", kind);
        if (r->allocatable < r->capacity)
            text_addf(d, TA_WARN, "  %lld unhealthy", (long long)(r->capacity - r->allocatable));
    }
}

static void node_devices(TextDoc *d, const NodeDocData *td, const NodeStatus *n)
{
    const GpuStatus *st = td->status;
    section(d, "DEVICES");
    if (!st->has_metrics) {
        text_newline(d);
        text_add(d, TA_DIM, "  no per-device data: metrics ");
        text_wrap(d, 4, TA_DIM, st->metrics_detail ? st->metrics_detail : st->metrics_source);
        return;
    }
    if (!n->ngpus) {
        text_newline(d);
        text_add(d, TA_DIM, "  the metrics have no device of this node");
        return;
    }
    text_newline(d);
    text_add(d, TA_DIM, "  GPU  MIG         MEMORY                UTIL          HOLDER");
    for (size_t i = 0; i < n->ngpus; i++) {
        const GpuDevice *g = &n->gpus[i];
        char used[32], tot[32], util[16];
        text_newline(d);
        text_addf(d, TA_NORMAL, "  %-3d  ", g->index);
        if (g->mig_profile) text_addf(d, TA_NORMAL, "%s#%d", g->mig_profile, g->mig_instance);
        else text_add(d, TA_DIM, "-");
        text_pad(d, 19);
        double mf = !isnan(g->mem_used_mib) && !isnan(g->mem_total_mib) && g->mem_total_mib > 0
                    ? g->mem_used_mib / g->mem_total_mib : NAN;
        text_bar(d, 6, mf, TA_BAR_MEM);
        node_doc_fmt_mib(used, sizeof used, g->mem_used_mib);
        node_doc_fmt_mib(tot, sizeof tot, g->mem_total_mib);
        text_addf(d, TA_NORMAL, " %s/%s", used, tot);
        text_pad(d, 41);
        text_bar(d, 6, isnan(g->util) ? NAN : g->util / 100.0, TA_BAR_UTIL);
        fmt_pct(util, sizeof util, g->util);
        text_addf(d, TA_NORMAL, " %4s", util);
        text_pad(d, 55);
        if (g->pod) text_addf(d, TA_NORMAL, "%s/%s", g->pod_ns ? g->pod_ns : "", g->pod);
        else if (g->holders > 1) text_addf(d, TA_NORMAL, "%d pods share it", g->holders);
        else text_add(d, TA_DIM, "free");
        if (g->idle_allocated) text_add(d, TA_WARN, "  idle");
        if (!isnan(g->temp_c)) text_addf(d, TA_DIM, "  %.0fC", g->temp_c);
        if (!isnan(g->power_w)) text_addf(d, TA_DIM, " %.0fW", g->power_w);
        if (g->unhealthy) text_addf(d, TA_ERROR, "  UNHEALTHY: %s", g->unhealthy);
        else if (g->beyond_node) text_add(d, TA_WARN, "  not a GPU of the node");
        else if (g->util_out_of_range || g->mem_out_of_range) text_add(d, TA_WARN, "  reading out of range");
        node_doc_sparklines(d, td, n, g);
    }
    if (td->usage->nseries && td->usage->series_points) {
        char win[24], step[24];
        node_doc_fmt_duration(win, sizeof win, td->usage->series_step * (double)td->usage->series_points);
        node_doc_fmt_duration(step, sizeof step, td->usage->series_step);
        text_newline(d);
        text_addf(d, TA_DIM, "  sparklines: the last %s, highest per %s (utilization of 100%%, memory of the "
                  "GPU's); blank: no sample", win, step);
    }
}

static void node_pods(TextDoc *d, const NodeDocData *td, const NodeStatus *n)
{
    char *t = xasprintf("PODS HOLDING GPUS (%zu)", n->npods);
    section(d, t);
    free(t);
    if (!n->npods) {
        text_newline(d);
        text_add(d, TA_DIM, "  none");
        return;
    }
    bool m = td->status->has_metrics;
    int nw = 14, rw = 9;
    for (size_t i = 0; i < n->npods; i++) {
        int w = text_width(n->pods[i].ns) + 1 + text_width(n->pods[i].name);
        if (w > nw) nw = w;
        Strbuf sb = STRBUF_INIT;
        pod_resources(&sb, &n->pods[i]);
        w = text_width(strbuf_str(&sb));
        strbuf_clear(&sb);
        if (w > rw) rw = w;
    }
    if (rw > 30) rw = 30;
    int cap = d->width - 2 - 2 - rw - 2 - 8 - (m ? 16 : 0);
    if (nw > cap) nw = cap > 20 ? cap : 20;
    int rcol = 2 + nw + 2, pcol = rcol + rw + 2;
    text_newline(d);
    text_add(d, TA_DIM, "  NAMESPACE/NAME");
    text_pad(d, rcol);
    text_add(d, TA_DIM, "RESOURCES");
    text_pad(d, pcol);
    text_add(d, TA_DIM, m ? "PHASE     MEMORY  UTIL" : "PHASE");
    for (size_t i = 0; i < n->npods; i++) {
        const HolderPod *p = &n->pods[i];
        text_newline(d);
        char *pn = xasprintf("%s/%s", p->ns, p->name);
        text_add(d, TA_NORMAL, "  ");
        text_add_fit(d, TA_NORMAL, pn, nw);
        free(pn);
        text_pad(d, rcol);
        Strbuf sb = STRBUF_INIT;
        pod_resources(&sb, p);
        text_add_fit(d, TA_NORMAL, strbuf_str(&sb), rw);
        strbuf_clear(&sb);
        text_pad(d, pcol);
        text_add(d, p->phase == PHASE_RUNNING ? TA_NORMAL : TA_WARN, node_status_holder_phase(p));
        if (m) {
            char mem[32], util[16];
            HolderUsage u = node_status_holder_usage(n, p);
            node_doc_fmt_mib(mem, sizeof mem, p->has_usage ? u.mem_used_mib : NAN);
            fmt_pct(util, sizeof util, p->has_usage ? u.util : NAN);
            text_pad(d, pcol + 10);
            text_addf(d, TA_NORMAL, "%-7s %4s", mem, util);
        }
    }
}

static void node_labels(TextDoc *d, const NodeDocData *td, const NodeStatus *n)
{
    const Node *node = cluster_find_node(td->cluster, n->name);
    if (!node || !node->labels.n) return;
    section(d, "LABELS");
    for (size_t i = 0; i < node->labels.n; i++) {
        text_newline(d);
        text_addf(d, str_starts_with(node->labels.items[i].key, "nvidia.com/") ? TA_NORMAL : TA_DIM, "  %s=%s",
                  node->labels.items[i].key, node->labels.items[i].value);
    }
}

/* the node's taints (what keeps pods off it) and what the GPU Operator deploys on it (its
 * nvidia.com/gpu.deploy.<component> labels: "true", "false", "paused-for-mig-change", ...) */
static void node_taints_operator(TextDoc *d, const NodeDocData *td, const char *name, int lw)
{
    const Node *node = cluster_find_node(td->cluster, name);
    if (!node) return;
    label(d, "Taints", lw);
    if (!node->ntaints) text_add(d, TA_DIM, "none");
    for (size_t i = 0; i < node->ntaints; i++) {
        const Taint *t = &node->taints[i];
        char *s = xasprintf("%s%s%s:%s%s", t->key ? t->key : "", t->value && *t->value ? "=" : "",
                            t->value ? t->value : "", t->effect ? t->effect : "", i + 1 < node->ntaints ? ", " : "");
        text_wrap(d, lw, TA_NORMAL, s);
        free(s);
    }
    static const char prefix[] = "nvidia.com/gpu.deploy.";
    int deployed = 0, other = 0;
    for (size_t i = 0; i < node->labels.n; i++) {
        if (!str_starts_with(node->labels.items[i].key, prefix)) continue;
        if (str_eq(node->labels.items[i].value, "true")) deployed++;
        else other++;
    }
    if (!deployed && !other) return;
    label(d, "Operator", lw);
    for (size_t i = 0; i < node->labels.n; i++) {
        const char *k = node->labels.items[i].key, *v = node->labels.items[i].value;
        if (!str_starts_with(k, prefix) || str_eq(v, "true")) continue;
        char *s = xasprintf("%s %s, ", k + strlen(prefix), v ? v : "");
        text_wrap(d, lw, TA_WARN, s);
        free(s);
    }
    if (deployed) text_addf(d, TA_NORMAL, "%d component%s deployed", deployed, deployed == 1 ? "" : "s");
    else text_add(d, TA_DIM, "nothing deployed");
    text_add(d, TA_DIM, " (nvidia.com/gpu.deploy.*)");
}

void node_doc(TextDoc *d, const NodeDocData *td, const NodeStatus *n, const char *name)
{
    const int lw = 12;
    if (!n) {
        text_newline(d);
        text_addf(d, TA_WARN, "Node %s is no longer among the GPU nodes (it left the cluster or the selector).", name);
        text_newline(d);
        text_add(d, TA_DIM, "Press q to go back.");
        return;
    }
    label(d, "Node", lw);
    text_add(d, TA_VALUE, n->name);
    label(d, "Product", lw);
    text_add(d, TA_NORMAL, n->product ? n->product : "unknown (no GPU Feature Discovery labels)");
    label(d, "GPUs", lw);
    if (n->physical_gpus > 0) text_addf(d, TA_NORMAL, "%d physical", n->physical_gpus);
    else text_add(d, TA_NORMAL, "? (cannot be counted)");
    if (n->inv->physical_src != FACT_GFD && *n->inv->physical_detail)
        text_addf(d, TA_DIM, " [%s: %s]", n->inv->physical < 0 ? "unknown" : inventory_fact_source_name(n->inv->physical_src),
                  n->inv->physical_detail);
    if (n->memory_per_gpu_mib > 0)
        text_addf(d, TA_NORMAL, ", %.0fGi each, %.0fGi in all", (double)n->memory_per_gpu_mib / 1024.0,
                  (double)n->memory_mib / 1024.0);
    label(d, "MIG", lw);
    const char *mig = mig_words(n);
    if (mig) text_add(d, TA_NORMAL, mig);
    else text_add(d, TA_DIM, n->mig_strategy == MIG_NONE ? "not used" : "strategy set, no MIG devices");
    if (n->mig_single_profile) text_addf(d, TA_NORMAL, " (%s)", n->mig_single_profile);
    if (n->mig_config)
        text_addf(d, TA_NORMAL, ", mig.config %s%s%s", n->mig_config, n->mig_config_state ? ", state " : "",
                  n->mig_config_state ? n->mig_config_state : "");
    label(d, "Sharing", lw);
    if (n->sharing == SHARING_NONE && n->inv->sharing_known == INV_SHARING_KNOWN) text_add(d, TA_DIM, "none");
    else if (n->replicas > 0)
        text_addf(d, TA_NORMAL, "%s, %d replicas per GPU", inventory_sharing_name(n->inv), n->replicas);
    else text_addf(d, TA_NORMAL, "%s, replicas per GPU unknown", inventory_sharing_name(n->inv));
    if (n->inv->sharing_src != FACT_GFD && *n->inv->sharing_detail)
        text_addf(d, TA_DIM, " [%s: %s]", inventory_fact_source_name(n->inv->sharing_src), n->inv->sharing_detail);
    label(d, "Status", lw);
    char *w = node_status_word(n);
    text_add(d, node_doc_attr(n), w);
    free(w);
    for (size_t i = 0; i < n->nproblems; i++) {
        label(d, i ? "" : "Problems", lw);
        text_add(d, node_doc_attr(n) == TA_ERROR ? TA_ERROR : TA_WARN, problem_code_name(n->problems[i].code));
        text_add(d, TA_NORMAL, ": ");
        text_wrap(d, lw + 2, TA_NORMAL, n->problems[i].message);
    }
    node_taints_operator(d, td, n->name, lw);
    if (td->status->has_metrics) {
        char mem[32], tot[32], util[16];
        node_doc_fmt_mib(mem, sizeof mem, n->mem_used_mib);
        node_doc_fmt_mib(tot, sizeof tot, n->mem_total_mib);
        fmt_pct(util, sizeof util, n->util);
        label(d, "Usage", lw);
        text_addf(d, TA_NORMAL, "utilization %s, memory %s of %s", util, mem, tot);
        if (physical_idle_node(n)) text_addf(d, TA_WARN, ", %d held but idle", physical_idle_node(n));
    }
    node_resources(d, n);
    node_devices(d, td, n);
    node_doc_dra_devices(d, n);
    node_pods(d, td, n);
    node_labels(d, td, n);
}

/* ------------------------------------------------------------------ explain view */
