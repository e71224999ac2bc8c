/* pending.c — the presentation of `kubectl gpu pending` (render/pending.h): the table (one row
 * per group of identical waiting pods), -o name, and the JSON/YAML list, of the explanations
 * the command hands it (cmd_pending.c chooses the analysis).
 *
 * JSON and YAML can be written one pod at a time (pending_stream_*: the command feeds it from
 * explain_pending_each) through the JSON writer (render/json_writer.h; YAML by its libyaml
 * backend), in exactly the text json_render and yaml_render give the whole document: a queue's
 * explanations together would not fit in memory at once.  Sorted or -l-filtered, the command
 * makes the list first and pending_render writes it pod by pod.
 */
#include "render/pending.h"
#include "render/pending_view.h"
#include "render/render.h"
#include "render/render_explain.h"
#include "analysis/explain_queue.h"
#include "render/json_writer.h"
#include "render/table.h"
#include "render/text.h"
#include "util/error.h"
#include "util/strmap.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows of `pending`.  Owners whose pods a ResourceQuota refused are rows too ("KIND/NAME (not
 * created)"); `status` counts pods only and names those owners beside its count.  On a terminal
 * REASON is cut to the width with an ellipsis; -o wide or a pipe prints it whole, and wide adds
 * PRIORITY and whether the scheduler's message agrees. */
/* Identical waiting pods — the same owner, the same requests, the same verdict and reason —
 * are one row of the narrow table (a Job's queue of 1,500 pods is one line): NAME is
 * "KIND/OWNER (N pods)", AGE the oldest pod's.  A row stands where its first pod (by name)
 * would; pods without an owner and owners not created are never grouped.  -o wide and the
 * JSON/YAML list every pod. */
/* groups[i]: how many pods row i stands for (0: folded into an earlier row); *oldest: the
 * group's largest age */
static size_t group_rows(const ExplanationList *l, size_t *count, int64_t *oldest)
{
    StrMap *m = strmap_new();
    size_t rows = 0;
    for (size_t i = 0; i < l->n; i++) {
        char *key = explanation_group_key(&l->items[i]);
        size_t first = key ? (size_t)(uintptr_t)strmap_get(m, key) : 0;
        if (first) {
            count[first - 1]++;
            if (l->items[i].age > oldest[first - 1]) oldest[first - 1] = l->items[i].age;
            count[i] = 0;
        } else {
            if (key) strmap_put(m, key, (void *)(uintptr_t)(i + 1));
            count[i] = 1;
            oldest[i] = l->items[i].age;
            rows++;
        }
        free(key);
    }
    strmap_free(m, NULL);
    return rows;
}

/* a workload's row: its owner as kubectl names it ("job/train-llm"), else the workload itself */
static char *pending_workload_name(const Explanation *e)
{
    if (!e->owner_kind || !e->owner_name) return xasprintf("%s/%s", e->queue->system == QSYS_KUEUE ? "workload" : "podgroup", e->name);
    char *kind = xstrdup(e->owner_kind);
    for (char *p = kind; *p; p++) if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    char *s = xasprintf("%s/%s", kind, e->owner_name);
    free(kind);
    return s;
}

/* Kueue: LOCALQUEUE/CLUSTERQUEUE ("-" parts unknown); Volcano / KAI: the Queue; pods "-" */
static char *pending_queue_name(const Explanation *e)
{
    const QueueFacts *q = e->queue;
    if (!q) return xstrdup("-");
    if (q->system == QSYS_KUEUE)
        return xasprintf("%s/%s", q->local_queue ? q->local_queue : "-", q->cluster_queue ? q->cluster_queue : "-");
    return xstrdup(q->cluster_queue ? q->cluster_queue : "-");
}

/* "nvidia.com/gpu:16,nvidia.com/mig-1g.10gb:2" -> "gpu:16,mig-1g.10gb:2": the GPUS cell's brief
 * form, as top writes requests (node_doc_short_resource) */
