/* cmd_explain.c — `kubectl gpu explain POD`: why one GPU pod is Pending, and what would fix it.
 *
 * One Explanation (analysis/explain.c) handed to its one presentation (render/explain.c:
 * text, JSON, YAML).  Every pod is loaded: free GPUs on a node depend on the pods of all namespaces.
 */
#include "cmd/cmd_common.h"
#include "cmd/commands.h"
#include "util/error.h"
#include "analysis/explain.h"
#include "render/render_explain.h"
#include "render/custom_columns.h"
#include "sources/loader.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *explain_output;
static bool explain_all_nodes;
static bool explain_no_headers;
static const char *const explain_formats[] = { "text", "json", "yaml", "custom-columns=", "custom-columns-file=", NULL };
static CustomColumns *explain_columns;     /* -o custom-columns: parsed before the load */
static const Option explain_opts[] = {
    { OPT_STRING, 'o', "output", &explain_output, "FORMAT", "output format", explain_formats, NULL },
    { OPT_BOOL, 0, "all-nodes", &explain_all_nodes, NULL,
      "list every node in the text output, also those that could never hold the pod", NULL, NULL },
    { OPT_BOOL, 0, "no-headers", &explain_no_headers, NULL, "with -o custom-columns: the row without the header line",
      NULL, NULL },
    OPT_END_MARK
};

/* the pod named in ns, or with -A the only pod of that name in any namespace */
static const Pod *find_pod(const Cluster *c, const char *ns, const char *name, Error *err)
{
    if (ns) {
        const Pod *p = cluster_find_pod(c, ns, name);
        if (!p) error_set(err, "no GPU pod \"%s\" in namespace \"%s\" (explain looks at pods that request a GPU)", name, ns);
        return p;
    }
    const Pod *found = NULL;
    for (size_t i = 0; i < c->npods; i++) {
        if (strcmp(c->pods[i].name, name) != 0) continue;
        if (found) {
            error_set(err, "pod \"%s\" exists in namespaces \"%s\" and \"%s\": choose one with -n", name, found->ns, c->pods[i].ns);
            return NULL;
        }
        found = &c->pods[i];
    }
    if (!found) error_set(err, "no GPU pod \"%s\" in any namespace (explain looks at pods that request a GPU)", name);
    return found;
}

static int finish(GlobalOptions *g, OutputFormat fmt, Cluster *c, Explanation *e, bool pending, char *ns);
static bool find_never_created(const Cluster *c, const char *ns, const char *kind, const char *name, Explanation *out);

