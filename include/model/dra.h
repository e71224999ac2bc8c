/* dra.h — Dynamic Resource Allocation (resource.k8s.io) reduced to the GPUs: the devices
 * NVIDIA's DRA driver publishes in ResourceSlices, the ResourceClaims (and templates) that
 * ask for them, the DeviceClasses they name, and which claim holds which device for which pod.
 * docs/dra.md holds the upstream facts this follows (field names, driver attributes, the
 * scheduler's rules) with file:line references.
 *
 * What is kept (cluster_ingest hands the objects here; order does not matter, dra_finalize
 * joins them):
 *   ResourceSlice   devices of driver gpu.nvidia.com on a node (spec.nodeName): name, pool and
 *                   its generation, attributes (string form, qualified "gpu.nvidia.com/type"),
 *                   capacities (quantity text).  Slices of other drivers are dropped.  Of a pool,
 *                   only the slices of its highest generation count (the scheduler's rule).
 *   ResourceClaim / ResourceClaimTemplate   every one: requests (device class, CEL selectors as
 *                   written, allocation mode, count; firstAvailable alternatives), allocation
 *                   results and reservedFor pods.
 *   DeviceClass     name, CEL selectors, extendedResourceName.
 * v1 and v1beta2 objects have the same shape; v1beta1 nests a device's fields under "basic"
 * and a request's under the request itself: both are read.
 *
 * Ownership: DraState owns every string and array; dra_state_free releases it.  Pointers
 * returned by the queries point into the DraState (valid until the next ingest/free).
 */
#ifndef KGPU_DRA_H
#define KGPU_DRA_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/labels.h"
#include "util/util.h"

#define DRA_GPU_DRIVER "gpu.nvidia.com"
#define DRA_EXPR_TABLE 64      /* distinct request selectors evaluated once per device at finalize */

typedef struct {
    char *driver, *pool, *name;
    char *node;                  /* spec.nodeName of its slice */
    char *slice;                 /* metadata.name of its ResourceSlice */
    int64_t generation;          /* spec.pool.generation */
    char *type;                  /* attribute "type": gpu | mig | vfio (NULL when absent) */
    char *uuid, *parent_uuid;    /* MIG devices: parentUUID = the physical GPU */
    char *product, *profile;     /* productName; MIG profile ("1g.10gb") */
    int64_t memory_bytes;        /* capacity "memory", 0 unknown */
    KVList attrs;                /* "gpu.nvidia.com/productName" -> "NVIDIA A100-SXM4-80GB" */
    KVList capacity;             /* "gpu.nvidia.com/memory" -> "80Gi" */
    size_t claim;                /* after finalize: index+1 of the claim it is allocated to, 0 free */
    bool stale;                  /* an older generation of its pool (ignored) */
    size_t gpu_first, gpu_next;  /* private: index+1 of the first / next device on the same
                                    physical GPU of the node (0 = none) */
    size_t node_next;            /* index+1 of the next current device of the same node, 0 last */
} DraDevice;

typedef struct {
    char *device_class;
    Strvec selectors;            /* CEL expressions, as written */
    char *mode;                  /* "ExactCount" | "All" */
    int64_t count;
    size_t *sel_ids;             /* private, by finalize: per selector, index+1 into the
                                    expression table (DraState.expr_match), 0 = not tabled */
} DraAlternative;

typedef struct {
    char *name;
    DraAlternative *alts; size_t nalts;   /* exactly: one; firstAvailable: in order */
    bool first_available;
} DraRequest;

typedef struct {
    char *request, *driver, *pool, *device;
    bool admin;                  /* adminAccess: does not hold the device */
} DraResult;

typedef enum { DRA_CLAIM_PENDING, DRA_CLAIM_ALLOCATED, DRA_CLAIM_RESERVED } DraClaimState;

typedef struct {
    char *ns, *name, *uid;
    bool is_template;
    DraRequest *requests; size_t nrequests;
    bool allocated;
    DraResult *results; size_t nresults;
    Strvec reserved_for;         /* names of the pods in status.reservedFor (resource "pods") */
    bool deleting;               /* metadata.deletionTimestamp */
    /* after finalize */
    bool gpu;                    /* asks for (or holds) devices of the GPU driver */
    char *node;                  /* node of its allocated devices (borrowed), NULL when none */
} DraClaim;