static char *brief_resources(const char *s)
{
    static const char prefix[] = "nvidia.com/";
    Strbuf sb = STRBUF_INIT;
    for (const char *p = s; *p;) {
        if ((p == s || p[-1] == ',') && str_starts_with(p, prefix)) p += strlen(prefix);
        strbuf_addch(&sb, *p++);
    }
    return strbuf_detach(&sb);
}

static void print_table(const ExplanationList *l, const char *ns, bool wide, bool color, bool headers_line)
{
    if (l->n == 0) return;                 /* said on stderr by pending_render */
    size_t *count = xcalloc(l->n, sizeof *count);
    int64_t *oldest = xcalloc(l->n, sizeof *oldest);
    if (wide) {
        for (size_t i = 0; i < l->n; i++) { count[i] = 1; oldest[i] = l->items[i].age; }
    } else {
        group_rows(l, count, oldest);
    }
    /* KIND and QUEUE only when a batch queue's workload is listed (explain_queue.h) */
    bool queues = false;
    for (size_t i = 0; i < l->n && !queues; i++) queues = l->items[i].queue != NULL;
    static const char *const headers[] = { "NAMESPACE", "NAME", "GPUS", "AGE", "VERDICT", "PRIORITY", "SCHEDULER", "REASON" };
    static const char *const narrow[] = { "NAMESPACE", "NAME", "GPUS", "AGE", "VERDICT", "REASON" };
    static const char *const qheaders[] = { "NAMESPACE", "KIND", "NAME", "QUEUE", "GPUS", "AGE", "VERDICT", "PRIORITY",
                                            "SCHEDULER", "REASON" };
    static const char *const qnarrow[] = { "NAMESPACE", "KIND", "NAME", "QUEUE", "GPUS", "AGE", "VERDICT", "REASON" };
    size_t ncols = (wide ? 8 : 6) + (queues ? 2 : 0);
    size_t gpus_col = queues ? 4 : 2, verdict_col = gpus_col + 2;      /* AGE between them */
    char **cells = xcalloc(l->n * ncols, sizeof *cells);
    for (size_t i = 0; i < l->n; i++) {
        const Explanation *e = &l->items[i];
        if (!count[i]) continue;
        char **row = &cells[i * ncols];
        size_t k = 0;
        row[k++] = xstrdup(e->ns);
        if (queues) row[k++] = xstrdup(e->queue ? e->queue->row_kind : "Pod");
        row[k++] = e->queue ? pending_workload_name(e)
                   : !e->created ? xasprintf("%s/%s (not created)", e->owner_kind ? e->owner_kind : "owner", e->name)
                   : count[i] > 1 ? xasprintf("%s/%s (%zu pods)", e->owner_kind, e->owner_name, count[i])
                   : xstrdup(e->name);
        if (queues) row[k++] = pending_queue_name(e);
        row[k++] = explanation_gpus(e);
        char age[16] = "<unknown>";
        if (oldest[i] >= 0) util_format_age(oldest[i], age, sizeof age);
        row[k++] = xstrdup(age);
        row[k++] = xstrdup(verdict_name(e->verdict));
        if (wide) {
            row[k++] = e->pod ? xasprintf("%d", e->pod->priority) : xstrdup("-");
            row[k++] = xstrdup(!e->sched_text ? "-" : e->agrees ? "agrees" : "disagrees");
        }
        row[k++] = xasprintf("%s%s", e->summary ? e->summary : "", !wide && !e->agrees ? " [scheduler disagrees]" : "");
    }
    Table *t = table_new(queues ? (wide ? qheaders : qnarrow) : wide ? headers : narrow, ncols);
    table_keep_whole(t, wide);
    table_cut_first(t, ncols - 1, 12);          /* on a terminal REASON gives way first */
    table_keep_col(t, gpus_col);                /* GPUS, AGE and VERDICT are never cut */
    table_keep_col(t, gpus_col + 1);
    table_keep_col(t, verdict_col);
    table_clock_col(t, gpus_col + 1);
    for (size_t i = 0; i < l->n; i++) {
        const Explanation *e = &l->items[i];
        if (!count[i]) continue;
        table_add_row(t);
        char *key = count[i] > 1 ? xasprintf("%s/%s/%s", e->ns, e->owner_kind, e->owner_name)   /* -w: a row's identity */
                    : xasprintf("%s/%s%s", e->ns, e->created ? "" : "-/", e->name);
        table_row_key(t, key);
        free(key);
        for (size_t c = 0; c < ncols; c++) {
            if (c == verdict_col) {
                table_cell_color(t, e->verdict == V_GATED || e->verdict == V_UNKNOWN || e->verdict == V_QUEUED ? C_YELLOW : C_RED,
                                 cells[i * ncols + c]);
            } else if (c == gpus_col) {
                char *brief = brief_resources(cells[i * ncols + c]);
                table_cell_brief(t, cells[i * ncols + c], brief);
                free(brief);
            } else {
                table_cell(t, cells[i * ncols + c]);
            }
            free(cells[i * ncols + c]);
        }
    }
    free(cells);
    free(count);
    free(oldest);
    table_print_rows(t, stdout, color, headers_line);
    table_free(t);
}

