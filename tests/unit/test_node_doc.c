/* A node's document (render/node_doc.h), the one that top draws as its node pane and node
 * screen, printed to a stream: field labels read "Node:" there, and every line holds the
 * facts of the status analysis for a small cluster built here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "analysis/allocation.h"
#include "model/cluster.h"
#include "render/node_doc.h"
#include "render/textdoc.h"
#include "util/error.h"

static void ingest(Cluster *c, const char *text)
{
    char *s = xstrdup(text);
    for (char *p = s; *p; p++) if (*p == '\'') *p = '"';
    cJSON *j = cJSON_Parse(s);
    if (!j) fail_msg("bad test JSON: %s", s);
    Error err = { 0 };
    assert_int_equal(cluster_ingest(c, OBJ__COUNT, j, &err), 0);
    cJSON_Delete(j);
    free(s);
}

static char *printed(const TextDoc *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(text_doc_print(d, f, false), 0);
    fclose(f);
    return buf;
}

/* a T4 node (GFD labels: 1 GPU of 15360 MiB) whose one GPU pod a/p1 holds */
static void build(Cluster *c, GpuStatus *st)
{
    cluster_init(c);
    ingest(c, "{'apiVersion':'v1','kind':'Node','metadata':{'name':'t4-01','labels':{"
              "'nvidia.com/gpu.product':'Tesla-T4','nvidia.com/gpu.count':'1','nvidia.com/gpu.memory':'15360'}},"
              "'spec':{},'status':{'capacity':{'nvidia.com/gpu':'1'},'allocatable':{'nvidia.com/gpu':'1'},"
              "'conditions':[{'type':'Ready','status':'True'}]}}");
    ingest(c, "{'apiVersion':'v1','kind':'Pod','metadata':{'namespace':'a','name':'p1'},'spec':{'nodeName':'t4-01',"
              "'containers':[{'name':'c','resources':{'requests':{'nvidia.com/gpu':'1'},'limits':{'nvidia.com/gpu':'1'}}}]},"
              "'status':{'phase':'Running'}}");
    cluster_finalize(c);
    status_build(st, c, NULL, NULL);
    assert_int_equal(st->ngpu_node_list, 1);
}

static void test_node_screen(void **state)
{
    (void)state;
    Cluster c;
    GpuStatus st;
    build(&c, &st);
    NodeDocData nd = { &st, NULL, &c };
    TextDoc d;
    text_init(&d, TEXT_NO_WRAP);
    node_doc(&d, &nd, &st.gpu_node_list[0], "t4-01");
    char *s = printed(&d);
    /* labels take 12 columns: "Node:" and 7 spaces */
    assert_non_null(strstr(s, "Node:       t4-01\n"));
    assert_non_null(strstr(s, "Product:    Tesla-T4\n"));
    assert_non_null(strstr(s, "GPUs:       1 physical, 15Gi each, 15Gi in all\n"));   /* 15360 MiB */
    assert_non_null(strstr(s, "Taints:     none\n"));
    assert_non_null(strstr(s, "PODS HOLDING GPUS (1)\n"));
    assert_non_null(strstr(s, "  a/p1"));
    free(s);
    text_clear(&d);
    /* the pane: labels of 11 columns, the resource as allocated/allocatable */
    text_init(&d, TEXT_NO_WRAP);
    node_doc_pane(&d, &nd, &st.gpu_node_list[0]);
    s = printed(&d);
    assert_non_null(strstr(s, "Resources: gpu 1/1"));
    assert_non_null(strstr(s, "Pods (1):  a/p1  gpu 1"));
    free(s);
    text_clear(&d);
    /* a node gone since: says so */
    text_init(&d, TEXT_NO_WRAP);
    node_doc(&d, &nd, NULL, "t4-09");
    s = printed(&d);
    assert_non_null(strstr(s, "Node t4-09 is no longer among the GPU nodes"));
    free(s);
    text_clear(&d);
    status_clear(&st);
    cluster_release(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_node_screen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
