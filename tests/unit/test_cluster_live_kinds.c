/* Unit tests: cluster_live for the small kinds (ResourceQuotas, Services, ConfigMaps, and the
 * DRA ResourceSlices, ResourceClaims, ResourceClaimTemplates, DeviceClasses).
 *
 * The rule under test, as for nodes and pods (test_cluster_live.c): after any sequence of
 * ADDED/MODIFIED/DELETED events, and after a relist of one kind, the live cluster holds what a
 * fresh list of the same objects gives — the same quotas (and their hard limits), Prometheus
 * Services, ConfigMaps with their device-plugin sharing facts, DRA devices (current or stale
 * by pool generation, allocated to which claim), claims, templates and classes.  Objects move
 * in and out of what the list keeps (a quota that stops naming a GPU resource, a Service
 * renamed away from Prometheus, a slice of another driver, a pool's newer generation), so
 * the keep rule is applied to upserts as to the list.  Random sequences, fixed seeds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "model/cluster.h"
#include "model/cluster_live.h"
#include "model/dra.h"
#include "util/error.h"

enum { NQ = 6, NS = 5, NCM = 3, NSL = 6, NCL = 6, NT = 3, NDC = 3 };

typedef struct {
    bool q_on[NQ]; int q_gpus[NQ];            /* 0: the quota names only cpu (not kept) */
    bool s_on[NS]; bool s_prom[NS]; int s_port[NS];
    bool cm_on[NCM]; int cm_replicas[NCM];
    bool sl_on[NSL]; int sl_gen[NSL], sl_devs[NSL]; bool sl_other[NSL];
    bool cl_on[NCL]; int cl_slice[NCL];       /* -1: not allocated; else claim i holds gpu-i of that
                                                 slice's pool (never two claims on one device) */
    bool t_on[NT]; int t_count[NT];
    bool dc_on[NDC];
} World;

static unsigned rng_state;
static unsigned rnd(unsigned n) { rng_state = rng_state * 1103515245u + 12345u; return (rng_state >> 8) % n; }

static cJSON *parse(const char *s)
{
    cJSON *j = cJSON_Parse(s);
    if (!j) fail_msg("bad JSON in the test: %s", s);
    return j;
}

static cJSON *quota_json(const World *w, int i)
{
    char b[1024];
    if (w->q_gpus[i])
        snprintf(b, sizeof b, "{\"metadata\":{\"name\":\"gpu-quota-%d\",\"namespace\":\"team-%d\"},"
                 "\"spec\":{\"hard\":{\"requests.nvidia.com/gpu\":\"%d\"}},"
                 "\"status\":{\"hard\":{\"requests.nvidia.com/gpu\":\"%d\"},\"used\":{\"requests.nvidia.com/gpu\":\"1\"}}}",
                 i, i % 3, w->q_gpus[i], w->q_gpus[i]);
    else
        snprintf(b, sizeof b, "{\"metadata\":{\"name\":\"gpu-quota-%d\",\"namespace\":\"team-%d\"},"
                 "\"spec\":{\"hard\":{\"requests.cpu\":\"64\"}},\"status\":{\"hard\":{\"requests.cpu\":\"64\"}}}", i, i % 3);
    return parse(b);
}

static cJSON *service_json(const World *w, int i)
{
    char b[1024];
    snprintf(b, sizeof b, "{\"metadata\":{\"name\":\"%s-%d\",\"namespace\":\"monitoring\",\"labels\":"
             "{\"app.kubernetes.io/name\":\"%s\"}},\"spec\":{\"type\":\"ClusterIP\",\"ports\":"
             "[{\"name\":\"web\",\"port\":%d}]}}",
             w->s_prom[i] ? "kube-prometheus-stack-prometheus" : "grafana", i,
             w->s_prom[i] ? "prometheus" : "grafana", w->s_port[i]);
    return parse(b);
}

static cJSON *configmap_json(const World *w, int i)
{
    char b[2048];
    snprintf(b, sizeof b, "{\"metadata\":{\"name\":\"device-plugin-config-%d\",\"namespace\":\"gpu-operator\"},"
             "\"data\":{\"any\":\"version: v1\\nsharing:\\n  timeSlicing:\\n    resources:\\n"
             "    - name: nvidia.com/gpu\\n      replicas: %d\\n\"}}", i, w->cm_replicas[i]);
    return parse(b);
}

