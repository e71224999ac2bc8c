/* cmd_explain.c — `kubectl gpu explain POD`: why one GPU pod is Pending, and what would fix it.
 *
 * The pod or owner named (analysis/explain_target.c), its Explanation (analysis/explain.c)
 * handed to its one presentation (render/explain.c: text, JSON, YAML).  Every pod is loaded:
 * free GPUs on a node depend on the pods of all namespaces.
 */
#include "cmd/cmd_common.h"
#include "cmd/commands.h"
#include "util/error.h"
#include "analysis/explain.h"
#include "analysis/explain_target.h"
#include "render/render_explain.h"
#include "render/custom_columns.h"
#include "sources/loader.h"
#include "util/suggest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *explain_output;
static bool explain_all_nodes;
static bool explain_no_headers;
static const char *const explain_formats[] = { "text", "json", "yaml", "custom-columns=", "custom-columns-file=",
    "jsonpath=", "jsonpath-file=", "go-template=", "go-template-file=", NULL };
static const Option explain_opts[] = {
    { OPT_STRING, 'o', "output", &explain_output, "FORMAT", "output format", explain_formats, NULL },
    { OPT_BOOL, 0, "all-nodes", &explain_all_nodes, NULL,
      "list every node in the text output, also those that could never hold the pod", NULL, NULL },
    { OPT_BOOL, 0, "no-headers", &explain_no_headers, NULL, "with -o custom-columns: the row without the header line",
      NULL, NULL },
    OPT_END_MARK
};

static bool is_pod_kind(const char *k, size_t n)
{
    return (n == 3 && strncasecmp(k, "pod", 3) == 0) || (n == 4 && strncasecmp(k, "pods", 4) == 0) ||
           (n == 2 && strncasecmp(k, "po", 2) == 0);
}

/* A pod that explain_target did not find, said as precisely as the cluster allows (err is
 * replaced): a GPU pod of that name in other namespaces (with the -n to use), a pod there that
 * requests no GPU, or the nearest GPU pod names in the namespace ("did you mean"). */
static void explain_not_found(const Cluster *c, const char *ns, const char *name, Error *err)
{
    if (ns && cluster_saw_plain_unbound(c, ns, name)) {
        error_set(err, "pod \"%s\" in namespace \"%s\" requests no GPU: explain looks at pods that request a "
                  "GPU resource or a DRA claim", name, ns);
        return;
    }
    const char *other = NULL;
    size_t others = 0;
    Strvec cands = STRVEC_INIT;
    for (size_t i = 0; i < c->npods; i++) {
        const Pod *p = &c->pods[i];
        if (ns && strcmp(p->ns, ns) != 0) {
            if (strcmp(p->name, name) == 0) { if (!other) other = p->ns; others++; }
            continue;
        }
        strvec_push(&cands, p->name);
    }
    if (other) {
        if (others == 1)
            error_set(err, "pod \"%s\" is in namespace \"%s\", not in namespace \"%s\": use -n %s", name, other, ns, other);
        else
            error_set(err, "no GPU pod \"%s\" in namespace \"%s\"; %zu other namespaces have one (e.g. \"%s\"): "
                      "use -n NS", name, ns, others, other);
        strvec_clear(&cands);
        return;
    }
    const char *near = cands.n ? suggest_nearest(name, (const char *const *)cands.v) : NULL;
    if (near && strcmp(near, name) != 0) {
        char *n = xstrdup(near);
        if (ns) error_set(err, "no GPU pod \"%s\" in namespace \"%s\"; did you mean \"%s\"?", name, ns, n);
        else error_set(err, "no GPU pod \"%s\" in any namespace; did you mean \"%s\"?", name, n);
        free(n);
    }
    strvec_clear(&cands);
}

/* explain's argument as kubectl's names go: NAME, pod/NAME, KIND/NAME (an owner whose pods a
 * quota refused), NS/NAME, and KIND/NS/NAME (what 'pending -A -o name' prints); a namespace in
 * the name wins over -n.  Returns explain_target's 0, -1 or -2. */
static int explain_named(const Cluster *c, const char *ns, const char *arg, Explanation *e, bool *pending,
                         Error *err)
{
    const char *s1 = strchr(arg, '/'), *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
    if (s2) {                                  /* KIND/NS/NAME */
        if (strchr(s2 + 1, '/') || s2 == s1 + 1 || s1 == arg) {
            error_set(err, "\"%s\": not a name explain takes (NAME, pod/NAME, NS/NAME or pod/NS/NAME)", arg);
            return -2;
        }
        char *target = xasprintf("%.*s/%s", (int)(s1 - arg), arg, s2 + 1);
        char *tns = xstrndup(s1 + 1, (size_t)(s2 - s1 - 1));
        int t = explain_target(c, tns, target, e, pending, err);
        if (t == -1 && is_pod_kind(arg, (size_t)(s1 - arg))) explain_not_found(c, tns, s2 + 1, err);
        free(target);
        free(tns);
        return t;
    }
    int t = explain_target(c, ns, arg, e, pending, err);
    if (t != -1) return t;
    if (s1 && s1 != arg && s1[1] && !is_pod_kind(arg, (size_t)(s1 - arg))) {   /* NS/NAME */
        char *tns = xstrndup(arg, (size_t)(s1 - arg));
        Error e2 = { 0 };
        int t2 = explain_target(c, tns, s1 + 1, e, pending, &e2);
        if (t2 == 0) error_clear(err);
        free(tns);
        return t2 == 0 ? 0 : t;
    }
    explain_not_found(c, ns, s1 ? s1 + 1 : arg, err);
    return t;
}

