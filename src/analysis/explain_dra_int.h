/* explain_dra_int.h — private to analysis/explain_dra*.c: the evaluation context of one pod
 * whose GPUs come from ResourceClaims, and the notes and fixes built from it. */
#ifndef KGPU_EXPLAIN_DRA_INT_H
#define KGPU_EXPLAIN_DRA_INT_H
#include "explain_int.h"
#include "analysis/explain_dra.h"
#include "model/dra.h"

/* one claim of the pod, resolved */
typedef struct {
    const char *pod_claim;       /* spec.resourceClaims[].name */
    const DraClaim *claim;       /* the ResourceClaim, or the template when not created yet */
    char *label;                 /* "ns/name" or "(from template ns/name)" */
    bool from_template;
} PodClaim;

typedef struct {
    const Cluster *c;
    const DraState *d;
    const Pod *p;
    Explanation *e;
    PodClaim *claims; size_t nclaims;
    size_t *devs; size_t ndevs;  /* the current node's device indices (scratch) */
    bool *taken;                 /* parallel to devs */
    bool unknown_selector;       /* a selector was not evaluated */
    char *missing_class;         /* first request naming a class that does not exist */
    char *missing_claim;         /* first claim (or template) not found or being deleted, in words */
    /* the words of each request's reasons, made once per pod, not once per node (by request,
     * in claim order): resource label, the NoMatchingDevice detail, the other reasons' detail */
    struct { char *resource, *none, *detail; } *texts; size_t ntexts;
} DraCtx;

/* per node: how many devices the busy E nodes hold free for the (single) unallocated request */
typedef struct { size_t node; int64_t freen, need; const NodeReason *r; } Busy;

/* explain_dra_notes.c */
char *explain_dra_alt_text(const DraAlternative *a);       /* "4 x class C where SEL && SEL"; caller frees */
void explain_dra_set_gpus(DraCtx *x);                      /* e->dra_gpus */
void explain_dra_claim_notes(DraCtx *x);                   /* each GPU claim as the pod asks for it */
void explain_dra_note_published(DraCtx *x);                /* what the driver publishes, free, where */
void explain_dra_note_device_plugin(DraCtx *x);            /* where the device plugin offers GPUs instead */
void explain_dra_note_idle_claims(DraCtx *x, const Node *n);   /* claims holding devices with no pod */
void explain_dra_fix_end_holders(DraCtx *x, const Busy *b);    /* the fewest pods to end on the busiest node */
#endif
