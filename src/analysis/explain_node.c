/* explain_node.c — one node against one pod: the per-node facts computed once per cluster
 * (ExplainIndex), every reason that stops the pod on the node, and what those reasons mean for
 * the verdict (NodeFlags).  "Relief" lets the fix re-check evaluate the same node with some
 * pods treated as ended, through the very same code.
 */
#include "explain_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNSCHEDULABLE_TAINT "node.kubernetes.io/unschedulable"

/* ---------------------------------------------------------------- the index */

bool explain_node_mig_invalid(const Node *n)
{
    return n->gpu.product && strstr(n->gpu.product, "-MIG-INVALID") != NULL;
}

/* The GPU resource names the NVIDIA device plugin would advertise on n once it runs, as it is
 * configured for n: a -MIG-INVALID node advertises nothing; a GPU without MIG (MIG capability
 * no: mig_capability.h) no nvidia.com/mig-*; the mixed strategy advertises
 * nvidia.com/mig-<profile> for each mig-<profile>.count label and no nvidia.com/gpu for them;
 * otherwise nvidia.com/gpu, or nvidia.com/gpu.shared where the node's sharing is renamed
 * (renameByDefault): read from GFD's sharing labels (a -SHARED product suffix means not
 * renamed), else from the device-plugin config the node runs (dpconfig_sharing_config).  A
 * name the signals cannot settle counts as offered. */
bool explain_node_plugin_would_offer(const Cluster *c, const Node *n, const char *res)
{
    if (explain_node_mig_invalid(n)) return false;
    if (resources_is_mig(res)) {
        if (mig_capability(n).capable == MIG_CAP_NO) return false;
        if (n->gpu.mig_strategy != MIG_MIXED || !n->gpu.nmig) return n->gpu.mig_strategy == MIG_MIXED;
        const char *prof = res + strlen("nvidia.com/mig-");
        for (size_t i = 0; i < n->gpu.nmig; i++)
            if (str_eq(n->gpu.mig[i].profile, prof)) return true;
        return false;
    }
    if (n->gpu.mig_strategy == MIG_MIXED && n->gpu.nmig) return false;
    bool known = n->gpu.has_sharing_labels || n->gpu.sharing != SHARING_NONE;
    bool renamed = n->gpu.sharing != SHARING_NONE && !(n->gpu.product && strstr(n->gpu.product, "-SHARED"));
    SharingConfig cfg;
    if (!known && c && dpconfig_sharing_config(c, n, &cfg)) {
        known = true;
        renamed = cfg.strategy != SHARING_NONE && cfg.renamed;
    }
    if (str_eq(res, "nvidia.com/gpu.shared")) return renamed;
    if (str_eq(res, "nvidia.com/gpu")) return !(known && renamed);
    return true;
}

static int64_t label_mib(const Node *n)
{
    /* GFD nvidia.com/gpu.memory is per GPU in MiB; under MIG single it is the slice's */
    if (n->gpu.mig_strategy == MIG_SINGLE && n->gpu.mig_single_profile) return 0;
    return n->gpu.memory_mib;
}

static void index_by_resource(ExplainIndex *ix)
{
    const Cluster *c = ix->c;
    ix->by_res = xcalloc(1, sizeof *ix->by_res);     /* non-NULL even with no GPU resource */
    for (size_t i = 0; i < c->nnodes; i++) {
        const ResourceList *a = &c->nodes[i].allocatable;
        for (size_t j = 0; j < a->n; j++) {
            if (!resources_is_gpu(a->items[j].name) || a->items[j].milli <= 0) continue;
            size_t r = 0;
            while (r < ix->nres && !str_eq(ix->by_res[r].name, a->items[j].name)) r++;
            if (r == ix->nres) {
                ix->by_res = xrealloc(ix->by_res, (ix->nres + 1) * sizeof *ix->by_res);
                memset(&ix->by_res[r], 0, sizeof *ix->by_res);
                ix->by_res[r].name = a->items[j].name;
                ix->nres++;
            }
            ResNodes *rn = &ix->by_res[r];
            size_t cap = rn->nodes.cap;
            ARRAY_GROW(rn->nodes.v, rn->nodes.n, rn->nodes.cap);
            if (rn->nodes.cap != cap) rn->alloc = xrealloc(rn->alloc, rn->nodes.cap * sizeof *rn->alloc);
            rn->alloc[rn->nodes.n] = a->items[j].milli;
            rn->nodes.v[rn->nodes.n++] = i;
        }
    }
}

