/* tui_filter.c — top's filter (/): a word matches nodes (name, product, labels, the pods they
 * hold by namespace/name), pending pods (namespace/name, verdict, labels) and the pods view's
 * rows; key=value and the other selector forms select by label, and a selector that does not
 * parse says so and is matched as words (tui_filter_edit.c compiles and applies the text as it
 * is typed).  Below the lists (tui_lists.c), which keep what it lets through.
 */
#include "tui/tui_app.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------ filter */

static bool contains_ci(const char *hay, const char *needle)
{
    if (!hay) return false;
    size_t n = strlen(needle);
    if (!n) return true;
    for (const char *p = hay; *p; p++)
        if (strncasecmp(p, needle, n) == 0) return true;
    return false;
}

static bool labels_contain(const KVList *l, const char *needle)
{
    for (size_t i = 0; i < l->n; i++)
        if (contains_ci(l->items[i].key, needle) || contains_ci(l->items[i].value, needle)) return true;
    return false;
}

bool app_node_matches(const App *a, const NodeStatus *n)
{
    if (!a->filter || !*a->filter) return true;
    const Node *node = cluster_find_node(&a->data->tc->cluster, n->name);
    if (a->sel_mode) return node && label_selector_matches(&a->sel, &node->labels);
    if (contains_ci(n->name, a->filter) || contains_ci(n->product, a->filter)) return true;
    /* the pods it holds, by namespace/name */
    for (size_t i = 0; i < n->npods; i++) {
        char *key = xasprintf("%s/%s", n->pods[i].ns, n->pods[i].name);
        bool m = contains_ci(key, a->filter);
        free(key);
        if (m) return true;
    }
    return node && labels_contain(&node->labels, a->filter);
}

/* the pods view: a word matches the pod's namespace/name or its node (name, product, labels);
 * a selector matches the node's labels */
bool tui_pod_matches(void *ctx, const NodeStatus *n, const HolderPod *p)
{
    const App *a = ctx;
    if (!a->filter || !*a->filter) return true;
    const Node *node = cluster_find_node(&a->data->tc->cluster, n->name);
    if (a->sel_mode) return node && label_selector_matches(&a->sel, &node->labels);
    char *key = xasprintf("%s/%s", p->ns, p->name);
    bool m = contains_ci(key, a->filter) || contains_ci(n->name, a->filter) || contains_ci(n->product, a->filter) ||
             (node && labels_contain(&node->labels, a->filter));
    free(key);
    return m;
}

/* a pending row's key and the text a word matches: "ns/name" */
char *tui_pend_key(const Explanation *e) { return xasprintf("%s/%s", e->ns, e->name); }

bool app_pending_matches(const App *a, const Explanation *e)
{
    if (!a->filter || !*a->filter) return true;
    if (a->sel_mode) return e->pod && label_selector_matches(&a->sel, &e->pod->labels);
    char *key = tui_pend_key(e);
    bool m = contains_ci(key, a->filter) || contains_ci(verdict_name(e->verdict), a->filter) ||
             (e->pod && labels_contain(&e->pod->labels, a->filter));
    free(key);
    return m;
}
