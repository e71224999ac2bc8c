/* Unit tests: cluster_live (watch events applied one object at a time).
 *
 * The rule under test: after any sequence of ADDED/MODIFIED/DELETED events, the live cluster
 * equals the cluster a fresh list of the same objects gives (cluster_ingest + finalize) — the
 * same nodes, GPU pods, per-node usage (sum of the effective requests of the pods holding
 * resources, GPU or not) and kept events.  The sequences are random (fixed seeds) over nodes
 * that come and go, pods that are created, bound, finish and are deleted, with and without
 * GPUs, and FailedScheduling events. */
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
#include "util/error.h"

enum { NNODES = 6, NPODS = 40, NEVENTS = 10 };

typedef struct {
    bool node_on[NNODES];
    int node_gen[NNODES];
    /* pods: present, node (-1 unbound), gpus, cpu milli, phase 0 Running/Pending 1 Succeeded */
    bool pod_on[NPODS];
    int pod_node[NPODS], pod_gpus[NPODS], pod_cpu[NPODS], pod_done[NPODS];
    bool ev_on[NEVENTS];
    int ev_pod[NEVENTS];
} World;

static unsigned rng_state;
static unsigned rnd(unsigned n) { rng_state = rng_state * 1103515245u + 12345u; return (rng_state >> 8) % n; }

static cJSON *node_json(int i, int gen)
{
    char buf[1024];
    snprintf(buf, sizeof buf,
             "{\"metadata\":{\"name\":\"node-%d\",\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\","
             "\"nvidia.com/gpu.count\":\"%d\",\"gen\":\"g%d\"}},"
             "\"status\":{\"capacity\":{\"cpu\":\"64\",\"memory\":\"512Gi\",\"nvidia.com/gpu\":\"%d\",\"pods\":\"110\"},"
             "\"allocatable\":{\"cpu\":\"63\",\"memory\":\"500Gi\",\"nvidia.com/gpu\":\"%d\",\"pods\":\"110\"},"
             "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}",
             i, 8, gen, 8, 8);
    return cJSON_Parse(buf);
}

static cJSON *pod_json(const World *w, int i)
{
    char node[64] = "", res[128];
    if (w->pod_node[i] >= 0) snprintf(node, sizeof node, "\"nodeName\":\"node-%d\",", w->pod_node[i]);
    if (w->pod_gpus[i]) snprintf(res, sizeof res, "{\"cpu\":\"%dm\",\"nvidia.com/gpu\":\"%d\"}", w->pod_cpu[i], w->pod_gpus[i]);
    else if (i % 5 == 0)            /* a resource besides cpu and memory (kept apart) */
        snprintf(res, sizeof res, "{\"cpu\":\"%dm\",\"ephemeral-storage\":\"%dMi\"}", w->pod_cpu[i], w->pod_cpu[i]);
    else if (i % 7 == 1)            /* memory in decimal units (no whole number of KiB) */
        snprintf(res, sizeof res, "{\"cpu\":\"%dm\",\"memory\":\"%dM\"}", w->pod_cpu[i], w->pod_cpu[i] / 10 + 1);
    else if (i % 7 == 2)            /* memory in odd bytes, some over 1 GiB */
        snprintf(res, sizeof res, "{\"cpu\":\"%dm\",\"memory\":\"%lld\"}", w->pod_cpu[i],
                 (long long)w->pod_cpu[i] * 1000003);
    else if (i % 7 == 3)            /* memory with a fraction of a byte */
        snprintf(res, sizeof res, "{\"memory\":\"%dm\"}", w->pod_cpu[i] * 3 + 1);
    else if (i % 7 == 4)            /* cpu and memory beyond 32 bits of milli-cpu and of MiB */
        snprintf(res, sizeof res, "{\"cpu\":\"%d\",\"memory\":\"%dPi\"}", w->pod_cpu[i] * 10000, w->pod_cpu[i]);
    else if (i % 7 == 6)            /* memory in Ti and Gi */
        snprintf(res, sizeof res, "{\"cpu\":\"%dm\",\"memory\":\"%dTi\",\"hugepages-2Mi\":\"%dGi\"}",
                 w->pod_cpu[i], w->pod_cpu[i] / 1000 + 1, w->pod_cpu[i] / 1000 + 1);
    else snprintf(res, sizeof res, "{\"cpu\":\"%dm\",\"memory\":\"%dMi\"}", w->pod_cpu[i], w->pod_cpu[i] / 10 + 1);
    const char *phase = w->pod_done[i] ? "Succeeded" : w->pod_node[i] >= 0 ? "Running" : "Pending";
    char buf[1024];
    snprintf(buf, sizeof buf,
             "{\"metadata\":{\"name\":\"pod-%d\",\"namespace\":\"ns-%d\",\"uid\":\"u-%d\"},"
             "\"spec\":{%s\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":%s,\"limits\":%s}}]},"
             "\"status\":{\"phase\":\"%s\"}}",
             i, i % 3, i, node, res, w->pod_gpus[i] ? res : "{}", phase);
    return cJSON_Parse(buf);
}