static const ResNodes empty_res;

void explain_cands_begin(NodeCands *it, const ExplainIndex *ix, const Pod *q)
{
    memset(it, 0, sizeof *it);
    it->ix = ix;
    if (!ix->by_res) return;
    for (size_t i = 0; i < q->requests.n && !it->rn; i++) {
        const ResourceEntry *re = &q->requests.items[i];
        if (!resources_is_gpu(re->name) || re->milli <= 0) continue;
        it->rn = &empty_res;               /* no node advertises it: nowhere to fit */
        it->need = re->milli;
        for (size_t r = 0; r < ix->nres; r++)
            if (str_eq(ix->by_res[r].name, re->name)) it->rn = &ix->by_res[r];
    }
}

const Node *explain_cands_next(NodeCands *it)
{
    const Cluster *c = it->ix->c;
    if (!it->rn) return it->at < c->nnodes ? &c->nodes[it->at++] : NULL;
    while (it->at < it->rn->nodes.n) {
        size_t k = it->at++;
        if (it->rn->alloc[k] >= it->need) return &c->nodes[it->rn->nodes.v[k]];
    }
    return NULL;
}

ExplainIndex *explain_index_new(const Cluster *c)
{
    ExplainIndex *ix = xcalloc(1, sizeof *ix);
    ix->c = c;
    ix->n = c->nnodes;
    ix->nodes = c->nnodes ? xcalloc(c->nnodes, sizeof *ix->nodes) : NULL;
    for (size_t i = 0; i < c->nnodes; i++) {
        NodeFacts *f = &ix->nodes[i];
        const Node *n = &c->nodes[i];
        f->node = n;
        f->physical = inventory_physical_gpus(n);
        if (f->physical <= 0) f->physical = node_is_gpu_node(n) ? -1 : 0;
        f->migcap = mig_capability(n);
        f->mig = f->migcap.capable == MIG_CAP_NO ? NULL : f->migcap.model;   /* mig.capable=false: no MIG
                                                                                 fixes there */
        f->gpu_mem_mib = label_mib(n);
        if (!f->gpu_mem_mib && f->mig) f->gpu_mem_mib = f->mig->memory_mib;
    }
    for (size_t i = 0; i < c->npods; i++) {
        const Pod *q = &c->pods[i];
        const char *name = q->node_name ? q->node_name : pod_more(q)->nominated_node;
        const Node *n = name ? cluster_find_node(c, name) : NULL;
        if (!n) continue;
        NodeFacts *f = &ix->nodes[cluster_node_index(c, n)];
        IdxVec *v = q->node_name ? &f->bound : &f->nominated;
        ARRAY_GROW(v->v, v->n, v->cap);
        v->v[v->n++] = i;
    }
    ix->events = explain_events_new(c);
    explain_intents_init(ix);
    if (ix->intents) index_by_resource(ix);
    if (ix->intents) ix->sched_memo = xcalloc(1, sizeof *ix->sched_memo);   /* plain: every message parsed */
    return ix;
}

void explain_index_free(ExplainIndex *ix)
{
    if (!ix) return;
    explain_events_free(ix->events);
    explain_intents_clear(ix);
    if (ix->sched_memo) {
        if (ix->sched_memo->text) schedmsg_clear(&ix->sched_memo->m);
        free(ix->sched_memo->text);
        free(ix->sched_memo);
    }
    for (size_t r = 0; r < ix->nres; r++) { free(ix->by_res[r].nodes.v); free(ix->by_res[r].alloc); }
    free(ix->by_res);
    for (size_t i = 0; i < ix->n; i++) { free(ix->nodes[i].bound.v); free(ix->nodes[i].nominated.v); }
    free(ix->nodes);
    free(ix);
}

