/* explain_fixes.c — fixes for the verdict reached, each one re-checked before it is kept.
 *
 * A fix is a change: to the pod (its request, selector, tolerations), to the pods around it
 * (some ended), or to one node (uncordoned, Ready, advertising its GPUs).  Pod-side changes
 * are applied to a copy of the Pod (PodEdit) and the copy is evaluated against every node by
 * the same per-node code (explain_node_relief); ended pods are a Relief.  A node-side change is
 * checked by evaluating that node and ignoring exactly the reasons the change removes.  The fix
 * is kept only when the pod would then fit, and it names the node.  Fixes are listed by effort
 * (explain.h) and carry their change as data (FixInfo) for tests that apply them.
 */
#include "explain_int.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIXES_PER_KIND 3

/* ---------------------------------------------------------------- the fix list */

/* Fixes in the order a user of the workload would try them: by effort (no change, change the
 * pod, end pods, change the cluster), stable; for a training workload the split into smaller
 * pods comes after moving it and waiting for pods to end (it rewrites the job, not the spec). */
void explain_fixes_flush(Ctx *x)
{
    Explanation *e = x->e;
    e->fix_info = x->nfixes ? xcalloc(x->nfixes, sizeof *e->fix_info) : NULL;
    size_t k = 0;
    bool train = explain_owner_is_training(x->p->owner_kind);
    for (int slot = 0; slot <= 2 * EFFORT_CLUSTER + 1; slot++)      /* stable by effort */
        for (size_t i = 0; i < x->nfixes; i++) {
            const FixItem *f = &x->fixes[i];
            bool late = train && f->split;
            int at = 2 * (late ? EFFORT_END_PODS : (int)f->info.effort) + (late ? 1 : 0);
            if (at != slot) continue;
            strvec_push(&e->fixes, f->text);
            e->fix_info[k++] = f->info;
            free(f->text);
        }
    free(x->fixes);
    x->fixes = NULL;
    x->nfixes = x->capfixes = 0;
}

static void edit_tolerate(PodEdit *d, const Taint *t)
{
    d->tol = xrealloc(d->tol, (d->ntol + 1) * sizeof *d->tol);
    bool has_value = t->value && *t->value;
    d->tol[d->ntol++] = (Toleration){ t->key, (char *)(has_value ? "Equal" : "Exists"), has_value ? t->value : NULL, t->effect };
    explain_edit_sync(d);
}

static void yaml_toleration(Strbuf *sb, const Taint *t)
{
    if (t->value && *t->value)
        strbuf_addf(sb, "\n  - key: \"%s\"\n    operator: \"Equal\"\n    value: \"%s\"\n    effect: \"%s\"",
                    t->key, t->value, t->effect);
    else
        strbuf_addf(sb, "\n  - key: \"%s\"\n    operator: \"Exists\"\n    effect: \"%s\"", t->key, t->effect);
}

static void info_toleration(FixInfo *fi, const Taint *t)
{
    if (t->value && *t->value) strvec_pushf(&fi->tolerations, "%s=%s:%s", t->key, t->value, t->effect);
    else strvec_pushf(&fi->tolerations, "%s:%s", t->key, t->effect);
}

/* tolerate every untolerated non-state taint of node n (added to d and to yaml) */
static size_t tolerate_node(PodEdit *d, const Node *n, Strbuf *yaml, Strvec *ids)
{
    size_t added = 0;
    for (size_t i = 0; i < n->ntaints; i++) {
        const Taint *t = &n->taints[i];
        if (!str_eq(t->effect, "NoSchedule") && !str_eq(t->effect, "NoExecute")) continue;
        if (str_starts_with(t->key, "node.kubernetes.io/") || explain_pod_tolerates_taint(&d->q, t)) continue;
        edit_tolerate(d, t);
        char *id = xasprintf("%s=%s:%s", t->key, t->value ? t->value : "", t->effect);
        if (!strvec_contains(ids, id)) { strvec_push(ids, id); yaml_toleration(yaml, t); }
        free(id);
        added++;
    }
    return added;
}

/* ---------------------------------------------------------------- Taint */

