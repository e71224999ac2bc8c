#!/usr/bin/env python3
"""build_examples.py — writes the hand-designed example clusters:

    examples/clusters/mixed-fleet.json   17 nodes: every GPU situation status must get right
    examples/clusters/small.json         2 GPU nodes + 1 CPU node, device plugin without operator

Each file is a JSON List exactly as `kubectl get nodes,pods,events,resourcequotas,daemonsets -A
-o json` prints it (keys sorted, 4-space indent), plus the ClusterPolicy (nvidia.com/v1) for the
mixed fleet.  The design of each cluster (what every node and pod is for) is written below next
to the objects; tests/cases/status/*.case redo the arithmetic by hand in their comments.

Usage: tests/gen/build_examples.py [--out-dir examples/clusters]
Deterministic: the output is byte-identical on every run.
"""
import argparse
import json
import os
import sys
from datetime import timedelta as td

sys.dont_write_bytecode = True          # no __pycache__ in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from k8s_objects import (container, core_event, daemonset, gfd_labels, kubectl_list, nfd_labels,  # noqa: E402
                         node, operator_labels, pod, resource_quota, scheduler_event, suffix5, ts, uid,
                         rv, hexid)

GI = 1024 * 1024  # KiB per GiB

# ------------------------------------------------------------------ GPU models (GFD facts)
A100_80 = dict(product="NVIDIA-A100-SXM4-80GB", memory=81920, family="ampere", cc=(8, 0))
A100_40 = dict(product="NVIDIA-A100-SXM4-40GB", memory=40960, family="ampere", cc=(8, 0))
H100 = dict(product="NVIDIA-H100-80GB-HBM3", memory=81559, family="hopper", cc=(9, 0))
T4 = dict(product="Tesla-T4", memory=15360, family="turing", cc=(7, 5))
A10G = dict(product="NVIDIA-A10G", memory=23028, family="ampere", cc=(8, 6))
L4 = dict(product="NVIDIA-L4", memory=23034, family="ada-lovelace", cc=(8, 9))
V100 = dict(product="Tesla-V100-SXM2-16GB", memory=16160, family="volta", cc=(7, 0))

# A100 80GB MIG devices (gfd-labels.md §3, driver 550 values for the SXM4 part)
MIG_1G10 = dict(memory=9728, sm=14, gi=1, engines=(1, 0, 0, 0, 0))
MIG_2G20 = dict(memory=19968, sm=28, gi=2, engines=(2, 1, 0, 0, 0))
MIG_3G40 = dict(memory=40192, sm=42, gi=3, engines=(3, 2, 0, 0, 0))


def gpu_node_labels(model, count, *, machine, replicas=1, sharing="none", mig_strategy="single",
                    mig_capable=False, mps_capable=False, mig_devices=None, single=None,
                    product=None, mig_config=None, mig_state=None, dp_config=None, extra=None):
    lab = {}
    lab.update(nfd_labels())
    lab.update(gfd_labels(product or model["product"], count, model["memory"], model["family"], model["cc"],
                          replicas=replicas, sharing=sharing, mig_strategy=mig_strategy,
                          mig_capable=mig_capable, mps_capable=mps_capable, mig_devices=mig_devices,
                          single=single, machine=machine))
    lab.update(operator_labels(mig_capable=mig_capable, mig_config=mig_config, mig_state=mig_state))
    if dp_config:
        lab["nvidia.com/device-plugin.config"] = dp_config
    lab.update(extra or {})
    return lab


def gpu_res(**kw):
    """gpu_res(gpu=8, mig_1g_10gb=16) -> {"nvidia.com/gpu": "8", "nvidia.com/mig-1g.10gb": "16"}"""
    out = {}
    for k, v in kw.items():
        if k == "gpu":
            name = "nvidia.com/gpu"
        elif k == "gpu_shared":
            name = "nvidia.com/gpu.shared"
        else:   # mig_1g_10gb -> nvidia.com/mig-1g.10gb
            p = k[4:].split("_")
            name = "nvidia.com/mig-%s.%s" % (p[0], p[1])
        out[name] = str(v)
    return out