const NodeFacts *explain_node_facts(const ExplainIndex *ix, const Node *n)
{
    return &ix->nodes[cluster_node_index(ix->c, n)];
}

/* ---------------------------------------------------------------- free resources */

static bool pod_is_nominated_competitor(const Pod *q, const Pod *p, const Node *n)
{
    /* by name: the fix re-check evaluates a modified copy of the pod */
    return q != p && !(str_eq(q->ns, p->ns) && str_eq(q->name, p->name)) && !q->node_name && pod_more(q)->nominated_node && str_eq(pod_more(q)->nominated_node, n->name) &&
           q->phase == PHASE_PENDING && q->priority >= p->priority;
}

static bool relief_ended(const Relief *rl, const Pod *q)
{
    for (size_t i = 0; rl && i < rl->nended; i++) if (rl->ended[i] == q) return true;
    return false;
}

int64_t explain_node_free_relief(const ExplainIndex *ix, const Node *n, const Pod *p, const char *resource, const Relief *rl)
{
    const Cluster *c = ix->c;
    int64_t free_ = rlist_get(&n->allocatable, resource);
    const NodeUsage *u = cluster_node_usage(c, n);
    if (u) free_ -= rlist_get(&u->requested, resource);
    const NodeFacts *f = explain_node_facts(ix, n);
    for (size_t k = 0; k < f->nominated.n; k++) {
        const Pod *q = &c->pods[f->nominated.v[k]];
        if (pod_is_nominated_competitor(q, p, n) && !relief_ended(rl, q)) free_ -= rlist_get(&q->requests, resource);
    }
    for (size_t i = 0; rl && i < rl->nended; i++) {
        const Pod *q = rl->ended[i];
        if (str_eq(q->node_name, n->name) && pod_holds_resources(q)) free_ += rlist_get(&q->requests, resource);
    }
    return free_;
}

int64_t explain_node_free_for(const Cluster *c, const Node *n, const Pod *p, const char *resource)
{
    ExplainIndex *ix = explain_index_new(c);
    int64_t v = explain_node_free_relief(ix, n, p, resource, NULL);
    explain_index_free(ix);
    return v;
}

/* ---------------------------------------------------------------- reasons */

static NodeReason *add_reason(NodeResult *r, NodeReasonCode code)
{
    r->reasons = xrealloc(r->reasons, (r->nreasons + 1) * sizeof *r->reasons);
    NodeReason *x = &r->reasons[r->nreasons++];
    memset(x, 0, sizeof *x);
    x->code = code;
    return x;
}

static int cmp_hold(const void *a, const void *b)
{
    const PodHold *x = a, *y = b;
    if (x->milli != y->milli) return x->milli > y->milli ? -1 : 1;
    int c = strcmp(x->pod->ns, y->pod->ns);
    return c ? c : strcmp(x->pod->name, y->pod->name);
}

static void add_holders(const ExplainIndex *ix, const Node *n, const Pod *p, const char *res, const Relief *rl,
                        NodeReason *x)
{
    const NodeFacts *f = explain_node_facts(ix, n);
    /* gathered where they fit (on the stack for a node's usual few), then one exact array: a
     * realloc per holder was a fifth of a node's evaluation on the training cluster */
    PodHold local[32], *h = local;
    size_t cap = f->nominated.n + f->bound.n, k = 0;
    if (cap > sizeof local / sizeof *local) h = xcalloc(cap, sizeof *h);
    /* pods nominated to the node with at least p's priority hold their request too (the
     * scheduler reserves it for them): named with the bound ones */
    for (size_t i = 0; i < f->nominated.n; i++) {
        const Pod *q = &ix->c->pods[f->nominated.v[i]];
        if (!pod_is_nominated_competitor(q, p, n) || relief_ended(rl, q)) continue;
        int64_t m = rlist_get(&q->requests, res);
        if (m > 0) h[k++] = (PodHold){ q, m, true };
    }
    for (size_t i = 0; i < f->bound.n; i++) {
        const Pod *q = &ix->c->pods[f->bound.v[i]];
        if (!pod_holds_resources(q) || relief_ended(rl, q)) continue;
        int64_t m = rlist_get(&q->requests, res);
        if (m > 0) h[k++] = (PodHold){ q, m, false };
    }
    if (k) {
        x->holders = xrealloc(x->holders, (x->nholders + k) * sizeof *x->holders);
        memcpy(x->holders + x->nholders, h, k * sizeof *h);
        x->nholders += (uint32_t)k;
    }
    if (h != local) free(h);
    if (!ix->rows) explain_node_sort_holders(x);   /* rows: the verdict sorts the few it names */
}

