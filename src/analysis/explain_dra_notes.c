/* explain_dra_notes.c — the words of a DRA explanation (explain_dra_int.h): the claims as the
 * pod asks for them, what the driver publishes, and the fix that ends the fewest holders. */
#include "explain_dra_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *explain_dra_alt_text(const DraAlternative *a)
{
    Strbuf sb = STRBUF_INIT;
    if (str_eq(a->mode, "All")) strbuf_addf(&sb, "all devices of class %s", a->device_class ? a->device_class : "?");
    else strbuf_addf(&sb, "%lld x class %s", (long long)a->count, a->device_class ? a->device_class : "?");
    for (size_t i = 0; i < a->selectors.n; i++) strbuf_addf(&sb, "%s%s", i ? " && " : " where ", a->selectors.v[i]);
    return strbuf_detach(&sb);
}

/* "gpu.nvidia.com:4,mig.nvidia.com:1": the classes the unallocated or allocated GPU claims ask
 * for (All: "all"), for the GPUS column */
void explain_dra_set_gpus(DraCtx *x)
{
    Strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < x->nclaims; i++) {
        const DraClaim *cl = x->claims[i].claim;
        if (!cl || !cl->gpu) continue;
        for (size_t r = 0; r < cl->nrequests; r++) {
            if (!cl->requests[r].nalts) continue;
            const DraAlternative *a = &cl->requests[r].alts[0];
            if (str_eq(a->mode, "All")) strbuf_addf(&sb, "%s%s:all", sb.len ? "," : "", a->device_class ? a->device_class : "?");
            else strbuf_addf(&sb, "%s%s:%lld", sb.len ? "," : "", a->device_class ? a->device_class : "?", (long long)a->count);
        }
    }
    x->e->dra_gpus = sb.len ? strbuf_detach(&sb) : NULL;
    strbuf_clear(&sb);
}

/* notes: each GPU claim as the pod asks for it */
void explain_dra_claim_notes(DraCtx *x)
{
    for (size_t i = 0; i < x->nclaims; i++) {
        const PodClaim *pc = &x->claims[i];
        const DraClaim *cl = pc->claim;
        if (!cl) continue;
        if (!cl->gpu) {
            strvec_pushf(&x->e->notes, "claim %s asks for devices of another driver: not evaluated", pc->label);
            continue;
        }
        const char *state = cl->is_template ? "not created" : !cl->allocated ? "pending"
                          : cl->reserved_for.n ? "allocated, reserved" : "allocated";
        Strbuf sb = STRBUF_INIT;
        strbuf_addf(&sb, "claim %s (%s):", pc->label, state);
        for (size_t r = 0; r < cl->nrequests; r++) {
            const DraRequest *rq = &cl->requests[r];
            strbuf_addf(&sb, "%s request %s: ", r ? ";" : "", rq->name);
            for (size_t a = 0; a < rq->nalts; a++) {
                char *t = explain_dra_alt_text(&rq->alts[a]);
                strbuf_addf(&sb, "%s%s (%s)", a ? ", else " : "", t, rq->alts[a].mode);
                free(t);
            }
        }
        if (cl->allocated && cl->node) strbuf_addf(&sb, "; allocated on node %s", cl->node);
        strvec_push(&x->e->notes, strbuf_str(&sb));
        strbuf_clear(&sb);
    }
}

/* the claim through which pod "ns/name" holds devices on the node */
static char *holder_claim(const DraCtx *x, const char *node, const char *pod)
{
    for (size_t i = dra_node_first(x->d, node); i; i = x->d->devices[i - 1].node_next) {
        const DraDevice *v = &x->d->devices[i - 1];
        if (!v->claim) continue;
        const DraClaim *cl = &x->d->claims[v->claim - 1];
        for (size_t k = 0; k < cl->reserved_for.n; k++) {
            char *full = xasprintf("%s/%s", cl->ns, cl->reserved_for.v[k]);
            bool hit = str_eq(full, pod);
            free(full);
            if (hit) return xasprintf("%s/%s", cl->ns, cl->name);
        }
    }
    return NULL;
}

/* a note of what the driver publishes in the cluster, by product and MIG profile: how many
 * devices, how many free (not held, directly or through their GPU), and where most are free */