static cJSON *slice_json(const World *w, int i)
{
    char devs[2048] = "";
    size_t n = 0;
    for (int d = 0; d < w->sl_devs[i]; d++)
        n += (size_t)snprintf(devs + n, sizeof devs - n,
                              "%s{\"name\":\"gpu-%d\",\"attributes\":{\"type\":{\"string\":\"gpu\"},"
                              "\"uuid\":{\"string\":\"GPU-%d-%d\"},\"productName\":{\"string\":\"NVIDIA H100 80GB HBM3\"}},"
                              "\"capacity\":{\"memory\":{\"value\":\"81559Mi\"}}}", d ? "," : "", d + i % 2 * 4, i, d);
    char b[4096];
    /* slices 0/1, 2/3, 4/5 are two slices of one pool each (pool generations compete); device
     * names are unique in a pool (gpu-0..3 in the first slice, gpu-4..7 in the second) */
    snprintf(b, sizeof b, "{\"metadata\":{\"name\":\"node-%d-gpu.nvidia.com-s%d\"},\"spec\":{\"driver\":\"%s\","
             "\"nodeName\":\"node-%d\",\"pool\":{\"name\":\"pool-%d\",\"generation\":%d,\"resourceSliceCount\":1},"
             "\"devices\":[%s]}}",
             i / 2, i, w->sl_other[i] ? "other.example.com" : "gpu.nvidia.com", i / 2, i / 2, w->sl_gen[i], devs);
    return parse(b);
}

static cJSON *claim_json(const World *w, int i)
{
    char alloc[512] = "";
    if (w->cl_slice[i] >= 0)
        snprintf(alloc, sizeof alloc, ",\"status\":{\"allocation\":{\"devices\":{\"results\":[{\"request\":\"gpu\","
                 "\"driver\":\"gpu.nvidia.com\",\"pool\":\"pool-%d\",\"device\":\"gpu-%d\"}]}},"
                 "\"reservedFor\":[{\"resource\":\"pods\",\"name\":\"pod-%d\",\"uid\":\"u%d\"}]}",
                 w->cl_slice[i] / 2, i, i, i);
    char b[2048];
    snprintf(b, sizeof b, "{\"metadata\":{\"name\":\"claim-%d\",\"namespace\":\"ml-%d\"},\"spec\":{\"devices\":"
             "{\"requests\":[{\"name\":\"gpu\",\"exactly\":{\"deviceClassName\":\"gpu.nvidia.com\","
             "\"allocationMode\":\"ExactCount\",\"count\":1}}]}}%s}", i, i % 2, alloc);
    return parse(b);
}

static cJSON *template_json(const World *w, int i)
{
    char b[1024];
    snprintf(b, sizeof b, "{\"metadata\":{\"name\":\"tmpl-%d\",\"namespace\":\"ml-0\"},\"spec\":{\"spec\":{\"devices\":"
             "{\"requests\":[{\"name\":\"gpus\",\"exactly\":{\"deviceClassName\":\"gpu.nvidia.com\","
             "\"allocationMode\":\"ExactCount\",\"count\":%d}}]}}}}", i, w->t_count[i]);
    return parse(b);
}

static cJSON *class_json(int i)
{
    static const char *const names[NDC] = { "gpu.nvidia.com", "mig.nvidia.com", "vfio.gpu.nvidia.com" };
    static const char *const types[NDC] = { "gpu", "mig", "vfio" };
    char b[1024];
    snprintf(b, sizeof b, "{\"metadata\":{\"name\":\"%s\"},\"spec\":{\"selectors\":[{\"cel\":{\"expression\":"
             "\"device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == '%s'\"}}]}}",
             names[i], types[i]);
    return parse(b);
}

static void apply(Cluster *c, ObjKind k, LiveChange ch, cJSON *j)
{
    Error e = { 0 };
    if (cluster_live_apply(c, k, ch, j, &e) < 0) fail_msg("apply %s: %s", obj_kind_name(k), e.msg);
    cJSON_Delete(j);
}

static void ingest(Cluster *c, ObjKind k, cJSON *j)
{
    Error e = { 0 };
    if (cluster_ingest(c, k, j, &e) < 0) fail_msg("ingest %s: %s", obj_kind_name(k), e.msg);
    cJSON_Delete(j);
}

