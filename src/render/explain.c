/* explain.c — the one presentation of `kubectl gpu explain` (render_explain.h): the text
 * (pod, verdict, the scheduler's message as read, nodes grouped by reasons, fixes, notes) as
 * one TextDoc that stdout prints and top draws, and JSON/YAML through the EXPLANATION tree of
 * explain_json.c, from one Explanation.
 */
#include "render/render_explain.h"
#include "analysis/explain_queue.h"
#include "render/render.h"
#include "render/text.h"
#include "render/table.h"
#include "render/textdoc.h"
#include "render/custom_columns.h"
#include "util/error.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_COL 12           /* "Requests:   " */

/* a line of text that came from outside: newlines are spaces (as text_printf prints them) */
static void add_line(TextDoc *d, int indent, TextAttr a, const char *s)
{
    char *clean = text_clean(s, false);
    text_wrap(d, indent, a, clean);
    free(clean);
}

/* a fix or note that may span lines: continuation lines indented under the first */
static void add_item(TextDoc *d, const char *bullet, const char *text, TextAttr a)
{
    text_newline(d);
    text_addf(d, TA_NORMAL, "  %s ", bullet);
    char *clean = text_clean(text, true);          /* a fix spans lines on purpose */
    text_wrap(d, (int)strlen(bullet) + 3, a, clean);
    size_t n = strlen(clean);
    if (n && clean[n - 1] == '\n') text_newline(d);
    free(clean);
}

static void add_histogram(TextDoc *d, const SchedHistogram *h, const char *indent)
{
    for (size_t i = 0; i < h->nreasons; i++) {
        const SchedReason *r = &h->reasons[i];
        char count[24] = "-";
        if (r->count >= 0) snprintf(count, sizeof count, "%d", r->count);
        text_newline(d);
        text_addf(d, TA_NORMAL, "%s%4s  ", indent, count);
        char *clean = text_clean(r->text, false);
        text_add(d, TA_NORMAL, clean);
        free(clean);
        text_addf(d, TA_DIM, "  [%s%s]", schedmsg_code_name(r->code),
                  r->truncated ? ", cut off" : r->prefilter ? ", PreFilter" : "");
    }
}

static void add_scheduler(TextDoc *d, const Explanation *e)
{
    const SchedMessage *m = explanation_sched(e);
    if (!e->sched_text) {
        text_label(d, "Scheduler", LABEL_COL);
        text_add(d, TA_DIM, "no FailedScheduling event and no PodScheduled condition message");
        return;
    }
    char vb[32];
    schedmsg_versions(m, vb, sizeof vb);
    char *l = xasprintf("Scheduler (%s%s%s)", e->sched_source, *vb ? ", wording of Kubernetes " : "", vb);
    text_label(d, l, 0);
    free(l);
    text_newline(d);
    text_add(d, TA_NORMAL, "  ");
    add_line(d, 2, TA_NORMAL, e->sched_text);
    text_newline(d);
    if (m->kind == SM_FIT_ERROR) {
        text_addf(d, TA_NORMAL, "  read as: %d of %d node(s) available%s", m->filter.available, m->filter.total,
                  m->truncated ? " (message cut at 1024 bytes; counts incomplete)" : "");
        add_histogram(d, &m->filter, "  ");
        /* a preemption part without counts ("not eligible ...") reads as the message says it */
        if (m->has_preemption && m->preemption.nreasons) {
            text_newline(d);
            text_addf(d, TA_NORMAL, "  preemption (dry run over %d node(s)):", m->preemption.total);
            add_histogram(d, &m->preemption, "    ");
        }
    } else {
        text_addf(d, TA_NORMAL, "  read as: %s", schedmsg_kind_name(m->kind));
    }
    if (e->event_text) {
        text_newline(d);
        text_add(d, TA_NORMAL, "  newest FailedScheduling event: ");
        add_line(d, 4, TA_NORMAL, e->event_text);
    }
    if (!e->agrees) {
        text_newline(d);
        text_add(d, TA_NORMAL, "  ");
        text_add(d, TA_WARN, "The recomputation below disagrees with the scheduler's message:");
        for (size_t i = 0; i < e->disagreements.n; i++) {
            text_newline(d);
            text_add(d, TA_NORMAL, "    - ");
            add_line(d, 6, TA_NORMAL, e->disagreements.v[i]);
        }
    }
}

/* nodes sharing the same reasons are one row; the relevant rows first (fit now, admit the pod
 * and could hold it, could hold it), the nodes that never could only with all_nodes */
