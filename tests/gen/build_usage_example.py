#!/usr/bin/env python3
"""build_usage_example.py — the cluster and the week of usage behind examples/clusters/gpu-week.json.gz.

    build_usage_example.py --cluster OUT.json --spec OUT-usage.json

writes the cluster (a JSON List as kubectl prints it) and the usage spec of
tests/gen/gen_plan_series.py (uniform ranges of memory MiB and utilization % per workload over a
week).  tests/gen/build_usage_example.sh turns them into the snapshot: the series backfilled
into a real Prometheus, the cluster served by the fake API server with that Prometheus behind
its service proxy, and `kubectl gpu snapshot` run against both.  Deterministic.

The fleet (GPU Operator v24.3, ClusterPolicy mig.strategy mixed, every GPU node labelled so by
GFD; MIG off everywhere (mig.config all-disabled, state success); the device-plugin ConfigMap
the ClusterPolicy names holds the one config a node is labelled with):

  a100-01  8x A100 80GB  chat-small x6 (4-7 GB, 2-9 %: nearly empty), embed x2 (14-19 GB, 15-28 %)
  a100-02  8x A100 80GB  rerank x2 (30-36 GB, 20-35 %), finetune (Job, 4 GPUs, 60-76 GB, 85-98 %:
                         busy), jupyter-alice (1 GPU, 1.2-1.5 GB, 0-1 %: idle); 1 GPU free
           -> the small inference workloads on whole A100s are the pool MIG packs well
  h100-01  8x H100       train-llm (Job, 8 GPUs, 70-79 GB, 88-99 %: busy)
  h100-02  8x H100       llm-serve x2 (2 GPUs each, 55-70 GB, 45-75 %), batch-eval (1 GPU, a model
                         loaded, 20-21 GB, 0-2 %: idle), jupyter-bob (1 GPU, 0-1 %: idle); 2 free
  l4-01    4x L4         ocr x4 (1-2.5 GB, 3-12 %: nearly empty; time-slicing or MPS packs them)
  l4-02    4x L4         asr x2 (3-5 GB, 10-25 %); 2 free
  cpu-1, cpu-2           no GPUs
  Pending: research/train-llm-v2 (Job, 4 H100 GPUs by nodeSelector): h100-02 has 2 free.
"""
import argparse
import json
import os
import sys
from datetime import timedelta as td

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from build_examples import (A100_80, H100, L4, GI, gpu_node_labels, gpu_res, job_pod, r, rs_pods,  # noqa: E402
                            sts_pod, TOL_GPU)
from k8s_objects import (NOW, daemonset, kubectl_list, node, pod, container, rv, scheduler_event, ts,  # noqa: E402
                         uid)

WEEK = 7 * 86400


def jupyter(ns, user, *, node_name, gpus, image):
    """a notebook server: a StatefulSet of one pod, as JupyterHub's KubeSpawner does not; here
    a Kubeflow Notebook's StatefulSet"""
    return sts_pod(ns, "jupyter-" + user, 0, node=node_name, requests=r("4", "32Gi", gpu=gpus), image=image,
                   age=td(days=9))


