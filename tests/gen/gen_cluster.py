#!/usr/bin/env python3
"""gen_cluster.py — a large, realistic, deterministic cluster dump for tests and `make bench`.

    tests/gen/gen_cluster.py --nodes 500 --gpu-fraction 0.4 --pods-per-node 30 --seed 1 \\
        -o /tmp/large.json --summary /tmp/large.summary.json

Writes a JSON List as `kubectl get nodes,pods,events,resourcequotas,daemonsets -A -o json`
prints it (4-space indent, sorted keys), streamed: memory stays flat however large the cluster
(5,000 nodes and 150,000 pods is ~0.6 GB and takes seconds).  Pods are 3-5 KB each, with
managedFields, conditions and container statuses like a real API server returns.

GPU nodes (fraction --gpu-fraction) are drawn from a fleet mix: H100 and A100 whole GPUs, A100
under MIG mixed (all-balanced) and MIG single (all-1g.10gb), A10G time-sliced (plain and
renamed to nvidia.com/gpu.shared), L4 under MPS and whole, T4 whole.  A few GPU nodes have an
unhealthy GPU (allocatable < capacity), some are NotReady or cordoned.  Each node carries
--pods-per-node bound pods: GPU pods (some with GPU init containers or GPU sidecars, some
Succeeded/Failed) filling a random share of the node, the rest CPU pods; then Pending pods that
request GPUs (with FailedScheduling events whose histogram is computed from the generated
state), some of them gated.

A queue (issue 22): --fill 1 holds every GPU of every ready GPU node, and --pending N makes N
pending GPU pods in Jobs of --queue-owner pods each (same owner, same request), e.g.
    --nodes 1000 --gpu-fraction 1 --pods-per-node 30 --fill 1 --pending 1500

--summary FILE writes what `kubectl gpu status` must report, counted while generating:
    {"nodes", "gpuNodes", "physicalGPUs", "pendingGPUPods", "pods",
     "resources": {name: {"allocatable", "allocated"}},
     "gpuNodeDetail": {node: {"physicalGPUs", "resources": {name: {"capacity", "allocatable", "allocated"}}}}}
"allocated" follows the scheduler: Σ effective requests (max of the largest init-container peak
and the sum of app containers plus sidecars) of bound pods not Succeeded/Failed.

--finished N (issue 35) appends N finished pods (Succeeded or Failed, bound, in Jobs) drawn from
a random stream of their own: the cluster is the one without them plus pods that hold nothing
(the summary's "pods" counts them, "finishedPods" is N).

Only the Python standard library.
"""
import argparse
import json
import os
import random
import re
import sys
import time

sys.dont_write_bytecode = True          # no __pycache__ in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import k8s_objects as k  # noqa: E402  (the one factory: the label sets, admission's tolerations)

NOW = 1748858400          # 2025-06-02T10:00:00Z: the snapshot's "now"
NS = ["ml-training", "ml-inference", "research", "team-vision", "team-nlp", "media", "batch", "default"]
K8S = "v1.30.4"

# ----------------------------------------------------------------------------------- fleet mix
# key: (weight, instance, cpu, memGiB, GFD labels, {resource: capacity}, physical GPUs, kind)
# kind drives the pods: "whole" (nvidia.com/gpu = GPUs), "mig" (mixed), "single", "shared"
A100_MIG = {  # GFD mixed-strategy per-profile facts (memory MiB, SMs, GI slices)
    "1g.10gb": (9728, 14, 1), "2g.20gb": (19968, 28, 2), "3g.40gb": (40192, 42, 3)}


def gfd(product, count, memory, family, cc, replicas=1, sharing="none", strategy="single", mig_capable=False,
        mps=False, machine="unknown", mig_devices=None, single=None):
    """a GPU node's labels: GFD's (driver 550.90.07, CUDA 12.4, the newer label names only), the
    operator's for the operands it deploys here, NFD's NVIDIA PCI device"""
    lab = k.gfd_labels(product, count, memory, family, cc, replicas=replicas, sharing=sharing, mig_strategy=strategy,
                       mig_capable=mig_capable, mps_capable=mps, mig_devices=mig_devices, single=single,
                       driver=("550", "90", "07"), cuda=("12", "4"), machine=machine, legacy_cuda=False,
                       timestamp=str(NOW - 60))
    lab.update(k.operator_labels(operands=("device-plugin", "gpu-feature-discovery", "dcgm-exporter", "driver",
                                           "container-toolkit", "operator-validator"), upgrade_state=None))
    lab.update(k.NVIDIA_PCI)
    return lab


def mig_mixed_labels():
    counts = {"1g.10gb": 16, "2g.20gb": 8, "3g.40gb": 8}
    lab = gfd("NVIDIA-A100-SXM4-80GB", 8, 81920, "ampere", (8, 0), replicas=0, strategy="mixed", mig_capable=True,
              machine="p4de.24xlarge",
              mig_devices={prof: {"count": n, "memory": A100_MIG[prof][0], "sm": A100_MIG[prof][1],
                                  "gi": A100_MIG[prof][2]} for prof, n in counts.items()})
    lab.update({"nvidia.com/mig.config": "all-balanced", "nvidia.com/mig.config.state": "success",
                "nvidia.com/gpu.deploy.mig-manager": "true", "nvidia.com/device-plugin.config": "a100-mixed"})
    return lab