static void fixes_taint(Ctx *x)
{
    PodEdit d;
    explain_edit_begin(&d, x->p);
    Strbuf yaml = STRBUF_INIT;
    Strvec ids = STRVEC_INIT, names = STRVEC_INIT;
    const Node *prefer = NULL;
    for (size_t i = 0; i < x->e->nnodes; i++) {
        if (!x->flags[i].could_hold || !x->flags[i].sel_ok || x->flags[i].taint_ok) continue;
        if (tolerate_node(&d, x->e->nodes[i].node, &yaml, &ids) && !prefer) prefer = x->e->nodes[i].node;
    }
    char *where = NULL;
    const Node *n = yaml.len ? explain_landing(x, &d.q, prefer, &names, &where) : NULL;
    if (n) {
        FixInfo *fi = explain_fix_add(x, names.n ? EFFORT_END_PODS : EFFORT_POD, "add to the pod spec (%s):\n  tolerations:%s",
                              where, strbuf_str(&yaml));
        if (fi) {
            fi->fits_on = xstrdup(n->name);
            for (size_t k = 0; k < d.ntol; k++)
                if (k >= pod_more(x->p)->ntolerations) {
                    Taint t = { d.tol[k].key, d.tol[k].value, d.tol[k].effect };
                    info_toleration(fi, &t);
                }
            explain_info_end_pods(fi, &names);
        }
        for (size_t k = 0; k < ids.n; k++)
            if (resources_is_gpu(ids.v[k]) || str_starts_with(ids.v[k], "nvidia.com/gpu=")) {
                strvec_pushf(&x->e->notes, "the ExtendedResourceToleration admission plugin on the API server adds "
                             "a toleration for the %s taint to every pod that requests %s", x->gpu, x->gpu);
                break;
            }
    }
    free(where);
    strbuf_clear(&yaml);
    strvec_clear(&ids);
    strvec_clear(&names);
    explain_edit_end(&d);
}

/* ---------------------------------------------------------------- Selector */

static bool gfd_managed(const char *key)
{
    return str_starts_with(key, "nvidia.com/") || str_starts_with(key, "feature.node.kubernetes.io/");
}

/* the pod's nodeSelector changed to admit node n (its values for the keys that fail there),
 * the required affinity dropped when it fails there, and n's taints tolerated */