/* Per pod, "nodes" lists the PENDING_NODES nodes nearest to holding it (those that could hold
 * it first; analysis explanation_nodes_that_matter) and "nodeCounts" how many nodes there are
 * of each kind: a queue of 1,500 pods on 1,000 nodes is a few MB, not GB of every node's
 * reasons repeated per pod.  --all-nodes lists every node, as explain -o json does. */
#define PENDING_NODES 10

/* the "nodes" of the pods of one intent (explain_intent.c) are the same text: rendered once,
 * at the depth of a pod's key, and written into each of those pods as raw JSON.  The texts of
 * the last NODES_TEXTS intents are kept (each holding its evaluation, so that no other takes
 * its address): the pods of a few intents come interleaved, by name. */
#define NODES_TEXTS 8
typedef struct { ExplainShared *shared; char *text; size_t listed; NodeCounts counts; } NodesText;
typedef struct { JsonWriter *jw; size_t max_nodes; NodesText texts[NODES_TEXTS]; size_t next; } PodsOut;

static char *render_text(const cJSON *v, int depth)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int rc = json_render_value(f, v, depth);
    if (fclose(f) != 0 || rc) { free(buf); return NULL; }
    return buf;
}

static int write_pod(void *ctx, Explanation *e)
{
    PodsOut *po = ctx;
    const NodesText *t = NULL;
    for (size_t i = 0; !po->jw->yaml && e->shared && i < NODES_TEXTS && !t; i++)
        if (po->texts[i].shared == e->shared) t = &po->texts[i];
    if (!po->jw->yaml && e->shared && !t) {
        NodesText *n = &po->texts[po->next++ % NODES_TEXTS];
        free(n->text);
        explain_shared_unref(n->shared);
        n->shared = explain_shared_ref(e->shared);
        cJSON *nodes = explain_nodes_json_max(e, po->max_nodes);
        n->listed = (size_t)cJSON_GetArraySize(nodes);
        n->text = render_text(nodes, 3);      /* a key of a pod in the "pods" array */
        cJSON_Delete(nodes);
        explanation_node_counts(e, &n->counts);
        t = n;
    }
    ExplainJsonOpts o = { .max_nodes = po->max_nodes };
    if (t && t->text) {
        o.nodes_json = t->text;
        o.nodes_listed = t->listed;
        o.counts = &t->counts;
    }
    explain_json_write(po->jw, e, &o);           /* an element of the "pods" array */
    return po->jw->failed ? -1 : 0;
}

/* {"apiVersion", "kind", "namespace", ["selector",] "pods": [...], "warnings"} as JSON or YAML:
 * the head and the opening of "pods" (pending_stream_begin), a pod at a time, the tail
 * (pending_stream_end) */
