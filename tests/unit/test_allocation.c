/* Unit tests: analysis/allocation.c — the edge cases the example clusters do not show.
 * Each test builds a small cluster from inline objects through cluster_ingest(). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "analysis/allocation.h"
#include "model/cluster.h"
#include "util/error.h"
#include "sources/metrics.h"

/* objects written with ' for " to keep them readable */
static void ingest(Cluster *c, const char *text)
{
    char *s = xstrdup(text);
    for (char *p = s; *p; p++) if (*p == '\'') *p = '"';
    cJSON *j = cJSON_Parse(s);
    if (!j) fail_msg("bad test JSON: %s", s);
    Error err = { 0 };
    assert_int_equal(cluster_ingest(c, OBJ__COUNT, j, &err), 0);
    cJSON_Delete(j);
    free(s);
}

static void node(Cluster *c, const char *name, const char *labels, const char *capacity, const char *allocatable,
                 const char *ready, bool cordoned)
{
    char *s = xasprintf("{'apiVersion':'v1','kind':'Node','metadata':{'name':'%s','labels':{%s}},"
                        "'spec':{%s},'status':{'capacity':{%s},'allocatable':{%s},"
                        "'conditions':[{'type':'Ready','status':'%s','reason':'KubeletNotReady'}]}}",
                        name, labels, cordoned ? "'unschedulable':true" : "", capacity,
                        allocatable ? allocatable : capacity, ready);
    ingest(c, s);
    free(s);
}

static void pod(Cluster *c, const char *ns, const char *name, const char *node_name, const char *phase,
                const char *requests, const char *extra_meta)
{
    char *s = xasprintf("{'apiVersion':'v1','kind':'Pod','metadata':{'namespace':'%s','name':'%s'%s},"
                        "'spec':{%s%s%s'containers':[{'name':'c','resources':{'requests':{%s},'limits':{%s}}}]},"
                        "'status':{'phase':'%s'}}",
                        ns, name, extra_meta ? extra_meta : "", node_name ? "'nodeName':'" : "",
                        node_name ? node_name : "", node_name ? "'," : "", requests, requests, phase);
    ingest(c, s);
    free(s);
}

static const NodeStatus *find(const GpuStatus *st, const char *name)
{
    for (size_t i = 0; i < st->ngpu_node_list; i++)
        if (strcmp(st->gpu_node_list[i].name, name) == 0) return &st->gpu_node_list[i];
    return NULL;
}

static const ResourceAlloc *res(const NodeStatus *n, const char *name)
{
    for (size_t i = 0; i < n->nres; i++) if (strcmp(n->res[i].name, name) == 0) return &n->res[i];
    return NULL;
}

static bool has_problem(const NodeStatus *n, ProblemCode code)
{
    for (size_t i = 0; i < n->nproblems; i++) if (n->problems[i].code == code) return true;
    return false;
}

#define GFD_T4 "'nvidia.com/gpu.product':'Tesla-T4','nvidia.com/gpu.count':'1','nvidia.com/gpu.memory':'15360'"

/* the device plugin died: capacity dropped to 0, but its pods still hold 2 GPUs */
static void test_plugin_died_pods_still_hold(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    node(&c, "gfd-node", GFD_T4, "'nvidia.com/gpu':'0'", NULL, "True", false);
    node(&c, "bare-node", "", "'nvidia.com/gpu':'0'", NULL, "True", false);
    node(&c, "cpu-node", "", "'cpu':'8'", NULL, "True", false);
    pod(&c, "a", "p1", "gfd-node", "Running", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "a", "p2", "gfd-node", "Running", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "a", "p3", "bare-node", "Running", "'nvidia.com/gpu':'1'", NULL);
    cluster_finalize(&c);
    GpuStatus st;
    status_build(&st, &c, NULL, NULL);
    assert_int_equal(st.nodes, 3);
    assert_int_equal(st.gpu_nodes, 2);         /* bare-node only because a pod holds a GPU there */
    const NodeStatus *n = find(&st, "gfd-node");
    assert_non_null(n);
    const ResourceAlloc *r = res(n, "nvidia.com/gpu");
    assert_non_null(r);                        /* kept: allocated 2 although capacity is 0 */
    assert_int_equal(r->capacity, 0);
    assert_int_equal(r->allocatable, 0);
    assert_int_equal(r->allocated, 2);
    assert_true(has_problem(n, PROBLEM_NO_DEVICE_PLUGIN));
    assert_int_equal(n->npods, 2);
    n = find(&st, "bare-node");
    assert_non_null(n);
    assert_int_equal(res(n, "nvidia.com/gpu")->allocated, 1);
    assert_false(has_problem(n, PROBLEM_MISSING_GFD));   /* advertises nothing > 0 */
    assert_null(find(&st, "cpu-node"));
    assert_int_equal(st.ntotals, 1);
    assert_int_equal(st.totals[0].allocatable, 0);
    assert_int_equal(st.totals[0].allocated, 3);
    status_clear(&st);
    cluster_release(&c);
}

