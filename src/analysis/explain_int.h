/* explain_int.h — private to analysis/explain*.c: the per-node facts computed once per
 * cluster, the per-pod evaluation context, the verdict stages and the fix re-check.
 *
 * Flow for one pod (explain.c):
 *   ExplainIndex (once per Cluster: pods per node, physical GPUs, MIG model)  explain_node.c
 *     -> NodeResult + NodeFlags for every node (once per pod)                 explain_node.c
 *     -> the first verdict stage that decides                                 explain_verdict.c
 *     -> fixes, each re-evaluated with the change applied                     explain_fixes.c
 *     -> reconciliation with the scheduler's message                          explain_reconcile.c
 * Nothing here owns Cluster objects; an Explanation borrows them (explain.h).
 *
 * Floors, top to bottom (a file calls only files on lower floors, so no file calls one that
 * calls it back: scripts/check-objects.py --loops):
 *   explain_target.c                                                   a command's target
 *   explain.c, explain_select.c                                        the entry points
 *   explain_fixes.c                                                    which fix searches run
 *   explain_fixes_busy.c, explain_fixes_size.c, explain_platform.c,   the fix searches, and the
 *     explain_verdict.c, explain_health.c, explain_dra.c (->          verdict stages
 *     explain_dra_notes.c), explain_dra_dp.c
 *   explain_edit.c                                                     the re-check's tools
 *   explain_node.c                                                     one node against one pod
 *   explain_intent.c -> explain_reconcile.c                            shared evaluations, tallies
 *   explain_codes.c, explain_hami.c, explain_filters.c,                result and name helpers
 *     explain_events.c
 */
#ifndef KGPU_EXPLAIN_INT_H
#define KGPU_EXPLAIN_INT_H
#include "analysis/explain.h"
#include "model/mig_tables.h"
#include "model/mig_capability.h"

#define MAX_NAMES 6            /* node / pod names listed in one line before "+N more" */
/* nodes a reason describes in full (why a busy or unhealthy node stops the pod) before it only
 * names the others: on a large cluster a sentence a node made reasons kilobytes long */
#define NODES_TOLD 2

typedef struct { size_t *v; size_t n, cap; } IdxVec;

/* Facts of one node that do not depend on the pod being explained. */
typedef struct {
    const Node *node;
    IdxVec bound, nominated;   /* indices into Cluster.pods: bound to / nominated to the node */
    int physical;              /* physical GPUs; -1 when they cannot be counted, 0 none */
    MigCapability migcap;      /* can its GPUs hold MIG devices, and from which signal */
    const MigGpuModel *mig;    /* the GPU model's MIG table when the product supports MIG */
    int64_t gpu_mem_mib;       /* memory of one physical GPU, 0 unknown */
} NodeFacts;

typedef struct IntentCache IntentCache;

/* The cluster's FailedScheduling and FailedCreate events by what they are about
 * (explain_events.c): built once, so a pod's lookup is not a scan of every event. */
typedef struct ExplainEvents ExplainEvents;
ExplainEvents *explain_events_new(const Cluster *c);
void explain_events_free(ExplainEvents *ev);
/* the newest FailedScheduling event about pod ns/name (the first in cluster order among
 * equally new ones), NULL if none */
const Event *explain_events_failed_scheduling(const ExplainEvents *ev, const char *ns, const char *name);
/* the first FailedCreate event in cluster order about the owner kind/name in ns, NULL if none */
const Event *explain_events_failed_create(const ExplainEvents *ev, const char *ns, const char *kind, const char *name);
/* whether FailedCreate event e is the newest about its object (the first among equals) */
bool explain_events_newest_create(const ExplainEvents *ev, const Event *e);

/* The nodes that advertise one GPU resource (allocatable > 0), in cluster order, with that
 * allocatable: a pod asking for the resource can fit nowhere else (any other node gives it
 * ResourceNotAdvertised, NoDevicePlugin or ExceedsNodeCapacity). */
typedef struct { const char *name; IdxVec nodes; int64_t *alloc; } ResNodes;

typedef struct SchedMemo { char *text; SchedMessage m; } SchedMemo;

struct ExplainIndex {
    const Cluster *c;
    NodeFacts *nodes;          /* parallel to c->nodes */
    size_t n;
    IntentCache *intents;      /* intent key -> ExplainShared (explain_intent.c); NULL: plain */
    ResNodes *by_res;          /* one per GPU resource name advertised; NULL: plain (every node */
    size_t nres;               /* visited, KGPU_EXPLAIN_PLAIN=1) */
    ExplainEvents *events;     /* the cluster's events by object (explain_events.c) */
    int hami;                  /* explain_platform.c's cache: 0 not looked, 1 no HAMi node, 2 some */
    bool rows;                 /* explain_pending_rows: no fixes, no node described, so an
                                  intent's evaluation keeps no holders once its verdict is made,
                                  and they are not sorted until then (explain_node_sort_holders) */
    SchedMemo *sched_memo;     /* the last scheduler message parsed, and its parse (explain.c) */
    const Pod *keyed;          /* the pending walk's next pod, and its intent key as the walk */
    const char *keyed_key;     /* made it (explain_intent_key): not made a second time */
};