void explain_dra_note_published(DraCtx *x)
{
    typedef struct { char *what; int total, freen; const char *best; int best_free; } Kind;
    Kind *k = NULL;
    size_t nk = 0, cap = 0;
    for (size_t i = 0; i < x->d->ndevices; i++) {
        const DraDevice *v = &x->d->devices[i];
        if (v->stale) continue;
        char *what = v->profile ? xasprintf("%s %s", v->product ? v->product : "GPU", v->profile)
                                : xstrdup(v->product ? v->product : v->name);
        size_t j = 0;
        while (j < nk && !str_eq(k[j].what, what)) j++;
        if (j == nk) { ARRAY_GROW(k, nk, cap); k[nk++] = (Kind){ what, 0, 0, NULL, 0 }; }
        else free(what);
        k[j].total++;
        if (!dra_device_busy(x->d, v)) k[j].freen++;
    }
    /* where most of each kind are free */
    for (size_t j = 0; j < nk; j++)
        for (size_t n = 0; n < x->c->nnodes; n++) {
            int f = 0;
            for (size_t i = dra_node_first(x->d, x->c->nodes[n].name); i; i = x->d->devices[i - 1].node_next) {
                const DraDevice *v = &x->d->devices[i - 1];
                if (dra_device_busy(x->d, v)) continue;
                char *what = v->profile ? xasprintf("%s %s", v->product ? v->product : "GPU", v->profile)
                                        : xstrdup(v->product ? v->product : v->name);
                f += str_eq(what, k[j].what);
                free(what);
            }
            if (f > k[j].best_free) { k[j].best_free = f; k[j].best = x->c->nodes[n].name; }
        }
    Strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, "devices the DRA driver publishes: ");
    for (size_t j = 0; j < nk; j++) {
        strbuf_addf(&sb, "%s%d x %s (%d free", j ? "; " : "", k[j].total, k[j].what, k[j].freen);
        if (k[j].best) strbuf_addf(&sb, ", %d on %s", k[j].best_free, k[j].best);
        strbuf_addch(&sb, ')');
        free(k[j].what);
    }
    if (!nk) strbuf_adds(&sb, "none");
    strvec_push(&x->e->notes, strbuf_str(&sb));
    strbuf_clear(&sb);
    free(k);
}

void explain_dra_fix_end_holders(DraCtx *x, const Busy *b)
{
    const Node *n = &x->c->nodes[b->node];
    const NodeReason *r = b->r;
    /* the fewest holders that free enough: the ones holding most first */
    PodHold *h = xcalloc(r->nholders ? r->nholders : 1, sizeof *h);
    memcpy(h, r->holders, r->nholders * sizeof *h);
    for (size_t i = 1; i < r->nholders; i++)
        for (size_t j = i; j > 0 && h[j].milli > h[j - 1].milli; j--) { PodHold t = h[j]; h[j] = h[j - 1]; h[j - 1] = t; }
    int64_t held = 0;
    Strvec names = STRVEC_INIT;
    for (size_t i = 0; i < r->nholders && b->freen + held < b->need; i++) {
        held += h[i].milli / 1000;
        strvec_pushf(&names, "%s/%s", h[i].pod->ns, h[i].pod->name);
    }
    free(h);
    if (!names.n || b->freen + held < b->need) { strvec_clear(&names); return; }
    Strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "on node %s, end ", n->name);
    for (size_t i = 0; i < names.n; i++) {
        strbuf_addf(&sb, "%s%s", i ? ", " : "", names.v[i]);
        char *claim = holder_claim(x, n->name, names.v[i]);
        if (claim) strbuf_addf(&sb, " (claim %s)", claim);
        free(claim);
    }
    strbuf_addf(&sb, ": %lld matching device(s) held through their claims come free (%lld free then, %lld now)",
                (long long)held, (long long)(b->freen + held), (long long)b->freen);
    FixInfo fi = { 0 };
    fi.effort = EFFORT_END_PODS;
    fi.fits_on = xstrdup(n->name);
    for (size_t i = 0; i < names.n; i++) strvec_push(&fi.end_pods, names.v[i]);
    strvec_push(&x->e->fixes, strbuf_str(&sb));
    x->e->fix_info = xrealloc(x->e->fix_info, x->e->fixes.n * sizeof *x->e->fix_info);
    x->e->fix_info[x->e->fixes.n - 1] = fi;
    strbuf_clear(&sb);
    strvec_clear(&names);
}

/* claims that hold matching devices with no pod (allocated, not reserved): deleting them frees them */
void explain_dra_note_idle_claims(DraCtx *x, const Node *n)
{
    for (size_t i = dra_node_first(x->d, n->name); i; i = x->d->devices[i - 1].node_next) {
        const DraDevice *v = &x->d->devices[i - 1];
        if (!v->claim) continue;
        const DraClaim *cl = &x->d->claims[v->claim - 1];
        if (cl->reserved_for.n) continue;
        strvec_pushf(&x->e->notes, "claim %s/%s holds device %s on node %s and no pod uses it (allocated, not reserved)",
                     cl->ns, cl->name, v->name, n->name);
    }
}

/* without the DRA driver: where the device plugin offers GPUs instead */
void explain_dra_note_device_plugin(DraCtx *x)
{
    int64_t free_units = 0;
    size_t nodes = 0;
    const char *res = NULL;
    for (size_t i = 0; i < x->c->nnodes; i++) {
        const Node *n = &x->c->nodes[i];
        for (size_t k = 0; k < n->allocatable.n; k++) {
            const char *name = n->allocatable.items[k].name;
            if (!resources_is_gpu(name) || n->allocatable.items[k].milli <= 0) continue;
            if (!res) res = name;
            if (!str_eq(name, res)) continue;
            nodes++;
            int64_t f = explain_node_free_for(x->c, n, x->p, name);
            if (f > 0) free_units += f / 1000;
        }
    }
    if (res)
        strvec_pushf(&x->e->notes, "%zu node%s advertise%s %s through the device plugin (%lld free now): a request of "
                     "%s in the pod's containers, instead of the claim, is served there", nodes, nodes == 1 ? "" : "s",
                     nodes == 1 ? "s" : "", res, (long long)free_units, res);
}