/* phases: Pending-bound, Unknown and terminating pods hold; Succeeded/Failed do not; unbound
 * Pending GPU pods are counted as pending, gated ones too; a pod bound to a node that is not
 * loaded (e.g. filtered out by -l) is ignored */
static void test_phases_and_pending(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    node(&c, "n1", GFD_T4 ",'nvidia.com/gpu.replicas':'8','nvidia.com/gpu.sharing-strategy':'time-slicing'",
         "'nvidia.com/gpu':'8'", NULL, "True", false);
    pod(&c, "a", "running", "n1", "Running", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "a", "bound-pending", "n1", "Pending", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "a", "unknown", "n1", "Unknown", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "a", "terminating", "n1", "Running", "'nvidia.com/gpu':'1'",
        ",'deletionTimestamp':'2025-06-02T09:59:00Z'");
    pod(&c, "a", "done", "n1", "Succeeded", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "a", "failed", "n1", "Failed", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "a", "elsewhere", "not-loaded", "Running", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "a", "waiting", NULL, "Pending", "'nvidia.com/gpu':'2'", NULL);
    pod(&c, "a", "waiting-cpu", NULL, "Pending", "'cpu':'2'", NULL);
    cluster_finalize(&c);
    GpuStatus st;
    status_build(&st, &c, NULL, NULL);
    assert_int_equal(st.pending_gpu_pods, 1);
    const NodeStatus *n = find(&st, "n1");
    assert_int_equal(res(n, "nvidia.com/gpu")->allocated, 4);   /* running, bound-pending, unknown, terminating */
    assert_int_equal(n->npods, 4);
    assert_int_equal(n->physical_gpus, 1);
    assert_int_equal(n->sharing, SHARING_TIME_SLICING);
    assert_int_equal(n->replicas, 8);
    status_clear(&st);
    cluster_release(&c);
}

/* problems and the STATUS word */
static void test_problems(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    node(&c, "sick", GFD_T4, "'nvidia.com/gpu':'4'", "'nvidia.com/gpu':'3'", "False", true);
    node(&c, "mig-pending",
         "'nvidia.com/gpu.product':'NVIDIA-A100-SXM4-80GB','nvidia.com/gpu.count':'8','nvidia.com/mig.strategy':'mixed',"
         "'nvidia.com/mig.config':'all-3g.40gb','nvidia.com/mig.config.state':'pending',"
         "'nvidia.com/mig-1g.10gb.count':'56'",
         "'nvidia.com/mig-1g.10gb':'56'", NULL, "True", false);
    node(&c, "rebooting",
         "'nvidia.com/gpu.product':'NVIDIA-H100-80GB-HBM3','nvidia.com/gpu.count':'8','nvidia.com/mig.strategy':'single',"
         "'nvidia.com/mig.config':'all-1g.10gb','nvidia.com/mig.config.state':'rebooting'",
         "'nvidia.com/gpu':'8'", NULL, "True", false);
    node(&c, "present-only", "'nvidia.com/gpu.present':'true'", "'cpu':'4'", NULL, "True", false);
    cluster_finalize(&c);
    GpuStatus st;
    status_build(&st, &c, NULL, NULL);
    const NodeStatus *n = find(&st, "sick");
    assert_true(has_problem(n, PROBLEM_NOT_READY));
    assert_true(has_problem(n, PROBLEM_CORDONED));
    assert_true(has_problem(n, PROBLEM_UNHEALTHY));
    assert_false(has_problem(n, PROBLEM_NO_DEVICE_PLUGIN));
    char *w = node_status_word(n);
    assert_string_equal(w, "NotReady,SchedulingDisabled,Unhealthy");
    free(w);
    for (size_t i = 1; i < n->nproblems; i++)       /* listed in code order */
        assert_true(n->problems[i - 1].code < n->problems[i].code);
    n = find(&st, "mig-pending");
    assert_true(has_problem(n, PROBLEM_MIG_CONFIG_PENDING));
    assert_non_null(strstr(n->problems[0].message, "all-3g.40gb"));
    assert_true(n->mig_enabled);
    assert_int_equal(n->physical_gpus, 8);
    n = find(&st, "rebooting");
    assert_true(has_problem(n, PROBLEM_MIG_CONFIG_PENDING));
    assert_non_null(strstr(n->problems[0].message, "rebooting"));
    n = find(&st, "present-only");               /* gpu.present label, no GFD, no resource */
    assert_non_null(n);
    assert_true(has_problem(n, PROBLEM_NO_DEVICE_PLUGIN));
    assert_false(has_problem(n, PROBLEM_MISSING_GFD));
    w = node_status_word(n);
    assert_string_equal(w, "Ready,NoDevicePlugin");
    free(w);
    status_clear(&st);
    cluster_release(&c);
}