/* The nodes where q could fit at all, for the fix searches: indices into c->nodes in cluster
 * order (explain_cands_next), skipping nodes whose allocatable of q's GPU resource is below the
 * request.  Without an index (plain) every node is visited. */
typedef struct { const ExplainIndex *ix; const ResNodes *rn; int64_t need; size_t at; } NodeCands;
void explain_cands_begin(NodeCands *it, const ExplainIndex *ix, const Pod *q);
const Node *explain_cands_next(NodeCands *it);

/* What a fix changes on the cluster side, for the re-check: pods treated as ended (their
 * requests freed on their node, not counted as pods).  Pod-side changes are a modified copy
 * of the Pod (explain_edit.c). */
typedef struct { const Pod **ended; size_t nended; } Relief;

/* Per node, per pod: what the reasons mean for the verdict. */
typedef enum {                 /* the node's most severe blocker (node-level order) */
    CL_FITS, CL_BUSY, CL_NO_PLUGIN, CL_RESOURCE_NAME, CL_TOO_SMALL, CL_NOT_READY, CL_CORDONED
} NodeClass;

typedef struct {
    bool sel_ok;               /* nodeSelector and required node affinity admit the node */
    bool taint_ok;             /* every NoSchedule/NoExecute taint other than node state is tolerated */
    bool admits;               /* sel_ok && taint_ok: the pod's own constraints admit the node */
    bool could_hold;           /* physical GPUs / MIG profile sizes / non-GPU allocatable suffice */
    NodeClass cls;
} NodeFlags;

typedef struct {
    FixInfo info; char *text;
    bool split;                /* "split the work into smaller pods": for a training workload
                                  listed after moving and waiting (explain_fixes_flush) */
} FixItem;

typedef struct {
    const Cluster *c;
    const ExplainIndex *ix;
    const Pod *p;
    Explanation *e;
    NodeFlags *flags;          /* parallel to e->nodes */
    const char *gpu;           /* the (first) GPU resource requested */
    int64_t gpu_req;           /* its milli-units */
    FixItem *fixes; size_t nfixes, capfixes;
} Ctx;

/* explain_filters.c */
bool explain_is_bytes_resource(const char *res);
void explain_fmt_amount(const char *res, int64_t milli, char *buf, size_t n);
int64_t explain_milli_units(int64_t milli);
void explain_add_names(Strbuf *sb, const Strvec *names);

/* explain_node.c */
int64_t explain_node_free_relief(const ExplainIndex *ix, const Node *n, const Pod *p, const char *resource,
                         const Relief *rl);
void explain_node_relief(const ExplainIndex *ix, const Pod *p, const Node *n, const Relief *rl,
                         NodeResult *out);
/* an Insufficient reason's holders in the order they are named (the largest first, then by
 * namespace and name).  explain_node_relief leaves them so, except with ix->rows: there they
 * are gathered unsorted (5,000 sorts an intent on a full cluster, for the few names its
 * verdict prints) and whoever names them sorts them first */
void explain_node_sort_holders(NodeReason *x);
/* free the holders of n results' Insufficient reasons (explain_pending_rows, once the verdict is made) */
void explain_node_drop_holders(NodeResult *r, size_t n);
NodeFlags explain_node_flags(const ExplainIndex *ix, const Pod *p, const NodeResult *r);
bool explain_node_could_hold(const NodeFacts *f, const Pod *p);
bool explain_node_mig_invalid(const Node *n);
/* would the node's device plugin, as configured for the node (GFD labels, its device-plugin
 * config, its MIG strategy and capability), advertise res once it runs? */
bool explain_node_plugin_would_offer(const Cluster *c, const Node *n, const char *res);
bool explain_node_serves_request(const ExplainIndex *ix, const Pod *q, const Pod *intent, const Node *n);
/* the MIG profile of a resource or product suffix, as compute slices and memory GB; false
 * when the name is not "<N>g.<M>gb[...]" */
bool explain_mig_profile_size(const char *profile, int *compute, int *mem_gb);
const NodeFacts *explain_node_facts(const ExplainIndex *ix, const Node *n);

/* explain_codes.c: what a node's reasons hold; releasing a fix's change (node_result_clear: explain.h) */
bool explain_has_code(const NodeResult *r, NodeReasonCode code);
const NodeReason *explain_find_code(const NodeResult *r, NodeReasonCode code, const char *res);
void explain_fix_info_release(FixInfo *f);
bool explain_owner_is_training(const char *kind);   /* Job, JobSet, PyTorchJob ...: split comes late */