void explain_node_sort_holders(NodeReason *x)
{
    if (x->nholders > 1) qsort(x->holders, x->nholders, sizeof *x->holders, cmp_hold);
}

static char *no_plugin_detail(const Node *n)
{
    const char *state = n->gpu.mig_config_state, *dp = kv_get(&n->labels, "nvidia.com/gpu.deploy.device-plugin");
    Strbuf sb = STRBUF_INIT;
    if (n->gpu.product && n->gpu.product_label)      /* named by a cloud's label (cloud_gpus.h) */
        strbuf_addf(&sb, "label %s=%s: %s", n->gpu.product_label,
                    kv_get(&n->labels, n->gpu.product_label) ? kv_get(&n->labels, n->gpu.product_label) : "?",
                    n->gpu.product);
    else if (n->gpu.product) strbuf_addf(&sb, "GFD labels: %d x %s", n->gpu.count, n->gpu.product);
    else strbuf_addf(&sb, "%s=%s", n->gpu.present_label ? n->gpu.present_label : "nvidia.com/gpu.present",
                     n->gpu.present_label && kv_get(&n->labels, n->gpu.present_label)
                     ? kv_get(&n->labels, n->gpu.present_label) : "true");
    if (state && !str_eq(state, "success"))
        strbuf_addf(&sb, "; MIG reconfiguration %s (nvidia.com/mig.config=%s)", state,
                    n->gpu.mig_config ? n->gpu.mig_config : "?");
    if (dp && !str_eq(dp, "true")) strbuf_addf(&sb, "; nvidia.com/gpu.deploy.device-plugin=%s", dp);
    if (n->gpu.product && strstr(n->gpu.product, "-MIG-INVALID"))
        strbuf_adds(&sb, "; the MIG configuration is invalid (GFD product -MIG-INVALID): mig-parted must apply a valid one");
    return strbuf_detach(&sb);
}


static void toleration_text(const Toleration *t, Strbuf *sb)
{
    bool exists = str_eq(t->op, "Exists");
    strbuf_addf(sb, "%s%s%s%s%s", t->key ? t->key : "*", !exists && t->value && *t->value ? "=" : "",
                !exists && t->value ? t->value : "", t->effect && *t->effect ? ":" : "",
                t->effect && *t->effect ? t->effect : "");
}

/* The pod's toleration that misses taint t by one field (same key and value, another effect;
 * same key and effect, another value; same value and effect, another key), and how: "toleration
 * dedicated=train:NoSchedule has value train, the taint training".  NULL when none is that close. */
static char *taint_near_miss(const Pod *p, const Taint *t)
{
    const char *tv = t->value ? t->value : "";
    for (size_t i = 0; i < pod_more(p)->ntolerations; i++) {
        const Toleration *o = &pod_more(p)->tolerations[i];
        if (!o->key) continue;                         /* tolerates every key: not a near miss */
        bool exists = str_eq(o->op, "Exists");
        bool key_ok = str_eq(o->key, t->key);
        bool value_ok = exists || str_eq(o->value ? o->value : "", tv);
        bool effect_ok = !o->effect || !*o->effect || str_eq(o->effect, t->effect);
        const char *what = NULL, *have = NULL, *want = NULL;
        if (key_ok && value_ok && !effect_ok) { what = "effect"; have = o->effect; want = t->effect; }
        else if (key_ok && !value_ok && effect_ok) { what = "value"; have = o->value ? o->value : ""; want = tv; }
        else if (!key_ok && !exists && *tv && value_ok && effect_ok) { what = "key"; have = o->key; want = t->key; }
        if (!what) continue;
        Strbuf sb = STRBUF_INIT;
        strbuf_adds(&sb, "toleration ");
        toleration_text(o, &sb);
        strbuf_addf(&sb, " has %s %s%s%s, the taint %s", what, *have ? "" : "\"", have, *have ? "" : "\"", want);
        return strbuf_detach(&sb);
    }
    return NULL;
}

