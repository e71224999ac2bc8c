/* cmd_explain.c — `kubectl gpu explain POD`: why one GPU pod is Pending, and what would fix it.
 *
 * One Explanation (analysis/explain.c) rendered as text, or as JSON/YAML through one cJSON
 * tree.  Every pod is loaded: free GPUs on a node depend on the pods of all namespaces.
 */
#include "cmd/commands.h"
#include "util/error.h"
#include "analysis/explain.h"
#include "render/render_explain.h"
#include "sources/loader.h"
#include "render/render.h"
#include "render/table.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *explain_output;
static bool explain_all_nodes;
static const char *const explain_formats[] = { "text", "json", "yaml", NULL };
static const Option explain_opts[] = {
    { OPT_STRING, 'o', "output", &explain_output, "FORMAT", "output format", explain_formats, NULL },
    { OPT_BOOL, 0, "all-nodes", &explain_all_nodes, NULL,
      "list every node in the text output, also those that could never hold the pod", NULL, NULL },
    OPT_END_MARK
};

/* a fix or note that may span lines: continuation lines indented under the first */
static void print_item(const char *bullet, const char *text)
{
    printf("  %s ", bullet);
    size_t indent = strlen(bullet) + 3;
    for (const char *p = text; *p; p++) {
        putchar(*p);
        if (*p == '\n' && p[1]) printf("%*s", (int)indent, "");
    }
    putchar('\n');
}

static void print_histogram(const SchedHistogram *h, const char *indent)
{
    for (size_t i = 0; i < h->nreasons; i++) {
        const SchedReason *r = &h->reasons[i];
        char count[24] = "-";
        if (r->count >= 0) snprintf(count, sizeof count, "%d", r->count);
        printf("%s%4s  %s  [%s%s]\n", indent, count, r->text, sched_code_name(r->code),
               r->truncated ? ", cut off" : r->prefilter ? ", PreFilter" : "");
    }
}

static void print_scheduler(const Explanation *e, bool color)
{
    const SchedMessage *m = &e->sched;
    if (!e->sched_text) {
        printf("Scheduler:  no FailedScheduling event and no PodScheduled condition message\n");
        return;
    }
    char vb[32];
    schedmsg_versions(m, vb, sizeof vb);
    printf("Scheduler (%s%s%s):\n  %s\n", e->sched_source, *vb ? ", wording of Kubernetes " : "", vb, e->sched_text);
    if (m->kind == SM_FIT_ERROR) {
        printf("  read as: %d of %d node(s) available%s\n", m->filter.available, m->filter.total,
               m->truncated ? " (message cut at 1024 bytes; counts incomplete)" : "");
        print_histogram(&m->filter, "  ");
        if (m->has_preemption) {
            if (m->preemption.nreasons) {
                printf("  preemption (dry run over %d node(s)):\n", m->preemption.total);
                print_histogram(&m->preemption, "    ");
            } else {
                printf("  preemption: %s\n", m->preemption_text ? m->preemption_text : "");
            }
        }
    } else {
        printf("  read as: %s\n", schedmsg_kind_name(m->kind));
    }
    if (e->event_text) printf("  newest FailedScheduling event: %s\n", e->event_text);
    if (!e->agrees) {
        printf("  %sThe recomputation below disagrees with the scheduler's message:%s\n",
               color_start(C_YELLOW, color), color_end(C_YELLOW, color));
        for (size_t i = 0; i < e->disagreements.n; i++) printf("    - %s\n", e->disagreements.v[i]);
    }
}

/* nodes sharing the same reasons are one row; the relevant rows first (fit now, admit the pod
 * and could hold it, could hold it), the nodes that never could only with --all-nodes */
static void print_nodes(const Explanation *e, bool all, bool color)
{
    if (!e->nnodes) return;
    ReasonGroup *g;
    size_t relevant;
    size_t n = explain_group_nodes_ranked(e, &g, &relevant);
    size_t shown = all || relevant == 0 ? n : relevant;
    printf("\nNodes (recomputed from the cluster now%s):\n",
           shown < n ? "; those that could hold the pod" : "");
    static const char *const headers[] = { "  NODES", "REASONS" };
    Table *t = table_new(headers, 2);
    for (size_t j = 0; j < shown; j++) {
        Strbuf nb = STRBUF_INIT;
        strbuf_adds(&nb, "  ");
        for (size_t k = 0; k < g[j].nodes.n && k < 4; k++) strbuf_addf(&nb, "%s%s", k ? ", " : "", g[j].nodes.v[k]);
        if (g[j].nodes.n > 4) strbuf_addf(&nb, " +%zu more (%zu nodes)", g[j].nodes.n - 4, g[j].nodes.n);
        table_add_row(t);
        table_cell(t, strbuf_str(&nb));
        table_cell_color(t, g[j].fits ? C_GREEN : C_NONE, g[j].reasons);
        strbuf_free(&nb);
    }
    table_print(t, stdout, color);
    table_free(t);
    if (shown < n) {
        size_t hidden = 0;
        for (size_t j = shown; j < n; j++) hidden += g[j].nodes.n;
        printf("  (%zu more node(s) could never hold the pod: --all-nodes lists them)\n", hidden);
    }
    reason_groups_free(g, n);
}

