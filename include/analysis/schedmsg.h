/* schedmsg.h — the kube-scheduler's "why Pending" message, parsed (any version 1.20+, and the
 * older predicate form), per shared/reference/scheduler-messages.md.
 *
 *   0/12 nodes are available: 3 Insufficient nvidia.com/gpu, 9 node(s) had untolerated taint
 *   {nvidia.com/gpu: present}. preemption: 0/12 nodes are available: 12 No preemption victims
 *   found for incoming pod.
 *
 * becomes total=12, available=0, reasons [(3, Insufficient nvidia.com/gpu), (9, taint
 * nvidia.com/gpu=present)] and a preemption part with its own histogram.  Every wording the
 * reference lists is recognised: the 1.20–1.23 plain form, the 1.24–1.25 " preemption: …"
 * suffix, the 1.26–1.28 double period "..", the 1.29+ form, PreFilter messages without a count
 * (1.26+), "absent" nodes ("node is filtered out by the prefilter result" in 1.30,
 * "node(s) didn't satisfy plugin(s) [A B]" in 1.31+), the three taint wordings, events cut at
 * 1024 bytes (" ..."), DRA PostFilter text before "preemption:", and the non-FitError
 * messages (no nodes, gated, waiting for preemption, deleting pod).  Prefixes some controllers
 * add ("Reissued from pod/NAME: ", "(combined from similar events): ") are set aside, and
 * wording is matched without regard to case ("insufficient nvidia.com/gpu").
 *
 * Ownership: schedmsg_parse fills a SchedMessage that owns all its strings and arrays;
 * schedmsg_clear releases them (not the struct).  The input string is not kept.
 */
#ifndef KGPU_SCHEDMSG_H
#define KGPU_SCHEDMSG_H
#include <stdbool.h>
#include <stddef.h>

/* what one histogram entry means; names (schedmsg_code_name) are stable JSON strings */
typedef enum {
    SC_INSUFFICIENT,            /* "Insufficient <resource>"                               */
    SC_UNTOLERATED_TAINT,       /* any of the taint wordings (key/value when the version says) */
    SC_NODE_SELECTOR_MISMATCH,  /* "node(s) didn't match node selector" (<=1.19)            */
    SC_NODE_AFFINITY_MISMATCH,  /* "...Pod's node affinity[/selector]", scheduler-enforced,
                                   "pod affinity terms conflict" (covers nodeSelector 1.21+)  */
    SC_UNSCHEDULABLE,           /* "node(s) were unschedulable" (cordoned)                  */
    SC_NOT_READY,               /* "node(s) were not ready", "node(s) had unknown conditions" */
    SC_TOO_MANY_PODS,           /* "Too many pods"                                          */
    SC_NODE_NAME,               /* "didn't match the requested hostname/node name"          */
    SC_NODE_PORTS,              /* "didn't have free ports ..."                             */
    SC_VOLUME,                  /* VolumeBinding/Restrictions/Zone/NodeVolumeLimits strings  */
    SC_TOPOLOGY_SPREAD,         /* PodTopologySpread                                        */
    SC_POD_AFFINITY,            /* InterPodAffinity (affinity and anti-affinity)            */
    SC_DYNAMIC_RESOURCES,       /* DRA claim strings                                        */
    SC_PREFILTER_EXCLUDED,      /* absent nodes: "didn't satisfy plugin(s) [..]", "filtered out
                                   by the prefilter result"                                 */
    SC_NODE_CONDITION,          /* legacy pressure / network predicates (<=1.17)            */
    SC_NO_PREEMPTION_VICTIMS,   /* preemption: "No preemption victims found for incoming pod" */
    SC_PREEMPTION_NOT_HELPFUL,  /* preemption: "Preemption is not helpful for scheduling"   */
    SC_OTHER                    /* anything else (extenders, new wordings)                  */
} SchedCode;