static int run_explain(int argc, char **argv, GlobalOptions *g, Error *err)
{
    (void)argc;
    static const OutputFormat allowed[] = { OUT_TEXT, OUT_JSON, OUT_YAML, OUT_COLUMNS };
    OutputFormat fmt;
    if (output_format_parse(explain_output, allowed, 4, &fmt, "explain") < 0) return EXIT_USAGE;
    CustomColumns *columns = NULL;             /* -o custom-columns: parsed before the load */
    if (fmt == OUT_COLUMNS && !(columns = custom_columns_new(explain_output, err))) return EXIT_USAGE;
    if (g->selector && *g->selector) {        /* accepted as a global flag, but nothing here to select */
        error_set(err, "explain takes one pod by name; -l selects pods for 'pending' and nodes for status, top and plan");
        custom_columns_free(columns);
        return EXIT_USAGE;
    }
    char *ns = NULL;
    if (!g->all_namespaces || g->namespace_explicit) {
        ns = loader_default_namespace(&g->source, err);
        if (!ns) { custom_columns_free(columns); return EXIT_FAIL; }
    }
    CmdCluster cc;
    /* the ClusterPolicy and device-plugin ConfigMap: a node without a device plugin is judged by
     * what its plugin, as configured, would advertise (explain_node.c) */
    LoadRequest rq = { .nodes = true, .pods = true, .events = true, .quotas = true, .clusterpolicy = true,
                       .configmaps = true,
                       .pods_forbidden_ns = g->namespace_explicit && !g->all_namespaces ? g->namespace_ : NULL,
                       .queues = true };
    if (cmd_load_cluster(&cc, g, &rq, false, err) < 0) {
        custom_columns_free(columns);
        free(ns);
        return EXIT_FAIL;
    }
    Explanation e;
    bool pending = false;
    int t = explain_named(&cc.cluster, ns, argv[0], &e, &pending, err);
    int rc = t == -2 ? EXIT_USAGE : t < 0 ? EXIT_FAIL : EXIT_OK;
    if (t == 0) {
        if (columns ? explain_print_columns(&e, columns, explain_no_headers, err)   /* a row of the -o json document */
                    : explain_render(&e, &cc.cluster.warnings, pending, cmd_render_format(fmt), explain_all_nodes, g->color))
            rc = EXIT_FAIL;
        explanation_clear(&e);
    }
    cmd_cluster_release(&cc);
    custom_columns_free(columns);
    free(ns);
    return rc;
}

const Command cmd_explain = {
    .name = "explain",
    .summary = "Explain why a GPU pod is Pending and what would make it fit",
    .usage = "kubectl gpu explain POD [-n NS] [--all-nodes] [-o text|json|yaml]\n"
             "       [-o custom-columns=HEADER:PATH,...|custom-columns-file=FILE] [--no-headers]",
    .description =
        "For one pod: the scheduler's own message (PodScheduled condition, else the newest\n"
        "FailedScheduling event) parsed whatever the Kubernetes version, the reasons recomputed for\n"
        "every node (cordoned, NotReady, untolerated taints, nodeSelector/affinity, too many pods,\n"
        "no device plugin, another GPU resource name, too large, insufficient with the pods holding\n"
        "the node), the verdict, and fixes to copy: a toleration, the resource name to request, the\n"
        "labels that would match, pods that preemption could evict or whose end frees a node, a\n"
        "quota to raise.  When the message and the recomputation disagree, both are shown.\n"
        "Verdict order: among the nodes the pod's own nodeSelector, affinity and tolerations admit and\n"
        "that could ever hold the request (physical GPUs and MIG profile sizes, never time-sliced or\n"
        "MPS replicas), what stops them decides: fits now (Unknown), Insufficient or Fragmented,\n"
        "NoDevicePlugin, ResourceName, TooLarge, NotReady, Unschedulable; Selector and Taint only when\n"
        "no such node exists (TooLarge when no node could hold it at all).  Every fix is re-checked: the\n"
        "pod is evaluated again with the change applied and the fix names the node it would fit; fixes\n"
        "are ordered by effort (no change, change the pod, end pods, change the cluster).  Nodes are\n"
        "grouped by their reasons, the relevant ones first; --all-nodes adds those that could never\n"
        "hold the pod.  KIND/NAME (e.g. Job/train as 'pending' prints it) explains an owner whose pods\n"
        "a ResourceQuota refused.  workload/NAME, podgroup/NAME, an owner such as job/NAME, or a pod\n"
        "held by a queue explains work waiting in a Kueue, Volcano or KAI queue: the queue, the\n"
        "position, the controller's message, the quota per flavor with its holders, and fixes.\n"
        "With -A and no -n, the pod is looked up in every namespace.  POD may\n"
        "be NS/NAME or pod/NS/NAME, as 'pending -A -o name' prints it (the namespace there wins).\n"
        "-o custom-columns=HEADER:PATH,... (or custom-columns-file=FILE) prints one row from the\n"
        "document -o json prints, each PATH a JSONPath into it (.verdict, .fixes[0], .nodes[*].name).",
    .examples = "  kubectl gpu explain train-7c9f-abcde -n ml\n  kubectl gpu pending -A -o name | xargs -n1 kubectl gpu explain\n  kubectl gpu explain train-7c9f-abcde -n ml -o json\n"
                "  kubectl gpu explain Job/finetune-big -n research\n  kubectl gpu explain job/train-llm -n team-a\n",
    .options = explain_opts,
    .min_args = 1, .max_args = 1,
    .run = run_explain,
};