static cJSON *event_json(const World *w, int i)
{
    char buf[1024];
    int p = w->ev_pod[i];
    snprintf(buf, sizeof buf,
             "{\"metadata\":{\"name\":\"pod-%d.ev%d\",\"namespace\":\"ns-%d\"},\"reason\":\"FailedScheduling\","
             "\"message\":\"0/6 nodes are available: 6 Insufficient nvidia.com/gpu.\",\"count\":%d,"
             "\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"pod-%d\",\"namespace\":\"ns-%d\"},"
             "\"lastTimestamp\":\"2026-11-20T10:00:00Z\"}",
             p, i, p % 3, i + 1, p, p % 3);
    return cJSON_Parse(buf);
}

static void apply(Cluster *c, ObjKind k, LiveChange ch, cJSON *j)
{
    assert_non_null(j);
    Error e = { 0 };
    if (cluster_live_apply(c, k, ch, j, &e) < 0) fail_msg("apply: %s", e.msg);
    cJSON_Delete(j);
}

static void ingest(Cluster *c, ObjKind k, cJSON *j)
{
    assert_non_null(j);
    Error e = { 0 };
    if (cluster_ingest(c, k, j, &e) < 0) fail_msg("ingest: %s", e.msg);
    cJSON_Delete(j);
}

/* a fresh list of the world: nodes, pods, events in the order the loader reads them */
static void build_fresh(Cluster *c, const World *w, bool live)
{
    cluster_init(c);
    if (live) cluster_live_enable(c);
    for (int i = 0; i < NNODES; i++) if (w->node_on[i]) ingest(c, OBJ_NODE, node_json(i, w->node_gen[i]));
    for (int i = 0; i < NPODS; i++) if (w->pod_on[i] && !w->pod_done[i]) ingest(c, OBJ_POD, pod_json(w, i));
    for (int i = 0; i < NEVENTS; i++) if (w->ev_on[i]) ingest(c, OBJ_EVENT, event_json(w, i));
    cluster_finalize(c);
}

static void assert_same_usage(const Cluster *a, const Node *na, const Cluster *b, const Node *nb)
{
    const NodeUsage *ua = cluster_node_usage(a, na), *ub = cluster_node_usage(b, nb);
    assert_non_null(ua);
    assert_non_null(ub);
    if (ua->pods != ub->pods) fail_msg("%s: %d pods vs %d", na->name, ua->pods, ub->pods);
    for (size_t i = 0; i < ua->requested.n; i++)
        if (rlist_get(&ua->requested, ua->requested.items[i].name) != rlist_get(&ub->requested, ua->requested.items[i].name))
            fail_msg("%s: %s %lld vs %lld", na->name, ua->requested.items[i].name,
                     (long long)rlist_get(&ua->requested, ua->requested.items[i].name),
                     (long long)rlist_get(&ub->requested, ua->requested.items[i].name));
    for (size_t i = 0; i < ub->requested.n; i++)
        assert_int_equal(rlist_get(&ua->requested, ub->requested.items[i].name), ub->requested.items[i].milli);
}

static void assert_same(const Cluster *live, const Cluster *fresh)
{
    assert_int_equal(live->nnodes, fresh->nnodes);
    for (size_t i = 0; i < fresh->nnodes; i++) {
        const Node *f = &fresh->nodes[i];
        const Node *l = cluster_find_node(live, f->name);
        if (!l) fail_msg("node %s missing", f->name);
        assert_string_equal(kv_get(&l->labels, "gen"), kv_get(&f->labels, "gen"));
        assert_same_usage(live, l, fresh, f);
    }
    assert_int_equal(live->npods, fresh->npods);
    for (size_t i = 0; i < fresh->npods; i++) {
        const Pod *f = &fresh->pods[i];
        const Pod *l = cluster_find_pod(live, f->ns, f->name);
        if (!l) fail_msg("pod %s/%s missing", f->ns, f->name);
        assert_true(str_eq(l->node_name, f->node_name));
        assert_int_equal(l->phase, f->phase);
    }
    assert_int_equal(live->nevents, fresh->nevents);
    for (size_t i = 0; i < fresh->nevents; i++) {
        bool found = false;
        for (size_t j = 0; j < live->nevents; j++)
            if (str_eq(live->events[j].name, fresh->events[i].name) && live->events[j].count == fresh->events[i].count)
                found = true;
        if (!found) fail_msg("event %s missing", fresh->events[i].name);
    }
}

