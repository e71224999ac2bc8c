/* explain.c — the one presentation of `kubectl gpu explain` (render_explain.h): the text
 * (pod, verdict, the scheduler's message as read, nodes grouped by reasons, fixes, notes) and
 * JSON/YAML through the EXPLANATION tree of explain_json.c, from one Explanation.
 */
#include "render/render_explain.h"
#include "render/render.h"
#include "render/text.h"
#include "render/table.h"
#include "render/custom_columns.h"
#include "util/error.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a fix or note that may span lines: continuation lines indented under the first */
static void print_item(const char *bullet, const char *text)
{
    text_printf(stdout, "  %s ", bullet);
    size_t indent = strlen(bullet) + 3;
    char *clean = text_clean(text, true);          /* a fix spans lines on purpose */
    for (const char *p = clean; *p; p++) {
        putchar(*p);
        if (*p == '\n' && p[1]) printf("%*s", (int)indent, "");
    }
    putchar('\n');
    free(clean);
}

static void print_histogram(const SchedHistogram *h, const char *indent)
{
    for (size_t i = 0; i < h->nreasons; i++) {
        const SchedReason *r = &h->reasons[i];
        char count[24] = "-";
        if (r->count >= 0) snprintf(count, sizeof count, "%d", r->count);
        text_printf(stdout, "%s%4s  %s  [%s%s]\n", indent, count, r->text, sched_code_name(r->code),
               r->truncated ? ", cut off" : r->prefilter ? ", PreFilter" : "");
    }
}

static void print_scheduler(const Explanation *e, bool color)
{
    const SchedMessage *m = &e->sched;
    if (!e->sched_text) {
        text_printf(stdout, "Scheduler:  no FailedScheduling event and no PodScheduled condition message\n");
        return;
    }
    char vb[32];
    schedmsg_versions(m, vb, sizeof vb);
    text_printf(stdout, "Scheduler (%s%s%s):\n  %s\n", e->sched_source, *vb ? ", wording of Kubernetes " : "", vb, e->sched_text);
    if (m->kind == SM_FIT_ERROR) {
        text_printf(stdout, "  read as: %d of %d node(s) available%s\n", m->filter.available, m->filter.total,
               m->truncated ? " (message cut at 1024 bytes; counts incomplete)" : "");
        print_histogram(&m->filter, "  ");
        /* a preemption part without counts ("not eligible ...") reads as the message says it */
        if (m->has_preemption && m->preemption.nreasons) {
            text_printf(stdout, "  preemption (dry run over %d node(s)):\n", m->preemption.total);
            print_histogram(&m->preemption, "    ");
        }
    } else {
        text_printf(stdout, "  read as: %s\n", schedmsg_kind_name(m->kind));
    }
    if (e->event_text) text_printf(stdout, "  newest FailedScheduling event: %s\n", e->event_text);
    if (!e->agrees) {
        text_printf(stdout, "  %sThe recomputation below disagrees with the scheduler's message:%s\n",
               color_start(C_YELLOW, color), color_end(C_YELLOW, color));
        for (size_t i = 0; i < e->disagreements.n; i++) text_printf(stdout, "    - %s\n", e->disagreements.v[i]);
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
    text_printf(stdout, "\nNodes (recomputed from the cluster now%s):\n",
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
        strbuf_clear(&nb);
    }
    table_print(t, stdout, color);
    table_free(t);
    if (shown < n) {
        size_t hidden = 0;
        for (size_t j = shown; j < n; j++) hidden += g[j].nodes.n;
        text_printf(stdout, "  (%zu more node(s) could never hold the pod: --all-nodes lists them)\n", hidden);
    }
    reason_groups_free(g, n);
}

static void print_text(const Explanation *e, bool all_nodes, bool color)
{
    const Pod *p = e->pod;
    char age[16] = "?";
    if (e->age >= 0) format_age(e->age, age, sizeof age);
    char *gpus = explanation_gpus(e);
    if (p)
        text_printf(stdout, "Pod:        %s/%s (Pending %s, priority %d%s%s)\n", e->ns, e->name, age, p->priority,
               p->priority_class ? ", class " : "", p->priority_class ? p->priority_class : "");
    else
        text_printf(stdout, "Owner:      %s %s/%s (its pods were not created; last refused %s ago)\n",
               e->owner_kind ? e->owner_kind : "owner", e->ns, e->name, age);
    text_printf(stdout, "Requests:   %s%s%s%s%s\n", gpus, p ? "" : " per pod",
                p && p->request_init ? " (from init container " : "", p && p->request_init ? p->request_init : "",
                p && p->request_init ? ")" : "");
    free(gpus);
    text_printf(stdout, "Verdict:    %s%s%s\n", color_start(C_BOLD, color), verdict_name(e->verdict), color_end(C_BOLD, color));
    text_printf(stdout, "Reason:     %s\n", e->summary ? e->summary : "");
    if (p) {
        putchar('\n');
        print_scheduler(e, color);
    }
    print_nodes(e, all_nodes, color);
    if (e->fixes.n) {
        text_printf(stdout, "\nFixes:\n");
        for (size_t i = 0; i < e->fixes.n; i++) {
            char b[32];
            snprintf(b, sizeof b, "%zu.", i + 1);
            print_item(b, e->fixes.v[i]);
        }
    }
    if (e->notes.n) {
        text_printf(stdout, "\nNotes:\n");
        for (size_t i = 0; i < e->notes.n; i++) print_item("-", e->notes.v[i]);
    }
}

int explain_render(const Explanation *e, const Strvec *warnings, bool pending, RenderFormat fmt,
                   bool all_nodes, bool color)
{
    const Pod *p = e->pod;
    if (fmt == RENDER_JSON || fmt == RENDER_YAML) {
        cJSON *doc = explanation_to_json(e, true);
        cJSON *w = cJSON_AddArrayToObject(doc, "warnings");
        for (size_t i = 0; warnings && i < warnings->n; i++) cJSON_AddItemToArray(w, cJSON_CreateString(warnings->v[i]));
        int rc = fmt == RENDER_JSON ? render_json(stdout, doc) : render_yaml(stdout, doc, false);
        cJSON_Delete(doc);
        return rc;
    }
    for (size_t i = 0; warnings && i < warnings->n; i++) text_printf(stderr, "warning: %s\n", warnings->v[i]);
    if (!p) {
        print_text(e, all_nodes, color);
    } else if (!pending) {
        if (p->node_name) text_printf(stdout, "pod %s/%s is %s on node %s; nothing to explain\n", p->ns, p->name,
                                 pod_phase_name(p->phase), p->node_name);
        else text_printf(stdout, "pod %s/%s is %s; nothing to explain\n", p->ns, p->name, pod_phase_name(p->phase));
    } else {
        print_text(e, all_nodes, color);
    }
    return 0;
}

int explain_print_columns(const Explanation *e, CustomColumns *cc, bool no_headers, Error *err)
{
    cJSON *doc = explanation_to_json(e, true);
    int rc = custom_columns_add(cc, doc, err);
    cJSON_Delete(doc);
    if (rc < 0) return -1;
    return custom_columns_print(cc, stdout, no_headers);
}