void explain_node_relief(const ExplainIndex *ix, const Pod *p, const Node *n, const Relief *rl, NodeResult *out)
{
    const Cluster *c = ix->c;
    const NodeFacts *f = explain_node_facts(ix, n);
    out->node = n;
    if (n->unschedulable) {
        Taint t = { (char *)UNSCHEDULABLE_TAINT, NULL, (char *)"NoSchedule" };
        if (!explain_pod_tolerates_taint(p, &t)) add_reason(out, NR_UNSCHEDULABLE);
    }
    if (!n->ready) {
        NodeReason *x = add_reason(out, NR_NOT_READY);
        x->detail = xstrdup(n->not_ready_reason);
    }
    for (size_t i = 0; i < n->ntaints; i++) {
        const Taint *t = &n->taints[i];
        if (!str_eq(t->effect, "NoSchedule") && !str_eq(t->effect, "NoExecute")) continue;
        if (n->unschedulable && str_eq(t->key, UNSCHEDULABLE_TAINT)) continue;   /* reported as Unschedulable */
        if (explain_pod_tolerates_taint(p, t)) continue;
        NodeReason *x = add_reason(out, NR_UNTOLERATED_TAINT);
        x->key = xstrdup(t->key);
        x->value = xstrdup(t->value ? t->value : "");
        x->effect = xstrdup(t->effect);
        x->detail = taint_near_miss(p, t);
    }
    /* labels are kept for GPU nodes only (cluster.h): other nodes cannot be judged on them */
    if (node_is_gpu_node(n) || n->labels.n) {
        char *why = NULL;
        if (!explain_node_selector_matches(p, n, &why)) add_reason(out, NR_NODE_SELECTOR_MISMATCH)->detail = why;
        why = NULL;
        if (!explain_node_affinity_matches(p, n, &why)) add_reason(out, NR_NODE_AFFINITY_MISMATCH)->detail = why;
    }
    const NodeUsage *u = cluster_node_usage(c, n);
    int64_t max_pods = rlist_get(&n->allocatable, "pods");
    if (max_pods > 0 && u) {
        int64_t used = (int64_t)u->pods * 1000;
        for (size_t k = 0; k < f->nominated.n; k++)
            if (pod_is_nominated_competitor(&c->pods[f->nominated.v[k]], p, n) &&
                !relief_ended(rl, &c->pods[f->nominated.v[k]])) used += 1000;
        for (size_t k = 0; rl && k < rl->nended; k++)
            if (str_eq(rl->ended[k]->node_name, n->name) && pod_holds_resources(rl->ended[k])) used -= 1000;
        if (used + 1000 > max_pods) {
            NodeReason *x = add_reason(out, NR_TOO_MANY_PODS);
            x->resource = xstrdup("pods");
            x->requested = 1000;
            x->free = max_pods - used;
            x->allocatable = max_pods;
        }
    }
    for (size_t i = 0; i < p->requests.n; i++) {
        const ResourceEntry *re = &p->requests.items[i];
        if (re->milli <= 0 || explain_hami_ignored(ix, re->name)) continue;     /* explain_hami.c */
        int64_t alloc = rlist_get(&n->allocatable, re->name);
        if (resources_is_gpu(re->name) && alloc <= 0) {
            Strvec adv = STRVEC_INIT;
            for (size_t j = 0; j < n->allocatable.n; j++)
                if (resources_is_gpu(n->allocatable.items[j].name) && n->allocatable.items[j].milli > 0)
                    strvec_push(&adv, n->allocatable.items[j].name);
            NodeReason *x;
            if (adv.n) {
                x = add_reason(out, NR_RESOURCE_NOT_ADVERTISED);
                x->advertised = adv;
            } else {
                strvec_clear(&adv);
                if (n->gpu.has_gfd || n->gpu.present) {
                    x = add_reason(out, NR_NO_DEVICE_PLUGIN);
                    x->detail = no_plugin_detail(n);
                } else {
                    x = add_reason(out, NR_EXCEEDS_NODE_CAPACITY);
                }
            }
            x->resource = xstrdup(re->name);
            x->requested = re->milli;
            continue;
        }
        int64_t free_ = explain_node_free_relief(ix, n, p, re->name, rl);
        if (re->milli > alloc) {
            NodeReason *x = add_reason(out, NR_EXCEEDS_NODE_CAPACITY);
            x->resource = xstrdup(re->name);
            x->requested = re->milli; x->allocatable = alloc; x->free = free_;
        } else if (re->milli > free_) {
            NodeReason *x = add_reason(out, NR_INSUFFICIENT);
            x->resource = xstrdup(re->name);
            x->requested = re->milli; x->allocatable = alloc; x->free = free_;
            add_holders(ix, n, p, re->name, rl, x);
        }
    }
}