/* every object of kind k that is on in the world, through fn (ingest or apply-upsert) */
static void each(Cluster *c, const World *w, ObjKind k, bool live)
{
    switch (k) {
    case OBJ_RESOURCEQUOTA:
        for (int i = 0; i < NQ; i++) if (w->q_on[i]) { if (live) apply(c, k, LIVE_UPSERT, quota_json(w, i)); else ingest(c, k, quota_json(w, i)); }
        break;
    case OBJ_SERVICE:
        for (int i = 0; i < NS; i++) if (w->s_on[i]) { if (live) apply(c, k, LIVE_UPSERT, service_json(w, i)); else ingest(c, k, service_json(w, i)); }
        break;
    case OBJ_CONFIGMAP:
        for (int i = 0; i < NCM; i++) if (w->cm_on[i]) { if (live) apply(c, k, LIVE_UPSERT, configmap_json(w, i)); else ingest(c, k, configmap_json(w, i)); }
        break;
    case OBJ_RESOURCESLICE:
        for (int i = 0; i < NSL; i++) if (w->sl_on[i]) { if (live) apply(c, k, LIVE_UPSERT, slice_json(w, i)); else ingest(c, k, slice_json(w, i)); }
        break;
    case OBJ_RESOURCECLAIM:
        for (int i = 0; i < NCL; i++) if (w->cl_on[i]) { if (live) apply(c, k, LIVE_UPSERT, claim_json(w, i)); else ingest(c, k, claim_json(w, i)); }
        break;
    case OBJ_RESOURCECLAIMTEMPLATE:
        for (int i = 0; i < NT; i++) if (w->t_on[i]) { if (live) apply(c, k, LIVE_UPSERT, template_json(w, i)); else ingest(c, k, template_json(w, i)); }
        break;
    case OBJ_DEVICECLASS:
        for (int i = 0; i < NDC; i++) if (w->dc_on[i]) { if (live) apply(c, k, LIVE_UPSERT, class_json(i)); else ingest(c, k, class_json(i)); }
        break;
    default: break;
    }
}

static const ObjKind kinds[] = { OBJ_RESOURCEQUOTA, OBJ_SERVICE, OBJ_CONFIGMAP, OBJ_DEVICECLASS, OBJ_RESOURCESLICE,
                                 OBJ_RESOURCECLAIM, OBJ_RESOURCECLAIMTEMPLATE };

static void build_fresh(Cluster *c, const World *w, bool live)
{
    cluster_init(c);
    if (live) cluster_live_enable(c);
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) each(c, w, kinds[k], false);
    cluster_finalize(c);
}

static const DraDevice *find_device(const DraState *d, const char *slice, const char *name)
{
    for (size_t i = 0; d && i < d->ndevices; i++)
        if (str_eq(d->devices[i].slice, slice) && str_eq(d->devices[i].name, name)) return &d->devices[i];
    return NULL;
}

static void assert_same_dra(const DraState *l, const DraState *f)
{
    size_t ln = l ? l->ndevices : 0, fn = f ? f->ndevices : 0;
    if (ln != fn) fail_msg("%zu DRA devices live, %zu listed", ln, fn);
    for (size_t i = 0; i < fn; i++) {
        const DraDevice *fd = &f->devices[i], *ld = find_device(l, fd->slice, fd->name);
        if (!ld) fail_msg("device %s/%s missing", fd->slice, fd->name);
        assert_int_equal(ld->generation, fd->generation);
        assert_int_equal(ld->stale, fd->stale);
        assert_int_equal(dra_device_busy(l, ld), dra_device_busy(f, fd));
        const char *lc = ld->claim ? l->claims[ld->claim - 1].name : "", *fc = fd->claim ? f->claims[fd->claim - 1].name : "";
        if (!str_eq(lc, fc)) fail_msg("device %s/%s: claim %s live, %s listed", fd->slice, fd->name, lc, fc);
    }
    size_t lcn = l ? l->nclaims : 0, fcn = f ? f->nclaims : 0;
    assert_int_equal(lcn, fcn);
    for (size_t i = 0; i < fcn; i++) {
        const DraClaim *fc = &f->claims[i], *lc = dra_find_claim(l, fc->ns, fc->name);
        if (!lc) fail_msg("claim %s/%s missing", fc->ns, fc->name);
        assert_int_equal(lc->allocated, fc->allocated);
        assert_int_equal(lc->gpu, fc->gpu);
        assert_true(str_eq(lc->node, fc->node));
    }
    size_t ltn = l ? l->ntemplates : 0, ftn = f ? f->ntemplates : 0;
    assert_int_equal(ltn, ftn);
    for (size_t i = 0; i < ftn; i++) {
        const DraClaim *ft = &f->templates[i], *lt = dra_find_template(l, ft->ns, ft->name);
        if (!lt) fail_msg("template %s missing", ft->name);
        assert_int_equal(lt->requests[0].alts[0].count, ft->requests[0].alts[0].count);
    }
    size_t lk = l ? l->nclasses : 0, fk = f ? f->nclasses : 0;
    assert_int_equal(lk, fk);
    for (size_t i = 0; i < fk; i++) assert_non_null(dra_find_class(l, f->classes[i].name));
    /* the class x device matches finalize tabled: a device matches its class on both sides */
    for (size_t i = 0; i < fn; i++)
        for (size_t k = 0; k < fk; k++) {
            const DraDevice *fd = &f->devices[i], *ld = find_device(l, fd->slice, fd->name);
            DraAlternative alt = { .device_class = f->classes[k].name, .count = 1 };
            assert_int_equal(dra_alt_match(l, &alt, ld), dra_alt_match(f, &alt, fd));
        }
}

