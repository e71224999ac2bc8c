/* tui_filter.c — top's filter (/): a word matches nodes (name, product, labels, the pods they
 * hold by namespace/name), pending pods (namespace/name, verdict, labels) and the pods view's
 * rows; key=value and the other selector forms select by label, and a selector that does not
 * parse says so and is matched as words.  The text typed applies as it is typed.
 */
#include "tui/tui_app.h"
#include "util/error.h"
#include <curses.h>
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

/* key=value, key!=value, "key in (a,b)", "!key": a label selector; anything else a word */
static void filter_compile(App *a)
{
    label_selector_clear(&a->sel);
    a->sel_mode = false;
    const char *f = a->filter;
    if (!f || !*f) return;
    if (!strchr(f, '=') && !strchr(f, '!') && !strstr(f, " in ") && !strstr(f, " notin ")) return;
    Error err = { .set = false };
    if (label_selector_parse(&a->sel, f, &err) == 0) {
        a->sel_mode = true;
        return;
    }
    label_selector_clear(&a->sel);
    /* said, not silently taken as text: the filter then matches it as words */
    char *msg = xasprintf("bad label selector (%.120s); filtering by text", err.msg);
    app_message(a, msg);
    free(msg);
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

/* ------------------------------------------------------------------ editing */

void app_set_filter(App *a, const char *f)
{
    free(a->filter);
    a->filter = f && *f ? xstrdup(f) : NULL;
    filter_compile(a);
    app_rebuild_lists(a);
    app_remember_selection(a);
}

void app_filter_cancel(App *a)
{
    a->editing = false;                              /* back to what was applied */
    app_set_filter(a, a->filter_before);
    free(a->filter_before);
    a->filter_before = NULL;
}

void app_filter_apply(App *a)
{
    a->editing = false;
    app_set_filter(a, strbuf_str(&a->edit));
    free(a->filter_before);
    a->filter_before = NULL;
}

void app_filter_key(App *a, int ch)
{
    if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        while (a->edit.len && ((unsigned char)a->edit.buf[a->edit.len - 1] & 0xC0) == 0x80) a->edit.len--;
        if (a->edit.len) a->edit.len--;
        if (a->edit.buf) a->edit.buf[a->edit.len] = '\0';
    } else if (ch == 21) {                           /* ^U */
        strbuf_reset(&a->edit);
    } else if (ch >= 32 && ch < 256 && ch != 127 && a->edit.len < 200) {
        strbuf_addch(&a->edit, (char)ch);
    } else {
        return;
    }
    app_set_filter(a, strbuf_str(&a->edit));             /* the list follows what is typed */
}

void app_start_filter(App *a)
{
    a->editing = true;
    free(a->filter_before);
    a->filter_before = xstrdup(a->filter);
    strbuf_reset(&a->edit);
    if (a->filter) strbuf_adds(&a->edit, a->filter);
}