def build():
    nodes, pods, events, dss, svcs = [], [], [], [], []
    ip = iter("10.1.%d.%d" % (i // 200, 10 + i % 200) for i in range(1000))
    for n in ("cpu-1", "cpu-2"):
        nodes.append(node(n, instance="m6i.4xlarge", zone="us-west-2a", cpu=16, mem_ki=64 * GI, ip=next(ip),
                          age_days=300))
    for n in ("a100-01", "a100-02"):
        nodes.append(node(n, instance="p4d.24xlarge", zone="us-west-2b", cpu=96, mem_ki=1152 * GI, ip=next(ip),
                          gpu_cap=gpu_res(gpu=8),
                          labels=gpu_node_labels(A100_80, 8, machine="p4d.24xlarge", mig_strategy="mixed",
                                                 mig_capable=True, mig_config="all-disabled", mig_state="success",
                                                 dp_config="a100-mixed"),
                          age_days=200))
    for n in ("h100-01", "h100-02"):
        nodes.append(node(n, instance="p5.48xlarge", zone="us-west-2c", cpu=192, mem_ki=2048 * GI, ip=next(ip),
                          gpu_cap=gpu_res(gpu=8),
                          labels=gpu_node_labels(H100, 8, machine="p5.48xlarge", mig_strategy="mixed",
                                                 mig_capable=True, mig_config="all-disabled", mig_state="success"),
                          age_days=120))
    for n in ("l4-01", "l4-02"):
        nodes.append(node(n, instance="g6.12xlarge", zone="us-west-2a", cpu=48, mem_ki=192 * GI, ip=next(ip),
                          gpu_cap=gpu_res(gpu=4),
                          labels=gpu_node_labels(L4, 4, machine="g6.12xlarge", mig_strategy="mixed"),
                          age_days=90))

    img = "registry.example.com/ml/"
    week = td(days=8)
    pods += rs_pods("inference", "chat-small", 6, node="a100-01", requests=r("4", "24Gi", gpu=1),
                    image=img + "chat-small:2.3", age=week)
    pods += rs_pods("inference", "embed", 2, node="a100-01", requests=r("4", "24Gi", gpu=1),
                    image=img + "embed:1.9", age=week)
    pods += [sts_pod("search", "rerank", i, node="a100-02", requests=r("8", "48Gi", gpu=1),
                     image=img + "rerank:0.7", age=week) for i in range(2)]
    pods.append(job_pod("research", "finetune", node="a100-02", requests=r("32", "256Gi", gpu=4),
                        image=img + "finetune:5.1", age=week))
    pods.append(jupyter("team-a", "alice", node_name="a100-02", gpus=1, image="kubeflownotebookswg/jupyter-pytorch-cuda:v1.8.0"))
    pods.append(job_pod("research", "train-llm", node="h100-01", requests=r("96", "1024Gi", gpu=8),
                        image=img + "train-llm:3.0", age=week))
    pods += rs_pods("inference", "llm-serve", 2, node="h100-02", requests=r("16", "128Gi", gpu=2),
                    image=img + "llm-serve:1.2", age=week)
    pods += rs_pods("eval", "batch-eval", 1, node="h100-02", requests=r("8", "64Gi", gpu=1),
                    image=img + "batch-eval:0.4", age=week)
    pods.append(jupyter("team-b", "bob", node_name="h100-02", gpus=1, image="kubeflownotebookswg/jupyter-pytorch-cuda:v1.8.0"))
    pods += rs_pods("vision", "ocr", 4, node="l4-01", requests=r("2", "8Gi", gpu=1), image=img + "ocr:4.0", age=week)
    pods += rs_pods("speech", "asr", 2, node="l4-02", requests=r("4", "16Gi", gpu=1), image=img + "asr:2.2", age=week)

    # the pending Job: 4 H100s; h100-01 is full, h100-02 has 2 free
    pend = job_pod("research", "train-llm-v2", node=None, phase="Pending", requests=r("48", "512Gi", gpu=4),
                   image=img + "train-llm:3.1", age=td(minutes=40),
                   node_selector={"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"},
                   scheduled_msg="0/8 nodes are available: 2 Insufficient nvidia.com/gpu, 6 node(s) didn't match "
                                 "Pod's node affinity/selector. preemption: 0/8 nodes are available: 2 No preemption "
                                 "victims found for incoming pod, 6 Preemption is not helpful for scheduling.")
    pods.append(pend)
    events.append(scheduler_event("research", pend["metadata"]["name"],
                                  "0/8 nodes are available: 2 Insufficient nvidia.com/gpu, 6 node(s) didn't match "
                                  "Pod's node affinity/selector. preemption: 0/8 nodes are available: 2 No preemption "
                                  "victims found for incoming pod, 6 Preemption is not helpful for scheduling.",
                                  first_ago=td(minutes=40), last_ago=td(minutes=2), count=12))

    # the GPU Operator's operands, all ready on the 6 GPU nodes (MPS control daemon: none is MPS-capable)
    op = [("nvidia-driver-daemonset", "nvidia-driver-daemonset", "driver", "nvcr.io/nvidia/driver:550.90.07-ubuntu22.04"),
          ("nvidia-container-toolkit-daemonset", "nvidia-container-toolkit-daemonset", "container-toolkit",
           "nvcr.io/nvidia/k8s/container-toolkit:v1.15.0-ubuntu20.04"),
          ("nvidia-device-plugin-daemonset", "nvidia-device-plugin-daemonset", "device-plugin",
           "nvcr.io/nvidia/k8s-device-plugin:v0.15.0-ubi8"),
          ("gpu-feature-discovery", "gpu-feature-discovery", "gpu-feature-discovery",
           "nvcr.io/nvidia/k8s-device-plugin:v0.15.0-ubi8"),
          ("nvidia-dcgm-exporter", "nvidia-dcgm-exporter", "dcgm-exporter",
           "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04"),
          ("nvidia-mig-manager", "nvidia-mig-manager", "mig-manager", "nvcr.io/nvidia/cloud-native/k8s-mig-manager:v0.7.0-ubuntu20.04"),
          ("nvidia-operator-validator", "nvidia-operator-validator", "operator-validator",
           "nvcr.io/nvidia/cloud-native/gpu-operator-validator:v24.3.0")]
    for name, app, deploy, image in op:
        mig_only = deploy == "mig-manager"
        n = 4 if mig_only else 6                     # MIG manager: the MIG-capable nodes only
        nsel = {"nvidia.com/gpu.deploy." + deploy: "true"}
        if mig_only:
            nsel["nvidia.com/mig.capable"] = "true"
        dss.append(daemonset("gpu-operator", name, app_label=app, desired=n, ready=n, image=image, age_days=200,
                             labels={"app.kubernetes.io/managed-by": "gpu-operator",
                                     "helm.sh/chart": "gpu-operator-v24.3.0"}, node_selector=nsel))

    # kube-prometheus-stack's Prometheus, which scrapes the DCGM exporters (ServiceMonitor)
    svcs.append({"apiVersion": "v1", "kind": "Service",
                 "metadata": {"creationTimestamp": ts(td(days=300)), "name": "kube-prometheus-stack-prometheus",
                              "namespace": "monitoring", "resourceVersion": rv("svc", "prom"),
                              "uid": uid("Service", "monitoring", "kps"),
                              "labels": {"app": "kube-prometheus-stack-prometheus", "release": "kube-prometheus-stack",
                                         "self-monitor": "true"}},
                 "spec": {"clusterIP": "10.96.31.7", "clusterIPs": ["10.96.31.7"], "type": "ClusterIP",
                          "ports": [{"name": "http-web", "port": 9090, "protocol": "TCP", "targetPort": 9090},
                                    {"name": "reloader-web", "port": 8080, "protocol": "TCP", "targetPort": "reloader-web"}],
                          "selector": {"app.kubernetes.io/name": "prometheus",
                                       "operator.prometheus.io/name": "kube-prometheus-stack-prometheus"}},
                 "status": {"loadBalancer": {}}})

    cp = {
        "apiVersion": "nvidia.com/v1", "kind": "ClusterPolicy",
        "metadata": {"creationTimestamp": ts(td(days=200)), "generation": 4, "name": "cluster-policy",
                     "resourceVersion": rv("cp", "week"), "uid": uid("ClusterPolicy", "week"),
                     "labels": {"app.kubernetes.io/component": "gpu-operator", "app.kubernetes.io/managed-by": "Helm"}},
        "spec": {
            "daemonsets": {"priorityClassName": "system-node-critical", "updateStrategy": "RollingUpdate"},
            "dcgmExporter": {"enabled": True, "serviceMonitor": {"enabled": True, "interval": "15s"}},
            "devicePlugin": {"enabled": True, "config": {"name": "device-plugin-config", "default": ""}},
            "driver": {"enabled": True},
            "gfd": {"enabled": True},
            "mig": {"strategy": "mixed"},
            "migManager": {"enabled": True, "config": {"name": "default-mig-parted-config", "default": "all-disabled"}},
            "operator": {"defaultRuntime": "containerd"},
            "toolkit": {"enabled": True},
        },
        "status": {"conditions": [{"lastTransitionTime": ts(td(days=20)), "message": "", "reason": "Ready",
                                   "status": "True", "type": "Ready"}],
                   "namespace": "gpu-operator", "state": "ready"},
    }
    dpcm = {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"creationTimestamp": ts(td(days=150)), "name": "device-plugin-config",
                         "namespace": "gpu-operator", "resourceVersion": rv("cm-dp", "week"),
                         "uid": uid("ConfigMap", "week", "device-plugin-config")},
            "data": {"a100-mixed": "version: v1\nflags:\n  migStrategy: mixed\n"}}
    _ = (pod, container, TOL_GPU)     # (helpers re-exported for readers of this file)
    return kubectl_list(nodes + pods + events + dss + svcs + [cp, dpcm])


SPEC = {
    "comment": "A week of usage of the workloads of tests/gen/build_usage_example.py (uniform ranges: memory MiB, utilization %).",
    "end": int(NOW.timestamp()),
    "planWindow": WEEK,
    "percentile": 95,
    "workloads": [
        {"namespace": "inference", "name": "chat-small", "mem": [4000, 7000], "util": [2, 9]},
        {"namespace": "inference", "name": "embed", "mem": [14000, 19000], "util": [15, 28]},
        {"namespace": "search", "name": "rerank", "mem": [30000, 36000], "util": [20, 35]},
        {"namespace": "research", "name": "finetune", "mem": [60000, 76000], "util": [85, 98]},
        {"namespace": "team-a", "name": "jupyter-alice", "mem": [1200, 1500], "util": [0, 1]},
        {"namespace": "research", "name": "train-llm", "mem": [70000, 79000], "util": [88, 99]},
        {"namespace": "inference", "name": "llm-serve", "mem": [55000, 70000], "util": [45, 75]},
        {"namespace": "eval", "name": "batch-eval", "mem": [20000, 21000], "util": [0, 2]},
        {"namespace": "team-b", "name": "jupyter-bob", "mem": [800, 1000], "util": [0, 1]},
        {"namespace": "vision", "name": "ocr", "mem": [1000, 2500], "util": [3, 12]},
        {"namespace": "speech", "name": "asr", "mem": [3000, 5000], "util": [10, 25]},
    ],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cluster", required=True)
    ap.add_argument("--spec", required=True)
    a = ap.parse_args()
    with open(a.cluster, "w", encoding="utf-8") as f:
        json.dump(build(), f, indent=1, sort_keys=True)
    with open(a.spec, "w", encoding="utf-8") as f:
        json.dump(SPEC, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