static void assert_same(const Cluster *l, const Cluster *f)
{
    assert_int_equal(l->nquotas, f->nquotas);
    for (size_t i = 0; i < f->nquotas; i++) {
        bool found = false;
        for (size_t j = 0; j < l->nquotas; j++)
            if (str_eq(l->quotas[j].ns, f->quotas[i].ns) && str_eq(l->quotas[j].name, f->quotas[i].name)) {
                found = true;
                assert_int_equal(rlist_get(&l->quotas[j].hard, "requests.nvidia.com/gpu"),
                                 rlist_get(&f->quotas[i].hard, "requests.nvidia.com/gpu"));
            }
        if (!found) fail_msg("quota %s/%s missing", f->quotas[i].ns, f->quotas[i].name);
    }
    assert_int_equal(l->nservices, f->nservices);
    for (size_t i = 0; i < f->nservices; i++) {
        bool found = false;
        for (size_t j = 0; j < l->nservices; j++)
            if (str_eq(l->services[j].name, f->services[i].name)) {
                found = true;
                assert_int_equal(l->services[j].ports[0].port, f->services[i].ports[0].port);
            }
        if (!found) fail_msg("service %s missing", f->services[i].name);
    }
    assert_int_equal(l->nconfigmaps, f->nconfigmaps);
    for (size_t i = 0; i < f->nconfigmaps; i++)
        assert_non_null(cluster_find_configmap(l, f->configmaps[i].ns, f->configmaps[i].name));
    assert_int_equal(l->ndpconfigs, f->ndpconfigs);
    for (size_t i = 0; i < f->ndpconfigs; i++) {
        bool found = false;
        for (size_t j = 0; j < l->ndpconfigs; j++)
            if (str_eq(l->dpconfigs[j].name, f->dpconfigs[i].name) && str_eq(l->dpconfigs[j].key, f->dpconfigs[i].key)) {
                found = true;
                assert_int_equal(l->dpconfigs[j].replicas, f->dpconfigs[i].replicas);
            }
        if (!found) fail_msg("device-plugin config %s missing", f->dpconfigs[i].name);
    }
    assert_same_dra(l->dra, f->dra);
}