def mig_single_labels():
    lab = gfd("NVIDIA-A100-SXM4-80GB-MIG-1g.10gb", 56, 9728, "ampere", (8, 0), strategy="single",
              mig_capable=True, machine="p4de.24xlarge", single={"sm": 14, "gi": 1})
    lab.update({"nvidia.com/mig.config": "all-1g.10gb", "nvidia.com/mig.config.state": "success",
                "nvidia.com/gpu.deploy.mig-manager": "true"})
    return lab


def whole_mig_capable(product, memory, family, cc, machine):
    lab = gfd(product, 8, memory, family, cc, mig_capable=True, machine=machine)
    lab.update({"nvidia.com/mig.config": "all-disabled", "nvidia.com/mig.config.state": "success",
                "nvidia.com/gpu.deploy.mig-manager": "true"})
    return lab


FLEET = [
    # name, weight, instance, cpu, memGi, labels, capacity, physical, kind
    ("h100", 2, "p5.48xlarge", 192, 2048, whole_mig_capable("NVIDIA-H100-80GB-HBM3", 81559, "hopper", (9, 0), "p5.48xlarge"),
     {"nvidia.com/gpu": 8}, 8, "whole"),
    ("a100", 2, "p4de.24xlarge", 96, 1152, whole_mig_capable("NVIDIA-A100-SXM4-80GB", 81920, "ampere", (8, 0), "p4de.24xlarge"),
     {"nvidia.com/gpu": 8}, 8, "whole"),
    ("a100-mixed", 1, "p4de.24xlarge", 96, 1152, mig_mixed_labels(),
     {"nvidia.com/mig-1g.10gb": 16, "nvidia.com/mig-2g.20gb": 8, "nvidia.com/mig-3g.40gb": 8}, 8, "mig"),
    ("a100-single", 1, "p4de.24xlarge", 96, 1152, mig_single_labels(), {"nvidia.com/gpu": 56}, 8, "single"),
    ("a10g-ts", 2, "g5.12xlarge", 48, 192,
     dict(gfd("NVIDIA-A10G-SHARED", 4, 23028, "ampere", (8, 6), replicas=4, sharing="time-slicing", machine="g5.12xlarge"),
          **{"nvidia.com/device-plugin.config": "a10g-ts4"}), {"nvidia.com/gpu": 16}, 4, "shared"),
    ("a10g-renamed", 1, "g5.2xlarge", 8, 32,
     dict(gfd("NVIDIA-A10G", 1, 23028, "ampere", (8, 6), replicas=2, sharing="time-slicing", machine="g5.2xlarge"),
          **{"nvidia.com/device-plugin.config": "a10g-ts2-renamed"}),
     {"nvidia.com/gpu": 0, "nvidia.com/gpu.shared": 2}, 1, "shared"),
    ("t4", 3, "g4dn.xlarge", 4, 16, gfd("Tesla-T4", 1, 15360, "turing", (7, 5), machine="g4dn.xlarge"),
     {"nvidia.com/gpu": 1}, 1, "whole"),
    ("l4-mps", 1, "g6.12xlarge", 48, 192,
     dict(gfd("NVIDIA-L4-SHARED", 4, 23034, "ada-lovelace", (8, 9), replicas=4, sharing="mps", mps=True,
              machine="g6.12xlarge"), **{"nvidia.com/device-plugin.config": "l4-mps4"}),
     {"nvidia.com/gpu": 16}, 4, "shared"),
    ("l4", 1, "g6.48xlarge", 192, 768, gfd("NVIDIA-L4", 8, 23034, "ada-lovelace", (8, 9), machine="g6.48xlarge"),
     {"nvidia.com/gpu": 8}, 8, "whole"),
]
CPU_TYPES = [("m6i.4xlarge", 16, 64), ("m6i.8xlarge", 32, 128), ("c6i.8xlarge", 32, 64), ("r6i.4xlarge", 16, 128)]

IMAGES_GPU = ["nvcr.io/nvidia/pytorch:24.05-py3", "nvcr.io/nvidia/tritonserver:24.05-py3", "vllm/vllm-openai:v0.4.3",
              "nvcr.io/nvidia/nemo:24.05", "ghcr.io/huggingface/text-generation-inference:2.0.4"]
IMAGES_CPU = ["nginx:1.27", "envoyproxy/envoy:v1.30.2", "redis:7.2", "ghcr.io/acme/api:3.4.1",
              "quay.io/prometheus/node-exporter:v1.8.1", "registry.k8s.io/kube-proxy:v1.30.4"]


def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


# ----------------------------------------------------------------------------------- templates
def dump(obj, indent):
    """one list item: kubectl's layout (4-space indent, nested 8 deep) or compact, as the API
    server sends it"""
    if not indent:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"))
    return "        " + json.dumps(obj, indent=4, sort_keys=True).replace("\n", "\n        ")


SLOT = re.compile(r'"@@#(\w+)@@"|@@(\w+)@@')


class Template:
    """a JSON text with slots: @@name@@ inside strings, "@@#name@@" for numbers/literals"""
    __slots__ = ("parts",)

    def __init__(self, obj, indent):
        text = dump(obj, indent)
        pieces = SLOT.split(text)
        # split yields: literal, num-slot, str-slot, literal, ...
        parts = []
        for i in range(0, len(pieces), 3):
            parts.append(pieces[i])
            if i + 1 < len(pieces):
                parts.append(pieces[i + 1] or pieces[i + 2])
        self.parts = parts

    def fill(self, v):
        p = self.parts
        out = [p[0]]
        for i in range(1, len(p), 2):
            out.append(v[p[i]])
            out.append(p[i + 1])
        return "".join(out)


