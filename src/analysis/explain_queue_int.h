/* explain_queue_int.h — private to analysis/explain_queue*.c: the index of a cluster's waiting
 * workloads (explain_queue.h's QueueIndex), built by explain_queue.c and read by
 * explain_queue_status.c's per-queue summaries; explain_queue_flavor.c judges flavors. */
#ifndef KGPU_EXPLAIN_QUEUE_INT_H
#define KGPU_EXPLAIN_QUEUE_INT_H
#include "explain_int.h"
#include "analysis/explain_queue.h"
#include "util/strmap.h"

struct QueueIndex {
    const Cluster *c;
    const QueueState *q;
    size_t *waiting; size_t nwaiting;          /* GPU workloads that wait, ns/name order */
    ResourceList *total;                       /* per workload: its total request */
    int64_t *position, *queued;                /* per workload (Kueue): 1-based, 0 unknown */
    long *head;                                /* per workload: the StrictFIFO head, -1 none */
    unsigned char *head_state;                 /* per workload, judged when first asked (explain_queue.c
                                                * head_never): 0 not yet, 1 never admitted (QueueQuota,
                                                * QueueInactive), 2 may be, 3 being judged */
    StrMap *owners;                            /* "ns\x1fkind\x1fname" -> waiting index + 1 */
    size_t *first_pod;                         /* per workload: pod index + 1, 0 none */
    size_t *pending_pods;                      /* per workload: its pending unbound pods */
    const QueueDef **def;                      /* per workload: its ClusterQueue / Queue, NULL unknown */
    StrMap *holders;                           /* "scope\x1fflavor\x1fresource" -> HolderList (built once) */
    StrMap *admitted;                          /* owners of admitted Kueue workloads -> index + 1 */
};

/* the room of own's flavor/resource for ClusterQueue d: the most it may ever use and what it may
 * use now (explain_queue.h's arithmetic); bl_override: a borrowingLimit to try instead of own's
 * (-1 none), -2 own's (explain_queue_flavor.c) */
typedef struct { int64_t max, available; } FlavorRoom;
FlavorRoom explain_queue_flavor_room(const QueueState *q, const QueueDef *d, const QueueQuota *own, int64_t bl_override);

/* ResourceFlavor `flavor` admits every pod set of w, as Kueue's flavor assigner checks it
 * (explain_queue_flavor.c); true for a flavor that does not exist.  When it does not and why is
 * non-NULL, why it does not is added to *why ("; " between). */
bool explain_queue_flavor_admits(const QueueState *q, const QueueWorkload *w, const char *flavor, Strbuf *why);

/* Whether Kueue would preempt admitted workloads to free need milli-units of res on flavor for
 * waiting workload i of ClusterQueue d (explain_queue_preempt.c); when it would, the workloads
 * it takes ("ns/name") are added to *victims. */
bool explain_queue_preempts(const QueueIndex *qi, size_t i, const QueueDef *d, const char *flavor, const char *res,
                            int64_t need, Strbuf *victims);

#endif
