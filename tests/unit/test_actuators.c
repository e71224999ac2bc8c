/* Unit tests: who acts on the plan (model/actuators.h) from the reduced DaemonSets, the
 * ClusterPolicy and node labels: the device plugin by image under any name and registry (GPU
 * Feature Discovery, same image, is not it), config-manager, the mounted ConfigMap, the Helm
 * labels; the MIG manager; clouds by node-pool labels. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "model/actuators.h"
#include "model/cluster.h"
#include "util/error.h"

static void ingest(Cluster *c, const char *json)
{
    cJSON *j = cJSON_Parse(json);
    if (!j) fail_msg("bad test JSON: %s", json);
    Error e = { 0 };
    if (cluster_ingest(c, OBJ__COUNT, j, &e) < 0) fail_msg("ingest: %s", e.msg);
    cJSON_Delete(j);
}

/* the Helm chart's DaemonSet at v0.17.0, reduced to what matters here, under a mirror
 * registry and a release name of the user's (deployments/helm/nvidia-device-plugin/templates/
 * daemonset-device-plugin.yml:58-132, 245-251; _helpers.tpl:49-56) */
static const char HELM_DS[] =
    "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"gpu-dp\",\"namespace\":\"infra\","
    "\"labels\":{\"app.kubernetes.io/managed-by\":\"Helm\",\"helm.sh/chart\":\"nvidia-device-plugin-0.17.0\","
    "\"app.kubernetes.io/instance\":\"gpu-dp\"}},\"spec\":{\"template\":{\"spec\":{"
    "\"initContainers\":[{\"name\":\"nvidia-device-plugin-init\",\"image\":\"registry.local:5000/mirror/k8s-device-plugin:v0.17.0\","
    "\"command\":[\"config-manager\"],\"env\":[{\"name\":\"DEFAULT_CONFIG\",\"value\":\"base\"},"
    "{\"name\":\"CONFIG_FILE_SRCDIR\",\"value\":\"/available-configs\"},{\"name\":\"NODE_NAME\",\"valueFrom\":{}}],"
    "\"volumeMounts\":[{\"name\":\"available-configs\",\"mountPath\":\"/available-configs\"}]}],"
    "\"containers\":[{\"name\":\"nvidia-device-plugin-sidecar\",\"image\":\"registry.local:5000/mirror/k8s-device-plugin:v0.17.0\","
    "\"command\":[\"config-manager\"]},{\"name\":\"nvidia-device-plugin-ctr\",\"image\":\"registry.local:5000/mirror/k8s-device-plugin:v0.17.0\","
    "\"env\":[{\"name\":\"CONFIG_FILE\",\"value\":\"/config/config.yaml\"},{\"name\":\"SECRET_TOKEN\",\"value\":\"s3cr3t\"}]}],"
    "\"volumes\":[{\"name\":\"other\",\"configMap\":{\"name\":\"unrelated\"}},"
    "{\"name\":\"available-configs\",\"configMap\":{\"name\":\"my-dp-configs\"}}]}}}}";

static const char GFD_DS[] =
    "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"gpu-dp-gpu-feature-discovery\",\"namespace\":\"infra\"},"
    "\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"gpu-feature-discovery-ctr\","
    "\"image\":\"nvcr.io/nvidia/k8s-device-plugin:v0.17.0\",\"command\":[\"gpu-feature-discovery\"]}]}}}}";

static void test_helm_mirror(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    ingest(&c, GFD_DS);
    ingest(&c, HELM_DS);
    Actuators a;
    actuators_detect(&a, &c);
    assert_int_equal(a.dp.by, ACTUATOR_HELM);
    assert_string_equal(a.dp.daemonset, "gpu-dp");          /* not GFD, though it comes first */
    assert_string_equal(a.dp.ns, "infra");
    assert_true(a.dp.config_manager);
    assert_string_equal(a.dp.configmap, "my-dp-configs");    /* the one at CONFIG_FILE_SRCDIR */
    assert_string_equal(a.dp.default_config, "base");
    assert_string_equal(a.dp.version, "v0.17.0");
    assert_string_equal(a.dp.helm_release, "gpu-dp");
    assert_int_equal(a.mig.by, ACTUATOR_NONE);
    assert_true(actuators_reads_dp_label(&a));
    assert_false(actuators_reads_mig_label(&a));
    /* only the config-selection env values are kept */
    assert_null(kv_get(&a.dp.ds->env, "SECRET_TOKEN"));
    cluster_release(&c);
}