struct PendingStream { JsonWriter jw; PodsOut po; };

size_t pending_max_nodes(const PendingView *v) { return v->all_nodes ? 0 : PENDING_NODES; }

PendingStream *pending_stream_begin(const char *ns, const char *selector, size_t max_nodes, bool yaml)
{
    PendingStream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    JsonWriter *jw = &s->jw;
    if (yaml) jw_init_yaml(jw, stdout, false);
    else jw_init(jw, stdout);
    s->po.jw = jw;
    s->po.max_nodes = max_nodes;
    jw_object_begin(jw, NULL);
    jw_string(jw, "apiVersion", KGPU_API_VERSION);
    jw_string(jw, "kind", "GPUPending");
    jw_string(jw, "namespace", ns);              /* null with -A */
    if (selector) jw_string(jw, "selector", selector);
    jw_array_begin(jw, "pods");
    return s;
}

int pending_stream_pod(void *stream, Explanation *e)
{
    PendingStream *s = stream;
    return write_pod(&s->po, e);
}

int pending_stream_end(PendingStream *s, const Strvec *warnings)
{
    if (!s) return -1;
    JsonWriter *jw = &s->jw;
    for (size_t i = 0; i < NODES_TEXTS; i++) { free(s->po.texts[i].text); explain_shared_unref(s->po.texts[i].shared); }
    jw_end(jw);
    jw_array_begin(jw, "warnings");
    for (size_t i = 0; warnings && i < warnings->n; i++) jw_string(jw, NULL, warnings->v[i]);
    jw_end(jw);
    jw_end(jw);
    int rc = jw_release(jw);
    free(s);
    return rc;
}

/* the whole list l as the stream writes it, every pod through the same cut to max_nodes */
static int write_list(const char *ns, const char *selector, size_t max_nodes, bool yaml, const ExplanationList *l,
                      const Strvec *warnings)
{
    PendingStream *s = pending_stream_begin(ns, selector, max_nodes, yaml);
    if (!s) return -1;
    ExplainJsonOpts o = { .max_nodes = max_nodes };
    for (size_t i = 0; i < l->n && !s->jw.failed; i++) explain_json_write(&s->jw, &l->items[i], &o);
    return pending_stream_end(s, warnings);
}

int pending_render(const ExplanationList *l, const Strvec *warnings, const PendingView *v, Error *out_err)
{
    const char *ns = v->ns;
    RenderFormat fmt = v->fmt;
    size_t max_nodes = pending_max_nodes(v);
    bool selected = v->selector && *v->selector;
    bool table = !v->columns && (fmt == RENDER_TEXT || fmt == RENDER_WIDE || fmt == RENDER_NAME);
    int rc = 0;
    if (table && v->warnings)
        for (size_t i = 0; warnings && i < warnings->n; i++) text_printf(stderr, "warning: %s\n", warnings->v[i]);
    if (v->columns) {
        PendingColumns pc = { .cc = v->columns, .max_nodes = max_nodes };
        for (size_t i = 0; i < l->n && rc == 0; i++) rc = pending_columns_add(&pc, &l->items[i]);
        rc = rc ? (*out_err = pc.err, -1) : pending_columns_print(&pc, ns, v->elsewhere, v->no_headers);
    } else if (table && l->n == 0) {         /* kubectl: "No resources found", on stderr */
        pending_say_none(ns, v->elsewhere);
    } else if (fmt == RENDER_NAME) {
        rc = pending_print_names(l, !ns);
    } else if (table) {
        if (selected && v->warnings)               /* what -l left out */
            text_printf(stderr, "Showing pods matching -l %s only.\n", v->selector);
        print_table(l, ns, fmt == RENDER_WIDE, v->color, !v->no_headers);
    } else {
        rc = write_list(ns, selected ? v->selector : NULL, max_nodes, fmt == RENDER_YAML, l, warnings);
    }
    return rc;
}
