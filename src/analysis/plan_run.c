/* plan_run.c — one run of `kubectl gpu plan` built from the cluster and the usage (plan_run.h). */
#include "analysis/plan_run.h"
#include "analysis/allocation.h"
#include "analysis/plan_actuate.h"
#include "analysis/plan_warnings.h"
#include "util/error.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int plan_run_build(PlanRun *run, const Cluster *c, UsageData *usage, WorkloadUsage *wu, size_t nwu,
                   const PlanRunOptions *o, Error *err)
{
    memset(run, 0, sizeof *run);
    run->window = o->window;
    run->window_s = o->window_s;
    run->percentile = o->percentile;
    run->headroom = o->headroom;
    run->context = xstrdup(c->context);
    run->server = xstrdup(c->server);
    run->quotas = o->quotas;
    run->prices = o->prices;
    plan_current_init(&run->cur, c);
    actuators_detect(&run->act, c);
    plan_actuate_current(&run->cur, &run->act, c);
    for (size_t i = 0; i < c->warnings.n; i++) strvec_push(&run->warnings, c->warnings.v[i]);

    /* where the device plugin's ConfigMap goes: its own namespace (Helm chart, manifest), else
     * the operator's, as `status` finds it */
    if (run->act.dp.ns && (run->act.dp.by == ACTUATOR_HELM || run->act.dp.by == ACTUATOR_MANIFEST)) {
        run->operator_ns = xstrdup(run->act.dp.ns);
    } else {
        const char *ns = c->cp.operator_ns ? c->cp.operator_ns : status_operator_namespace(c, NULL);
        run->operator_ns = xstrdup(ns ? ns : "gpu-operator");
    }
    run->clusterpolicy = xstrdup(c->clusterpolicy_name);

    /* usage per workload over the window */
    run->metrics_source = xstrdup(usage->source ? usage->source : "none");
    run->metrics_detail = xstrdup(usage->detail ? usage->detail : "");
    for (size_t i = 0; i < usage->warnings.n; i++) strvec_push(&run->warnings, usage->warnings.v[i]);
    bool metrics = str_eq(usage->source, "prometheus") && usage->windowed && nwu > 0;
    if (metrics) {
        run->usage_line = xasprintf("%s; per workload the p%g and the peak of GPU memory and utilization "
                                   "over %s, the largest of its pods", run->metrics_detail, o->percentile, o->window);
    } else {
        const char *why = str_eq(usage->source, "none") ? run->metrics_detail
                        : str_eq(usage->source, "dcgm") ? "the DCGM exporters give instant values only, not a window"
                        : "the metrics have no per-pod GPU series over the window (is the DCGM exporter's pod mapping on?)";
        run->from_requests = true;
        run->usage_line = xasprintf("no usage metrics (%s). Requests stand in: a whole GPU counts as all its "
                                   "memory and compute, a MIG device as its profile, a shared replica as "
                                   "1/replicas of the GPU — the plan can repack what is held but not shrink it",
                                   why);
    }

    const Node **nodes = xcalloc(c->nnodes ? c->nnodes : 1, sizeof *nodes);
    size_t nn = 0;
    for (size_t i = 0; i < c->nnodes; i++) if (node_is_gpu_node(&c->nodes[i])) nodes[nn++] = &c->nodes[i];
    nn = plan_leave_out_dra(c, nodes, nn, &run->warnings);
    nn = plan_actuate_leave_out_mig(&run->act, nodes, nn, &run->warnings);
    plan_input_build(&run->in, c, nodes, nn, wu, nwu, metrics);
    workload_usage_free(wu, nwu);
    usage_clear(usage);
    for (size_t i = 0; i < run->in.warnings.n; i++) strvec_push(&run->warnings, run->in.warnings.v[i]);
    if (run->in.pods_elsewhere && !(o->selector && *o->selector))
        strvec_pushf(&run->warnings, "%zu GPU pod%s on nodes without GPU labels not planned", run->in.pods_elsewhere,
                     run->in.pods_elsewhere == 1 ? "" : "s");

    PlanOptions po = { .choice = o->choice, .headroom_pct = o->headroom, .cur = &run->cur,
                       .cluster_nodes = c->nodes, .ncluster_nodes = c->nnodes };
    /* -l hides the other nodes, which a cluster-wide MIG strategy change reaches too: an MPS
     * config in the device-plugin ConfigMap in use may run on them */
    Strbuf unseen = STRBUF_INIT;
    for (size_t i = 0; o->selector && *o->selector && run->cur.dp_map && i < c->ndpconfigs; i++)
        if (c->dpconfigs[i].strategy == SHARING_MPS && str_eq(c->dpconfigs[i].name, run->cur.dp_map))
            strbuf_addf(&unseen, "%s%s", unseen.len ? ", " : "", c->dpconfigs[i].key);
    char *unseen_mps = unseen.len ? xasprintf("nodes outside -l %s that run the MPS config%s %s of ConfigMap %s",
                                              o->selector, strchr(strbuf_str(&unseen), ',') ? "s" : "",
                                              strbuf_str(&unseen), run->cur.dp_map) : NULL;
    strbuf_clear(&unseen);
    po.unseen_mps = unseen_mps;
    po.mig_block = plan_actuate_mig_block(&run->act);
    plan_build(nodes, nn, run->in.w, run->in.n, &po, &run->r);
    free(unseen_mps);
    free(nodes);
    for (size_t i = 0; i < run->r.warnings.n; i++) strvec_push(&run->warnings, run->r.warnings.v[i]);
    if (nn == 0)
        strvec_push(&run->warnings, o->selector && *o->selector ? "no GPU nodes match the selector"
                                                                : "the cluster has no GPU nodes");

    char *plan_ann = xasprintf("window=%s percentile=%g headroom=%g strategy=%s gpusBefore=%d gpusAfter=%d",
                               o->window, o->percentile, o->headroom, o->strategy,
                               run->r.gpus_before, run->r.gpus_after);
    char *usage_ann = run->from_requests ? xstrdup("requests (no usage metrics: the plan only repacks what is held)")
                                        : xasprintf("metrics: %s", run->metrics_detail);
    ManifestOptions mo = { .operator_namespace = run->operator_ns, .cur = &run->cur, .quotas = o->quotas,
                           .plan_annotation = plan_ann,
                           .usage_annotation = usage_ann, .yaml_text = o->yaml_text };
    plan_actuate_manifest_options(&run->act, &mo);
    int rc = 0;
    if (manifests_build(&run->r, run->in.w, c, &mo, &run->m) != 0) {
        error_set(err, "could not render the device-plugin / mig-parted config files as YAML");
        rc = -1;
    }
    free(plan_ann);
    free(usage_ann);
    if (rc == 0) {
        for (size_t i = 0; i < run->m.warnings.n; i++) strvec_push(&run->warnings, run->m.warnings.v[i]);
        if (run->m.blocked) strvec_pushf(&run->warnings, "NOT SAFE TO APPLY: %s", run->m.blocked);
        plan_actuate_nodes(&run->r, &run->act, c);
        StrMap *node_pods = strmap_new();         /* node -> GPU pods on it now (count + 1), */
        for (size_t i = 0; i < run->in.n; i++) {  /* for the node actions only */
            uintptr_t v = (uintptr_t)strmap_get(node_pods, run->in.w[i].node);
            strmap_put(node_pods, run->in.w[i].node, (void *)(v ? v + 1 : 2));
        }
        plan_actions_build(&run->actions, &run->r, &run->m, &run->cur, node_pods, c, run->in.w, run->in.n);
        strmap_free(node_pods, NULL);
        plan_actuate_actions(&run->actions, &run->r, &run->m, &run->act, c, &run->applied, &run->warnings);
        plan_actions_quotas_last(&run->actions);
        bool cp_needed = false;
        for (size_t i = 0; i < run->actions.n; i++) cp_needed |= run->actions.v[i].kind == ACT_CONFIGMAP;
        if (cp_needed && !run->cur.clusterpolicy && (run->act.dp.by == ACTUATOR_NONE || run->act.dp.by == ACTUATOR_UNKNOWN))
            strvec_push(&run->warnings, "no ClusterPolicy found: point the device plugin (Helm value config.name) and "
                                       "the MIG manager at the emitted ConfigMaps yourself");
        plan_mig_single_warnings(c, &run->r, run->in.w, run->in.n, &run->warnings);
        plan_whatif(&run->whatif, c, &run->r, run->in.w);
        run->whatif_done = true;
    }
    return rc;
}

void plan_run_release(PlanRun *run)
{
    plan_actions_clear(&run->actions);
    manifests_clear(&run->m);
    plan_result_clear(&run->r);
    plan_input_clear(&run->in);
    free(run->usage_line);
    free(run->metrics_source);
    free(run->metrics_detail);
    free(run->operator_ns);
    free(run->clusterpolicy);
    free(run->context);
    free(run->server);
    strvec_clear(&run->warnings);
    strvec_clear(&run->whatif);
    strvec_clear(&run->applied);
}