static void add_nodes(TextDoc *d, const Explanation *e, bool all, size_t table_width)
{
    if (!e->nnodes) return;
    ReasonGroup *g;
    size_t relevant;
    size_t n = explain_group_nodes_ranked(e, &g, &relevant);
    size_t shown = all || relevant == 0 ? n : relevant;
    text_heading(d, "Nodes", shown < n ? "recomputed from the cluster now; those that could hold the pod"
                                       : "recomputed from the cluster now");
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
        strbuf_clear(&nb);
    }
    table_doc(t, d, table_width);
    table_free(t);
    if (shown < n) {
        size_t hidden = 0;
        for (size_t j = shown; j < n; j++) hidden += g[j].nodes.n;
        text_newline(d);
        text_addf(d, TA_DIM, "  (%zu more node(s) could never hold the pod: --all-nodes lists them)", hidden);
    }
    reason_groups_free(g, n);
}

/* a queue's workload (explain_queue.h): what it is, which queue, its place in the line */
static void explain_queue_doc(TextDoc *d, const Explanation *e, const char *age)
{
    const QueueFacts *q = e->queue;
    text_label(d, q->row_kind, LABEL_COL);
    text_addf(d, TA_VALUE, "%s/%s", e->ns, e->name);
    text_addf(d, TA_NORMAL, " (waiting %s", age);
    if (e->owner_kind) text_addf(d, TA_NORMAL, ", for %s %s", e->owner_kind, e->owner_name ? e->owner_name : "");
    text_add(d, TA_NORMAL, ")");
    text_label(d, "Queue", LABEL_COL);
    if (q->system == QSYS_KUEUE)
        text_addf(d, TA_NORMAL, "Kueue LocalQueue %s -> ClusterQueue %s", q->local_queue ? q->local_queue : "(none)",
                  q->cluster_queue ? q->cluster_queue : "(none)");
    else
        text_addf(d, TA_NORMAL, "%s Queue %s, gang of %d", q->system == QSYS_VOLCANO ? "Volcano" : "KAI",
                  q->cluster_queue ? q->cluster_queue : "(none)", q->min_member);
    if (q->cohort) text_addf(d, TA_NORMAL, " (cohort %s)", q->cohort);
    if (q->position > 0) {
        text_label(d, "Position", LABEL_COL);
        text_addf(d, TA_NORMAL, "%lld of %lld waiting", (long long)q->position, (long long)q->queued);
        if (q->head) text_addf(d, TA_NORMAL, " (StrictFIFO: behind the head %s)", q->head);
    }
    text_label(d, "Message", LABEL_COL);
    add_line(d, LABEL_COL, TA_NORMAL, q->message ? q->message : "(none)");
}

static void amount(char *out, size_t n, int64_t milli)
{
    if (milli < 0) snprintf(out, n, "-");
    else if (milli % 1000) snprintf(out, n, "%.1f", (double)milli / 1000.0);
    else snprintf(out, n, "%lld", (long long)(milli / 1000));
}

static void explain_queue_quota_doc(TextDoc *d, const QueueFacts *q)
{
    if (q->nflavors) {
        text_heading(d, "Quota", NULL);
        static const char *const hdr[] = { "FLAVOR", "RESOURCE", "NOMINAL", "BORROW LIMIT", "USED", "REQUESTED", "NEEDED" };
        Table *t = table_new(hdr, 7);
        for (size_t i = 0; i < q->nflavors; i++) {
            const QueueFlavorFact *f = &q->flavors[i];
            char a[32], b[32], c[32], r[32], n[32];
            amount(a, sizeof a, f->nominal);
            if (f->borrowing_limit < 0) snprintf(b, sizeof b, "none");
            else amount(b, sizeof b, f->borrowing_limit);
            amount(c, sizeof c, f->used);
            amount(r, sizeof r, f->requested);
            if (f->needed < 0) snprintf(n, sizeof n, "never");
            else amount(n, sizeof n, f->needed);
            table_add_row(t);
            table_cell(t, *f->name ? f->name : "-");
            table_cell(t, f->resource);
            table_cell(t, a); table_cell(t, b); table_cell(t, c); table_cell(t, r);
            table_cell_color(t, f->needed == 0 ? C_GREEN : C_RED, n);
        }
        table_doc(t, d, 0);
        table_free(t);
    }
    if (q->nholders) {
        text_heading(d, "Held by", NULL);
        for (size_t i = 0; i < q->nholders; i++) {
            char a[32], line[600];
            amount(a, sizeof a, q->holders[i].gpus);
            snprintf(line, sizeof line, "%s/%s: %s GPUs", q->holders[i].ns, q->holders[i].name, a);
            add_item(d, "-", line, TA_NORMAL);
        }
    }
}