static void fix_selector_for(Ctx *x, const Node *n, size_t *shown, Strvec *seen)
{
    PodEdit d;
    explain_edit_begin(&d, x->p);
    Strbuf yaml = STRBUF_INIT, tyaml = STRBUF_INIT;
    Strvec ids = STRVEC_INIT, names = STRVEC_INIT, labels = STRVEC_INIT;
    bool drop_aff = false, ok = true;
    const KVList *node_selector = &pod_more(x->p)->node_selector;
    for (size_t k = 0; k < node_selector->n && ok; k++) {
        const KV *kv = &node_selector->items[k];
        const char *have = kv_get(&n->labels, kv->key);
        if (str_eq(have, kv->value)) continue;
        if (have) { kv_set(&d.sel, kv->key, have); strbuf_addf(&yaml, "\n    %s: \"%s\"", kv->key, have); }
        else if (!gfd_managed(kv->key)) strvec_pushf(&labels, "%s=%s", kv->key, kv->value);
        else ok = false;                       /* a hardware label the node lacks */
    }
    if (ok && !explain_node_affinity_matches(x->p, n, NULL)) {
        /* the required affinity is replaced by the node's values of the keys its first term asks */
        drop_aff = true;
        d.q.naffinity_terms = 0;
        d.q.affinity_terms = NULL;
        const NodeSelectorTerm *t = x->p->naffinity_terms ? &x->p->affinity_terms[0] : NULL;
        for (size_t k = 0; t && k < t->match_expressions.n; k++) {
            const SelReq *r = &t->match_expressions.reqs[k];
            const char *have = kv_get(&n->labels, r->key);
            if (!have || selreq_matches(r, &n->labels) || kv_get(&d.sel, r->key)) continue;
            if (r->op != SEL_EQ && r->op != SEL_IN) continue;
            kv_set(&d.sel, r->key, have);
            strbuf_addf(&yaml, "\n    %s: \"%s\"", r->key, have);
        }
    }
    explain_edit_sync(&d);
    if (labels.n && ok) {
        /* labelling n with what the pod asks is, for n, the same as not asking it */
        for (size_t k = 0; k < labels.n; k++) {
            char *eq = strchr(labels.v[k], '=');
            *eq = '\0';
            for (size_t j = 0; j < d.sel.n; j++)
                if (str_eq(d.sel.items[j].key, labels.v[k])) d.sel.items[j].value[0] = '\0';
            *eq = '=';
        }
        KVList keep = KVLIST_INIT;
        for (size_t j = 0; j < d.sel.n; j++) if (*d.sel.items[j].value) kv_set(&keep, d.sel.items[j].key, d.sel.items[j].value);
        kv_clear(&d.sel);
        d.sel = keep;
        explain_edit_sync(&d);
    }
    tolerate_node(&d, n, &tyaml, &ids);
    char *where = NULL;
    const Node *at = ok ? explain_landing(x, &d.q, n, &names, &where) : NULL;
    char *change = xasprintf("%s|%s|%d|%zu", strbuf_str(&yaml), strbuf_str(&tyaml), drop_aff, labels.n);
    bool dup = !labels.n && strvec_contains(seen, change);
    if (!dup) strvec_push(seen, change);
    free(change);
    if (at && !dup && (at == n || !labels.n)) {
        Strbuf text = STRBUF_INIT;
        FixEffort eff = labels.n ? EFFORT_CLUSTER : names.n ? EFFORT_END_PODS : EFFORT_POD;
        if (labels.n) {
            strbuf_addf(&text, "label node %s so the pod's nodeSelector matches it (%s):\n  kubectl label node %s",
                        n->name, where, n->name);
            for (size_t k = 0; k < labels.n; k++) strbuf_addf(&text, " %s", labels.v[k]);
        } else {
            strbuf_addf(&text, "change the pod's node selection to admit node %s (%s):", at->name, where);
        }
        if (yaml.len) strbuf_addf(&text, "\n  nodeSelector:%s", strbuf_str(&yaml));
        if (drop_aff) strbuf_adds(&text, "\n  and remove spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution");
        if (tyaml.len) strbuf_addf(&text, "\n  tolerations:%s", strbuf_str(&tyaml));
        FixInfo *fi = explain_fix_add(x, eff, "%s", strbuf_str(&text));
        if (fi) {
            fi->fits_on = xstrdup(at->name);
            for (size_t j = 0; j < d.sel.n; j++)
                if (!str_eq(kv_get(&pod_more(x->p)->node_selector, d.sel.items[j].key), d.sel.items[j].value))
                    kv_set(&fi->selector, d.sel.items[j].key, d.sel.items[j].value);
            fi->drop_affinity = drop_aff;
            for (size_t k = pod_more(x->p)->ntolerations; k < d.ntol; k++) {
                Taint t = { d.tol[k].key, d.tol[k].value, d.tol[k].effect };
                info_toleration(fi, &t);
            }
            explain_info_end_pods(fi, &names);
            if (labels.n) {
                fi->node = xstrdup(n->name);
                for (size_t k = 0; k < labels.n; k++) {
                    char *eq = strchr(labels.v[k], '=');
                    *eq = '\0';
                    kv_set(&fi->labels, labels.v[k], eq + 1);
                    *eq = '=';
                }
            }
            (*shown)++;
        }
        strbuf_clear(&text);
    }
    free(where);
    strbuf_clear(&yaml); strbuf_clear(&tyaml);
    strvec_clear(&ids); strvec_clear(&names); strvec_clear(&labels);
    explain_edit_end(&d);
}