typedef struct {
    int count;          /* nodes with this reason; -1 when the entry carries none (PreFilter 1.26+) */
    char *text;         /* the reason as written, e.g. "Insufficient nvidia.com/gpu" */
    SchedCode code;
    char *resource;     /* SC_INSUFFICIENT: "nvidia.com/gpu" */
    char *taint_key;    /* SC_UNTOLERATED_TAINT in 1.18–1.34 wordings; NULL in "taint(s)" (1.35+)
                           and "taints" (<=1.17).  The effect is never part of the message. */
    char *taint_value;  /* "" for a taint without value */
    char **plugins; size_t nplugins;   /* SC_PREFILTER_EXCLUDED 1.31+: [NodeAffinity ...] */
    bool prefilter;     /* a PreFilter message (no node count): pod rejected before any node */
    bool truncated;     /* the entry was cut by the 1024-byte event limit */
} SchedReason;

typedef enum {
    SM_EMPTY,           /* no message */
    SM_FIT_ERROR,       /* "0/N nodes are available: ..." (or the old predicates form) */
    SM_NO_NODES,        /* "no nodes available to schedule pods" */
    SM_GATED,           /* "Scheduling is blocked due to non-empty scheduling gates" */
    SM_WAITING_PREEMPTION, /* "waiting for the preemption for this pod to be finished" */
    SM_DELETING,        /* "skip schedule deleting pod: ns/name" */
    SM_UNRECOGNISED     /* anything else; kept verbatim in text */
} SchedMsgKind;

typedef struct {
    int total;          /* N of "0/N"; -1 when unknown */
    int available;      /* the 0 of "0/N" (always 0 in practice) */
    SchedReason *reasons; size_t nreasons;
} SchedHistogram;

typedef struct {
    SchedMsgKind kind;
    char *text;                 /* the whole message, trimmed */
    SchedHistogram filter;      /* the filter part (PreFilter messages appear as prefilter entries) */
    bool has_preemption;        /* a "preemption: " part is present (1.24+) */
    SchedHistogram preemption;  /* its histogram, when it has one */
    char *preemption_text;      /* the preemption part as written, without "preemption: " */
    char *postfilter_other;     /* other PostFilter text before "preemption:" (DRA), or NULL */
    bool truncated;             /* ended in " ..." (event note cut at 1024 bytes) */
    bool legacy_predicates;     /* "No nodes are available that match all of the following predicates" */
    bool lists_all_reasons;     /* the wording era (<= 1.19, GeneralPredicates) lists every failing
                                   reason of a node, not only its first failing filter: counts may
                                   add up to more than the nodes, and compare per reason */
    char *prefix;               /* text a controller put before the message ("Reissued from
                                   pod/NAME", "(combined from similar events)"), or NULL */
    /* Kubernetes minor versions whose wording this message matches (1.x); 0 = not bounded.
     * E.g. "untolerated taint {k: v}" + "preemption:" + ".." gives 26..28. */
    int min_minor, max_minor;
} SchedMessage;

/* Parse msg (NULL or "" gives SM_EMPTY).  Never fails: unknown text is SM_UNRECOGNISED or
 * entries with SC_OTHER.  Returns true when the message was a recognised kind. */
bool schedmsg_parse(const char *msg, SchedMessage *out);
void schedmsg_clear(SchedMessage *m);
/* *dst (uninitialised) becomes a copy of src that owns its own strings: the parse of a message
 * many pods share (the pods of one Job are refused with the same words) is made once */
void schedmsg_copy(SchedMessage *dst, const SchedMessage *src);

/* classify one reason string ("Insufficient cpu", "node(s) had untolerated taint {a: b}") into
 * *r (count untouched, text copied).  Exposed for tests. */
void schedmsg_reason_classify(const char *text, SchedReason *r);
void schedmsg_reason_clear(SchedReason *r);

const char *schedmsg_code_name(SchedCode c);      /* "Insufficient", "UntoleratedTaint", ... */
const char *schedmsg_kind_name(SchedMsgKind k); /* "FitError", "NoNodes", ... */
/* sum of counts of the filter part's entries with code c (and resource, when not NULL) */
int schedmsg_count(const SchedMessage *m, SchedCode c, const char *resource);
/* "1.24–1.25", "1.29+", "<=1.23", "" when nothing is known; writes into buf */
const char *schedmsg_versions(const SchedMessage *m, char *buf, size_t len);
#endif