static void random_step(Cluster *c, World *w)
{
    switch (rnd(6)) {
    case 0: {                                   /* a node comes, changes or goes */
        int i = (int)rnd(NNODES);
        if (w->node_on[i] && rnd(3) == 0) {
            w->node_on[i] = false;
            apply(c, OBJ_NODE, LIVE_DELETE, node_json(i, w->node_gen[i]));
        } else {
            w->node_on[i] = true;
            w->node_gen[i]++;
            apply(c, OBJ_NODE, LIVE_UPSERT, node_json(i, w->node_gen[i]));
        }
        break;
    }
    case 1: case 2: case 3: {                   /* a pod is created, bound, finishes, resized */
        int i = (int)rnd(NPODS);
        if (!w->pod_on[i]) {
            w->pod_on[i] = true;
            w->pod_node[i] = rnd(2) ? -1 : (int)rnd(NNODES + 1) - (rnd(4) == 0);   /* may name a node not listed */
            if (w->pod_node[i] >= NNODES) w->pod_node[i] = NNODES - 1;
            w->pod_gpus[i] = rnd(2) ? (int)rnd(3) : 0;
            w->pod_cpu[i] = 100 + (int)rnd(4000);
            w->pod_done[i] = 0;
        } else if (w->pod_node[i] < 0) {
            w->pod_node[i] = (int)rnd(NNODES);
        } else if (rnd(3) == 0) {
            w->pod_done[i] = 1;
        } else {
            w->pod_cpu[i] = 100 + (int)rnd(4000);
        }
        apply(c, OBJ_POD, LIVE_UPSERT, pod_json(w, i));
        if (w->pod_done[i]) {               /* the list's field selector leaves finished pods out */
            w->pod_on[i] = false;
            apply(c, OBJ_POD, LIVE_DELETE, pod_json(w, i));
        }
        break;
    }
    case 4: {                                   /* a pod is deleted */
        int i = (int)rnd(NPODS);
        if (!w->pod_on[i]) break;
        w->pod_on[i] = false;
        apply(c, OBJ_POD, LIVE_DELETE, pod_json(w, i));
        break;
    }
    case 5: {                                   /* a scheduling failure is recorded or expires */
        int i = (int)rnd(NEVENTS);
        if (w->ev_on[i] && rnd(2)) {
            w->ev_on[i] = false;
            apply(c, OBJ_EVENT, LIVE_DELETE, event_json(w, i));
        } else {
            int p = w->ev_on[i] ? w->ev_pod[i] : (int)rnd(NPODS);
            /* finalize keeps the event only for GPU pods present: make the world agree */
            if (!w->pod_on[p] || !w->pod_gpus[p] || w->pod_done[p]) break;
            w->ev_on[i] = true;
            w->ev_pod[i] = p;
            apply(c, OBJ_EVENT, LIVE_UPSERT, event_json(w, i));
        }
        break;
    }
    }
}

/* events of pods that were deleted since: a fresh list still has them (finalize keeps them
 * only for pods kept, so drop them from the world the same way) */
static void world_prune_events(World *w)
{
    for (int i = 0; i < NEVENTS; i++)
        if (w->ev_on[i] && (!w->pod_on[w->ev_pod[i]] || !w->pod_gpus[w->ev_pod[i]])) w->ev_on[i] = false;
}