void explain_doc(TextDoc *d, const Explanation *e, bool all_nodes, size_t table_width)
{
    const Pod *p = e->pod;
    char age[16] = "?";
    if (e->age >= 0) util_format_age(e->age, age, sizeof age);
    if (e->queue) {
        explain_queue_doc(d, e, age);
    } else if (p) {
        text_label(d, "Pod", LABEL_COL);
        text_addf(d, TA_VALUE, "%s/%s", e->ns, e->name);
        text_addf(d, TA_NORMAL, " (Pending %s, priority %d%s%s)", age, p->priority,
                  pod_more(p)->priority_class ? ", class " : "", pod_more(p)->priority_class ? pod_more(p)->priority_class : "");
    } else {
        text_label(d, "Owner", LABEL_COL);
        text_addf(d, TA_VALUE, "%s %s/%s", e->owner_kind ? e->owner_kind : "owner", e->ns, e->name);
        text_addf(d, TA_NORMAL, " (its pods were not created; last refused %s ago)", age);
    }
    char *gpus = explanation_gpus(e);
    text_label(d, "Requests", LABEL_COL);
    text_addf(d, TA_NORMAL, "%s%s%s%s%s", gpus, p ? "" : e->queue ? " in all" : " per pod", p && pod_more(p)->request_init ? " (from init container " : "",
              p && pod_more(p)->request_init ? pod_more(p)->request_init : "", p && pod_more(p)->request_init ? ")" : "");
    free(gpus);
    text_label(d, "Verdict", LABEL_COL);
    text_add(d, TA_STRONG, verdict_name(e->verdict));
    text_label(d, "Reason", LABEL_COL);
    add_line(d, LABEL_COL, TA_NORMAL, e->summary ? e->summary : "");
    if (p) {
        text_newline(d);
        add_scheduler(d, e);
    }
    if (e->queue) explain_queue_quota_doc(d, e->queue);
    add_nodes(d, e, all_nodes, table_width);
    if (e->fixes.n) {
        text_heading(d, "Fixes", NULL);
        for (size_t i = 0; i < e->fixes.n; i++) {
            char b[32];
            snprintf(b, sizeof b, "%zu.", i + 1);
            add_item(d, b, e->fixes.v[i], TA_NORMAL);
        }
    }
    if (e->notes.n) {
        text_heading(d, "Notes", NULL);
        for (size_t i = 0; i < e->notes.n; i++) add_item(d, "-", e->notes.v[i], TA_DIM);
    }
}

static int print_text(const Explanation *e, bool all_nodes, bool color)
{
    TextDoc d;
    text_init(&d, TEXT_NO_WRAP);
    explain_doc(&d, e, all_nodes, table_terminal_width(stdout));
    int rc = text_doc_print(&d, stdout, color);
    text_clear(&d);
    return rc;
}

int explain_render(const Explanation *e, const Strvec *warnings, bool pending, RenderFormat fmt,
                   bool all_nodes, bool color)
{
    const Pod *p = e->pod;
    if (fmt == RENDER_JSON || fmt == RENDER_YAML) {
        JsonWriter *jw = malloc(sizeof *jw);
        if (!jw) return -1;
        if (fmt == RENDER_YAML) jw_init_yaml(jw, stdout, false);
        else jw_init(jw, stdout);
        Strvec none = STRVEC_INIT;
        ExplainJsonOpts o = { .with_kind = true, .warnings = warnings ? warnings : &none };
        explain_json_write(jw, e, &o);
        int rc = jw_release(jw);
        free(jw);
        return rc;
    }
    for (size_t i = 0; warnings && i < warnings->n; i++) text_printf(stderr, "warning: %s\n", warnings->v[i]);
    if (!p) {
        return print_text(e, all_nodes, color) < 0 ? -1 : 0;
    } else if (!pending) {
        if (p->node_name) text_printf(stdout, "pod %s/%s is %s on node %s; nothing to explain\n", p->ns, p->name,
                                 pod_phase_name(p->phase), p->node_name);
        else text_printf(stdout, "pod %s/%s is %s; nothing to explain\n", p->ns, p->name, pod_phase_name(p->phase));
    } else {
        return print_text(e, all_nodes, color) < 0 ? -1 : 0;
    }
    return 0;
}

int explain_print_columns(const Explanation *e, CustomColumns *cc, bool no_headers, Error *err)
{
    cJSON *doc = explain_to_json(e, true);
    int rc = custom_columns_add(cc, doc, err);
    cJSON_Delete(doc);
    if (rc < 0) return -1;
    return custom_columns_print(cc, stdout, no_headers);
}