void explain_node_drop_holders(NodeResult *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < r[i].nreasons; k++) {
            free(r[i].reasons[k].holders);
            r[i].reasons[k].holders = NULL;
            r[i].reasons[k].nholders = 0;
        }
}

void explain_node(const Cluster *c, const Pod *p, const Node *n, NodeResult *out)
{
    ExplainIndex *ix = explain_index_new(c);
    explain_node_relief(ix, p, n, NULL, out);
    explain_index_free(ix);
}

void explain_node_indexed(const ExplainIndex *ix, const Pod *p, const Node *n, NodeResult *out)
{
    explain_node_relief(ix, p, n, NULL, out);
}

/* ---------------------------------------------------------------- what the reasons mean */

bool explain_mig_profile_size(const char *profile, int *compute, int *mem_gb)
{
    if (!profile) return false;
    if (str_starts_with(profile, "nvidia.com/")) profile += strlen("nvidia.com/");
    if (str_starts_with(profile, "mig-")) profile += 4;
    int c = 0, m = 0, used = 0;
    /* "<digits>g.<digits>gb" read by hand (this runs per node and pending intent); anything else
     * (signs, spaces, long numbers) by sscanf as before */
    const char *q = profile;
    int nc = 0, nm = 0;
    while (*q >= '0' && *q <= '9' && nc < 9) { c = c * 10 + (*q++ - '0'); nc++; }
    bool plain = nc > 0 && nc < 9 && q[0] == 'g' && q[1] == '.';
    if (plain) {
        q += 2;
        while (*q >= '0' && *q <= '9' && nm < 9) { m = m * 10 + (*q++ - '0'); nm++; }
        plain = nm > 0 && nm < 9 && q[0] == 'g' && q[1] == 'b';
    }
    if (plain) used = 1;
    else if (sscanf(profile, "%dg.%dgb%n", &c, &m, &used) != 2) return false;
    if (used <= 0 || c <= 0 || m <= 0) return false;
    *compute = c;
    *mem_gb = m;
    return true;
}

/* MIG devices of at least `profile`'s size one GPU of this node can hold: the plain profile
 * of the node's model with the fewest compute slices at least as large (compute and memory),
 * and its instances per GPU.  0 when the GPUs cannot hold MIG devices (mig_capability.h: never
 * judged from memory size), -1 when that or the model is unknown. */