static void run_seed(unsigned seed, int steps)
{
    World w;
    memset(&w, 0, sizeof w);
    rng_state = seed;
    for (int i = 0; i < NNODES; i += 2) w.node_on[i] = true;
    for (int i = 0; i < NPODS; i += 3) {
        w.pod_on[i] = true;
        w.pod_node[i] = i % 2 ? -1 : (i / 3) % NNODES;
        w.pod_gpus[i] = i % 4 == 0 ? 1 + i % 2 : 0;
        w.pod_cpu[i] = 250 * (1 + i % 5);
    }
    Cluster live;
    build_fresh(&live, &w, true);
    for (int s = 0; s < steps; s++) {
        random_step(&live, &w);
        /* a deleted pod's events stay in the live cluster until they expire: delete them
         * as the API server's event TTL would, so both sides hold the same */
        for (int i = 0; i < NEVENTS; i++)
            if (w.ev_on[i] && (!w.pod_on[w.ev_pod[i]] || !w.pod_gpus[w.ev_pod[i]] || w.pod_done[w.ev_pod[i]])) {
                w.ev_on[i] = false;
                apply(&live, OBJ_EVENT, LIVE_DELETE, event_json(&w, i));
            }
        cluster_live_commit(&live);
        if (s % 7 == 6 || s == steps - 1) {
            world_prune_events(&w);
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
    for (unsigned seed = 1; seed <= 30; seed++) run_seed(seed, 200);
}

/* a relist of pods (after 410 Gone): reset, the items again, commit = a fresh list */
static void test_relist_pods(void **state)
{
    (void)state;
    World w;
    memset(&w, 0, sizeof w);
    rng_state = 99;
    w.node_on[0] = w.node_on[1] = true;
    for (int i = 0; i < 10; i++) { w.pod_on[i] = true; w.pod_node[i] = i % 2; w.pod_gpus[i] = i % 3 == 0; w.pod_cpu[i] = 500; }
    Cluster live;
    build_fresh(&live, &w, true);
    /* the world moves on while the watch is lost */
    w.pod_on[0] = false;
    w.pod_cpu[1] = 1500;
    w.pod_on[12] = true; w.pod_node[12] = 1; w.pod_gpus[12] = 2; w.pod_cpu[12] = 100;
    cluster_live_reset(&live, OBJ_POD);
    for (int i = 0; i < NPODS; i++) if (w.pod_on[i]) apply(&live, OBJ_POD, LIVE_UPSERT, pod_json(&w, i));
    cluster_live_commit(&live);
    Cluster fresh;
    build_fresh(&fresh, &w, false);
    assert_same(&live, &fresh);
    /* node 1: pods 1,3,5,7,9 (500m; 1 now 1500m) and 12 (100m, 2 GPUs) */
    const NodeUsage *u = cluster_node_usage(&live, cluster_find_node(&live, "node-1"));
    assert_non_null(u);
    assert_int_equal(u->pods, 6);
    assert_int_equal(rlist_get(&u->requested, "cpu"), 1500 + 4 * 500 + 100);
    /* GPUs on node 1: pods 3 and 9 (one each), pod 12 (two) */
    assert_int_equal(rlist_get(&u->requested, "nvidia.com/gpu"), 4000);
    cluster_release(&fresh);
    cluster_release(&live);
}

/* a relist of the watched events (FailedScheduling) keeps the quota refusals, which are
 * listed once and not watched */
static void test_relist_events_keeps_quota_refusals(void **state)
{
    (void)state;
    World w;
    memset(&w, 0, sizeof w);
    w.node_on[0] = true;
    w.pod_on[4] = true; w.pod_node[4] = -1; w.pod_gpus[4] = 1; w.pod_cpu[4] = 100;
    w.ev_on[0] = true; w.ev_pod[0] = 4;
    Cluster live;
    build_fresh(&live, &w, true);
    ingest(&live, OBJ_EVENT, cJSON_Parse(
        "{\"metadata\":{\"name\":\"job-x.q1\",\"namespace\":\"ns-1\"},\"reason\":\"FailedCreate\","
        "\"message\":\"Error creating: pods \\\"x-1\\\" is forbidden: exceeded quota: gpu, requested: "
        "requests.nvidia.com/gpu=1, used: requests.nvidia.com/gpu=4, limited: requests.nvidia.com/gpu=4\","
        "\"involvedObject\":{\"kind\":\"Job\",\"name\":\"job-x\",\"namespace\":\"ns-1\"}}"));
    cluster_live_commit(&live);
    assert_int_equal(live.nevents, 2);
    cluster_live_reset(&live, OBJ_EVENT);
    apply(&live, OBJ_EVENT, LIVE_UPSERT, event_json(&w, 0));
    cluster_live_commit(&live);
    assert_int_equal(live.nevents, 2);
    bool quota = false, sched = false;
    for (size_t i = 0; i < live.nevents; i++) {
        quota |= str_eq(live.events[i].reason, "FailedCreate");
        sched |= str_eq(live.events[i].reason, "FailedScheduling");
    }
    assert_true(quota);
    assert_true(sched);
    cluster_release(&live);
}

/* GPU pods that come and go (a Job's pods, each with its own name and uid) must not make
 * the string pool grow for as long as the view is open */
static void test_pod_churn_keeps_strings_bounded(void **state)
{
    (void)state;
    World w;
    memset(&w, 0, sizeof w);
    w.node_on[0] = true;
    Cluster live;
    build_fresh(&live, &w, true);
    size_t peak = 0, after_warmup = 0;
    char buf[1024];
    for (int round = 0; round < 20000; round++) {
        snprintf(buf, sizeof buf,
                 "{\"metadata\":{\"name\":\"job-%d-x\",\"namespace\":\"ns-1\",\"uid\":\"uid-%08d\","
                 "\"labels\":{\"batch.kubernetes.io/controller-uid\":\"c-%08d\"}},"
                 "\"spec\":{\"nodeName\":\"node-0\",\"containers\":[{\"name\":\"c\",\"resources\":"
                 "{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]},\"status\":{\"phase\":\"Running\"}}",
                 round, round, round);
        apply(&live, OBJ_POD, LIVE_UPSERT, cJSON_Parse(buf));
        cluster_live_commit(&live);
        apply(&live, OBJ_POD, LIVE_DELETE, cJSON_Parse(buf));
        cluster_live_commit(&live);
        size_t n = cluster_live_pooled_strings(&live);
        if (round == 1000) after_warmup = n;
        if (round > 1000 && n > peak) peak = n;
    }
    /* each pod brings 3 new strings: without compaction the pool would hold 60,000 */
    assert_true(peak < 3 * 4096 + 2 * after_warmup + 64);
    assert_true(peak < 20000);
    assert_int_equal(live.npods, 0);
    cluster_release(&live);
}

/* One pending pod MODIFIED over and over (the scheduler rewrites its PodScheduled message
 * with each attempt, and its FailedScheduling event; its tolerations and PodGroup annotation
 * change with a patch): the
 * pool's bytes stay bounded, and after every compaction the pod and the event still read what
 * the last change said. */
static void test_pod_modified_keeps_pool_bounded(void **state)
{
    (void)state;
    World w;
    memset(&w, 0, sizeof w);
    w.node_on[0] = true;
    Cluster live;
    build_fresh(&live, &w, true);
    size_t after_warmup = 0, peak = 0;
    char buf[1024];
    const int rounds = 30000;
    for (int round = 0; round < rounds; round++) {
        snprintf(buf, sizeof buf,
                 "{\"metadata\":{\"name\":\"queued\",\"namespace\":\"ns-1\","
                 "\"annotations\":{\"pod-group-name\":\"pg-%d\"}},"
                 "\"spec\":{\"tolerations\":[{\"key\":\"team\",\"operator\":\"Equal\",\"value\":\"t-%d\"}],"
                 "\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]},"
                 "\"status\":{\"phase\":\"Pending\",\"conditions\":[{\"type\":\"PodScheduled\","
                 "\"status\":\"False\",\"reason\":\"Unschedulable\",\"message\":\"0/1 nodes are "
                 "available: 1 Insufficient nvidia.com/gpu. attempt %d\"}]}}",
                 round, round, round);
        apply(&live, OBJ_POD, LIVE_UPSERT, cJSON_Parse(buf));
        snprintf(buf, sizeof buf,
                 "{\"metadata\":{\"name\":\"queued.1\",\"namespace\":\"ns-1\"},\"reason\":\"FailedScheduling\","
                 "\"message\":\"attempt %d\",\"count\":%d,\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"queued\"}}",
                 round, round + 1);
        apply(&live, OBJ_EVENT, LIVE_UPSERT, cJSON_Parse(buf));
        cluster_live_commit(&live);
        size_t b = cluster_live_pooled_bytes(&live);
        if (round == 2000) after_warmup = b;
        if (round > 2000 && b > peak) peak = b;
    }
    /* every event brings 2 new strings and a new tolerations array (~100 bytes): kept, 30,000
     * events would hold ~3 MB; compaction keeps the pool within a few times its size after
     * warm-up (a 64 KiB chunk per compaction generation at most) */
    assert_true(after_warmup > 0);
    assert_true(peak <= 4 * after_warmup + (256u << 10));
    assert_true(peak < (1u << 20));
    assert_int_equal(live.npods, 1);
    const Pod *p = cluster_find_pod(&live, "ns-1", "queued");
    assert_non_null(p);
    char want[128];
    snprintf(want, sizeof want, "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. attempt %d", rounds - 1);
    assert_string_equal(pod_more(p)->scheduled.message, want);
    assert_int_equal(pod_more(p)->ntolerations, 1);
    snprintf(want, sizeof want, "t-%d", rounds - 1);
    assert_string_equal(pod_more(p)->tolerations[0].value, want);
    assert_string_equal(pod_more(p)->tolerations[0].key, "team");
    snprintf(want, sizeof want, "pg-%d", rounds - 1);
    assert_string_equal(pod_more(p)->pod_group, want);     /* the PodMore's strings compacted too */
    assert_int_equal(rlist_get(&p->requests, "nvidia.com/gpu"), 1000);   /* pooled, compacted */
    assert_int_equal(live.nevents, 1);
    snprintf(want, sizeof want, "attempt %d", rounds - 1);
    assert_string_equal(live.events[0].message, want);
    assert_string_equal(live.events[0].involved_name, "queued");
    cluster_release(&live);
}

/* Thousands of GPU pods added, then most of them deleted in a scattered order (the pod index
 * moves entries back on deletion and the last pod into the hole): after each step every pod
 * still there is found at its own position and none of the deleted is */
static void test_pod_index_many_deletes(void **state)
{
    (void)state;
    enum { N = 3000 };
    static bool on[N];
    World w;
    memset(&w, 0, sizeof w);
    w.node_on[0] = true;
    Cluster live;
    build_fresh(&live, &w, true);
    char buf[512];
    for (int i = 0; i < N; i++) {
        snprintf(buf, sizeof buf,
                 "{\"metadata\":{\"name\":\"p-%d\",\"namespace\":\"ns-%d\"},\"spec\":{\"containers\":"
                 "[{\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]}}", i, i % 7);
        apply(&live, OBJ_POD, LIVE_UPSERT, cJSON_Parse(buf));
        on[i] = true;
    }
    unsigned x = 12345;
    for (int step = 0; step < 2 * N; step++) {
        x = x * 1103515245u + 12345u;
        int i = (int)((x >> 8) % N);
        if (!on[i]) continue;
        snprintf(buf, sizeof buf, "{\"metadata\":{\"name\":\"p-%d\",\"namespace\":\"ns-%d\"}}", i, i % 7);
        apply(&live, OBJ_POD, LIVE_DELETE, cJSON_Parse(buf));
        on[i] = false;
        if (step % 500) continue;
        cluster_live_commit(&live);
        size_t kept = 0;
        for (int k = 0; k < N; k++) {
            char name[32], ns[16];
            snprintf(name, sizeof name, "p-%d", k);
            snprintf(ns, sizeof ns, "ns-%d", k % 7);
            const Pod *p = cluster_find_pod(&live, ns, name);
            if (on[k] != (p != NULL)) fail_msg("pod %s/%s: %s", ns, name, on[k] ? "lost" : "still found");
            if (p) { assert_string_equal(p->name, name); assert_string_equal(p->ns, ns); kept++; }
        }
        assert_int_equal(kept, live.npods);
    }
    assert_true(live.npods < N / 2);
    cluster_release(&live);
}

/* Thousands of pods without GPUs (each folded into its node's usage, its record kept apart:
 * most in a sorted array, those added since the last merge in a small table, merged when it
 * holds more than 1,024 + 1/8 of the sorted ones): listed, then deleted, changed and created
 * again in a scattered order.  After each round every node's usage is the sum this test keeps
 * of the pods on it (cpu: 100m + i % 37 m; the modified ones 7m more), so a record lost, kept
 * twice or found under another pod shows. */
static void test_plain_records_many_changes(void **state)
{
    (void)state;
    enum { N = 9000, NN = 5 };
    static int cpu[N];          /* 0: absent */
    World w;
    memset(&w, 0, sizeof w);
    for (int i = 0; i < NN; i++) w.node_on[i] = true;
    Cluster live;
    cluster_init(&live);
    cluster_live_enable(&live);
    for (int i = 0; i < NN; i++) ingest(&live, OBJ_NODE, node_json(i, 0));
    char buf[512];
    for (int i = 0; i < N; i++) {
        cpu[i] = 100 + i % 37;
        snprintf(buf, sizeof buf,
                 "{\"metadata\":{\"name\":\"q-%d\",\"namespace\":\"ns-%d\"},\"spec\":{\"nodeName\":\"node-%d\","
                 "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"%dm\"}}}]},"
                 "\"status\":{\"phase\":\"Running\"}}", i, i % 3, i % NN, cpu[i]);
        ingest(&live, OBJ_POD, cJSON_Parse(buf));
    }
    cluster_finalize(&live);
    cluster_live_loaded(&live);
    unsigned x = 777;
    for (int round = 0; round < 6; round++) {
        for (int step = 0; step < 4000; step++) {
            x = x * 1103515245u + 12345u;
            int i = (int)((x >> 8) % N), what = (int)((x >> 20) % 3);
            if (cpu[i] && what == 0) {
                snprintf(buf, sizeof buf, "{\"metadata\":{\"name\":\"q-%d\",\"namespace\":\"ns-%d\"}}", i, i % 3);
                apply(&live, OBJ_POD, LIVE_DELETE, cJSON_Parse(buf));
                cpu[i] = 0;
                continue;
            }
            cpu[i] = cpu[i] ? cpu[i] + 7 : 100 + i % 37;
            snprintf(buf, sizeof buf,
                     "{\"metadata\":{\"name\":\"q-%d\",\"namespace\":\"ns-%d\"},\"spec\":{\"nodeName\":\"node-%d\","
                     "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"%dm\"}}}]},"
                     "\"status\":{\"phase\":\"Running\"}}", i, i % 3, i % NN, cpu[i]);
            apply(&live, OBJ_POD, LIVE_UPSERT, cJSON_Parse(buf));
        }
        cluster_live_commit(&live);
        for (int n = 0; n < NN; n++) {
            int64_t want = 0;
            int pods = 0;
            for (int i = n; i < N; i += NN) if (cpu[i]) { want += cpu[i]; pods++; }
            char name[32];
            snprintf(name, sizeof name, "node-%d", n);
            const NodeUsage *u = cluster_node_usage(&live, cluster_find_node(&live, name));
            assert_non_null(u);
            assert_int_equal(u->pods, pods);
            assert_int_equal(rlist_get(&u->requested, "cpu"), want);
        }
    }
    cluster_release(&live);
}

/* After the list (cluster_live_loaded), the first change does not compact the string pool:
 * a compaction builds a second pool beside the first, megabytes on a large cluster, and the
 * pool has not grown since the list.  A compaction would intern every kept string again, so
 * a kept pod's name would move. */
static void test_first_change_keeps_the_pool(void **state)
{
    (void)state;
    enum { N = 3000 };
    Cluster live;
    cluster_init(&live);
    cluster_live_enable(&live);
    ingest(&live, OBJ_NODE, node_json(0, 0));
    char buf[512];
    for (int i = 0; i < N; i++) {
        snprintf(buf, sizeof buf,
                 "{\"metadata\":{\"name\":\"g-%d\",\"namespace\":\"ns-%d\",\"uid\":\"u-%d\",\"ownerReferences\":"
                 "[{\"kind\":\"Job\",\"name\":\"j-%d\",\"controller\":true}]},"
                 "\"spec\":{\"nodeName\":\"node-0\",\"containers\":[{\"name\":\"c\",\"resources\":"
                 "{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]},\"status\":{\"phase\":\"Running\"}}", i, i % 5, i, i);
        ingest(&live, OBJ_POD, cJSON_Parse(buf));
    }
    cluster_finalize(&live);
    cluster_live_loaded(&live);
    assert_true(cluster_live_pooled_strings(&live) > 4096);     /* large enough to compact */
    const char *name = cluster_find_pod(&live, "ns-1", "g-1")->name;
    snprintf(buf, sizeof buf, "{\"metadata\":{\"name\":\"g-2\",\"namespace\":\"ns-2\"}}");
    apply(&live, OBJ_POD, LIVE_DELETE, cJSON_Parse(buf));
    cluster_live_commit(&live);
    assert_ptr_equal(cluster_find_pod(&live, "ns-1", "g-1")->name, name);
    cluster_release(&live);
}

/* Thousands of events found by namespace and name (cluster_live.c's table of slots): deleted
 * in a scattered order (each deletion moves the last event into its hole and the slots after
 * it back), changed in place, added again.  After each round the cluster holds each event
 * the test keeps exactly once, with its latest message, and no other. */
static cJSON *quota_event_json(int i, int gen)
{
    char buf[512];
    snprintf(buf, sizeof buf,
             "{\"metadata\":{\"name\":\"job-%d.ev\",\"namespace\":\"ns-%d\"},\"reason\":\"FailedCreate\","
             "\"message\":\"exceeded quota: q, requested: requests.nvidia.com/gpu=%d\","
             "\"involvedObject\":{\"kind\":\"Job\",\"name\":\"job-%d\",\"namespace\":\"ns-%d\"}}",
             i, i % 4, gen + 1, i, i % 4);
    return cJSON_Parse(buf);
}

static void test_many_events_by_name(void **state)
{
    (void)state;
    enum { N = 2000 };
    static bool on[N];
    static int gen[N], seen[N];
    Cluster live;
    cluster_init(&live);
    cluster_live_enable(&live);
    ingest(&live, OBJ_NODE, node_json(0, 0));
    for (int i = 0; i < N; i++) { on[i] = true; gen[i] = 0; ingest(&live, OBJ_EVENT, quota_event_json(i, 0)); }
    cluster_finalize(&live);
    cluster_live_loaded(&live);
    for (int round = 0; round < 6; round++) {
        for (int k = 0; k < N; k++) {
            int i = (int)(((unsigned)k * 7919u + (unsigned)round * 131u) % N);
            if ((k + round) % 3 == 0) {                   /* deleted, or added again */
                on[i] = !on[i];
                if (on[i]) gen[i] = round + 1;
                apply(&live, OBJ_EVENT, on[i] ? LIVE_UPSERT : LIVE_DELETE, quota_event_json(i, gen[i]));
            } else if (on[i] && (k + round) % 3 == 1) {   /* changed: the same name again */
                gen[i] = round + 1;
                apply(&live, OBJ_EVENT, LIVE_UPSERT, quota_event_json(i, gen[i]));
            }
        }
        cluster_live_commit(&live);
        memset(seen, 0, sizeof seen);
        size_t want = 0;
        for (int i = 0; i < N; i++) want += on[i];
        assert_int_equal(live.nevents, want);
        for (size_t e = 0; e < live.nevents; e++) {
            int i = -1;
            assert_int_equal(sscanf(live.events[e].name, "job-%d.ev", &i), 1);
            assert_true(i >= 0 && i < N && on[i]);
            char ns[16], msg[128];
            snprintf(ns, sizeof ns, "ns-%d", i % 4);
            snprintf(msg, sizeof msg, "exceeded quota: q, requested: requests.nvidia.com/gpu=%d", gen[i] + 1);
            assert_string_equal(live.events[e].ns, ns);
            assert_string_equal(live.events[e].message, msg);
            seen[i]++;
        }
        for (int i = 0; i < N; i++) assert_int_equal(seen[i], on[i] ? 1 : 0);
    }
    cluster_release(&live);
}

/* a relist of the nodes (after 410 Gone) finalizes in full: the usage of the pods without GPUs
 * is still every node's, though after the list the live cluster keeps only their records (the
 * per-node sums are made from them when needed) */
static void test_relist_nodes_keeps_plain_usage(void **state)
{
    (void)state;
    World w;
    memset(&w, 0, sizeof w);
    w.node_on[0] = w.node_on[1] = true;
    for (int i = 0; i < 9; i++) { w.pod_on[i] = true; w.pod_node[i] = i % 2; w.pod_gpus[i] = i == 4; w.pod_cpu[i] = 250; }
    Cluster live;
    build_fresh(&live, &w, true);
    cluster_live_loaded(&live);
    w.pod_cpu[2] = 750;                               /* a change first: a commit */
    apply(&live, OBJ_POD, LIVE_UPSERT, pod_json(&w, 2));
    cluster_live_commit(&live);
    w.node_gen[1] = 1;
    cluster_live_reset(&live, OBJ_NODE);
    for (int i = 0; i < NNODES; i++) if (w.node_on[i]) apply(&live, OBJ_NODE, LIVE_UPSERT, node_json(i, w.node_gen[i]));
    cluster_live_commit(&live);
    Cluster fresh;
    build_fresh(&fresh, &w, false);
    assert_same(&live, &fresh);
    /* node 0: pods 0, 2 (750m), 4 (GPU), 6, 8 */
    const NodeUsage *u = cluster_node_usage(&live, cluster_find_node(&live, "node-0"));
    assert_non_null(u);
    assert_int_equal(u->pods, 5);
    assert_int_equal(rlist_get(&u->requested, "cpu"), 4 * 250 + 750);
    cluster_release(&fresh);
    cluster_release(&live);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_many_events_by_name),
        cmocka_unit_test(test_relist_nodes_keeps_plain_usage),
        cmocka_unit_test(test_random_sequences_match_a_fresh_list),
        cmocka_unit_test(test_relist_pods),
        cmocka_unit_test(test_relist_events_keeps_quota_refusals),
        cmocka_unit_test(test_pod_churn_keeps_strings_bounded),
        cmocka_unit_test(test_pod_modified_keeps_pool_bounded),
        cmocka_unit_test(test_pod_index_many_deletes),
        cmocka_unit_test(test_plain_records_many_changes),
        cmocka_unit_test(test_first_change_keeps_the_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
