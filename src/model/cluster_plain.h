/* cluster_plain.h — private to src/model: the incremental path's state (ClusterLive) and its
 * table of the pods folded away (PlainTable: one small record per pod without GPUs holding
 * resources), shared by cluster.c (which records and frees), cluster_plain.c (which holds
 * them) and cluster_live.c (which takes records back). */
#ifndef KGPU_MODEL_CLUSTER_PLAIN_H
#define KGPU_MODEL_CLUSTER_PLAIN_H
#include "model/cluster.h"
#include <stdint.h>

struct StrMap;

typedef struct {
    uint64_t key;            /* hash of "ns/name"; 0 = empty slot */
    uint32_t node;           /* index into PlainTable.nodes */
    uint32_t extra;          /* 1 + index into PlainTable.extras, 0 when none */
    uint32_t cpu;            /* milli-cpu */
    uint32_t mem;            /* memory: see mem_pack */
} PlainRec;

typedef struct {
    PlainRec *slots;         /* the records added lately: open addressing, the hash's home */
    size_t cap, n;           /* cap a power of two (0: none), n <= 3/4 cap */
    PlainRec *sorted;        /* the older records by key, exactly sized (cluster_plain.c) */
    size_t nsorted, ndead;   /* ndead of them taken back (node PLAIN_DEAD) */
    char **nodes; size_t nnodes, capnodes;
    struct StrMap *node_ids;        /* node name -> index + 1 */
    ResourceList **extras; size_t nextras, capextras;   /* the records' lists; NULL = free */
    uint32_t *free_extras; size_t nfree, capfree;       /* free indices of extras */
} PlainTable;

typedef struct {
    uint64_t key;            /* cluster_plain_hash of the event's namespace and name */
    uint32_t at;             /* 1 + index into c->events; 0 = empty slot */
} EventSlot;

typedef struct ClusterLive {
    PlainTable plain;       /* pods without GPUs holding resources: what each adds */
    struct StrMap *dirty;   /* the nodes whose usage a change touched since the last commit,
                               which makes it again (NULL: none) */
    EventSlot *ev_slots; size_t ev_cap, ev_n;   /* the events by namespace/name: open addressing,
                                                   cap a power of two (0: none), n <= 3/4 cap */
    bool indexed;           /* ev_slots match c->events */
    bool plain_complete;    /* enabled before any pod came: the records are every pod without GPUs
                               holding resources, so the per-node sums of them (cluster.c's
                               pending_usage: 1.3 MB at 5,000 nodes, names copied per node) are
                               made from the records when needed and not kept */
    bool relisted;          /* a kind was reset: commit finalizes in full */
    size_t pool_after;      /* strings in the pool after the last compaction */
    bool packed;            /* cluster_live_loaded ran: the pool's table kept dense */
} ClusterLive;

/* the 64-bit key of "ns/name" (ns empty: "default"), never 0 */
uint64_t cluster_plain_hash(const char *ns, const char *name);
#define PLAIN_DEAD UINT32_MAX    /* PlainRec.node of a sorted record taken back */
/* key's record, or NULL */
const PlainRec *cluster_plain_find(const PlainTable *t, uint64_t key);
/* takes the record of key out of the table (false when there is none) */
bool cluster_plain_take(PlainTable *t, uint64_t key, PlainRec *out);
/* the record's resources added to out (the caller clears it) */
void cluster_plain_requests(const PlainTable *t, const PlainRec *r, ResourceList *out);
/* the record's list (extra, 0 = none) freed and its index given back */
void cluster_plain_drop_extra(PlainTable *t, uint32_t extra);
/* the records added lately merged into the sorted ones (after a list: the table is then as
 * small as its records) */
void cluster_plain_settle(PlainTable *t);
/* every record and node name freed; t is empty after */
void cluster_plain_release(PlainTable *t);
#endif