/* one random event; the world and the live cluster move together */
static void random_step(Cluster *c, World *w)
{
    bool del = rnd(3) == 0;
    switch (rnd(7)) {
    case 0: {
        int i = (int)rnd(NQ);
        if (del && w->q_on[i]) { w->q_on[i] = false; apply(c, OBJ_RESOURCEQUOTA, LIVE_DELETE, quota_json(w, i)); break; }
        w->q_on[i] = true; w->q_gpus[i] = (int)rnd(5);
        apply(c, OBJ_RESOURCEQUOTA, LIVE_UPSERT, quota_json(w, i));
        break;
    }
    case 1: {
        int i = (int)rnd(NS);
        if (del && w->s_on[i]) { w->s_on[i] = false; apply(c, OBJ_SERVICE, LIVE_DELETE, service_json(w, i)); break; }
        /* a Service keeps its name: only a new one may change what it is about */
        if (!w->s_on[i]) w->s_prom[i] = rnd(2);
        w->s_on[i] = true; w->s_port[i] = 9090 + (int)rnd(10);
        apply(c, OBJ_SERVICE, LIVE_UPSERT, service_json(w, i));
        break;
    }
    case 2: {
        int i = (int)rnd(NCM);
        if (del && w->cm_on[i]) { w->cm_on[i] = false; apply(c, OBJ_CONFIGMAP, LIVE_DELETE, configmap_json(w, i)); break; }
        w->cm_on[i] = true; w->cm_replicas[i] = 2 + (int)rnd(8);
        apply(c, OBJ_CONFIGMAP, LIVE_UPSERT, configmap_json(w, i));
        break;
    }
    case 3: {
        int i = (int)rnd(NSL);
        if (del && w->sl_on[i]) { w->sl_on[i] = false; apply(c, OBJ_RESOURCESLICE, LIVE_DELETE, slice_json(w, i)); break; }
        w->sl_on[i] = true;
        w->sl_gen[i] = 1 + (int)rnd(3);            /* the pool's other slice may be older or newer */
        w->sl_devs[i] = 1 + (int)rnd(4);
        w->sl_other[i] = rnd(5) == 0;
        apply(c, OBJ_RESOURCESLICE, LIVE_UPSERT, slice_json(w, i));
        break;
    }
    case 4: {
        int i = (int)rnd(NCL);
        if (del && w->cl_on[i]) { w->cl_on[i] = false; apply(c, OBJ_RESOURCECLAIM, LIVE_DELETE, claim_json(w, i)); break; }
        w->cl_on[i] = true; w->cl_slice[i] = rnd(3) ? (int)rnd(NSL) : -1;
        apply(c, OBJ_RESOURCECLAIM, LIVE_UPSERT, claim_json(w, i));
        break;
    }
    case 5: {
        int i = (int)rnd(NT);
        if (del && w->t_on[i]) { w->t_on[i] = false; apply(c, OBJ_RESOURCECLAIMTEMPLATE, LIVE_DELETE, template_json(w, i)); break; }
        w->t_on[i] = true; w->t_count[i] = 1 + (int)rnd(8);
        apply(c, OBJ_RESOURCECLAIMTEMPLATE, LIVE_UPSERT, template_json(w, i));
        break;
    }
    case 6: {
        int i = (int)rnd(NDC);
        if (del && w->dc_on[i]) { w->dc_on[i] = false; apply(c, OBJ_DEVICECLASS, LIVE_DELETE, class_json(i)); break; }
        w->dc_on[i] = true;
        apply(c, OBJ_DEVICECLASS, LIVE_UPSERT, class_json(i));
        break;
    }
    }
}

static void run_seed(unsigned seed, int steps)
{
    World w;
    memset(&w, 0, sizeof w);
    rng_state = seed;
    /* a random world to list first */
    for (int i = 0; i < NQ; i++) { w.q_on[i] = rnd(2); w.q_gpus[i] = (int)rnd(5); }
    for (int i = 0; i < NS; i++) { w.s_on[i] = rnd(2); w.s_prom[i] = rnd(2); w.s_port[i] = 9090; }
    for (int i = 0; i < NCM; i++) { w.cm_on[i] = rnd(2); w.cm_replicas[i] = 2 + (int)rnd(8); }
    for (int i = 0; i < NSL; i++) { w.sl_on[i] = rnd(2); w.sl_gen[i] = 1 + (int)rnd(3); w.sl_devs[i] = 1 + (int)rnd(4); }
    for (int i = 0; i < NCL; i++) { w.cl_on[i] = rnd(2); w.cl_slice[i] = rnd(3) ? (int)rnd(NSL) : -1; }
    for (int i = 0; i < NT; i++) { w.t_on[i] = rnd(2); w.t_count[i] = 1 + (int)rnd(8); }
    for (int i = 0; i < NDC; i++) w.dc_on[i] = rnd(2);
    Cluster live;
    build_fresh(&live, &w, true);
    for (int s = 0; s < steps; s++) {
        if (rnd(40) == 0) {                   /* a watch expired: that kind is listed again */
            ObjKind k = kinds[rnd(sizeof kinds / sizeof *kinds)];
            cluster_live_reset(&live, k);
            each(&live, &w, k, true);
        } else {
            random_step(&live, &w);
        }
        if (rnd(3) == 0 || s == steps - 1) {  /* batches of events between commits */
            cluster_live_commit(&live);
            Cluster fresh;
            build_fresh(&fresh, &w, false);
            assert_same(&live, &fresh);
            cluster_release(&fresh);
        }
    }
    cluster_release(&live);
}

static void test_random_sequences_match_a_fresh_list(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 40; seed++) run_seed(seed, 250);
}