static void test_filter(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    node(&c, "a", GFD_T4, "'nvidia.com/gpu':'1'", NULL, "True", false);
    node(&c, "b", GFD_T4, "'nvidia.com/gpu':'1'", NULL, "True", false);
    node(&c, "c", "", "'cpu':'4'", NULL, "True", false);
    pod(&c, "x", "p", "a", "Running", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "x", "q", "b", "Running", "'nvidia.com/gpu':'1'", NULL);
    cluster_finalize(&c);
    const char *names[] = { "b", "c" };
    StatusFilter f = { .nodes = names, .nnodes = 2 };
    GpuStatus st;
    status_build(&st, &c, NULL, &f);
    assert_int_equal(st.nodes, 2);
    assert_int_equal(st.gpu_nodes, 1);
    assert_int_equal(st.physical_gpus, 1);
    assert_int_equal(st.ngpu_node_list, 1);
    assert_string_equal(st.gpu_node_list[0].name, "b");
    assert_int_equal(st.totals[0].allocated, 1);
    status_clear(&st);
    cluster_release(&c);
}

/* -n: only one namespace's pods are listed (and counted as pending), but the node's allocation
 * still counts every namespace's pods: free GPUs depend on all of them */
static void test_filter_namespace(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    node(&c, "a", GFD_T4, "'nvidia.com/gpu':'4'", NULL, "True", false);
    pod(&c, "x", "p", "a", "Running", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "y", "q", "a", "Running", "'nvidia.com/gpu':'2'", NULL);
    pod(&c, "y", "w", NULL, "Pending", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "x", "v", NULL, "Pending", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "x", "u", NULL, "Pending", "'nvidia.com/gpu':'1'", NULL);
    cluster_finalize(&c);
    StatusFilter f = { .pods_ns = "y" };
    GpuStatus st;
    status_build(&st, &c, NULL, &f);
    assert_int_equal(st.ngpu_node_list, 1);
    assert_int_equal(st.gpu_node_list[0].npods, 1);
    assert_string_equal(st.gpu_node_list[0].pods[0].ns, "y");
    assert_string_equal(st.gpu_node_list[0].pods[0].name, "q");
    assert_int_equal(node_status_allocated(&st.gpu_node_list[0]), 3);
    assert_int_equal(st.totals[0].allocated, 3);
    assert_int_equal(st.pending_gpu_pods, 1);
    assert_string_equal(st.pods_ns, "y");
    status_clear(&st);
    status_build(&st, &c, NULL, NULL);          /* no filter: every pod */
    assert_int_equal(st.gpu_node_list[0].npods, 2);
    assert_int_equal(st.pending_gpu_pods, 3);
    assert_null(st.pods_ns);
    status_clear(&st);
    cluster_release(&c);
}