static int run_explain(int argc, char **argv, GlobalOptions *g, Error *err)
{
    (void)argc;
    static const OutputFormat allowed[] = { OUT_TEXT, OUT_JSON, OUT_YAML, OUT_COLUMNS };
    OutputFormat fmt;
    if (output_format_parse(explain_output, allowed, 4, &fmt, "explain") < 0) return EXIT_USAGE;
    custom_columns_free(explain_columns);
    explain_columns = NULL;
    if (fmt == OUT_COLUMNS && !(explain_columns = custom_columns_new(explain_output, err))) return EXIT_USAGE;
    if (g->selector && *g->selector) {        /* accepted as a global flag, but nothing here to select */
        error_set(err, "explain takes one pod by name; -l selects pods for 'pending' and nodes for status, top and plan");
        return EXIT_USAGE;
    }
    char *ns = NULL;
    if (!g->all_namespaces || g->namespace_explicit) {
        ns = loader_default_namespace(&g->source, err);
        if (!ns) return EXIT_FAIL;
    }
    CmdCluster cc;
    LoadRequest rq = { .nodes = true, .pods = true, .events = true, .quotas = true };
    const Pod *p = NULL;
    if (cmd_load_cluster(&cc, g, &rq, false, err) < 0) {
        free(ns);
        return EXIT_FAIL;
    }
    Cluster *c = &cc.cluster;    /* no API client was kept: finish() releases it */
    /* NAME, pod/NAME, or KIND/NAME as `pending` prints an owner whose pods were not created */
    const char *name = argv[0], *slash = strchr(argv[0], '/');
    char *kind = slash ? xstrndup(argv[0], (size_t)(slash - argv[0])) : NULL;
    if (slash) name = slash + 1;
    bool pod_kind = !kind || strcasecmp(kind, "pod") == 0 || strcasecmp(kind, "pods") == 0 || strcasecmp(kind, "po") == 0;
    if (!*name) {
        error_set(err, "\"%s\": no name after the kind", argv[0]);
        free(kind);
        cmd_cluster_release(&cc);
        free(ns);
        return EXIT_USAGE;
    }
    if (!pod_kind || !(p = find_pod(c, ns, name, err))) {
        Explanation owner;
        if (find_never_created(c, ns, pod_kind ? NULL : kind, name, &owner)) {
            free(kind);
            error_clear(err);            /* not a pod of that name: the owner it names */
            return finish(g, fmt, c, &owner, true, ns);
        }
        if (!pod_kind)
            error_set(err, "no %s \"%s\" whose pods a ResourceQuota refused%s%s%s (explain takes a pod, or KIND/NAME "
                      "as 'kubectl gpu pending' lists an owner whose pods were not created)", kind, name,
                      ns ? " in namespace \"" : "", ns ? ns : "", ns ? "\"" : "");
        free(kind);
        cmd_cluster_release(&cc);
        free(ns);
        return EXIT_FAIL;
    }
    free(kind);
    Explanation e;
    explain_pod(c, p, &e);
    bool pending = !p->node_name && p->phase == PHASE_PENDING;
    return finish(g, fmt, c, &e, pending, ns);
}

/* an owner whose pods a ResourceQuota refused (kubectl gpu pending lists it by the owner's name) */
static bool find_never_created(const Cluster *c, const char *ns, const char *kind, const char *name, Explanation *out)
{
    ExplanationList l;
    explain_pending(c, ns, &l);
    bool found = false;
    for (size_t i = 0; i < l.n; i++) {
        if (!found && !l.items[i].created && strcmp(l.items[i].name, name) == 0 &&
            (!kind || (l.items[i].owner_kind && strcasecmp(l.items[i].owner_kind, kind) == 0))) {
            *out = l.items[i];
            found = true;
        } else {
            explanation_free(&l.items[i]);
        }
    }
    free(l.items);
    return found;
}

/* render e, then free e, c and ns (an Explanation borrows from its Cluster) */
static int finish(GlobalOptions *g, OutputFormat fmt, Cluster *c, Explanation *e, bool pending, char *ns)
{
    int rc;
    if (fmt == OUT_COLUMNS) {                  /* one row: the document -o json prints */
        rc = explain_print_columns(e, explain_columns, explain_no_headers);
        custom_columns_free(explain_columns);
        explain_columns = NULL;
    } else {
        rc = explain_render(e, &c->warnings, pending, cmd_render_format(fmt), explain_all_nodes, g->color);
    }
    explanation_free(e);
    cluster_free(c);
    free(ns);
    return rc ? EXIT_FAIL : EXIT_OK;
}

const Command command_explain = {
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
        "a ResourceQuota refused.  With -A and no -n, the pod is looked up in every namespace.\n"
        "-o custom-columns=HEADER:PATH,... (or custom-columns-file=FILE) prints one row from the\n"
        "document -o json prints, each PATH a JSONPath into it (.verdict, .fixes[0], .nodes[*].name).",
    .examples = "  kubectl gpu explain train-7c9f-abcde -n ml\n  kubectl gpu explain train-7c9f-abcde -n ml -o json\n"
                "  kubectl gpu explain Job/finetune-big -n research\n",
    .options = explain_opts,
    .min_args = 1, .max_args = 1,
    .run = run_explain,
};