static int mig_per_gpu(const NodeFacts *f, const char *profile)
{
    int c, m;
    if (!explain_mig_profile_size(profile, &c, &m)) return -1;
    if (f->migcap.capable == MIG_CAP_NO) return 0;
    if (!f->mig) return -1;
    const MigProfile *best = NULL;
    for (size_t i = 0; i < f->mig->nprofiles; i++) {
        const MigProfile *q = &f->mig->profiles[i];
        int qc, qm;
        if (q->variant || !explain_mig_profile_size(q->name, &qc, &qm) || qc < c || qm < m) continue;
        if (!best || q->compute < best->compute || (q->compute == best->compute && q->memory_mib < best->memory_mib))
            best = q;
    }
    return best ? best->max_instances : 0;
}

/* nvidia.com/gpu units a node offers per physical GPU: a MIG single-strategy node advertises
 * each MIG device as one nvidia.com/gpu (k8s-device-plugin internal/rm: the single strategy
 * names MIG devices nvidia.com/gpu), so its GPUs hold as many as the profile fits per GPU;
 * 1 elsewhere (time-sliced and MPS replicas are no GPUs) */
static int gpu_units_per_physical(const NodeFacts *f)
{
    const Node *n = f->node;
    if (n->gpu.mig_strategy != MIG_SINGLE || !n->gpu.mig_single_profile) return 1;
    int per = mig_profile_per_gpu(f->mig, n->gpu.mig_single_profile);
    return per > 0 ? per : 1;
}

/* Could the node ever hold the pod's request, with every pod ended and the GPUs configured
 * for it?  GPU resources count what the node advertises per its strategy: physical GPUs (a
 * time-sliced or MPS replica is no GPU: N replicas may sit on one card), and on a MIG
 * single-strategy node the MIG devices its GPUs hold (each nvidia.com/gpu is one); MIG
 * resources count the devices of at least that size its GPUs can hold (none on GPUs without
 * MIG); other resources compare with allocatable. */
bool explain_node_could_hold(const NodeFacts *f, const Pod *p)
{
    const Node *n = f->node;
    for (size_t i = 0; i < p->requests.n; i++) {
        const ResourceEntry *re = &p->requests.items[i];
        if (re->milli <= 0 || str_eq(re->name, "pods")) continue;
        if (n->gpu.nhami && explain_hami_resource(re->name)) continue;   /* HAMi's: explain_hami.c */
        int64_t want = explain_milli_units(re->milli);
        if (!resources_is_gpu(re->name)) {
            if (re->milli > rlist_get(&n->allocatable, re->name)) return false;
            continue;
        }
        if (f->physical == 0) return false;
        if (f->physical < 0) continue;                 /* cannot be counted: do not call it too small */
        if (resources_is_mig(re->name)) {
            int per = mig_per_gpu(f, re->name);
            if (per >= 0 && (int64_t)per * f->physical < want) return false;
        } else if (want > (int64_t)f->physical * (str_eq(re->name, "nvidia.com/gpu") ? gpu_units_per_physical(f) : 1)) {
            return false;
        }
    }
    return true;
}

static bool state_taint(const char *key)
{
    return str_starts_with(key, "node.kubernetes.io/");   /* not-ready, unreachable, pressure: node state */
}