static void print_text(const Explanation *e, bool color)
{
    const Pod *p = e->pod;
    char age[16] = "?";
    if (e->age >= 0) format_age(e->age, age, sizeof age);
    char *gpus = explanation_gpus(e);
    if (p)
        printf("Pod:        %s/%s (Pending %s, priority %d%s%s)\n", e->ns, e->name, age, p->priority,
               p->priority_class ? ", class " : "", p->priority_class ? p->priority_class : "");
    else
        printf("Owner:      %s %s/%s (its pods were not created; last refused %s ago)\n",
               e->owner_kind ? e->owner_kind : "owner", e->ns, e->name, age);
    printf("Requests:   %s%s\n", gpus, p ? "" : " per pod");
    free(gpus);
    printf("Verdict:    %s%s%s\n", color_start(C_BOLD, color), verdict_name(e->verdict), color_end(C_BOLD, color));
    printf("Reason:     %s\n", e->summary ? e->summary : "");
    if (p) {
        putchar('\n');
        print_scheduler(e, color);
    }
    print_nodes(e, explain_all_nodes, color);
    if (e->fixes.n) {
        printf("\nFixes:\n");
        for (size_t i = 0; i < e->fixes.n; i++) {
            char b[32];
            snprintf(b, sizeof b, "%zu.", i + 1);
            print_item(b, e->fixes.v[i]);
        }
    }
    if (e->notes.n) {
        printf("\nNotes:\n");
        for (size_t i = 0; i < e->notes.n; i++) print_item("-", e->notes.v[i]);
    }
}

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

static int run_explain(int argc, char **argv, GlobalOptions *g)
{
    (void)argc;
    static const OutputFormat allowed[] = { OUT_TEXT, OUT_JSON, OUT_YAML };
    OutputFormat fmt;
    if (output_format_parse(explain_output, allowed, 3, &fmt, "explain") < 0) return EXIT_USAGE;
    Error err = { 0 };
    char *ns = NULL;
    if (!g->all_namespaces || g->namespace_explicit) {
        ns = loader_default_namespace(&g->source, &err);
        if (!ns) { fprintf(stderr, "error: %s\n", err.msg); return EXIT_FAIL; }
    }
    Cluster c;
    cluster_init(&c);
    LoadRequest rq = { .nodes = true, .pods = true, .events = true, .quotas = true };
    const Pod *p = NULL;
    if (cluster_load(&c, &g->source, &rq, NULL, &err) < 0) {
        fprintf(stderr, "error: %s\n", err.msg);
        cluster_free(&c);
        free(ns);
        return EXIT_FAIL;
    }
    /* NAME, pod/NAME, or KIND/NAME as `pending` prints an owner whose pods were not created */
    const char *name = argv[0], *slash = strchr(argv[0], '/');
    char *kind = slash ? xstrndup(argv[0], (size_t)(slash - argv[0])) : NULL;
    if (slash) name = slash + 1;
    bool pod_kind = !kind || strcasecmp(kind, "pod") == 0 || strcasecmp(kind, "pods") == 0 || strcasecmp(kind, "po") == 0;
    if (!*name) {
        fprintf(stderr, "error: \"%s\": no name after the kind\n", argv[0]);
        free(kind);
        cluster_free(&c);
        free(ns);
        return EXIT_USAGE;
    }
    if (!pod_kind || !(p = find_pod(&c, ns, name, &err))) {
        Explanation owner;
        if (find_never_created(&c, ns, pod_kind ? NULL : kind, name, &owner)) {
            free(kind);
            return finish(g, fmt, &c, &owner, true, ns);
        }
        if (!pod_kind)
            error_set(&err, "no %s \"%s\" whose pods a ResourceQuota refused%s%s%s (explain takes a pod, or KIND/NAME "
                      "as 'kubectl gpu pending' lists an owner whose pods were not created)", kind, name,
                      ns ? " in namespace \"" : "", ns ? ns : "", ns ? "\"" : "");
        free(kind);
        fprintf(stderr, "error: %s\n", err.msg);
        cluster_free(&c);
        free(ns);
        return EXIT_FAIL;
    }
    free(kind);
    Explanation e;
    explain_pod(&c, p, &e);
    bool pending = !p->node_name && p->phase == PHASE_PENDING;
    return finish(g, fmt, &c, &e, pending, ns);
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
    const Pod *p = e->pod;
    int rc = EXIT_OK;
    if (fmt == OUT_TEXT) {
        for (size_t i = 0; i < c->warnings.n; i++) fprintf(stderr, "warning: %s\n", c->warnings.v[i]);
        if (!p) {
            print_text(e, g->color);
        } else if (!pending) {
            if (p->node_name) printf("pod %s/%s is %s on node %s; nothing to explain\n", p->ns, p->name,
                                     pod_phase_name(p->phase), p->node_name);
            else printf("pod %s/%s is %s; nothing to explain\n", p->ns, p->name, pod_phase_name(p->phase));
        } else {
            print_text(e, g->color);
        }
    } else {
        cJSON *doc = explanation_to_json(e, true);
        cJSON *w = cJSON_AddArrayToObject(doc, "warnings");
        for (size_t i = 0; i < c->warnings.n; i++) cJSON_AddItemToArray(w, cJSON_CreateString(c->warnings.v[i]));
        rc = (fmt == OUT_JSON ? render_json(stdout, doc) : render_yaml(stdout, doc, false)) ? EXIT_FAIL : EXIT_OK;
        cJSON_Delete(doc);
    }
    explanation_free(e);
    cluster_free(c);
    free(ns);
    return rc;
}

const Command command_explain = {
    .name = "explain",
    .summary = "Explain why a GPU pod is Pending and what would make it fit",
    .usage = "kubectl gpu explain POD [-n NS] [--all-nodes] [-o text|json|yaml]",
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
        "a ResourceQuota refused.  With -A and no -n, the pod is looked up in every namespace.",
    .examples = "  kubectl gpu explain train-7c9f-abcde -n ml\n  kubectl gpu explain train-7c9f-abcde -n ml -o json\n"
                "  kubectl gpu explain Job/finetune-big -n research\n",
    .options = explain_opts,
    .min_args = 1, .max_args = 1,
    .run = run_explain,
};