/* the operator in a custom namespace (found by its own operands), or only a device plugin */
static void test_operator_detection(void **state)
{
    (void)state;
    static const char *const ds =
        "{'apiVersion':'apps/v1','kind':'DaemonSet','metadata':{'namespace':'%s','name':'%s'},"
        "'status':{'desiredNumberScheduled':%d,'numberReady':%d}}";
    Cluster c;
    cluster_init(&c);
    char *s;
    s = xasprintf(ds, "gpu-stack", "nvidia-operator-validator", 3, 2); ingest(&c, s); free(s);
    s = xasprintf(ds, "gpu-stack", "nvidia-dcgm-exporter", 3, 3); ingest(&c, s); free(s);
    s = xasprintf(ds, "kube-system", "kube-proxy", 5, 5); ingest(&c, s); free(s);
    s = xasprintf(ds, "kube-system", "nvidia-device-plugin-daemonset", 1, 1); ingest(&c, s); free(s);
    cluster_finalize(&c);
    GpuStatus st;
    status_build(&st, &c, NULL, NULL);
    assert_int_equal(st.operator_kind, OPERATOR_GPU_OPERATOR);
    assert_string_equal(st.operator_ns, "gpu-stack");
    assert_int_equal(st.ncomponents, 3);        /* kube-proxy is not a GPU component */
    assert_string_equal(st.components[0].ns, "gpu-stack");
    assert_string_equal(st.components[0].name, "nvidia-dcgm-exporter");
    assert_string_equal(st.components[1].name, "nvidia-operator-validator");
    assert_int_equal(st.components[1].ready, 2);
    assert_string_equal(st.components[2].ns, "kube-system");
    status_clear(&st);
    /* the namespace alone, as plan reads it, without the status */
    OperatorKind kind = OPERATOR_NONE;
    assert_string_equal(status_operator_namespace(&c, &kind), "gpu-stack");
    assert_int_equal(kind, OPERATOR_GPU_OPERATOR);
    cluster_release(&c);

    cluster_init(&c);
    cluster_finalize(&c);
    status_build(&st, &c, NULL, NULL);
    assert_int_equal(st.operator_kind, OPERATOR_NONE);
    assert_null(st.operator_ns);
    assert_null(status_operator_namespace(&c, NULL));
    assert_int_equal(st.ncomponents, 0);
    assert_int_equal(st.nodes, 0);
    assert_int_equal(st.ngpu_node_list, 0);
    status_clear(&st);
    cluster_release(&c);
}

static void test_short_names(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        { "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb", "A100-SXM4-80GB" },
        { "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-SHARED", "A100-SXM4-40GB" },
        { "NVIDIA-A100-SXM4-80GB-MIG-INVALID", "A100-SXM4-80GB" },
        { "Tesla-T4-SHARED", "T4" },
        { "NVIDIA-L4-SHARED", "L4" },
        { "NVIDIA-H100-80GB-HBM3", "H100-80GB-HBM3" },
        { "Tesla-V100-SXM2-16GB", "V100-SXM2-16GB" },
        { "Quadro-RTX-8000", "RTX-8000" },
        { "NVIDIA-", "NVIDIA-" },
        { "-MIG-1g.5gb", "-MIG-1g.5gb" },
        { "", "-" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *s = allocation_product_short_name(cases[i][0]);
        assert_string_equal(s, cases[i][1]);
        free(s);
    }
    char *s = allocation_product_short_name(NULL);
    assert_string_equal(s, "-");
    free(s);
}