/* the known answer, by hand: a claim allocated gpu-0 of pool-0; the slice is replaced by a
 * newer generation without that device; the claim now holds nothing current */
static void test_slice_generation_and_claim(void **state)
{
    (void)state;
    World w;
    memset(&w, 0, sizeof w);
    w.dc_on[0] = true;
    w.sl_on[0] = true; w.sl_gen[0] = 1; w.sl_devs[0] = 2;
    w.cl_on[0] = true; w.cl_slice[0] = 0;
    Cluster live;
    build_fresh(&live, &w, true);
    const DraDevice *d = find_device(live.dra, "node-0-gpu.nvidia.com-s0", "gpu-0");
    assert_non_null(d);
    assert_int_not_equal(d->claim, 0);
    assert_true(dra_device_busy(live.dra, d));
    /* a second slice of pool-0 at generation 2: the first one's devices become stale */
    w.sl_on[1] = true; w.sl_gen[1] = 2; w.sl_devs[1] = 1;
    apply(&live, OBJ_RESOURCESLICE, LIVE_UPSERT, slice_json(&w, 1));
    cluster_live_commit(&live);
    d = find_device(live.dra, "node-0-gpu.nvidia.com-s0", "gpu-0");
    assert_true(d->stale);
    assert_int_equal(dra_node_first(live.dra, "node-0") ? 1 : 0, 1);
    size_t current = 0;
    for (size_t i = dra_node_first(live.dra, "node-0"); i; i = live.dra->devices[i - 1].node_next) current++;
    assert_int_equal(current, 1);
    /* the newer slice deleted: generation 1 is current again, gpu-0 held by the claim */
    apply(&live, OBJ_RESOURCESLICE, LIVE_DELETE, slice_json(&w, 1));
    cluster_live_commit(&live);
    d = find_device(live.dra, "node-0-gpu.nvidia.com-s0", "gpu-0");
    assert_false(d->stale);
    assert_true(dra_device_busy(live.dra, d));
    /* the claim deleted: the device is free */
    apply(&live, OBJ_RESOURCECLAIM, LIVE_DELETE, claim_json(&w, 0));
    cluster_live_commit(&live);
    d = find_device(live.dra, "node-0-gpu.nvidia.com-s0", "gpu-0");
    assert_false(dra_device_busy(live.dra, d));
    cluster_release(&live);
}

/* a quota edited to drop its GPU limit leaves the cluster; edited back, it returns; a
 * ConfigMap's replicas follow its edits */
static void test_quota_and_configmap_edits(void **state)
{
    (void)state;
    World w;
    memset(&w, 0, sizeof w);
    w.q_on[0] = true; w.q_gpus[0] = 4;
    w.cm_on[0] = true; w.cm_replicas[0] = 4;
    Cluster live;
    build_fresh(&live, &w, true);
    assert_int_equal(live.nquotas, 1);
    assert_int_equal(rlist_get(&live.quotas[0].hard, "requests.nvidia.com/gpu"), 4000);
    w.q_gpus[0] = 0;
    apply(&live, OBJ_RESOURCEQUOTA, LIVE_UPSERT, quota_json(&w, 0));
    assert_int_equal(live.nquotas, 0);
    w.q_gpus[0] = 6;
    apply(&live, OBJ_RESOURCEQUOTA, LIVE_UPSERT, quota_json(&w, 0));
    assert_int_equal(live.nquotas, 1);
    assert_int_equal(rlist_get(&live.quotas[0].hard, "requests.nvidia.com/gpu"), 6000);
    assert_int_equal(live.ndpconfigs, 1);
    assert_int_equal(live.dpconfigs[0].replicas, 4);
    w.cm_replicas[0] = 7;
    apply(&live, OBJ_CONFIGMAP, LIVE_UPSERT, configmap_json(&w, 0));
    assert_int_equal(live.ndpconfigs, 1);
    assert_int_equal(live.dpconfigs[0].replicas, 7);
    apply(&live, OBJ_CONFIGMAP, LIVE_DELETE, configmap_json(&w, 0));
    assert_int_equal(live.ndpconfigs, 0);
    assert_int_equal(live.nconfigmaps, 0);
    cluster_live_commit(&live);
    cluster_release(&live);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_sequences_match_a_fresh_list),
        cmocka_unit_test(test_slice_generation_and_claim),
        cmocka_unit_test(test_quota_and_configmap_edits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
