/* Unit tests: what `top` keeps between refreshes (tui/tui_data.c) — the pending pane's rows
 * (top_cluster_explain_pending): the same rows as explain_pending_rows, slim, their summaries
 * one copy per distinct text (issue 35: 2,143 pods of the full training cluster had each its
 * own copy of one 8 KB verdict); and the shared TopShown of a refresh. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/cluster.h"
#include "model_fixture.h"
#include "util/error.h"
#include "util/strpool.h"
#include "analysis/explain.h"
#include "tui/tui.h"


static void add_node(Cluster *c, const char *name, int gpus)
{
    char buf[2048];
    snprintf(buf, sizeof buf,
             "{\"kind\":\"Node\",\"metadata\":{\"name\":\"%s\",\"labels\":{\"nvidia.com/gpu.present\":\"true\","
             "\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\",\"nvidia.com/gpu.count\":\"%d\"}},\"spec\":{},"
             "\"status\":{\"allocatable\":{\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\",\"nvidia.com/gpu\":\"%d\"},"
             "\"capacity\":{\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\",\"nvidia.com/gpu\":\"%d\"},"
             "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}",
             name, gpus, gpus, gpus);
    fixture_ingest(c, buf);
}

/* a pod of Job job in namespace ml asking for gpus GPUs; node NULL: pending */
static void add_pod(Cluster *c, const char *name, const char *job, const char *node, int gpus)
{
    char buf[2048];
    snprintf(buf, sizeof buf,
             "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"ml\",\"uid\":\"u-%s\","
             "\"ownerReferences\":[{\"kind\":\"Job\",\"name\":\"%s\",\"controller\":true}]},"
             "\"spec\":{%s%s%s\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"%d\"}}}]},"
             "\"status\":{\"phase\":\"%s\"}}",
             name, name, job, node ? "\"nodeName\":\"" : "", node ? node : "", node ? "\"," : "", gpus,
             node ? "Running" : "Pending");
    fixture_ingest(c, buf);
}

/* two nodes of 4 GPUs, 3 held on each; Job big's 3 pods ask for 2 (no node has 2 free: one
 * verdict, one summary), Job small's pod for 8 (no node has 8: another) */
static TopCluster *queue_cluster(void)
{
    TopCluster *tc = top_cluster_new();
    Cluster *c = &tc->cluster;
    add_node(c, "n1", 4);
    add_node(c, "n2", 4);
    add_pod(c, "run-1", "old", "n1", 3);
    add_pod(c, "run-2", "old", "n2", 3);
    add_pod(c, "big-a", "big", NULL, 2);
    add_pod(c, "big-b", "big", NULL, 2);
    add_pod(c, "big-c", "big", NULL, 2);
    add_pod(c, "small-a", "small", NULL, 8);
    cluster_finalize(c);
    return tc;
}

static const Explanation *row(const TopCluster *tc, const char *name)
{
    for (size_t i = 0; i < tc->pending.n; i++)
        if (strcmp(tc->pending.items[i].name, name) == 0) return &tc->pending.items[i];
    fail_msg("no pending row %s", name);
    return NULL;
}

static void test_pane_rows_are_explain_pending_rows(void **state)
{
    (void)state;
    TopCluster *tc = queue_cluster();
    top_cluster_explain_pending(tc, NULL);
    ExplanationList ref;
    explain_pending_rows(&tc->cluster, NULL, &ref);
    /* the same rows in the same order, with what a row and the detail pane print */
    assert_int_equal(tc->pending.n, 4);
    assert_int_equal(tc->pending.n, ref.n);
    for (size_t i = 0; i < ref.n; i++) {
        const Explanation *a = &tc->pending.items[i], *b = &ref.items[i];
        assert_string_equal(a->ns, b->ns);
        assert_string_equal(a->name, b->name);
        assert_int_equal(a->verdict, b->verdict);
        assert_int_equal(a->agrees, b->agrees);
        assert_non_null(b->summary);
        assert_string_equal(a->summary, b->summary);
        assert_int_equal(a->requests.n, b->requests.n);
        /* slim, as explain_pending_rows: no per-node results, notes or fixes kept */
        assert_int_equal(a->nnodes, 0);
        assert_int_equal(a->notes.n, 0);
        assert_int_equal(a->fixes.n, 0);
    }
    explanation_list_clear(&ref);
    top_cluster_unref(tc);
}

static void test_pane_summaries_shared(void **state)
{
    (void)state;
    TopCluster *tc = queue_cluster();
    top_cluster_explain_pending(tc, NULL);
    const Explanation *a = row(tc, "big-a"), *b = row(tc, "big-b"), *c = row(tc, "big-c"), *s = row(tc, "small-a");
    /* big's pods: one verdict, so one summary, held once (the same pointer) in the pool */
    assert_string_equal(a->summary, b->summary);
    assert_ptr_equal(a->summary, b->summary);
    assert_ptr_equal(a->summary, c->summary);
    assert_true(strpool_owns(tc->pending.strings, a->summary));
    /* small's asks for more than a node has: another text, its own copy */
    assert_string_not_equal(a->summary, s->summary);
    assert_true(strpool_owns(tc->pending.strings, s->summary));
    /* the rows' names, owners and requests are the pool's too (test_explain: shared per intent) */
    assert_true(strpool_owns(tc->pending.strings, a->name));
    assert_true(a->requests.n && strpool_owns(tc->pending.strings, a->requests.items));
    /* made again (a watch event): the old rows and their pool go first, the new are the same */
    char *before = strdup(a->summary);
    top_cluster_explain_pending(tc, NULL);
    assert_int_equal(tc->pending.n, 4);
    assert_string_equal(row(tc, "big-c")->summary, before);
    assert_ptr_equal(row(tc, "big-a")->summary, row(tc, "big-c")->summary);
    free(before);
    /* -n another namespace: no rows */
    top_cluster_explain_pending(tc, "other");
    assert_int_equal(tc->pending.n, 0);
    assert_null(tc->pending.items);
    explanation_list_clear(&tc->pending);
    assert_null(tc->pending.strings);
    top_cluster_unref(tc);                       /* ASan: nothing left behind, nothing freed twice */
}

/* a TopShown lives while a TopData points at it; clearing it for a rebuild empties it */
static void test_shown_shared(void **state)
{
    (void)state;
    TopShown *ts = top_shown_new();
    ts->usage.source = strdup("none");
    TopShown *second = top_shown_ref(ts);
    assert_ptr_equal(second, ts);
    top_shown_unref(ts);                          /* one reference left: still there */
    assert_string_equal(second->usage.source, "none");
    top_shown_clear(second, false);
    assert_string_equal(second->usage.source, "none");   /* the usage kept */
    top_shown_clear(second, true);
    assert_null(second->usage.source);
    top_shown_unref(second);
    top_shown_unref(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pane_rows_are_explain_pending_rows),
        cmocka_unit_test(test_pane_summaries_shared),
        cmocka_unit_test(test_shown_shared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