def effective(containers, inits):
    """scheduler's PodRequests for the GPU resources: containers = [{res: n}], inits = [({res: n}, sidecar)]"""
    total = {}
    for c in containers:
        for k, n in c.items():
            total[k] = total.get(k, 0) + n
    running, init_max = {}, {}
    for c, sidecar in inits:
        if sidecar:
            for k, n in c.items():
                total[k] = total.get(k, 0) + n
                running[k] = running.get(k, 0) + n
            peak = dict(running)
        else:
            peak = {k: n + running.get(k, 0) for k, n in c.items()}
        for k, n in peak.items():
            init_max[k] = max(init_max.get(k, 0), n)
    for k, n in init_max.items():
        total[k] = max(total.get(k, 0), n)
    return {k: n for k, n in total.items() if n}


def managed_fields(bound, phase, n_containers, has_init):
    cont = {"k:{\"name\":\"c%d\"}" % i: {".": {}, "f:image": {}, "f:imagePullPolicy": {}, "f:name": {},
                                          "f:resources": {".": {}, "f:limits": {".": {}}, "f:requests": {".": {}}},
                                          "f:terminationMessagePath": {}, "f:terminationMessagePolicy": {}}
            for i in range(n_containers)}
    mf = [{
        "apiVersion": "v1", "fieldsType": "FieldsV1",
        "fieldsV1": {"f:metadata": {"f:generateName": {}, "f:labels": {".": {}, "f:app": {}, "f:pod-template-hash": {}},
                                    "f:ownerReferences": {".": {}, "k:{\"uid\":\"@@owner_uid@@\"}": {}}},
                     "f:spec": {"f:containers": cont, "f:dnsPolicy": {}, "f:enableServiceLinks": {},
                                **({"f:initContainers": {}} if has_init else {}),
                                "f:restartPolicy": {}, "f:schedulerName": {}, "f:securityContext": {},
                                "f:terminationGracePeriodSeconds": {}}},
        "manager": "kube-controller-manager", "operation": "Update", "time": "@@created@@"}]
    if bound:
        mf.append({
            "apiVersion": "v1", "fieldsType": "FieldsV1",
            "fieldsV1": {"f:status": {"f:conditions": {
                "k:{\"type\":\"ContainersReady\"}": {".": {}, "f:lastProbeTime": {}, "f:lastTransitionTime": {},
                                                    "f:status": {}, "f:type": {}},
                "k:{\"type\":\"Initialized\"}": {".": {}, "f:lastProbeTime": {}, "f:lastTransitionTime": {},
                                                "f:status": {}, "f:type": {}},
                "k:{\"type\":\"PodReadyToStartContainers\"}": {".": {}, "f:lastProbeTime": {},
                                                              "f:lastTransitionTime": {}, "f:status": {}, "f:type": {}},
                "k:{\"type\":\"Ready\"}": {".": {}, "f:lastProbeTime": {}, "f:lastTransitionTime": {},
                                          "f:status": {}, "f:type": {}}},
                "f:containerStatuses": {}, "f:hostIP": {}, "f:hostIPs": {}, "f:phase": {}, "f:podIP": {},
                "f:podIPs": {".": {}, "k:{\"ip\":\"@@pod_ip@@\"}": {".": {}, "f:ip": {}}}, "f:startTime": {}}},
            "manager": "kubelet", "operation": "Update", "subresource": "status", "time": "@@started@@"})
    elif phase == "Pending":
        mf.append({"apiVersion": "v1", "fieldsType": "FieldsV1",
                   "fieldsV1": {"f:status": {"f:conditions": {".": {}, "k:{\"type\":\"PodScheduled\"}": {
                       ".": {}, "f:lastProbeTime": {}, "f:lastTransitionTime": {}, "f:message": {}, "f:reason": {},
                       "f:status": {}, "f:type": {}}}}},
                   "manager": "kube-scheduler", "operation": "Update", "subresource": "status", "time": "@@created@@"})
    return mf


def container_obj(i, image, req, gpu=None, sidecar=False):
    requests = {"cpu": req[0], "memory": req[1]}
    limits = {"memory": req[1]}
    if gpu:
        for k, n in gpu.items():
            requests[k] = str(n)
            limits[k] = str(n)
    c = {"image": image, "imagePullPolicy": "IfNotPresent", "name": "c%d" % i,
         "resources": {"limits": limits, "requests": requests},
         "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
         "env": [{"name": "LOG_LEVEL", "value": "info"}],
         "volumeMounts": [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                           "name": "kube-api-access", "readOnly": True}]}
    if sidecar:
        c["restartPolicy"] = "Always"
    return c