TAINT_TRAINING = {"effect": "NoSchedule", "key": "dedicated", "value": "training"}
TOL_TRAINING = {"effect": "NoSchedule", "key": "dedicated", "operator": "Equal", "value": "training"}
TOL_GPU = {"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}


def r(cpu, mem, **gpus):
    d = {"cpu": cpu, "memory": mem}
    d.update(gpu_res(**gpus))
    return d


def rs_pods(ns, deploy, n, *, node, requests, image, age=td(days=2), ports=None, labels=None, **kw):
    """n pods of a Deployment (one ReplicaSet)"""
    hash_ = hexid(10, "rs", ns, deploy)[:9].replace("a", "7").replace("e", "5")
    rsname = "%s-%s" % (deploy, hash_)
    out = []
    for i in range(n):
        name = "%s-%s" % (rsname, suffix5(ns, deploy, str(i)))
        lab = {"app": deploy, "pod-template-hash": hash_}
        lab.update(labels or {})
        out.append(pod(ns, name, node=node, owner=("ReplicaSet", rsname), labels=lab, age=age,
                       containers=[container(deploy.split("-")[0], image, requests=requests, ports=ports)], **kw))
    return out


def job_pod(ns, job, *, node, requests, image, phase="Running", age=td(hours=3), init=None, extra_containers=None,
            tolerations=None, **kw):
    name = "%s-%s" % (job, suffix5("job", ns, job))
    lab = {"batch.kubernetes.io/controller-uid": uid("Job", ns, job), "batch.kubernetes.io/job-name": job,
           "controller-uid": uid("Job", ns, job), "job-name": job}
    cs = [container(job.split("-")[0], image, requests=requests)] + (extra_containers or [])
    return pod(ns, name, node=node, phase=phase, owner=("Job", job), labels=lab, age=age, containers=cs,
               init=init, tolerations=tolerations, **kw)


def sts_pod(ns, sts, i, *, node, requests, image, age=td(days=1), init=None, extra_containers=None,
            tolerations=None, **kw):
    name = "%s-%d" % (sts, i)
    lab = {"app": sts, "apps.kubernetes.io/pod-index": str(i),
           "controller-revision-hash": "%s-%s" % (sts, hexid(10, "crh", ns, sts)),
           "statefulset.kubernetes.io/pod-name": name}
    cs = [container(sts.split("-")[0], image, requests=requests)] + (extra_containers or [])
    return pod(ns, name, node=node, owner=("StatefulSet", sts), labels=lab, age=age, containers=cs, init=init,
               tolerations=tolerations, **kw)


def pytorch_pod(ns, job, role, i, *, node, requests, image, phase="Running", age=td(hours=20), **kw):
    name = "%s-%s-%d" % (job, role, i)
    lab = {"training.kubeflow.org/job-name": job, "training.kubeflow.org/operator-name": "pytorchjob-controller",
           "training.kubeflow.org/replica-index": str(i), "training.kubeflow.org/replica-type": role}
    return pod(ns, name, node=node, phase=phase, owner=("PyTorchJob", job), labels=lab, age=age,
               containers=[container("pytorch", image, requests=requests,
                                     env=[("MASTER_PORT", "23456"), ("WORLD_SIZE", "8"), ("RANK", str(i))])],
               **kw)


def ds_pod(ns, ds, node_name, *, image, app=None, phase="Running", waiting=None, restarts=0, requests=None):
    name = "%s-%s" % (ds, suffix5("ds", ns, ds, node_name))
    lab = {"app": app or ds, "controller-revision-hash": hexid(10, "dsrev", ns, ds),
           "pod-template-generation": "3"}
    p = pod(ns, name, node=node_name, phase=phase, owner=("DaemonSet", ds), labels=lab, age=td(days=20),
            containers=[container(ds.split("-")[-1], image, requests=requests or {"cpu": "50m", "memory": "64Mi"})],
            tolerations=[TOL_GPU], priority_class="system-node-critical", priority=2000001000,
            restarts=restarts, waiting_reason=waiting)
    p["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node_name]}]}]}}}
    if waiting == "CrashLoopBackOff":
        cs = p["status"]["containerStatuses"][0]
        cs["ready"] = False
        cs["started"] = False
        cs["state"] = {"waiting": {"message": "back-off 5m0s restarting failed container=%s pod=%s_%s(%s)"
                                   % (cs["name"], name, ns, p["metadata"]["uid"]), "reason": "CrashLoopBackOff"}}
        cs["lastState"] = {"terminated": {"containerID": cs["containerID"], "exitCode": 1,
                                          "finishedAt": ts(td(minutes=3)), "reason": "Error",
                                          "startedAt": ts(td(minutes=3, seconds=2))}}
        for c in p["status"]["conditions"]:
            if c["type"] in ("Ready", "ContainersReady"):
                c["status"] = "False"
                c["reason"] = "ContainersNotReady"
                c["message"] = "containers with unready status: [%s]" % cs["name"]
    return p


# ================================================================== mixed-fleet.json
def mixed_fleet():
    nodes, pods, events, quotas, dss = [], [], [], [], []
    ip = iter("10.0.%d.%d" % (i // 200, 10 + i % 200) for i in range(1000))

    # --- CPU-only nodes: a control plane and two workers
    nodes.append(node("cp-1", instance="m6i.2xlarge", zone="us-east-1a", cpu=8, mem_ki=32 * GI, ip=next(ip),
                      role="control-plane", taints=[{"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane"}],
                      age_days=400))
    for n in ("cpu-1", "cpu-2"):
        nodes.append(node(n, instance="m6i.4xlarge", zone="us-east-1a", cpu=16, mem_ki=64 * GI, ip=next(ip), age_days=300))

    # --- dgx-a100-01: A100 80GB x8, MIG mixed, all-balanced = per GPU 2x1g.10gb + 1x2g.20gb + 1x3g.40gb
    #     -> mig-1g.10gb 16, mig-2g.20gb 8, mig-3g.40gb 8.  gpu.replicas 0 (MIG parents under mixed).
    #     nvidia.com/gpu: 0 stays in capacity from before MIG was enabled.
    nodes.append(node("dgx-a100-01", instance="p4de.24xlarge", zone="us-east-1b", cpu=96, mem_ki=1152 * GI, ip=next(ip),
                      gpu_cap=gpu_res(gpu=0, mig_1g_10gb=16, mig_2g_20gb=8, mig_3g_40gb=8),
                      labels=gpu_node_labels(A100_80, 8, machine="p4de.24xlarge", replicas=0, mig_strategy="mixed",
                                             mig_capable=True, mig_config="all-balanced", dp_config="a100-mixed",
                                             mig_devices={"1g.10gb": dict(count=16, **MIG_1G10),
                                                          "2g.20gb": dict(count=8, **MIG_2G20),
                                                          "3g.40gb": dict(count=8, **MIG_3G40)}),
                      age_days=180))
    # --- dgx-a100-02: A100 80GB x8, MIG mixed; all-1g.10gb was requested and FAILED; the old layout
    #     all-3g.40gb (2 per GPU = 16) is still what GFD and the device plugin report.
    nodes.append(node("dgx-a100-02", instance="p4de.24xlarge", zone="us-east-1b", cpu=96, mem_ki=1152 * GI, ip=next(ip),
                      gpu_cap=gpu_res(mig_3g_40gb=16),
                      labels=gpu_node_labels(A100_80, 8, machine="p4de.24xlarge", replicas=0, mig_strategy="mixed",
                                             mig_capable=True, mig_config="all-1g.10gb", mig_state="failed",
                                             dp_config="a100-mixed",
                                             mig_devices={"3g.40gb": dict(count=16, **MIG_3G40)}),
                      age_days=180))
    # --- dgx-a100-03: A100 80GB x8, MIG single all-1g.10gb: 7 devices per GPU -> nvidia.com/gpu 56,
    #     product ...-MIG-1g.10gb, gpu.count 56, gpu.memory = the MIG device's 9728 MiB.
    nodes.append(node("dgx-a100-03", instance="p4de.24xlarge", zone="us-east-1c", cpu=96, mem_ki=1152 * GI, ip=next(ip),
                      gpu_cap=gpu_res(gpu=56),
                      labels=gpu_node_labels(dict(A100_80, memory=9728), 56, machine="p4de.24xlarge",
                                             product="NVIDIA-A100-SXM4-80GB-MIG-1g.10gb", mig_strategy="single",
                                             mig_capable=True, mig_config="all-1g.10gb", single=MIG_1G10),
                      age_days=150))
    # --- dgx-a100-04: MIG single with all-balanced (several profiles) -> GFD writes -MIG-INVALID,
    #     count 0, memory 0, replicas 0, sharing-strategy ""; the device plugin advertises nothing.
    lab = gpu_node_labels(A100_80, 0, machine="p4de.24xlarge", product="NVIDIA-A100-SXM4-80GB-MIG-INVALID",
                          replicas=0, mig_strategy="single", mig_capable=True, mig_config="all-balanced")
    lab["nvidia.com/gpu.memory"] = "0"
    lab["nvidia.com/gpu.sharing-strategy"] = ""
    nodes.append(node("dgx-a100-04", instance="p4de.24xlarge", zone="us-east-1c", cpu=96, mem_ki=1152 * GI, ip=next(ip),
                      gpu_cap=gpu_res(gpu=0), labels=lab, age_days=20))
    # --- h100-01 / h100-02: H100 80GB HBM3 x8 whole GPUs (operator's mig.strategy single, MIG off),
    #     tainted for training.  h100-02 has one unhealthy GPU: capacity 8, allocatable 7.
    for n, alloc in (("h100-01", 8), ("h100-02", 7)):
        nodes.append(node(n, instance="p5.48xlarge", zone="us-east-1a", cpu=192, mem_ki=2048 * GI, ip=next(ip),
                          gpu_cap=gpu_res(gpu=8), gpu_alloc=gpu_res(gpu=alloc), taints=[TAINT_TRAINING],
                          labels=gpu_node_labels(H100, 8, machine="p5.48xlarge", mig_capable=True,
                                                 mig_config="all-disabled", extra={"dedicated": "training"}),
                          age_days=90))
    # --- a100-40gb-01: A100 40GB x8, cordoned (being drained)
    nodes.append(node("a100-40gb-01", instance="p4d.24xlarge", zone="us-east-1b", cpu=96, mem_ki=1152 * GI, ip=next(ip),
                      gpu_cap=gpu_res(gpu=8), unschedulable=True,
                      taints=[{"effect": "NoSchedule", "key": "node.kubernetes.io/unschedulable", "timeAdded": ts(td(hours=6))}],
                      labels=gpu_node_labels(A100_40, 8, machine="p4d.24xlarge", mig_capable=True,
                                             mig_config="all-disabled"),
                      age_days=500))
    # --- t4-01 (4 x T4) and t4-02 (1 x T4): time-slicing, replicas 4, not renamed:
    #     product Tesla-T4-SHARED, nvidia.com/gpu = 4 x GPUs
    for n, inst, g, cpu, mem in (("t4-01", "g4dn.12xlarge", 4, 48, 192), ("t4-02", "g4dn.xlarge", 1, 4, 16)):
        nodes.append(node(n, instance=inst, zone="us-east-1a", cpu=cpu, mem_ki=mem * GI, ip=next(ip),
                          gpu_cap=gpu_res(gpu=4 * g),
                          labels=gpu_node_labels(T4, g, machine=inst, product="Tesla-T4-SHARED", replicas=4,
                                                 sharing="time-slicing", dp_config="t4-ts4"),
                          age_days=120))
    # --- a10g-01: 4 x A10G, time-slicing replicas 4 with renameByDefault: nvidia.com/gpu.shared 16,
    #     nvidia.com/gpu 0, product without -SHARED
    nodes.append(node("a10g-01", instance="g5.12xlarge", zone="us-east-1c", cpu=48, mem_ki=192 * GI, ip=next(ip),
                      gpu_cap=gpu_res(gpu=0, gpu_shared=16),
                      labels=gpu_node_labels(A10G, 4, machine="g5.12xlarge", replicas=4, sharing="time-slicing",
                                             dp_config="a10g-ts4-renamed"),
                      age_days=100))
    # --- a10g-02: GFD labels say 1 x A10G, but no GPU resource at all: the device plugin is crash-looping
    nodes.append(node("a10g-02", instance="g5.xlarge", zone="us-east-1c", cpu=4, mem_ki=16 * GI, ip=next(ip),
                      labels=gpu_node_labels(A10G, 1, machine="g5.xlarge"), age_days=3))
    # --- l4-01: 4 x L4 shared through MPS, replicas 8 -> nvidia.com/gpu 32, product NVIDIA-L4-SHARED
    nodes.append(node("l4-01", instance="g6.12xlarge", zone="us-east-1a", cpu=48, mem_ki=192 * GI, ip=next(ip),
                      gpu_cap=gpu_res(gpu=32),
                      labels=gpu_node_labels(L4, 4, machine="g6.12xlarge", product="NVIDIA-L4-SHARED", replicas=8,
                                             sharing="mps", mps_capable=True, dp_config="l4-mps8"),
                      age_days=45))
    # --- v100-01: 4 x V100, the kubelet stopped reporting 25 minutes ago (Ready Unknown)
    nodes.append(node("v100-01", instance="p3.8xlarge", zone="us-east-1b", cpu=32, mem_ki=244 * GI, ip=next(ip),
                      gpu_cap=gpu_res(gpu=4), ready="Unknown", not_ready_since=td(minutes=25),
                      taints=[{"effect": "NoSchedule", "key": "node.kubernetes.io/unreachable", "timeAdded": ts(td(minutes=24))},
                              {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "timeAdded": ts(td(minutes=24))}],
                      labels=gpu_node_labels(V100, 4, machine="p3.8xlarge"),
                      age_days=700))
    # --- gpu-legacy-01: 2 x M60 under the old static device plugin in kube-system; no GFD, excluded
    #     from the operator (gpu.deploy.operands=false); only NFD's PCI label says "NVIDIA"
    leg = nfd_labels()
    leg["nvidia.com/gpu.deploy.operands"] = "false"
    leg["pool"] = "legacy"
    nodes.append(node("gpu-legacy-01", instance="g3.8xlarge", zone="us-east-1a", cpu=32, mem_ki=244 * GI, ip=next(ip),
                      gpu_cap=gpu_res(gpu=2), labels=leg, age_days=900))

    ip_of = {n["metadata"]["name"]: n["status"]["addresses"][0]["address"] for n in nodes}

    def on(nd, p):
        p["status"]["hostIP"] = ip_of[nd]
        p["status"]["hostIPs"] = [{"ip": ip_of[nd]}]
        return p

    # ---------------- GPU pods
    # dgx-a100-01: 3 x mig-1g.10gb, 1 x mig-2g.20gb, 1 x mig-3g.40gb held; a Succeeded 3g pod holds nothing
    pods += [on("dgx-a100-01", p) for p in rs_pods("ml-inference", "embed-server", 3, node="dgx-a100-01",
                                                   requests=r("2", "16Gi", mig_1g_10gb=1),
                                                   image="nvcr.io/nvidia/tritonserver:24.05-py3",
                                                   ports=[("http", 8000), ("grpc", 8001)])]
    pods.append(on("dgx-a100-01", sts_pod("research", "jupyter-alice", 0, node="dgx-a100-01",
                                          requests=r("4", "32Gi", mig_2g_20gb=1),
                                          image="quay.io/jupyter/pytorch-notebook:cuda12-2024-05-27")))
    pods.append(on("dgx-a100-01", job_pod("ml-training", "bert-finetune", node="dgx-a100-01",
                                          requests=r("8", "64Gi", mig_3g_40gb=1),
                                          image="nvcr.io/nvidia/pytorch:24.05-py3")))
    pods.append(on("dgx-a100-01", job_pod("ml-training", "bert-eval", node="dgx-a100-01", phase="Succeeded",
                                          requests=r("8", "64Gi", mig_3g_40gb=1), age=td(hours=9),
                                          image="nvcr.io/nvidia/pytorch:24.05-py3")))
    # dgx-a100-02: PyTorchJob workers 2 x 2 + a Job 1 = 5 x mig-3g.40gb
    for i in range(2):
        pods.append(on("dgx-a100-02", pytorch_pod("ml-training", "llama-7b-sft", "worker", i, node="dgx-a100-02",
                                                  requests=r("16", "128Gi", mig_3g_40gb=2),
                                                  image="nvcr.io/nvidia/pytorch:24.05-py3")))
    pods.append(on("dgx-a100-02", job_pod("research", "sd-finetune", node="dgx-a100-02",
                                          requests=r("8", "48Gi", mig_3g_40gb=1),
                                          image="ghcr.io/huggingface/diffusers:0.28.0")))
    # dgx-a100-03 (single): 4 x 1 + 1 x 2 = 6 of 56 MIG devices (as nvidia.com/gpu)
    pods += [on("dgx-a100-03", p) for p in rs_pods("ml-inference", "triton-small", 4, node="dgx-a100-03",
                                                   requests=r("2", "8Gi", gpu=1),
                                                   image="nvcr.io/nvidia/tritonserver:24.05-py3")]
    pods += [on("dgx-a100-03", p) for p in rs_pods("ml-inference", "triton-batch", 1, node="dgx-a100-03",
                                                   requests=r("4", "16Gi", gpu=2),
                                                   image="nvcr.io/nvidia/tritonserver:24.05-py3")]
    # h100-01: 8 of 8 held:
    #   eval-harness: init container 4 GPUs, app containers 1 + 1 -> effective max(2, 4) = 4
    pods.append(on("h100-01", job_pod(
        "research", "eval-harness", node="h100-01", tolerations=[TOL_TRAINING],
        requests=r("8", "64Gi", gpu=1), image="ghcr.io/eleutherai/lm-eval:0.4.2",
        init=[container("build-trt-engine", "nvcr.io/nvidia/tensorrt:24.05-py3", requests=r("16", "128Gi", gpu=4))],
        extra_containers=[container("judge", "ghcr.io/eleutherai/lm-eval:0.4.2", requests=r("4", "32Gi", gpu=1))])))
    #   vllm-llama-70b-0: sidecar (restartable init) 1 GPU + main 2 GPUs = 3; the normal init container
    #   after the sidecar peaks at 1 + 1 = 2 < 3 -> effective 3
    pods.append(on("h100-01", sts_pod(
        "ml-inference", "vllm-llama-70b", 0, node="h100-01", tolerations=[TOL_TRAINING],
        requests=r("16", "200Gi", gpu=2), image="vllm/vllm-openai:v0.4.3",
        init=[container("draft-model", "vllm/vllm-openai:v0.4.3", requests=r("4", "32Gi", gpu=1), restart_always=True),
              container("warmup", "vllm/vllm-openai:v0.4.3", requests=r("2", "8Gi", gpu=1))])))
    #   a Failed 8-GPU launcher holds nothing
    pods.append(on("h100-01", job_pod("ml-training", "resnet-ddp-launcher", node="h100-01", phase="Failed",
                                      tolerations=[TOL_TRAINING], requests=r("32", "256Gi", gpu=8),
                                      image="nvcr.io/nvidia/pytorch:24.05-py3", age=td(hours=7), exit_code=137)))
    #   bound but still Pending (ContainerCreating): counts, 1 GPU
    pods += [on("h100-01", p) for p in rs_pods("team-vision", "detectron-train", 1, node="h100-01", phase="Pending",
                                               requests=r("8", "64Gi", gpu=1), tolerations=[TOL_TRAINING],
                                               image="ghcr.io/team-vision/detectron2:0.6-cu121", age=td(minutes=4))]
    # h100-02: 4 + 2 = 6 of 7 allocatable; a Succeeded pod holds nothing
    pods.append(on("h100-02", pytorch_pod("ml-training", "llama-70b-pretrain", "worker", 3, node="h100-02",
                                          requests=r("96", "1024Gi", gpu=4), image="nvcr.io/nvidia/nemo:24.05",
                                          tolerations=[TOL_TRAINING])))
    pods.append(on("h100-02", job_pod("research", "protein-fold", node="h100-02", tolerations=[TOL_TRAINING],
                                      requests=r("16", "128Gi", gpu=2), image="ghcr.io/deepmind/alphafold:2.3.2")))
    pods.append(on("h100-02", job_pod("research", "checkpoint-convert", node="h100-02", phase="Succeeded",
                                      tolerations=[TOL_TRAINING], requests=r("8", "64Gi", gpu=1),
                                      image="nvcr.io/nvidia/nemo:24.05", age=td(hours=8))))
    # a100-40gb-01 (cordoned): 2 x 2 = 4 of 8
    for i in range(2):
        pods.append(on("a100-40gb-01", sts_pod("research", "rl-sim", i, node="a100-40gb-01",
                                               requests=r("16", "96Gi", gpu=2), image="ghcr.io/research/isaac-sim:4.0.0",
                                               age=td(days=4))))
    # t4-01: 6 x 1 + 1 x 2 = 8 of 16 slots
    pods += [on("t4-01", p) for p in rs_pods("ml-inference", "whisper-asr", 6, node="t4-01",
                                             requests=r("2", "6Gi", gpu=1), image="ghcr.io/openai/whisper-server:1.2")]
    pods.append(on("t4-01", job_pod("ml-inference", "ocr-batch", node="t4-01", requests=r("4", "12Gi", gpu=2),
                                    image="ghcr.io/ml-inference/paddleocr:2.7")))
    # t4-02: 3 x 1 = 3 of 4; the Succeeded nightly-report holds nothing
    pods += [on("t4-02", p) for p in rs_pods("media", "thumbnail-gen", 3, node="t4-02",
                                             requests=r("500m", "2Gi", gpu=1), image="ghcr.io/media/thumbnailer:3.1")]
    pods.append(on("t4-02", job_pod("media", "nightly-report", node="t4-02", phase="Succeeded",
                                    requests=r("500m", "2Gi", gpu=1), image="ghcr.io/media/reporter:1.0",
                                    age=td(hours=10))))
    # a10g-01 (renamed): 5 x nvidia.com/gpu.shared of 16
    pods += [on("a10g-01", p) for p in rs_pods("ml-inference", "chatbot-llm", 5, node="a10g-01",
                                               requests=r("4", "16Gi", gpu_shared=1),
                                               image="ghcr.io/huggingface/text-generation-inference:2.0.4")]
    # l4-01 (MPS): 4 of 32; a Succeeded device-plugin validator pod holds nothing
    pods += [on("l4-01", p) for p in rs_pods("ml-inference", "rerank-svc", 4, node="l4-01",
                                             requests=r("2", "8Gi", gpu=1), image="ghcr.io/ml-inference/reranker:0.9")]
    val = pod("gpu-operator", "nvidia-device-plugin-validator-" + suffix5("val", "l4-01"), node="l4-01",
              phase="Succeeded", age=td(days=20), owner=None, labels={"app": "nvidia-device-plugin-validator"},
              containers=[container("nvidia-device-plugin-validator", "nvcr.io/nvidia/cloud-native/gpu-operator-validator:v24.3.0",
                                    requests={"nvidia.com/gpu": "1"})], tolerations=[TOL_GPU])
    pods.append(on("l4-01", val))
    # v100-01 (NotReady): the pods still show Running and still hold 2 + 2 = 4 of 4
    for i in range(2):
        pods.append(on("v100-01", sts_pod("research", "legacy-train", i, node="v100-01",
                                          requests=r("8", "60Gi", gpu=2), image="ghcr.io/research/tf-train:2.15-gpu",
                                          age=td(days=9))))
    # gpu-legacy-01: 1 of 2
    pods += [on("gpu-legacy-01", p) for p in rs_pods("media", "video-transcode", 1, node="gpu-legacy-01",
                                                     requests=r("8", "16Gi", gpu=1),
                                                     image="ghcr.io/media/ffmpeg-nvenc:6.1")]

    # ---------------- Pending GPU pods (unbound) and their FailedScheduling events
    #  1. 8 x nvidia.com/gpu on H100 only: nothing free there
    msg1 = ("0/17 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "
            "1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 1 node(s) were unschedulable, "
            "12 node(s) didn't match Pod's node affinity/selector, 1 Insufficient cpu, 1 Insufficient memory, "
            "2 Insufficient nvidia.com/gpu. preemption: "
            "0/17 nodes are available: 15 Preemption is not helpful for scheduling, "
            "2 No preemption victims found for incoming pod.")
    p = pytorch_pod("ml-training", "llama-70b-pretrain", "worker", 7, node=None, phase="Pending",
                    requests=r("96", "1024Gi", gpu=8), image="nvcr.io/nvidia/nemo:24.05",
                    tolerations=[TOL_TRAINING], node_selector={"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"},
                    scheduled_msg=msg1, age=td(minutes=50))
    pods.append(p)
    events.append(scheduler_event("ml-training", "llama-70b-pretrain-worker-7", msg1, first_ago=td(minutes=50),
                                  last_ago=td(minutes=2), count=14))
    #  2. a MIG profile no node offers (7g.80gb)
    msg2 = ("0/17 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "
            "1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 1 node(s) were unschedulable, "
            "2 Insufficient cpu, 4 Insufficient memory, "
            "12 Insufficient nvidia.com/mig-7g.80gb, 2 node(s) had untolerated taint {dedicated: training}. "
            "preemption: 0/17 nodes are available: 12 No preemption victims found for incoming pod, "
            "5 Preemption is not helpful for scheduling.")
    pods.append(job_pod("research", "sdxl-train", node=None, phase="Pending", requests=r("8", "64Gi", mig_7g_80gb=1),
                        image="ghcr.io/huggingface/diffusers:0.28.0", scheduled_msg=msg2, age=td(hours=2)))
    events.append(scheduler_event("research", pods[-1]["metadata"]["name"], msg2, first_ago=td(hours=2),
                                  last_ago=td(minutes=7), count=9))
    #  3. 2 x nvidia.com/gpu on A10G: a10g-01 only offers nvidia.com/gpu.shared, a10g-02 has no plugin
    msg3 = ("0/17 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "
            "1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 1 node(s) were unschedulable, "
            "10 node(s) didn't match Pod's node affinity/selector, 1 Insufficient cpu, 1 Insufficient memory, "
            "2 Insufficient nvidia.com/gpu, "
            "2 node(s) had untolerated taint {dedicated: training}. preemption: 0/17 nodes are available: "
            "15 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.")
    pods += rs_pods("team-vision", "yolo-batch", 1, node=None, phase="Pending", requests=r("4", "16Gi", gpu=2),
                    image="ghcr.io/team-vision/yolov8:8.2.0", node_selector={"nvidia.com/gpu.product": "NVIDIA-A10G"},
                    scheduled_msg=msg3, age=td(minutes=35))
    events.append(scheduler_event("team-vision", pods[-1]["metadata"]["name"], msg3, first_ago=td(minutes=35),
                                  last_ago=td(minutes=1), count=11))
    #  4. gated by Kueue: Pending, never tried by the scheduler, no event
    pods.append(sts_pod("ml-inference", "batch-embed", 0, node=None, phase="Pending", requests=r("4", "16Gi", gpu=1),
                        image="nvcr.io/nvidia/tritonserver:24.05-py3", gates=["kueue.x-k8s.io/admission"],
                        age=td(minutes=12)))
    # a Pending pod without GPUs: not counted
    msg5 = ("0/17 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "
            "1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 1 node(s) were unschedulable, "
            "12 Insufficient cpu, 2 node(s) had untolerated taint {dedicated: training}. preemption: "
            "0/17 nodes are available: 12 No preemption victims found for incoming pod, "
            "5 Preemption is not helpful for scheduling.")
    pods += rs_pods("default", "nginx-big", 1, node=None, phase="Pending", requests={"cpu": "512", "memory": "1Gi"},
                    image="nginx:1.27", scheduled_msg=msg5, age=td(minutes=20))
    events.append(scheduler_event("default", pods[-1]["metadata"]["name"], msg5, first_ago=td(minutes=20),
                                  last_ago=td(minutes=3), count=6))

    # ---------------- non-GPU pods
    for i, p in enumerate(rs_pods("kube-system", "coredns", 2, node="cpu-1", requests={"cpu": "100m", "memory": "70Mi"},
                                  image="registry.k8s.io/coredns/coredns:v1.11.1", age=td(days=60),
                                  labels={"k8s-app": "kube-dns"}, priority_class="system-cluster-critical",
                                  priority=2000000000)):
        n = ("cpu-1", "cpu-2")[i]
        p["spec"]["nodeName"] = n
        pods.append(on(n, p))
    pods += [on("cpu-1", p) for p in rs_pods("gpu-operator", "gpu-operator", 1, node="cpu-1",
                                             requests={"cpu": "200m", "memory": "100Mi"},
                                             image="nvcr.io/nvidia/gpu-operator:v24.3.0", age=td(days=20))]
    pods += [on("cpu-2", p) for p in rs_pods("ml-inference", "api-gateway", 2, node="cpu-2",
                                             requests={"cpu": "500m", "memory": "512Mi"}, image="envoyproxy/envoy:v1.30.2")]
    pods.append(on("cpu-2", sts_pod("monitoring", "prometheus-k8s", 0, node="cpu-2", requests={"cpu": "1", "memory": "4Gi"},
                                    image="quay.io/prometheus/prometheus:v2.52.0", age=td(days=30))))
    for n in [x["metadata"]["name"] for x in nodes]:
        pods.append(on(n, ds_pod("kube-system", "kube-proxy", n, image="registry.k8s.io/kube-proxy:" + "v1.30.4",
                                 app="kube-proxy")))
    pods.append(on("a10g-02", ds_pod("gpu-operator", "nvidia-device-plugin-daemonset", "a10g-02",
                                     image="nvcr.io/nvidia/k8s-device-plugin:v0.15.0", waiting="CrashLoopBackOff",
                                     restarts=37)))
    pods.append(on("t4-01", ds_pod("gpu-operator", "nvidia-device-plugin-daemonset", "t4-01",
                                   image="nvcr.io/nvidia/k8s-device-plugin:v0.15.0")))
    pods.append(on("t4-01", ds_pod("gpu-operator", "nvidia-dcgm-exporter", "t4-01",
                                   image="nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04")))
    pods.append(on("gpu-legacy-01", ds_pod("kube-system", "nvidia-device-plugin-daemonset", "gpu-legacy-01",
                                           image="nvcr.io/nvidia/k8s-device-plugin:v0.14.5", app="nvidia-device-plugin-ds")))

    # ---------------- events that are not about scheduling (kept for realism)
    det = [p for p in pods if p["metadata"]["name"].startswith("detectron-train")][0]["metadata"]["name"]
    events.append(core_event("team-vision", "Pod", det, "Pulling",
                             'Pulling image "ghcr.io/team-vision/detectron2:0.6-cu121"', host="h100-01",
                             ago=td(minutes=4)))
    dp = [p for p in pods if p["metadata"]["name"].startswith("nvidia-device-plugin-daemonset")
          and p["spec"]["nodeName"] == "a10g-02"][0]["metadata"]["name"]
    events.append(core_event("gpu-operator", "Pod", dp, "BackOff", "Back-off restarting failed container "
                             "nvidia-device-plugin in pod %s_gpu-operator" % dp, etype="Warning", host="a10g-02",
                             ago=td(minutes=3), count=412))
    events.append(core_event("research", "Job", "finetune-big", "FailedCreate",
                             'Error creating: pods "finetune-big-" is forbidden: exceeded quota: research-gpus, '
                             "requested: requests.nvidia.com/gpu=4, used: requests.nvidia.com/gpu=14, "
                             "limited: requests.nvidia.com/gpu=16", etype="Warning", component="job-controller",
                             ago=td(minutes=15), count=7, api="batch/v1"))

    # ---------------- quotas (used = non-terminal pods' requests, pending ones included)
    #  ml-training nvidia.com/gpu: llama-70b-pretrain-worker-3 4 + worker-7 8 (pending) = 12
    #  ml-training mig-3g.40gb: bert-finetune 1 + llama-7b-sft 2 + 2 = 5
    quotas.append(resource_quota("ml-training", "gpu-quota",
                                 {"requests.nvidia.com/gpu": "24", "requests.nvidia.com/mig-3g.40gb": "8"},
                                 {"requests.nvidia.com/gpu": "12", "requests.nvidia.com/mig-3g.40gb": "5"}))
    #  research nvidia.com/gpu: eval-harness 4 + protein-fold 2 + rl-sim 2+2 + legacy-train 2+2 = 14
    quotas.append(resource_quota("research", "research-gpus", {"requests.nvidia.com/gpu": "16"},
                                 {"requests.nvidia.com/gpu": "14"}))
    quotas.append(resource_quota("default", "compute", {"requests.cpu": "1k", "requests.memory": "4Ti"},
                                 {"requests.cpu": "512", "requests.memory": "1Gi"}))

    # ---------------- DaemonSets: GPU Operator in gpu-operator, the old device plugin in kube-system
    # operator-managed GPU nodes: the 13 of 14 GPU nodes other than gpu-legacy-01.  Not ready: v100-01 (kubelet
    # down) everywhere; the device plugin and the validator also on a10g-02 (crash loop) and dgx-a100-04
    # (MIG-INVALID makes the plugin fail).  MIG-capable: 4 x dgx-a100, 2 x h100, a100-40gb-01 = 7.
    img = "nvcr.io/nvidia/"
    op = [
        ("gpu-operator-node-feature-discovery-worker", None, 17, 16, img + "k8s/nfd:v0.15.4",
         {"app.kubernetes.io/name": "node-feature-discovery", "role": "worker"}),
        ("nvidia-driver-daemonset", "nvidia-driver-daemonset", 13, 12, img + "driver:550.90.07-ubuntu22.04", None),
        ("nvidia-container-toolkit-daemonset", "nvidia-container-toolkit-daemonset", 13, 12,
         img + "k8s/container-toolkit:v1.15.0-ubuntu20.04", None),
        ("nvidia-device-plugin-daemonset", "nvidia-device-plugin-daemonset", 13, 10, img + "k8s-device-plugin:v0.15.0", None),
        ("nvidia-device-plugin-mps-control-daemon", "nvidia-device-plugin-mps-control-daemon", 1, 1,
         img + "k8s-device-plugin:v0.15.0", None),
        ("gpu-feature-discovery", "gpu-feature-discovery", 13, 12, img + "k8s-device-plugin:v0.15.0", None),
        ("nvidia-dcgm-exporter", "nvidia-dcgm-exporter", 13, 12, img + "k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04", None),
        ("nvidia-mig-manager", "nvidia-mig-manager", 7, 7, img + "cloud-native/k8s-mig-manager:v0.7.0-ubuntu20.04", None),
        ("nvidia-operator-validator", "nvidia-operator-validator", 13, 10,
         img + "cloud-native/gpu-operator-validator:v24.3.0", None),
    ]
    deploy_label = {
        "nvidia-driver-daemonset": "driver", "nvidia-container-toolkit-daemonset": "container-toolkit",
        "nvidia-device-plugin-daemonset": "device-plugin", "nvidia-device-plugin-mps-control-daemon": "device-plugin",
        "gpu-feature-discovery": "gpu-feature-discovery", "nvidia-dcgm-exporter": "dcgm-exporter",
        "nvidia-mig-manager": "mig-manager", "nvidia-operator-validator": "operator-validator",
    }
    for name, app, desired, ready, image, sel in op:
        if app:
            labels = {"app.kubernetes.io/managed-by": "gpu-operator", "helm.sh/chart": "gpu-operator-v24.3.0"}
            nsel = {"nvidia.com/gpu.deploy." + deploy_label[name]: "true"}
            if name == "nvidia-device-plugin-mps-control-daemon":
                nsel["nvidia.com/mps.capable"] = "true"
        else:
            labels = {"app.kubernetes.io/name": "node-feature-discovery", "app.kubernetes.io/instance": "gpu-operator"}
            nsel = None
        dss.append(daemonset("gpu-operator", name, app_label=app, selector=sel, desired=desired, ready=ready,
                             image=image, age_days=200, labels=labels, node_selector=nsel))
    dss.append(daemonset("kube-system", "nvidia-device-plugin-daemonset", selector={"name": "nvidia-device-plugin-ds"},
                         desired=1, ready=1, image=img + "k8s-device-plugin:v0.14.5", age_days=900,
                         node_selector={"pool": "legacy"}))
    dss.append(daemonset("kube-system", "kube-proxy", app_label=None, selector={"k8s-app": "kube-proxy"}, desired=17,
                         ready=16, image="registry.k8s.io/kube-proxy:v1.30.4", age_days=400))

    cp = {
        "apiVersion": "nvidia.com/v1",
        "kind": "ClusterPolicy",
        "metadata": {"creationTimestamp": ts(td(days=200)), "generation": 7, "name": "cluster-policy",
                     "resourceVersion": rv("cp"), "uid": uid("ClusterPolicy", "cluster-policy"),
                     "labels": {"app.kubernetes.io/component": "gpu-operator", "app.kubernetes.io/managed-by": "Helm"}},
        "spec": {
            "daemonsets": {"priorityClassName": "system-node-critical", "updateStrategy": "RollingUpdate"},
            "dcgmExporter": {"enabled": True, "serviceMonitor": {"enabled": True, "interval": "15s"}},
            "devicePlugin": {"enabled": True, "config": {"name": "device-plugin-config", "default": ""},
                             "mps": {"root": "/run/nvidia/mps"}},
            "driver": {"enabled": True},
            "gfd": {"enabled": True},
            "mig": {"strategy": "single"},
            "migManager": {"enabled": True, "config": {"name": "default-mig-parted-config", "default": "all-disabled"}},
            "operator": {"defaultRuntime": "containerd"},
            "toolkit": {"enabled": True},
            "validator": {"plugin": {"env": [{"name": "WITH_WORKLOAD", "value": "false"}]}},
        },
        "status": {
            "conditions": [
                {"lastTransitionTime": ts(td(days=3)), "message": "", "reason": "Error", "status": "False", "type": "Ready"},
                {"lastTransitionTime": ts(td(days=3)),
                 "message": "ClusterPolicy is not ready, states not ready: [state-device-plugin state-operator-validation]",
                 "reason": "OperandNotReady", "status": "True", "type": "Error"},
            ],
            "namespace": "gpu-operator",
            "state": "notReady",
        },
    }
    # The device-plugin ConfigMap the ClusterPolicy names (spec.devicePlugin.config.name), with
    # every config its nodes are labelled with (nvidia.com/device-plugin.config): without it the
    # operator's config-manager fails on those nodes, and `plan` must refuse to replace it.
    # Schema: k8s-device-plugin api/config/v1 (version, flags, sharing.timeSlicing|mps).
    dp_configs = {
        "a100-mixed": "version: v1\nflags:\n  migStrategy: mixed\n",
        "t4-ts4": ("version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n"
                   "      replicas: 4\n"),
        "a10g-ts4-renamed": ("version: v1\nsharing:\n  timeSlicing:\n    renameByDefault: true\n    resources:\n"
                             "    - name: nvidia.com/gpu\n      replicas: 4\n"),
        "l4-mps8": "version: v1\nsharing:\n  mps:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 8\n",
    }
    dpcm = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"creationTimestamp": ts(td(days=120)), "name": "device-plugin-config", "namespace": "gpu-operator",
                     "resourceVersion": rv("cm-dp"), "uid": uid("ConfigMap", "device-plugin-config")},
        "data": dp_configs,
    }
    return kubectl_list(nodes + pods + events + quotas + dss + [cp, dpcm])


# ================================================================== small.json
def small():
    """2 GPU nodes + 1 CPU node; the NVIDIA device plugin Helm chart (with its GFD) in kube-system,
    no GPU Operator (so no gpu.deploy.* labels, no ClusterPolicy).
      gpu-1: 2 x L4, allocatable 2, allocated 1 (infer-api)
      gpu-2: 4 x RTX A6000, allocatable 4, allocated 1 + 1 + 2 = 4
      pending: train-lora (2 GPUs) with a FailedScheduling event"""
    nodes, pods, events, dss = [], [], [], []
    lab_common = {"feature.node.kubernetes.io/pci-10de.present": "true"}
    L4S = dict(product="NVIDIA-L4", memory=23034, family="ada-lovelace", cc=(8, 9))
    A6000 = dict(product="NVIDIA-RTX-A6000", memory=49140, family="ampere", cc=(8, 6))
    nodes.append(node("cpu-1", instance="n2-standard-8", zone="europe-west4-a", cpu=8, mem_ki=32 * GI, ip="10.10.0.2",
                      role="control-plane", age_days=210))
    for n, model, g, inst, ipa in (("gpu-1", L4S, 2, "g2-standard-24", "10.10.0.3"),
                                   ("gpu-2", A6000, 4, "workstation", "10.10.0.4")):
        lab = dict(lab_common)
        lab.update(gfd_labels(model["product"], g, model["memory"], model["family"], model["cc"],
                              driver=("535", "183", "01"), cuda=("12", "2"), machine=inst))
        nodes.append(node(n, instance=inst, zone="europe-west4-a", cpu=24 if g == 2 else 64, mem_ki=(96 if g == 2 else 256) * GI,
                          ip=ipa, gpu_cap=gpu_res(gpu=g), labels=lab, age_days=200))
    pods += rs_pods("apps", "infer-api", 1, node="gpu-1", requests=r("4", "16Gi", gpu=1),
                    image="ghcr.io/acme/infer-api:1.4.2", ports=[("http", 8080)])
    pods += rs_pods("apps", "embedder", 2, node="gpu-2", requests=r("2", "8Gi", gpu=1),
                    image="ghcr.io/acme/embedder:0.3.1")
    pods.append(job_pod("research", "finetune-7b", node="gpu-2", requests=r("16", "96Gi", gpu=2),
                        image="nvcr.io/nvidia/pytorch:24.05-py3"))
    pods.append(job_pod("research", "eval-old", node="gpu-1", phase="Succeeded", requests=r("4", "16Gi", gpu=1),
                        image="nvcr.io/nvidia/pytorch:24.05-py3", age=td(hours=12)))
    # (one node lacks free GPUs: gpu-2 full, gpu-1 1 free < 2; cpu-1 tainted)
    msg = ("0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "
           "2 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: "
           "1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.")
    pods.append(job_pod("research", "train-lora", node=None, phase="Pending", requests=r("8", "32Gi", gpu=2),
                        image="nvcr.io/nvidia/pytorch:24.05-py3", scheduled_msg=msg, age=td(minutes=9)))
    events.append(scheduler_event("research", pods[-1]["metadata"]["name"], msg, first_ago=td(minutes=9),
                                  last_ago=td(minutes=1), count=5))
    nodes[0]["spec"]["taints"] = [{"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane"}]
    pods += rs_pods("kube-system", "coredns", 2, node="cpu-1", requests={"cpu": "100m", "memory": "70Mi"},
                    image="registry.k8s.io/coredns/coredns:v1.11.1", labels={"k8s-app": "kube-dns"},
                    tolerations=[{"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane"}])
    helm = {"app.kubernetes.io/instance": "nvidia-device-plugin", "app.kubernetes.io/managed-by": "Helm",
            "app.kubernetes.io/version": "0.15.0", "helm.sh/chart": "nvidia-device-plugin-0.15.0"}
    dss.append(daemonset("kube-system", "nvidia-device-plugin",
                         selector={"app.kubernetes.io/name": "nvidia-device-plugin",
                                   "app.kubernetes.io/instance": "nvidia-device-plugin"},
                         labels=dict(helm, **{"app.kubernetes.io/name": "nvidia-device-plugin"}),
                         desired=2, ready=2, image="nvcr.io/nvidia/k8s-device-plugin:v0.15.0", age_days=200,
                         node_selector={"feature.node.kubernetes.io/pci-10de.present": "true"}))
    dss.append(daemonset("kube-system", "nvidia-device-plugin-gpu-feature-discovery",
                         selector={"app.kubernetes.io/name": "gpu-feature-discovery",
                                   "app.kubernetes.io/instance": "nvidia-device-plugin"},
                         labels=dict(helm, **{"app.kubernetes.io/name": "gpu-feature-discovery"}),
                         desired=2, ready=2, image="nvcr.io/nvidia/k8s-device-plugin:v0.15.0", age_days=200,
                         node_selector={"feature.node.kubernetes.io/pci-10de.present": "true"}))
    return kubectl_list(nodes + pods + events + dss)


def write(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=4, sort_keys=True, ensure_ascii=False)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--out-dir", default=os.path.join(root, "examples", "clusters"))
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    write(os.path.join(a.out_dir, "mixed-fleet.json"), mixed_fleet())
    write(os.path.join(a.out_dir, "small.json"), small())


if __name__ == "__main__":
    main()