static void fixes_selector(Ctx *x)
{
    size_t shown = 0;
    Strvec seen = STRVEC_INIT;
    /* nodes that could hold the pod, those that are closest to fitting first */
    for (int cls = CL_FITS; cls <= CL_CORDONED && shown < 2; cls++)
        for (size_t i = 0; i < x->e->nnodes && shown < 2; i++)
            if (x->flags[i].could_hold && !x->flags[i].sel_ok && (int)x->flags[i].cls == cls)
                fix_selector_for(x, x->e->nodes[i].node, &shown, &seen);
    strvec_clear(&seen);
    Strvec pins = STRVEC_INIT;
    for (size_t t = 0; t < x->p->naffinity_terms; t++)
        for (size_t k = 0; k < x->p->affinity_terms[t].match_fields.n; k++) {
            const SelReq *r = &x->p->affinity_terms[t].match_fields.reqs[k];
            for (size_t v = 0; v < r->nvalues; v++)
                if (!strvec_contains(&pins, r->values[v])) strvec_push(&pins, r->values[v]);
        }
    if (pins.n) {
        Strbuf sb = STRBUF_INIT;
        explain_add_names(&sb, &pins);
        strvec_pushf(&x->e->notes, "a node affinity term pins the pod by matchFields metadata.name to %s, and no such "
                     "node could hold it (DaemonSet pods wait for their own node)", strbuf_str(&sb));
        strbuf_clear(&sb);
    }
    strvec_clear(&pins);
}

/* ---------------------------------------------------------------- node-side changes */

static bool ignore_no_plugin(const NodeReason *r) { return r->code == NR_NO_DEVICE_PLUGIN; }
static bool ignore_not_ready(const NodeReason *r)
{
    return r->code == NR_NOT_READY ||
           (r->code == NR_UNTOLERATED_TAINT && str_starts_with(r->key, "node.kubernetes.io/") &&
            !str_eq(r->key, "node.kubernetes.io/unschedulable"));
}
static bool ignore_cordon(const NodeReason *r) { return r->code == NR_UNSCHEDULABLE; }
static bool ignore_capacity(const NodeReason *r) { return r->code == NR_EXCEEDS_NODE_CAPACITY; }

static void fixes_node_side(Ctx *x, NodeClass cls)
{
    size_t shown = 0;
    for (size_t i = 0; i < x->e->nnodes && shown < MAX_FIXES_PER_KIND; i++) {
        if (!x->flags[i].admits || !x->flags[i].could_hold || x->flags[i].cls != cls) continue;
        const NodeResult *r = &x->e->nodes[i];
        const NodeFacts *f = &x->ix->nodes[i];
        const Node *n = r->node;
        FixInfo *fi = NULL;
        if (cls == CL_NO_PLUGIN && explain_node_plugin_would_offer(x->c, n, x->gpu) && explain_fits_on_ignoring(x, n, ignore_no_plugin)) {
            const NodeReason *nd = explain_find_code(r, NR_NO_DEVICE_PLUGIN, NULL);
            fi = explain_fix_add(x, EFFORT_CLUSTER, "node %s has GPUs (%s) but advertises no GPU resource: once the NVIDIA device "
                         "plugin runs there, the pod fits it.  Check it:\n  kubectl get pods -A -o wide --field-selector "
                         "spec.nodeName=%s | grep -i device-plugin", n->name, nd ? nd->detail : "GFD labels", n->name);
            if (fi) {
                fi->advertise = xstrdup(x->gpu);
                fi->advertise_count = f->physical > 0 ? f->physical : explain_milli_units(x->gpu_req);
            }
        } else if (cls == CL_NOT_READY && explain_fits_on_ignoring(x, n, ignore_not_ready)) {
            const NodeReason *nr = explain_find_code(r, NR_NOT_READY, NULL);
            fi = explain_fix_add(x, EFFORT_CLUSTER, "node %s is NotReady%s%s%s: once it is Ready the pod fits there (kubectl "
                         "describe node %s; check its kubelet)", n->name, nr && nr->detail ? " (" : "",
                         nr && nr->detail ? nr->detail : "", nr && nr->detail ? ")" : "", n->name);
            if (fi) fi->make_ready = true;
        } else if (cls == CL_CORDONED && explain_fits_on_ignoring(x, n, ignore_cordon)) {
            fi = explain_fix_add(x, EFFORT_CLUSTER, "uncordon node %s if its maintenance is over; the pod then fits there:\n"
                         "  kubectl uncordon %s", n->name, n->name);
            if (fi) fi->uncordon = true;
        } else if (cls == CL_TOO_SMALL && f->physical > 0 && explain_fits_on_ignoring(x, n, ignore_capacity)) {
            const NodeReason *ex = explain_find_code(r, NR_EXCEEDS_NODE_CAPACITY, NULL);
            fi = explain_fix_add(x, EFFORT_CLUSTER, "node %s has %d physical GPUs but advertises %lld %s: once the device plugin "
                         "advertises them all (unhealthy GPU? kubectl describe node %s), the pod fits there", n->name,
                         f->physical, ex ? (long long)explain_milli_units(ex->allocatable) : 0LL, x->gpu, n->name);
            if (fi) { fi->advertise = xstrdup(x->gpu); fi->advertise_count = f->physical; }
        }
        if (fi) { fi->fits_on = xstrdup(n->name); fi->node = xstrdup(n->name); shown++; }
    }
}