/* usage joined: per-node sums, the mean utilization over devices that report it, idle devices */
static void test_usage_join(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    node(&c, "g", "'nvidia.com/gpu.product':'NVIDIA-L4','nvidia.com/gpu.count':'2','nvidia.com/gpu.memory':'23034'",
         "'nvidia.com/gpu':'2'", NULL, "True", false);
    pod(&c, "ns", "busy", "g", "Running", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "ns", "lazy", "g", "Running", "'nvidia.com/gpu':'1'", NULL);
    cluster_finalize(&c);
    UsageData u;
    memset(&u, 0, sizeof u);
    u.source = xstrdup("prometheus");
    u.detail = xstrdup("test");
    u.idle_threshold = 5;
    u.window_s = 3600;
    u.windowed = true;
    u.ngpus = u.npods = 2;
    u.gpus = xcalloc(2, sizeof *u.gpus);
    u.pods = xcalloc(2, sizeof *u.pods);
    const char *pods[] = { "busy", "lazy" };
    const double used[] = { 12000, 3000 }, util[] = { 80, 2 }, umax[] = { 95, 3 };
    for (int i = 0; i < 2; i++) {
        GpuUsage *g = &u.gpus[i];
        g->node = xstrdup("g");
        g->gpu = i;
        g->uuid = xasprintf("GPU-%d", i);
        g->mig_instance = -1;
        g->ns = xstrdup("ns");
        g->pod = xstrdup(pods[i]);
        g->holders = 1;
        g->mem_used_mib = used[i];
        g->mem_total_mib = 23034;
        g->util = util[i];
        g->util_max = umax[i];
        u.pods[i] = *g;
        u.pods[i].node = xstrdup("g");
        u.pods[i].uuid = xstrdup(g->uuid);
        u.pods[i].ns = xstrdup("ns");
        u.pods[i].pod = xstrdup(pods[i]);
    }
    GpuStatus st;
    status_build(&st, &c, &u, NULL);
    assert_true(st.has_metrics);
    assert_int_equal(st.idle_allocated_gpus, 1);   /* lazy: max 3% < 5% */
    const NodeStatus *n = find(&st, "g");
    assert_int_equal(n->ngpus, 2);
    assert_true(n->mem_used_mib == 15000);
    assert_true(n->mem_total_mib == 2 * 23034);
    assert_true(n->util == 41);                   /* (80 + 2) / 2 */
    assert_false(n->gpus[0].idle_allocated);
    assert_true(n->gpus[1].idle_allocated);
    assert_string_equal(n->gpus[1].pod, "lazy");
    /* the device rows' strings are the usage's, not copies (allocation.h: the UsageData
     * outlives the status); the rows are 51,424 at 5,000 GPU nodes (issue 35): no padding */
    for (int i = 0; i < 2; i++) {
        const GpuDevice *g = &n->gpus[i];
        const GpuUsage *r = &u.gpus[g->index];
        assert_ptr_equal(g->uuid, r->uuid);
        assert_ptr_equal(g->pod_ns, r->ns);
        assert_ptr_equal(g->pod, r->pod);
    }
    assert_true(sizeof(GpuDevice) <= 5 * sizeof(char *) + 5 * sizeof(double) + 3 * sizeof(int) + 4);
    assert_true(n->pods[0].has_usage);           /* sorted: busy, lazy */
    assert_string_equal(n->pods[0].name, "busy");
    assert_true(node_status_holder_usage(n, &n->pods[0]).mem_used_mib == 12000);
    assert_true(node_status_holder_usage(n, &n->pods[1]).util == 2);
    status_clear(&st);

    /* a source of "none": no usage joined, idle unknown */
    free(u.source);
    u.source = xstrdup("none");
    status_build(&st, &c, &u, NULL);
    assert_false(st.has_metrics);
    assert_int_equal(st.idle_allocated_gpus, -1);
    assert_int_equal(find(&st, "g")->ngpus, 0);
    assert_true(isnan(find(&st, "g")->util));
    assert_false(find(&st, "g")->pods[0].has_usage);
    status_clear(&st);
    usage_clear(&u);
    cluster_release(&c);
}

static void mode_is(const NodeStatus *n, const char *want)
{
    char *m = node_status_mode(n);
    assert_string_equal(m, want);
    free(m);
}

/* the MODE column shared by status and top: MIG and sharing together when both apply */
static void test_mode(void **state)
{
    (void)state;
    static const NodeInventory inv;         /* all facts known from GFD */
    NodeStatus n;
    memset(&n, 0, sizeof n);
    n.inv = &inv;
    n.replicas = 1;
    mode_is(&n, "-");
    n.sharing = SHARING_TIME_SLICING; n.replicas = 4;
    mode_is(&n, "ts x4");
    n.sharing = SHARING_MPS; n.replicas = 8;
    mode_is(&n, "mps x8");
    n.mig_enabled = true; n.mig_strategy = MIG_MIXED; n.sharing = SHARING_TIME_SLICING; n.replicas = 2;
    mode_is(&n, "mig mixed,ts x2");
    n.sharing = SHARING_NONE; n.mig_strategy = MIG_SINGLE;
    mode_is(&n, "mig single");
    n.product = "NVIDIA-A100-SXM4-80GB-MIG-INVALID";
    mode_is(&n, "MIG INVALID");
}

static const Pod *cluster_pod(const Cluster *c, const char *ns, const char *name)
{
    for (size_t i = 0; i < c->npods; i++)
        if (strcmp(c->pods[i].ns, ns) == 0 && strcmp(c->pods[i].name, name) == 0) return &c->pods[i];
    return NULL;
}