/* explain_verdict.c */
void explain_decide_verdict(Ctx *x);
/* explain_health.c: a node short of the request only by unhealthy GPUs named in the reason */
void explain_health_note(Ctx *x);
/* explain_platform.c: fixes in a managed platform's terms (GKE MIG partitions), re-checked */
void explain_platform_fixes(Ctx *x);
/* a HAMi pod: the verdict from HAMi's own fit per GPU (memory, cores, vGPU slots) */
void explain_hami_verdict(Ctx *x);
/* explain_hami.c: a resource HAMi's scheduler extender takes from kube-scheduler
 * (ignoredByScheduler: its memory, cores, memory-percentage and priority names) in a cluster
 * with HAMi nodes: not a node filter */
bool explain_hami_ignored(const ExplainIndex *ix, const char *res);
bool explain_hami_resource(const char *res);   /* one of those names */
bool explain_hami_present(const ExplainIndex *ix);   /* some node registers HAMi GPUs */

/* explain_fixes.c */
void explain_fixes_flush(Ctx *x);      /* sorted by effort into e->fixes */
void explain_fixes_for_verdict(Ctx *x);

/* explain_edit.c */
/* a fix text at an effort; returns its FixInfo to fill (valid until the next explain_fix_add), or NULL
 * when the same text is there already */
FixInfo *explain_fix_add(Ctx *x, FixEffort effort, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* would p fit on some node now (first such node, or NULL)?  q is a modified copy of x->p */
const Node *explain_recheck_fits(const Ctx *x, const Pod *q, const Relief *rl);

/* the re-check's tools (explain_edit.c): a modified copy of the pod, borrowing every string of
 * the original (explain_edit_sync after changing req/sel/tol) */
typedef struct { Pod q; PodMore more; ResourceList req; KVList sel; Toleration *tol; size_t ntol; } PodEdit;
void explain_edit_begin(PodEdit *d, const Pod *p);
void explain_edit_sync(PodEdit *d);
void explain_edit_end(PodEdit *d);
/* where the edited pod q fits: prefer first, then any node now, then a node once the fewest
 * pods end (*names); *where is the phrase to print (caller frees); NULL when nowhere */
const Node *explain_landing(const Ctx *x, const Pod *q, const Node *prefer, Strvec *names, char **where);
bool explain_fits_on_ignoring(const Ctx *x, const Node *n, bool (*ignore)(const NodeReason *));
void explain_info_end_pods(FixInfo *fi, const Strvec *names);
/* the fewest pods on n whose end makes q fit there (only GPU/cpu/memory shortfalls); fills *rl
 * (caller frees rl->ended) and names */
bool explain_fits_after_ending(const Ctx *x, const Pod *q, const Node *n, Relief *rl, Strvec *names);
/* explain_fixes_busy.c */
void explain_fixes_busy(Ctx *x);
/* explain_fixes_size.c */
void explain_fixes_resource_name(Ctx *x, bool only_now);
void explain_fix_split(Ctx *x, const char *lead);

/* explain_intent.c: one evaluation shared by the pods of one intent (reference-counted) */
struct ExplainShared {
    size_t refs;
    NodeResult *nodes; unsigned char *rank; NodeFlags *flags; size_t n;   /* parallel to c->nodes */
    Verdict verdict; char *summary; Strvec notes;                         /* what explain_decide_verdict set */
    bool has_fixes; Strvec fixes; FixInfo *fix_info;   /* the fixes, when they name no pod, */
    Strvec fix_notes;                                   /* and the notes the fix search added */
    bool ungated_done; const Node *ungated_fit;         /* where the pod fits once ungated (the
                                                           gated fix names the pod; this not) */
    struct NodeTally *tally[2];   /* explain_reconcile.c: the nodes counted as the scheduler
                                     would, [1] every reason per node (old wording) */
};
void explain_node_tally_free(struct NodeTally *t);
char *explain_intent_key(const Pod *p);   /* NULL: p's evaluation depends on p itself */
ExplainShared *explain_shared_new(size_t n);
void explain_shared_keep_fixes(ExplainShared *s, const Explanation *e);   /* copies e's fixes */
void explain_shared_give_fixes(const ExplainShared *s, Explanation *e);   /* copies them to e */
void explain_intents_init(ExplainIndex *ix);
void explain_intents_clear(ExplainIndex *ix);
/* the evaluations kept for reuse are let go (those explanations still hold stay theirs) */
void explain_intents_forget(const ExplainIndex *ix);
ExplainShared *explain_intent_lookup(const ExplainIndex *ix, const char *key);   /* borrowed */
void explain_intent_store(const ExplainIndex *ix, const char *key, ExplainShared *s);   /* takes a reference */

/* explain_reconcile.c */
void explain_reconcile_scheduler(const Cluster *c, Explanation *e);
#endif