/* ---------------------------------------------------------------- by verdict */

static void fixes_gated(Ctx *x)
{
    const Pod *p = x->p;
    bool kueue = false;
    const PodMore *m = pod_more(p);
    for (size_t i = 0; i < m->ngates; i++) kueue |= strstr(m->gates[i], "kueue") != NULL;
    if (kueue)
        explain_fix_add(x, EFFORT_NONE, "the gate belongs to Kueue: the workload waits for admission in its queue "
                "(kubectl get workloads -n %s)", p->ns);
    /* the same for every pod of the intent: searched once */
    ExplainShared *sh = x->e->shared;
    const Node *n;
    if (sh && sh->ungated_done) {
        n = sh->ungated_fit;
    } else {
        PodEdit d;
        explain_edit_begin(&d, p);
        n = explain_recheck_fits(x, &d.q, NULL);
        explain_edit_end(&d);
        if (sh) { sh->ungated_done = true; sh->ungated_fit = n; }
    }
    char *where = n ? xasprintf("it would then fit node %s", n->name) : xstrdup("no node has room for it now");
    FixInfo *fi = explain_fix_add(x, EFFORT_POD, "the controller that added the gates removes them when it admits the pod (%s); "
                          "to release it by hand:\n  kubectl patch pod %s -n %s --type json -p "
                          "'[{\"op\":\"remove\",\"path\":\"/spec/schedulingGates\"}]'", where, p->name, p->ns);
    if (fi && n) fi->fits_on = xstrdup(n->name);
    free(where);
}

void explain_fixes_for_verdict(Ctx *x)
{
    switch (x->e->verdict) {
    case V_GATED: fixes_gated(x); break;
    case V_TAINT: fixes_taint(x); break;
    case V_SELECTOR: fixes_selector(x); break;
    case V_TOO_LARGE: explain_fix_split(x, ""); break;
    case V_INSUFFICIENT: case V_FRAGMENTED:
        if (x->e->verdict == V_FRAGMENTED) explain_fix_split(x, "");
        explain_fixes_busy(x);
        if (x->e->verdict == V_INSUFFICIENT && !x->nfixes) explain_fix_split(x, "");
        explain_fixes_resource_name(x, true);
        break;
    case V_NO_DEVICE_PLUGIN: explain_fixes_resource_name(x, false); break;
    case V_RESOURCE_NAME: explain_fixes_resource_name(x, false); break;
    default: break;
    }
    explain_platform_fixes(x);         /* explain_platform.c: GKE's own way to ask for MIG */
    /* every node-side change that makes a node of E take the pod (verdict aside) */
    if (x->e->verdict != V_GATED && x->e->verdict != V_QUOTA)
        for (int cls = CL_NO_PLUGIN; cls <= CL_CORDONED; cls++) fixes_node_side(x, (NodeClass)cls);
    /* nothing else fits: the nodes its selector excludes that could hold it */
    if (!x->nfixes && x->e->verdict != V_SELECTOR && x->e->verdict != V_GATED && x->e->verdict != V_QUOTA &&
        x->e->verdict != V_UNKNOWN)
        fixes_selector(x);
}