NodeFlags explain_node_flags(const ExplainIndex *ix, const Pod *p, const NodeResult *r)
{
    NodeFlags f = { true, true, true, true, CL_FITS };
    bool not_ready = false, cordoned = false, no_plugin = false, other_name = false, too_small = false;
    size_t rest = 0;                                   /* reasons other than the pod's intent */
    for (size_t i = 0; i < r->nreasons; i++) {
        const NodeReason *x = &r->reasons[i];
        rest++;
        switch (x->code) {
        case NR_NODE_SELECTOR_MISMATCH: case NR_NODE_AFFINITY_MISMATCH: f.sel_ok = false; rest--; break;
        case NR_UNTOLERATED_TAINT:
            if (state_taint(x->key)) not_ready = true;
            else { f.taint_ok = false; rest--; }
            break;
        case NR_NOT_READY: not_ready = true; break;
        case NR_UNSCHEDULABLE: cordoned = true; break;
        case NR_NO_DEVICE_PLUGIN:
            /* the verdict's one rule (explain_verdict.c): a node missing its device plugin is
             * NoDevicePlugin only where the plugin, as configured for the node, would advertise
             * the name asked for; where it would advertise only other names, the request is
             * offered under another name there (ResourceName) */
            if (explain_node_plugin_would_offer(ix->c, r->node, x->resource)) no_plugin = true;
            else other_name = true;
            break;
        case NR_RESOURCE_NOT_ADVERTISED: other_name = true; break;
        case NR_EXCEEDS_NODE_CAPACITY: too_small = true; break;
        default: break;
        }
    }
    f.admits = f.sel_ok && f.taint_ok;
    f.could_hold = explain_node_could_hold(explain_node_facts(ix, r->node), p);
    /* GFD writes -MIG-INVALID when the single strategy meets a mixed layout: GFD and the device
     * plugin run, and the plugin advertises nothing until mig-parted applies a valid layout.
     * That is a GPU reconfiguration (as for a resource name the node does not offer), not a
     * missing device plugin. */
    if (no_plugin && explain_node_mig_invalid(r->node)) { no_plugin = false; other_name = true; }
    f.cls = not_ready ? CL_NOT_READY : cordoned ? CL_CORDONED : no_plugin ? CL_NO_PLUGIN :
            other_name ? CL_RESOURCE_NAME : too_small ? CL_TOO_SMALL : rest ? CL_BUSY : CL_FITS;
    return f;
}

/* Does a node the filters pass give the pod what it asked for?  The scheduler counts replicas
 * and MIG slices as devices; a fix must not: N > 1 time-sliced / MPS replicas may sit on one GPU
 * (the device plugin rejects them with failRequestsGreaterThanOne), CUDA sees one MIG device per
 * process, and a MIG single-strategy node's nvidia.com/gpu is a slice: at least the profile the
 * pod first asked for (intent), or the full GPU when it asked for whole GPUs.  q is the pod as a
 * fix changed it, intent the pod as it is. */
bool explain_node_serves_request(const ExplainIndex *ix, const Pod *q, const Pod *intent, const Node *n)
{
    const NodeFacts *f = explain_node_facts(ix, n);
    const char *asked = NULL;
    for (size_t i = 0; i < intent->requests.n; i++)
        if (intent->requests.items[i].milli > 0 && resources_is_gpu(intent->requests.items[i].name)) {
            asked = intent->requests.items[i].name;
            break;
        }
    for (size_t i = 0; i < q->requests.n; i++) {
        const ResourceEntry *re = &q->requests.items[i];
        if (re->milli <= 0 || !resources_is_gpu(re->name)) continue;
        int64_t units = explain_milli_units(re->milli);
        bool shared = resources_is_shared(re->name) ||
                      (str_eq(re->name, "nvidia.com/gpu") && (n->gpu.replicas > 1 || n->gpu.sharing != SHARING_NONE));
        if (shared && units > 1) return false;
        if (resources_is_mig(re->name) && units > 1) return false;
        if (str_eq(re->name, "nvidia.com/gpu") && n->gpu.mig_strategy == MIG_SINGLE && n->gpu.mig_single_profile) {
            /* the pod as it is, on a node its own selector or affinity chose: its nvidia.com/gpu
             * are this node's MIG devices by its own choice (the verdict counts them so:
             * explain_node_could_hold).  A pod that chose no nodes is not sent to slices by a fix. */
            if (asked && str_eq(asked, re->name) && rlist_get(&intent->requests, re->name) == re->milli &&
                (pod_more(intent)->node_selector.n || intent->naffinity_terms) &&
                explain_node_selector_matches(intent, n, NULL) && explain_node_affinity_matches(intent, n, NULL))
                continue;
            int c, m, ac, am;
            if (units > 1 || !explain_mig_profile_size(n->gpu.mig_single_profile, &c, &m)) return false;
            if (asked && resources_is_mig(asked)) {
                if (!explain_mig_profile_size(asked, &ac, &am) || c < ac || m < am) return false;
            } else if (!f->mig || c < f->mig->compute_slices) {
                return false;
            }
        }
    }
    return true;
}