def cstatus(i, image, phase):
    s = {"containerID": "containerd://@@cid%d@@" % i, "image": image, "imageID": image.split(":")[0] + "@sha256:@@img@@",
         "lastState": {}, "name": "c%d" % i, "ready": phase == "Running", "restartCount": 0,
         "started": phase == "Running"}
    if phase == "Running":
        s["state"] = {"running": {"startedAt": "@@started@@"}}
    elif phase in ("Succeeded", "Failed"):
        s["state"] = {"terminated": {"containerID": "containerd://@@cid%d@@" % i,
                                     "exitCode": 0 if phase == "Succeeded" else 1, "finishedAt": "@@finished@@",
                                     "reason": "Completed" if phase == "Succeeded" else "Error",
                                     "startedAt": "@@started@@"}}
    else:
        del s["containerID"]
        s["imageID"] = ""
        s["state"] = {"waiting": {"reason": "ContainerCreating"}}
    return s


def pod_template(shape, indent):
    """shape = (gpu_containers: tuple of (res, n) or None per container, inits: tuple of ((res, n), sidecar),
                phase, bound, gated, image index)"""
    conts, inits, phase, bound, gated, img_i = shape
    image = IMAGES_GPU[img_i] if any(conts) or inits else IMAGES_CPU[img_i]
    containers = [container_obj(i, image, ("2", "8Gi") if g else ("250m", "512Mi"), dict([g]) if g else None)
                  for i, g in enumerate(conts)]
    spec = {
        "containers": containers, "dnsPolicy": "ClusterFirst", "enableServiceLinks": True,
        "preemptionPolicy": "PreemptLowerPriority", "priority": 0,
        "restartPolicy": "Never" if phase in ("Succeeded", "Failed") else "Always",
        "schedulerName": "default-scheduler", "securityContext": {}, "serviceAccount": "default",
        "serviceAccountName": "default", "terminationGracePeriodSeconds": 30,
        "tolerations": k.default_tolerations(),
        "volumes": [{"name": "kube-api-access", "projected": {"defaultMode": 420, "sources": [
            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
            {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}}]}}],
    }
    if inits:
        spec["initContainers"] = [container_obj(len(conts) + j, image, ("1", "2Gi"), dict([g]), sidecar)
                                  for j, (g, sidecar) in enumerate(inits)]
    if bound:
        spec["nodeName"] = "@@node@@"
    if gated:
        spec["schedulingGates"] = [{"name": "kueue.x-k8s.io/admission"}]
    if any(conts) or inits:
        spec["tolerations"].insert(0, dict(k.GPU_TOLERATION))
    meta = {"creationTimestamp": "@@created@@", "generateName": "@@gen@@",
            "labels": {"app": "@@app@@", "pod-template-hash": "@@hash@@", "team": "@@ns@@"},
            "managedFields": managed_fields(bound, phase, len(conts), bool(inits)),
            "name": "@@name@@", "namespace": "@@ns@@",
            "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": True, "controller": True,
                                 "kind": "ReplicaSet", "name": "@@owner@@", "uid": "@@owner_uid@@"}],
            "resourceVersion": "@@rv@@", "uid": "@@uid@@"}
    st = {"phase": phase, "qosClass": "Burstable"}
    if bound:
        running = phase == "Running"
        terminal = phase in ("Succeeded", "Failed")
        ready = "True" if running else "False"
        extra = {} if running else {"reason": "PodCompleted" if terminal else "ContainersNotReady"}
        st.update({
            "conditions": [
                {"lastProbeTime": None, "lastTransitionTime": "@@started@@", "status": "True" if not (phase == "Pending") else "False",
                 "type": "PodReadyToStartContainers"},
                {"lastProbeTime": None, "lastTransitionTime": "@@started@@", "status": "True", "type": "Initialized"},
                {"lastProbeTime": None, "lastTransitionTime": "@@started@@", "status": ready, "type": "Ready", **extra},
                {"lastProbeTime": None, "lastTransitionTime": "@@started@@", "status": ready, "type": "ContainersReady",
                 **extra},
                {"lastProbeTime": None, "lastTransitionTime": "@@created@@", "status": "True", "type": "PodScheduled"}],
            "containerStatuses": [cstatus(i, image, phase) for i in range(len(conts))],
            "hostIP": "@@host_ip@@", "hostIPs": [{"ip": "@@host_ip@@"}], "startTime": "@@started@@"})
        if phase != "Pending":
            st["podIP"] = "@@pod_ip@@"
            st["podIPs"] = [{"ip": "@@pod_ip@@"}]
        if inits:
            st["initContainerStatuses"] = [
                dict(cstatus(len(conts) + j, image, "Running" if sidecar and running else
                             ("Succeeded" if phase != "Pending" else "Pending")), name="c%d" % (len(conts) + j))
                for j, (g, sidecar) in enumerate(inits)]
    else:
        c = {"lastProbeTime": None, "lastTransitionTime": "@@created@@", "status": "False", "type": "PodScheduled"}
        if gated:
            c.update(reason="SchedulingGated", message="Scheduling is blocked due to non-empty scheduling gates")
        else:
            c.update(reason="Unschedulable", message="@@message@@")
        st["conditions"] = [c]
    return Template({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": st}, indent)


# ----------------------------------------------------------------------------------- generator
class Gen:
    def __init__(self, a, out):
        self.a = a
        self.rng = random.Random(a.seed)
        self.out = out
        self.buf = []
        self.first = True
        self.templates = {}
        self.summary = {"nodes": 0, "gpuNodes": 0, "physicalGPUs": 0, "pendingGPUPods": 0, "pods": 0,
                        "resources": {}, "gpuNodeDetail": {}}
        self.nodes = []

    # -- output
    def emit(self, text):
        if not self.first:
            self.buf.append(",\n")
        self.first = False
        self.buf.append(text)
        if len(self.buf) > 2000:
            self.flush()

    def emit_obj(self, obj):
        self.emit(dump(obj, self.a.indent))

    def flush(self):
        self.out.write("".join(self.buf))
        self.buf = []

    def uid(self):
        r = self.rng.getrandbits(128)
        h = "%032x" % r
        return "%s-%s-4%s-%s%s-%s" % (h[:8], h[8:12], h[13:16], "89ab"[int(h[16], 16) & 3], h[17:20], h[20:32])

    def suffix(self, n=5):
        alphabet = "bcdfghjklmnpqrstvwxz2456789"
        r = self.rng.getrandbits(40)
        return "".join(alphabet[(r >> (5 * i)) % 27] for i in range(n))

    # -- nodes
    def plan_nodes(self):
        a, rng = self.a, self.rng
        weights = [f[1] for f in FLEET]
        ngpu = int(round(a.nodes * a.gpu_fraction))
        gpu_idx = set(rng.sample(range(a.nodes), ngpu)) if ngpu else set()
        width = max(3, len(str(a.nodes)))
        for i in range(a.nodes):
            n = {"i": i, "ip": "10.%d.%d.%d" % (i // 62500, (i // 250) % 250, i % 250 + 2),
                 "ready": True, "cordoned": False, "cp": i == 0}
            if i in gpu_idx and i != 0:
                f = rng.choices(FLEET, weights)[0]
                n.update(kind=f[8], fleet=f[0], instance=f[2], cpu=f[3], mem=f[4], labels=f[5], physical=f[7],
                         cap=dict(f[6]))
                n["alloc"] = dict(n["cap"])
                x = rng.random()
                if x < 0.02 and f[8] in ("whole", "shared"):         # one unhealthy GPU
                    k = "nvidia.com/gpu" if n["cap"].get("nvidia.com/gpu") else "nvidia.com/gpu.shared"
                    per = n["cap"][k] // f[7]
                    n["alloc"][k] = n["cap"][k] - per
                elif x < 0.03:
                    n["ready"] = False
                elif x < 0.04:
                    n["cordoned"] = True
                n["name"] = "gpu-%s-%0*d" % (f[0], width, i)
            else:
                t = CPU_TYPES[i % len(CPU_TYPES)]
                n.update(kind=None, instance=t[0], cpu=t[1], mem=t[2], labels={}, physical=0, cap={}, alloc={})
                n["name"] = ("cp-%0*d" if i == 0 else "cpu-%0*d") % (width, i)
                if i != 0 and rng.random() < 0.01:
                    n["ready"] = False
            n["free"] = dict(n["alloc"])
            self.nodes.append(n)

    def node_obj(self, n):
        name = n["name"]
        created = NOW - 86400 * (30 + n["i"] % 300)
        labels = {"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/instance-type": n["instance"],
                  "beta.kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name,
                  "kubernetes.io/os": "linux", "node.kubernetes.io/instance-type": n["instance"],
                  "topology.kubernetes.io/region": "us-east-1",
                  "topology.kubernetes.io/zone": "us-east-1" + "abc"[n["i"] % 3],
                  "eks.amazonaws.com/nodegroup": n.get("fleet", "cpu") + "-pool"}
        labels.update(n["labels"])
        if n["cp"]:
            labels["node-role.kubernetes.io/control-plane"] = ""
        cap = {"cpu": str(n["cpu"]), "ephemeral-storage": "209702892Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
               "memory": "%dKi" % (n["mem"] * 1048576), "pods": "110"}
        alloc = {"cpu": "%dm" % (n["cpu"] * 1000 - 230), "ephemeral-storage": "192188443124", "hugepages-1Gi": "0",
                 "hugepages-2Mi": "0", "memory": "%dKi" % (n["mem"] * 1048576 - 3500000), "pods": "110"}
        cap.update({k: str(v) for k, v in n["cap"].items()})
        alloc.update({k: str(v) for k, v in n["alloc"].items()})
        hb = iso(NOW - 30)
        conds = [{"lastHeartbeatTime": hb, "lastTransitionTime": iso(created + 60), "message": m, "reason": r,
                  "status": "False", "type": t} for t, r, m in (
            ("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
            ("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
            ("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"))]
        if n["ready"]:
            conds.append({"lastHeartbeatTime": hb, "lastTransitionTime": iso(created + 60),
                          "message": "kubelet is posting ready status", "reason": "KubeletReady",
                          "status": "True", "type": "Ready"})
        else:
            conds.append({"lastHeartbeatTime": hb, "lastTransitionTime": iso(NOW - 900),
                          "message": "container runtime is down", "reason": "KubeletNotReady",
                          "status": "False", "type": "Ready"})
        spec = {"providerID": "aws:///us-east-1%s/i-0%015x" % ("abc"[n["i"] % 3], self.rng.getrandbits(60))}
        taints = []
        if n["cp"]:
            taints.append({"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane"})
        if not n["ready"]:
            taints += [{"effect": "NoSchedule", "key": "node.kubernetes.io/not-ready", "timeAdded": iso(NOW - 890)},
                       {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "timeAdded": iso(NOW - 890)}]
        if n["cordoned"]:
            spec["unschedulable"] = True
            taints.append({"effect": "NoSchedule", "key": "node.kubernetes.io/unschedulable", "timeAdded": iso(NOW - 7200)})
        if taints:
            spec["taints"] = taints
        return {"apiVersion": "v1", "kind": "Node",
                "metadata": {"annotations": {"alpha.kubernetes.io/provided-node-ip": n["ip"],
                                             "node.alpha.kubernetes.io/ttl": "0",
                                             "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
                             "creationTimestamp": iso(created), "labels": labels, "name": name,
                             "resourceVersion": str(10000000 + n["i"]), "uid": self.uid()},
                "spec": spec,
                "status": {"addresses": [{"address": n["ip"], "type": "InternalIP"},
                                         {"address": name, "type": "Hostname"}],
                           "allocatable": alloc, "capacity": cap, "conditions": conds,
                           "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
                           "nodeInfo": {"architecture": "amd64", "bootID": self.uid(),
                                        "containerRuntimeVersion": "containerd://1.7.20",
                                        "kernelVersion": "5.15.0-1063-aws", "kubeProxyVersion": K8S,
                                        "kubeletVersion": K8S, "machineID": "%032x" % self.rng.getrandbits(128),
                                        "operatingSystem": "linux", "osImage": "Ubuntu 22.04.4 LTS",
                                        "systemUUID": self.uid()}}}

    # -- pods
    def template(self, shape):
        t = self.templates.get(shape)
        if t is None:
            t = self.templates[shape] = pod_template(shape, self.a.indent)
        return t

    def new_owner(self, gpu):
        """a fresh owner (namespace, app, hash, owner uid) for one pod or a queue of pods"""
        rng = self.rng
        ns = NS[rng.randrange(len(NS))]
        app = "%s-%s" % (("gpu" if gpu else "svc"), self.suffix(4))
        return ns, app, "%09x" % rng.getrandbits(36), self.uid()

    def emit_pod(self, shape, node=None, message=None, owner_of=None):
        rng = self.rng
        ns, app, h, owner_uid = owner_of or self.new_owner(any(shape[0]) or shape[1])
        owner = "%s-%s" % (app, h)
        name = "%s-%s" % (owner, self.suffix())
        created = NOW - rng.randrange(300, 86400 * 20)
        v = {"name": name, "ns": ns, "app": app, "hash": h, "owner": owner, "gen": owner + "-",
             "uid": self.uid(), "owner_uid": owner_uid, "rv": str(rng.randrange(10000000, 99999999)),
             "created": iso(created), "started": iso(created + 4), "finished": iso(created + 3600),
             "img": "%064x" % rng.getrandbits(256)}
        if node is not None:
            v["node"] = node["name"]
            v["host_ip"] = node["ip"]
            v["pod_ip"] = "10.244.%d.%d" % (node["i"] % 250, rng.randrange(2, 250))
        if message is not None:
            v["message"] = message
        ncont = len(shape[0]) + len(shape[1])
        for i in range(ncont):
            v["cid%d" % i] = "%064x" % rng.getrandbits(256)
        self.emit(self.template(shape).fill(v))
        self.summary["pods"] += 1
        return name, ns

    def gpu_request_for(self, n):
        """one GPU pod's shape for node n, or None when the node is full: returns (conts, inits, eff)"""
        rng, free = self.rng, n["free"]
        kind = n["kind"]
        if kind == "mig":
            options = [k for k, v in free.items() if v > 0]
            if not options:
                return None
            res = rng.choice(options)
            cnt = 1
            return (((res, cnt), None), (), {res: cnt}) if rng.random() < 0.3 else (((res, cnt),), (), {res: cnt})
        res = "nvidia.com/gpu.shared" if free.get("nvidia.com/gpu.shared") is not None and \
            n["cap"].get("nvidia.com/gpu", 0) == 0 else "nvidia.com/gpu"
        avail = free.get(res, 0)
        if avail <= 0:
            return None
        if kind == "whole":
            cnt = rng.choice([c for c in (1, 1, 2, 4, 8) if c <= avail] or [1])
        elif kind == "single":
            cnt = rng.choice([c for c in (1, 1, 1, 2) if c <= avail] or [1])
        else:
            cnt = 1
        x = rng.random()
        if kind == "whole" and x < 0.08 and cnt + 2 <= avail:
            # init container needs more GPUs than the app containers: effective = init
            return (((res, cnt), None), (((res, cnt + 2), False),), {res: cnt + 2})
        if kind == "whole" and x < 0.14 and cnt + 1 <= avail:
            # GPU sidecar (restartable init container) + normal init after it: sidecar adds
            return (((res, cnt),), (((res, 1), True), ((res, 1), False)), {res: max(cnt + 1, 2)})
        return (((res, cnt), None), (), {res: cnt}) if x < 0.5 else (((res, cnt),), (), {res: cnt})

    def emit_node_pods(self, n):
        rng, k = self.rng, self.a.pods_per_node
        count = 0
        if n["kind"] and n["ready"]:
            # share of the node's GPUs to fill; --fill 1 holds every GPU (as many GPU pods as it takes)
            target = rng.random() if self.a.fill is None else self.a.fill
            total = sum(n["alloc"].values())
            used = 0
            most = max(0, k - 3) if self.a.fill is None else k + 2 * total
            while count < most and total and used < target * total:
                req = self.gpu_request_for(n)
                if req is None:
                    break
                conts, inits, eff = req
                assert eff == effective([dict([g]) for g in conts if g], [(dict([g]), sc) for g, sc in inits]), (conts, inits)
                phase = "Running"
                x = rng.random()
                if x < 0.06:
                    phase = "Succeeded"
                elif x < 0.09:
                    phase = "Failed"
                elif x < 0.11:
                    phase = "Pending"        # bound, ContainerCreating: counts
                self.emit_pod((conts, inits, phase, True, False, rng.randrange(len(IMAGES_GPU))), n)
                count += 1
                if phase in ("Succeeded", "Failed"):
                    continue
                for res, c in eff.items():
                    n["free"][res] -= c
                    used += c
        while count < k:
            phase = "Succeeded" if rng.random() < 0.03 else "Running"
            nc = 1 + (rng.random() < 0.3)
            self.emit_pod(((None,) * nc, (), phase, True, False, rng.randrange(len(IMAGES_CPU))), n)
            count += 1

    def emit_finished(self, count):
        """count finished pods (Succeeded, a fifth Failed) bound to random nodes, as a batch cluster
        keeps them: Jobs of 50, GPU pods on GPU nodes half the time.  Drawn from a random stream of
        their own, after everything else, so the rest of the cluster is the one without them.
        Terminal pods hold nothing: the summary's totals are unchanged."""
        main, rng = self.rng, random.Random("finished-%d" % self.a.seed)
        self.rng = rng
        owners = None
        for j in range(count):
            if j % 100 == 0:
                owners = (self.new_owner(True), self.new_owner(False))
            n = self.nodes[rng.randrange(len(self.nodes))]
            phase = "Failed" if rng.random() < 0.2 else "Succeeded"
            res = [r for r, c in sorted(n["alloc"].items()) if c > 0]
            if res and rng.random() < 0.5:
                shape = (((res[rng.randrange(len(res))], 1),), (), phase, True, False, rng.randrange(len(IMAGES_GPU)))
                owner = owners[0]
            else:
                shape = ((None,), (), phase, True, False, rng.randrange(len(IMAGES_CPU)))
                owner = owners[1]
            self.emit_pod(shape, n, owner_of=owner)
        self.summary["finishedPods"] = count
        self.rng = main

    def record_node(self, n):
        s = self.summary
        s["nodes"] += 1
        if not n["kind"]:
            return
        s["gpuNodes"] += 1
        s["physicalGPUs"] += n["physical"]
        detail = {"physicalGPUs": n["physical"], "resources": {}}
        for res in n["cap"]:
            cap, alloc = n["cap"][res], n["alloc"][res]
            allocated = alloc - n["free"][res]
            if cap == 0 and alloc == 0 and allocated == 0:
                continue
            detail["resources"][res] = {"capacity": cap, "allocatable": alloc, "allocated": allocated}
            tot = s["resources"].setdefault(res, {"allocatable": 0, "allocated": 0})
            tot["allocatable"] += alloc
            tot["allocated"] += allocated
        s["gpuNodeDetail"][n["name"]] = detail

    def pending_message(self, res, cnt):
        """the scheduler's FitError for a pod asking cnt x res with default tolerations (1.30 format)"""
        hist, pre = {}, {}

        def add(d, k):
            d[k] = d.get(k, 0) + 1
        for n in self.nodes:
            if n["cordoned"]:
                add(hist, "node(s) were unschedulable")
                add(pre, "Preemption is not helpful for scheduling")
            elif n["cp"]:
                add(hist, "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }")
                add(pre, "Preemption is not helpful for scheduling")
            elif not n["ready"]:
                add(hist, "node(s) had untolerated taint {node.kubernetes.io/not-ready: }")
                add(pre, "Preemption is not helpful for scheduling")
            else:
                assert n["free"].get(res, 0) < cnt
                add(hist, "Insufficient " + res)
                add(pre, "No preemption victims found for incoming pod")
        total = len(self.nodes)

        def fmt(d):
            return ", ".join(sorted("%d %s" % (v, k) for k, v in d.items()))
        return "0/%d nodes are available: %s. preemption: 0/%d nodes are available: %s." % (
            total, fmt(hist), total, fmt(pre))

    def run(self):
        a, rng = self.a, self.rng
        self.out.write('{\n    "apiVersion": "v1",\n    "items": [\n')
        self.plan_nodes()
        for n in self.nodes:
            self.emit_obj(self.node_obj(n))
        for n in self.nodes:
            self.emit_node_pods(n)
            self.record_node(n)
        # Pending GPU pods: a request no schedulable node can fit
        ngpu = sum(1 for n in self.nodes if n["kind"])
        npending = (a.nodes // 20 + 1) if ngpu else 0
        if a.pending is not None:
            npending = a.pending if ngpu else 0
        events = []
        owner = None
        for j in range(npending):
            # with --pending, the queue comes from Jobs of up to --queue-owner pods (same owner, same request)
            if a.pending is not None and j % (2 * a.queue_owner) == 0:
                owner = [self.new_owner(True), self.new_owner(True)]
            if j % 2 == 0:
                res = "nvidia.com/gpu"
                cnt = 1 + max([n["free"].get(res, 0) for n in self.nodes
                               if n["ready"] and not n["cordoned"] and not n["cp"]] + [0])
            else:
                res, cnt = "nvidia.com/mig-7g.80gb", 1
            gated = j % 7 == 3
            msg = None if gated else self.pending_message(res, cnt)
            name, ns = self.emit_pod((((res, cnt),), (), "Pending", False, gated, rng.randrange(len(IMAGES_GPU))),
                                     message=msg, owner_of=owner[j % 2] if owner else None)
            self.summary["pendingGPUPods"] += 1
            if msg:
                events.append((ns, name, msg))
        # and a few Pending pods without GPUs (not counted)
        for j in range(a.nodes // 100 + 1):
            self.emit_pod(((None,), (), "Pending", False, False, 0), message="0/%d nodes are available: %d Insufficient cpu."
                          % (len(self.nodes), len(self.nodes)))
        for ns, name, msg in events:
            t = NOW - rng.randrange(60, 3600)
            self.emit_obj({"action": "Scheduling", "apiVersion": "v1",
                           "eventTime": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%06dZ" % rng.randrange(10**6),
                           "firstTimestamp": None, "involvedObject": {"apiVersion": "v1", "kind": "Pod", "name": name,
                                                                      "namespace": ns},
                           "kind": "Event", "lastTimestamp": None, "message": msg,
                           "metadata": {"creationTimestamp": iso(t), "name": "%s.%x" % (name, t * 10**9),
                                        "namespace": ns, "resourceVersion": str(rng.randrange(10**7, 10**8)),
                                        "uid": self.uid()},
                           "reason": "FailedScheduling", "reportingComponent": "default-scheduler",
                           "reportingInstance": "default-scheduler-" + self.nodes[0]["name"], "source": {},
                           "type": "Warning"})
        # GPU Operator DaemonSets: desired = GPU nodes, ready = the Ready ones
        ready_gpu = sum(1 for n in self.nodes if n["kind"] and n["ready"])
        for ds in ("gpu-feature-discovery", "nvidia-container-toolkit-daemonset", "nvidia-dcgm-exporter",
                   "nvidia-device-plugin-daemonset", "nvidia-driver-daemonset", "nvidia-operator-validator"):
            self.emit_obj({"apiVersion": "apps/v1", "kind": "DaemonSet",
                           "metadata": {"creationTimestamp": iso(NOW - 86400 * 100), "generation": 1,
                                        "labels": {"app": ds, "app.kubernetes.io/managed-by": "gpu-operator"},
                                        "name": ds, "namespace": "gpu-operator", "resourceVersion": "1000",
                                        "uid": self.uid()},
                           "spec": {"selector": {"matchLabels": {"app": ds}},
                                    "template": {"metadata": {"labels": {"app": ds}},
                                                 "spec": {"containers": [{"image": "nvcr.io/nvidia/" + ds, "name": ds}]}}},
                           "status": {"currentNumberScheduled": ngpu, "desiredNumberScheduled": ngpu,
                                      "numberAvailable": ready_gpu, "numberMisscheduled": 0, "numberReady": ready_gpu,
                                      "observedGeneration": 1, "updatedNumberScheduled": ngpu}})
        self.emit_obj({"apiVersion": "nvidia.com/v1", "kind": "ClusterPolicy",
                       "metadata": {"creationTimestamp": iso(NOW - 86400 * 100), "generation": 1, "name": "cluster-policy",
                                    "resourceVersion": "1000", "uid": self.uid()},
                       "spec": {"mig": {"strategy": "single"}},
                       "status": {"namespace": "gpu-operator", "state": "ready" if ready_gpu == ngpu else "notReady"}})
        if a.finished:
            self.emit_finished(a.finished)
        self.flush()
        self.out.write('\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n')
        self.summary["resources"] = dict(sorted(self.summary["resources"].items()))


def main():
    ap = argparse.ArgumentParser(description="generate a large realistic cluster dump (JSON List)")
    ap.add_argument("--nodes", type=int, required=True)
    ap.add_argument("--gpu-fraction", type=float, default=0.4)
    ap.add_argument("--pods-per-node", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fill", type=float, help="share of every ready GPU node's GPUs held by pods "
                    "(default: a random share per node; 1 = every GPU held)")
    ap.add_argument("--pending", type=int, help="pending GPU pods (default nodes/20 + 1)")
    ap.add_argument("--queue-owner", type=int, default=50,
                    help="with --pending: pending pods per owner (a Job's queue), default 50")
    ap.add_argument("--finished", type=int, default=0,
                    help="add N finished pods (Succeeded/Failed, bound; a batch cluster keeps them) after the "
                         "rest: the same cluster plus pods that hold nothing")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    ap.add_argument("--summary", help="write the expected status totals (JSON) here")
    ap.add_argument("--indent", action="store_true",
                    help="kubectl's layout (4-space indent; about 2.5x larger) instead of one compact item per line")
    a = ap.parse_args()
    if a.nodes < 1 or not 0 <= a.gpu_fraction <= 1 or a.pods_per_node < 0 or \
            (a.fill is not None and not 0 <= a.fill <= 1) or (a.pending or 0) < 0 or a.queue_owner < 1 or a.finished < 0:
        ap.error("need --nodes >= 1, 0 <= --gpu-fraction <= 1, --pods-per-node >= 0")
    out = sys.stdout if a.output == "-" else open(a.output, "w", encoding="utf-8", buffering=1 << 20)
    g = Gen(a, out)
    g.run()
    if out is not sys.stdout:
        out.close()
    if a.summary:
        with open(a.summary, "w", encoding="utf-8") as f:
            json.dump(g.summary, f, indent=2, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