static void test_static_and_mig_manager(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    ingest(&c, "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"nvidia-device-plugin-daemonset\","
               "\"namespace\":\"kube-system\"},\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"nvidia-device-plugin-ctr\","
               "\"image\":\"nvcr.io/nvidia/k8s-device-plugin@sha256:00\",\"env\":[{\"name\":\"CONFIG_FILE\",\"value\":\"/etc/dp/config.yaml\"}],"
               "\"volumeMounts\":[{\"name\":\"cfg\",\"mountPath\":\"/etc/dp/\"}]}],"
               "\"volumes\":[{\"name\":\"cfg\",\"configMap\":{\"name\":\"dp-config\"}}]}}}}");
    ingest(&c, "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"mig-parted\",\"namespace\":\"ops\"},"
               "\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"m\",\"image\":\"nvcr.io/nvidia/cloud-native/k8s-mig-manager:v0.12.1-ubuntu20.04\"}]}}}}");
    Actuators a;
    actuators_detect(&a, &c);
    assert_int_equal(a.dp.by, ACTUATOR_MANIFEST);
    assert_false(a.dp.config_manager);
    assert_string_equal(a.dp.configmap, "dp-config");
    assert_string_equal(a.dp.config_key, "config.yaml");
    assert_null(a.dp.version);                               /* digest only */
    assert_int_equal(a.mig.by, ACTUATOR_STANDALONE);
    assert_string_equal(a.mig.daemonset, "mig-parted");
    assert_false(actuators_reads_dp_label(&a));
    assert_true(actuators_reads_mig_label(&a));
    cluster_release(&c);
}

static void test_operator_and_cloud(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    ingest(&c, "{\"apiVersion\":\"nvidia.com/v1\",\"kind\":\"ClusterPolicy\",\"metadata\":{\"name\":\"cp\"},"
               "\"spec\":{\"migManager\":{\"enabled\":false},\"devicePlugin\":{\"config\":{\"name\":\"tsc\",\"default\":\"any\"}}},"
               "\"status\":{\"state\":\"ready\",\"namespace\":\"gpu-operator\"}}");
    Actuators a;
    actuators_detect(&a, &c);
    assert_int_equal(a.dp.by, ACTUATOR_GPU_OPERATOR);
    assert_string_equal(a.dp.configmap, "tsc");
    assert_string_equal(a.dp.default_config, "any");
    assert_int_equal(a.mig.by, ACTUATOR_NONE);               /* migManager.enabled: false */
    cluster_release(&c);

    cluster_init(&c);
    ingest(&c, "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"gke-1\",\"labels\":{"
               "\"cloud.google.com/gke-nodepool\":\"gpu\",\"cloud.google.com/gke-accelerator\":\"nvidia-l4\"}},"
               "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"1\"},\"allocatable\":{\"nvidia.com/gpu\":\"1\"}}}");
    cluster_finalize(&c);
    actuators_detect(&a, &c);
    assert_int_equal(a.dp.by, ACTUATOR_GKE);
    assert_int_equal(a.mig.by, ACTUATOR_CLOUD);
    const char *pool = NULL;
    assert_int_equal(actuators_node_cloud(&c.nodes[0], &pool), ACTUATOR_GKE);
    assert_string_equal(pool, "gpu");
    cluster_release(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_helm_mirror), cmocka_unit_test(test_static_and_mig_manager),
        cmocka_unit_test(test_operator_and_cloud),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