typedef struct {
    char *name;
    Strvec selectors;
    char *extended_resource;     /* spec.extendedResourceName */
} DraDeviceClass;

typedef struct DraState {
    DraDevice *devices; size_t ndevices, capdevices;
    DraClaim *claims; size_t nclaims, capclaims;
    DraClaim *templates; size_t ntemplates, captemplates;
    DraDeviceClass *classes; size_t nclasses, capclasses;
    struct StrMap *device_index;     /* "driver/pool/name" -> index+1 (after finalize) */
    struct StrMap *claim_index;      /* "ns/name" -> index+1 (after finalize) */
    struct StrMap *node_index;       /* node name -> index+1 of its first current device */
    unsigned char *class_match;      /* [class * ndevices + device]: DraMatch of the class's own
                                        selectors, computed once by finalize (classes x devices) */
    unsigned char *expr_match;       /* [expression * ndevices + device]: the distinct selectors of
                                        claims and templates (at most DRA_EXPR_TABLE of them) */
    size_t nexpr;
    bool finalized;
} DraState;

struct cJSON;
struct Error;
struct Pod;
DraState *dra_state_new(void);
void dra_state_free(DraState *d);
/* -1 with err set when the object has no name; objects of other drivers are dropped (0) */
int dra_ingest_slice(DraState *d, const struct cJSON *obj, struct Error *err);
int dra_ingest_claim(DraState *d, const struct cJSON *obj, bool is_template, struct Error *err);
int dra_ingest_class(DraState *d, const struct cJSON *obj, struct Error *err);
/* a watch's DELETED (and the first half of a MODIFIED): the devices of ResourceSlice name,
 * claim (or template) ns/name, DeviceClass name go; O(objects of that kind), the joins wait
 * for the next dra_finalize */
void dra_remove_slice(DraState *d, const char *name);
void dra_remove_claim(DraState *d, const char *ns, const char *name, bool is_template);
void dra_remove_class(DraState *d, const char *name);
/* joins results to devices, marks stale slices, classifies claims; idempotent */
void dra_finalize(DraState *d);

/* the current (not stale) devices of a node, after finalize:
 *   for (size_t i = dra_node_first(d, node); i; i = d->devices[i - 1].node_next) ... */
size_t dra_node_first(const DraState *d, const char *node);

const DraDeviceClass *dra_find_class(const DraState *d, const char *name);
DraClaim *dra_find_claim(const DraState *d, const char *ns, const char *name);
const DraClaim *dra_find_template(const DraState *d, const char *ns, const char *name);
const DraDevice *dra_result_device(const DraState *d, const DraResult *r);

/* a pod's claims (spec.resourceClaims) ask for GPUs: a claim or, not created yet, its template
 * asks for or holds devices of the GPU driver.  d may be NULL (no DRA). */
bool dra_pod_wants_gpu(const DraState *d, const struct Pod *p);

/* physical GPU key of a device: its uuid, a MIG device's parentUUID, else "node/name" */
const char *dra_device_gpu_key(const DraDevice *dev);
/* held: allocated to a claim, or sharing its physical GPU with a held device in a way the
 * driver does not allow (a whole GPU and its MIG devices, MIG devices whose memory slices
 * overlap: the driver's memorySliceN capacities / counters) */
bool dra_device_busy(const DraState *d, const DraDevice *dev);

/* a CEL selector evaluated on a device for the forms NVIDIA's classes and users write:
 * `device.driver == 'X'`, `device.attributes['D'].A == 'V'` (also !=, and int/bool/version
 * values), `device.capacity['D'].C.compareTo(quantity('Q')) OP 0`, joined with &&.  Anything
 * else is DRA_MATCH_UNKNOWN (the device is counted as a candidate and the selector is named). */
typedef enum { DRA_MATCH_NO = 0, DRA_MATCH_YES = 1, DRA_MATCH_UNKNOWN = 2 } DraMatch;
DraMatch dra_cel_match(const DraDevice *dev, const char *expr);
/* the class's selectors and the alternative's own, all of them (AND); NO when the class is not
 * found (the scheduler's "device class X does not exist") */
DraMatch dra_alt_match(const DraState *d, const DraAlternative *a, const DraDevice *dev);
#endif