/* the holders borrow the cluster's strings (node and pod names, resource names: no copies, 3 MB
 * of them at 51,819 holders) and every node's holders are a slice of one array, each sorted by
 * namespace/name; a pod holding two GPU resources lists both; holders that hold the same
 * resources share one copy of the list (on any node) */
static void test_holders_borrow_the_cluster(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    node(&c, "n1", GFD_T4, "'nvidia.com/gpu':'4','nvidia.com/mig-1g.10gb':'2'", NULL, "True", false);
    node(&c, "n2", GFD_T4, "'nvidia.com/gpu':'4'", NULL, "True", false);
    pod(&c, "b", "p2", "n1", "Running", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "a", "p9", "n2", "Running", "'nvidia.com/gpu':'2'", NULL);
    pod(&c, "c", "p4", "n2", "Running", "'nvidia.com/gpu':'1'", NULL);
    pod(&c, "a", "p1", "n1", "Pending", "'nvidia.com/gpu':'1','nvidia.com/mig-1g.10gb':'1'", NULL);
    pod(&c, "a", "p3", "n1", "Running", "'cpu':'1'", NULL);            /* no GPU: no holder */
    cluster_finalize(&c);
    GpuStatus st;
    status_build(&st, &c, NULL, NULL);
    const NodeStatus *n1 = find(&st, "n1"), *n2 = find(&st, "n2");
    assert_non_null(n1);
    assert_non_null(n2);
    assert_ptr_equal(n1->name, c.nodes[cluster_node_index(&c, cluster_find_node(&c, "n1"))].name);
    assert_int_equal(n1->npods, 2);
    assert_int_equal(n2->npods, 2);
    const Pod *a1 = cluster_pod(&c, "a", "p1"), *b2 = cluster_pod(&c, "b", "p2");
    assert_ptr_equal(n1->pods[0].ns, a1->ns);          /* a/p1 before b/p2 */
    assert_ptr_equal(n1->pods[0].name, a1->name);
    assert_ptr_equal(n1->pods[1].name, b2->name);
    assert_string_equal(node_status_holder_phase(&n1->pods[0]), "Pending");
    assert_null(n1->pod_usage);                        /* no metrics: no usage kept */
    assert_true(isnan(node_status_holder_usage(n1, &n1->pods[0]).util));
    assert_int_equal(n1->pods[0].nres, 2);
    for (uint32_t k = 0; k < n1->pods[0].nres; k++) {
        const HolderRes *r = &n1->pods[0].res[k];
        bool from_pod = false;
        for (size_t i = 0; i < a1->requests.n; i++) from_pod |= r->name == a1->requests.items[i].name;
        assert_true(from_pod);
        assert_int_equal(r->count, 1);
    }
    assert_ptr_equal(res(n1, "nvidia.com/gpu")->name, n1->pods[0].res[0].name);
    assert_int_equal(res(n1, "nvidia.com/gpu")->allocated, 2);
    assert_int_equal(res(n1, "nvidia.com/mig-1g.10gb")->allocated, 1);
    /* b/p2 (n1) and c/p4 (n2) hold nvidia.com/gpu x 1: one list; a/p9 holds 2 of it */
    assert_int_equal(n1->pods[1].nres, 1);
    assert_int_equal(n1->pods[1].res[0].count, 1);
    assert_ptr_equal(n1->pods[1].res, n2->pods[1].res);
    assert_int_equal(n2->pods[0].res[0].count, 2);
    assert_ptr_not_equal(n2->pods[0].res, n2->pods[1].res);
    assert_int_equal(res(n2, "nvidia.com/gpu")->allocated, 3);
    /* one array: the slices of the two nodes lie in it, side by side */
    const HolderPod *lo = n1->pods < n2->pods ? n1->pods : n2->pods;
    const HolderPod *hi = n1->pods < n2->pods ? n2->pods : n1->pods;
    assert_int_equal(hi - lo, 2);
    status_clear(&st);
    cluster_release(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plugin_died_pods_still_hold),
        cmocka_unit_test(test_phases_and_pending),
        cmocka_unit_test(test_problems),
        cmocka_unit_test(test_filter),
        cmocka_unit_test(test_filter_namespace),
        cmocka_unit_test(test_operator_detection),
        cmocka_unit_test(test_short_names),
        cmocka_unit_test(test_usage_join),
        cmocka_unit_test(test_mode),
        cmocka_unit_test(test_holders_borrow_the_cluster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
