/* fit.c (render) — `kubectl gpu fit` as text, JSON or YAML (contract in render/fit.h). */
#include "render/fit.h"
#include "render/json_writer.h"
#include "render/render_explain.h"
#include "render/text.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NODE_REASONS_MAX = 20 };

static int64_t units(int64_t milli) { return (milli + 999) / 1000; }

static void item_json(JsonWriter *jw, const FitItem *it)
{
    jw_object_begin(jw, NULL);
    jw_string(jw, "kind", it->kind);
    jw_string(jw, "namespace", it->ns);
    jw_string(jw, "name", it->name);
    jw_number(jw, "replicas", (double)it->replicas);
    jw_object_begin(jw, "requests");
    for (size_t i = 0; i < it->pod.requests.n; i++) {
        const ResourceEntry *re = &it->pod.requests.items[i];
        if (explanation_request_shown(re->name) && re->milli > 0) jw_number(jw, re->name, (double)units(re->milli));
    }
    jw_end(jw);
    if (pod_more(&it->pod)->request_init) jw_string(jw, "requestFromInitContainer", pod_more(&it->pod)->request_init);
    jw_string(jw, "verdict", it->verdict);
    jw_string(jw, "reason", it->summary ? it->summary : "");
    jw_number(jw, "fitsReplicas", (double)it->fits_replicas);
    jw_array_begin(jw, "nodes");
    for (size_t k = 0; k < it->nnodes; k++) {
        jw_object_begin(jw, NULL);
        jw_string(jw, "name", it->nodes[k].node);
        jw_number(jw, "replicas", (double)it->nodes[k].replicas);
        jw_end(jw);
    }
    jw_end(jw);
    jw_array_begin(jw, "fixes");
    for (size_t k = 0; k < it->fixes.n; k++) jw_string(jw, NULL, it->fixes.v[k]);
    jw_end(jw);
    jw_array_begin(jw, "notes");
    for (size_t k = 0; k < it->notes.n; k++) jw_string(jw, NULL, it->notes.v[k]);
    jw_end(jw);
    if (it->has_expl) {
        explain_nodes_write(jw, "nodeReasons", &it->expl, NODE_REASONS_MAX);
    }
    jw_end(jw);
}

static int render_doc(const FitResult *r, const Strvec *warnings, bool yaml)
{
    JsonWriter jw;
    if (yaml) jw_init_yaml(&jw, stdout, false);
    else jw_init(&jw, stdout);
    jw_object_begin(&jw, NULL);
    jw_string(&jw, "apiVersion", KGPU_API_VERSION);
    jw_string(&jw, "kind", "GPUFit");
    jw_array_begin(&jw, "items");
    for (size_t i = 0; i < r->n; i++) item_json(&jw, &r->items[i]);
    jw_end(&jw);
    jw_array_begin(&jw, "skipped");
    for (size_t i = 0; i < r->skipped.n; i++) jw_string(&jw, NULL, r->skipped.v[i]);
    jw_end(&jw);
    jw_array_begin(&jw, "warnings");
    for (size_t i = 0; warnings && i < warnings->n; i++) jw_string(&jw, NULL, warnings->v[i]);
    jw_end(&jw);
    jw_end(&jw);
    return jw_release(&jw);
}

/* "nvidia.com/gpu: 2, nvidia.com/mig-1g.10gb: 1" */
static void gpu_requests(const Pod *p, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < p->requests.n && at < n; i++) {
        const ResourceEntry *re = &p->requests.items[i];
        if (!explanation_request_shown(re->name) || re->milli <= 0) continue;
        at += (size_t)snprintf(buf + at, n - at, "%s%s: %lld", at ? ", " : "", re->name, (long long)units(re->milli));
    }
}

static void print_list(const char *title, const Strvec *v)
{
    if (!v->n) return;
    printf("  %s:\n", title);
    for (size_t k = 0; k < v->n; k++) {
        char *clean = text_clean(v->v[k], true);
        /* continuation lines of a fix stay under its first line */
        printf("    - ");
        for (const char *s = clean; *s; s++) {
            putchar(*s);
            if (*s == '\n' && s[1]) printf("      ");
        }
        if (!*clean || clean[strlen(clean) - 1] != '\n') putchar('\n');
        free(clean);
    }
}

static void item_text(const FitItem *it)
{
    char req[512];
    gpu_requests(&it->pod, req, sizeof req);
    text_printf(stdout, "%s %s/%s: %lld %s of %s each%s\n", it->kind, it->ns, it->name, (long long)it->replicas,
                it->daemonset ? "pod(s), one per node it admits," : it->replicas == 1 ? "pod" : "pods", req,
                pod_more(&it->pod)->request_init ? " (an init container's request)" : "");
    if (!strcmp(it->verdict, "Fits"))
        text_printf(stdout, "  Verdict:  Fits (%lld of %lld)\n", (long long)it->fits_replicas, (long long)it->replicas);
    else
        text_printf(stdout, "  Verdict:  %s (%lld of %lld fit now)\n", it->verdict, (long long)it->fits_replicas,
                    (long long)it->replicas);
    if (it->nnodes) {
        printf("  Nodes:   ");
        for (size_t k = 0; k < it->nnodes; k++)
            text_printf(stdout, "%s %s (%lld)", k ? "," : "", it->nodes[k].node, (long long)it->nodes[k].replicas);
        printf("\n");
    }
    if (it->summary) text_printf(stdout, "  Reason:   %s\n", it->summary);
    if (it->has_expl) {
        ReasonGroup *g;
        size_t relevant;
        size_t n = explain_group_nodes_ranked(&it->expl, &g, &relevant);
        size_t shown = relevant ? relevant : n;
        /* a DaemonSet's pod pinned to its node: the other nodes are excluded by the pinning */
        if (it->pinned.name)
            while (shown && g[shown - 1].rank >= 2) shown--;
        if (shown) printf("  Why, per node:\n");
        for (size_t j = 0; j < shown && j < 8; j++) {
            printf("    ");
            for (size_t k = 0; k < g[j].nodes.n && k < 4; k++) text_printf(stdout, "%s%s", k ? ", " : "", g[j].nodes.v[k]);
            if (g[j].nodes.n > 4) printf(" +%zu more", g[j].nodes.n - 4);
            text_printf(stdout, ": %s\n", g[j].reasons);
        }
        if (shown > 8) printf("    ... %zu more groups of nodes (kubectl gpu fit -o json: nodeReasons)\n", shown - 8);
        reason_groups_free(g, n);
    }
    print_list("Fixes", &it->fixes);
    print_list("Notes", &it->notes);
}

int fit_render(const FitResult *r, const Strvec *warnings, RenderFormat fmt)
{
    if (fmt == RENDER_JSON || fmt == RENDER_YAML) return render_doc(r, warnings, fmt == RENDER_YAML);
    for (size_t i = 0; warnings && i < warnings->n; i++) text_printf(stderr, "warning: %s\n", warnings->v[i]);
    for (size_t i = 0; i < r->skipped.n; i++) text_printf(stderr, "note: %s\n", r->skipped.v[i]);
    for (size_t i = 0; i < r->n; i++) {
        if (i) putchar('\n');
        item_text(&r->items[i]);
    }
    if (!r->n) printf("no pod template of the manifests requests a GPU\n");
    fflush(stdout);
    return ferror(stdout) ? -1 : 0;
}
