"""k8s_objects.py — the one factory of Kubernetes objects for tests, as `kubectl get -o json` prints them.

Two shapes from the same knowledge (GFD and GPU Operator labels, the tolerations admission adds,
owners' API versions):
  - full objects as an API server returns them (node, pod, container, scheduler_event,
    core_event, daemonset, resource_quota, kubectl_list): tests/gen/build_examples.py (the
    example clusters), build_usage_example.py, tests/fixtures/plan/make_fixtures.py;
  - compact objects (compact_node, compact_pod, compact_container, compact_event): only the
    fields the model reads, for fixtures whose numbers are worked out by hand in their comments
    (tests/fixtures/pending/make_fixtures.py and make_traps.py);
and the label sets alone for tests/gen/gen_cluster.py, which streams its own templates.
Deterministic: uids are derived from the object's identity, times from a fixed reference ("now"
of the snapshot), so rebuilding gives byte-identical files.  Only the Python standard library.
"""
import hashlib
import json
import uuid
from datetime import datetime, timedelta, timezone

NOW = datetime(2025, 6, 2, 10, 0, 0, tzinfo=timezone.utc)
K8S_VERSION = "v1.30.4"


def uid(*parts):
    h = hashlib.sha256("/".join(parts).encode()).digest()[:16]
    return str(uuid.UUID(bytes=h, version=4))


def ts(ago):
    """RFC 3339 time `ago` (timedelta) before NOW"""
    return (NOW - ago).strftime("%Y-%m-%dT%H:%M:%SZ")


def micro_ts(ago):
    return (NOW - ago).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def rv(*parts):
    return str(int(hashlib.sha1("/".join(parts).encode()).hexdigest()[:7], 16) % 90000000 + 10000000)


def hexid(n, *parts):
    return hashlib.sha256("/".join(parts).encode()).hexdigest()[:n]


def suffix5(*parts):
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    h = int(hashlib.sha1("/".join(parts).encode()).hexdigest(), 16)
    s = ""
    for _ in range(5):
        s += alphabet[h % len(alphabet)]
        h //= len(alphabet)
    return s


# ---------------------------------------------------------------- nodes

def gfd_labels(product, count, memory, family, cc, *, replicas=1, sharing="none",
               mig_strategy=None, mig_capable=False, mps_capable=False,
               mig_devices=None, single=None, driver=("550", "90", "07"), cuda=("12", "4"),
               machine="unknown", legacy_cuda=True, timestamp="1748857800"):
    """labels GPU Feature Discovery writes (shared/reference/gfd-labels.md §1-3).
    legacy_cuda: also the deprecated nvidia.com/cuda.driver.* and cuda.runtime.* names that GFD
    still writes beside cuda.driver-version.* (False: the newer names only).  A MIG device's or
    the single strategy's "engines" are optional (older GFD writes none)."""
    d = {
        "nvidia.com/gfd.timestamp": timestamp,
        "nvidia.com/cuda.driver-version.full": ".".join(driver),
        "nvidia.com/cuda.driver-version.major": driver[0],
        "nvidia.com/cuda.driver-version.minor": driver[1],
        "nvidia.com/cuda.driver-version.revision": driver[2],
    }
    if legacy_cuda:
        d["nvidia.com/cuda.driver.major"] = driver[0]
        d["nvidia.com/cuda.driver.minor"] = driver[1]
        d["nvidia.com/cuda.driver.rev"] = driver[2]
    d["nvidia.com/cuda.runtime-version.full"] = ".".join(cuda)
    d["nvidia.com/cuda.runtime-version.major"] = cuda[0]
    d["nvidia.com/cuda.runtime-version.minor"] = cuda[1]
    if legacy_cuda:
        d["nvidia.com/cuda.runtime.major"] = cuda[0]
        d["nvidia.com/cuda.runtime.minor"] = cuda[1]
    if machine is not None:             # None: no gpu.machine label (GFD found no machine type)
        d["nvidia.com/gpu.machine"] = machine
    d.update({
        "nvidia.com/gpu.product": product,
        "nvidia.com/gpu.count": str(count),
        "nvidia.com/gpu.memory": str(memory),
        "nvidia.com/gpu.family": family,
        "nvidia.com/gpu.compute.major": str(cc[0]),
        "nvidia.com/gpu.compute.minor": str(cc[1]),
        "nvidia.com/gpu.replicas": str(replicas),
        "nvidia.com/gpu.sharing-strategy": sharing,
        "nvidia.com/gpu.mode": "compute",
        "nvidia.com/mig.capable": "true" if mig_capable else "false",
        "nvidia.com/mps.capable": "true" if mps_capable else "false",
        "nvidia.com/vgpu.present": "false",
    })
    if mig_strategy:
        d["nvidia.com/mig.strategy"] = mig_strategy
    if single:   # single strategy with MIG devices: per-device facts on nvidia.com/gpu.*
        d["nvidia.com/gpu.multiprocessors"] = str(single["sm"])
        d["nvidia.com/gpu.slices.gi"] = str(single["gi"])
        d["nvidia.com/gpu.slices.ci"] = str(single["gi"])
        for e, v in zip(("copy", "decoder", "encoder", "jpeg", "ofa"), single.get("engines", ())):
            d["nvidia.com/gpu.engines." + e] = str(v)
    for prof, m in (mig_devices or {}).items():
        p = "nvidia.com/mig-" + prof
        d[p + ".count"] = str(m["count"])
        d[p + ".memory"] = str(m["memory"])
        d[p + ".multiprocessors"] = str(m["sm"])
        d[p + ".slices.gi"] = str(m["gi"])
        d[p + ".slices.ci"] = str(m["gi"])
        for e, v in zip(("copy", "decoder", "encoder", "jpeg", "ofa"), m.get("engines", ())):
            d[p + ".engines." + e] = str(v)
        d[p + ".product"] = product + "-MIG-" + prof
        d[p + ".replicas"] = "1"
        d[p + ".sharing-strategy"] = "none"
    return d


# the operands the GPU Operator deploys, as its nvidia.com/gpu.deploy.<operand> labels name them
OPERANDS = ("driver", "container-toolkit", "device-plugin", "gpu-feature-discovery", "dcgm-exporter", "dcgm",
            "node-status-exporter", "operator-validator")


def deploy_labels(operands, driver="true"):
    """nvidia.com/gpu.deploy.<operand> for each operand (the driver's value may be "false":
    a node with a preinstalled driver)"""
    return {"nvidia.com/gpu.deploy." + o: driver if o == "driver" else "true" for o in operands}


def operator_labels(mig_capable=False, mig_config=None, mig_state=None, driver="true", operands=OPERANDS,
                    upgrade_state="upgrade-done"):
    """labels the GPU Operator (and MIG manager) writes (gfd-labels.md §4-5); operands: which
    nvidia.com/gpu.deploy.* it set; upgrade_state None: no driver upgrade label"""
    d = {
        "nvidia.com/gpu.present": "true",
        "nvidia.com/gpu.deploy.operands": "true",
    }
    d.update(deploy_labels(operands, driver))
    if upgrade_state:
        d["nvidia.com/gpu-driver-upgrade-state"] = upgrade_state
    if mig_capable:
        d["nvidia.com/gpu.deploy.mig-manager"] = "true"
        d["nvidia.com/mig.config"] = mig_config or "all-disabled"
        d["nvidia.com/mig.config.state"] = mig_state or "success"
    return d


NVIDIA_PCI = {"feature.node.kubernetes.io/pci-10de.present": "true"}   # NFD: an NVIDIA PCI device


def nfd_labels():
    return {
        **NVIDIA_PCI,
        "feature.node.kubernetes.io/cpu-cpuid.AVX512F": "true",
        "feature.node.kubernetes.io/kernel-version.full": "5.15.0-1063-nvidia",
        "feature.node.kubernetes.io/system-os_release.ID": "ubuntu",
        "feature.node.kubernetes.io/system-os_release.VERSION_ID": "22.04",
    }


def node(name, *, instance, zone, cpu, mem_ki, pods=110, gpu_cap=None, gpu_alloc=None,
         labels=None, taints=None, unschedulable=False, ready="True", age_days=60,
         ip="10.0.0.1", role=None, not_ready_since=None, ephemeral_ki=None):
    """a Node; gpu_cap / gpu_alloc: {resource: "count"}; ready: "True" | "False" | "Unknown" """
    lab = {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": instance,
        "beta.kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": instance,
        "topology.kubernetes.io/region": "us-east-1",
        "topology.kubernetes.io/zone": zone,
    }
    if role:
        lab["node-role.kubernetes.io/" + role] = ""
    lab.update(labels or {})
    eph = ephemeral_ki or 1950000000
    cap = {
        "cpu": str(cpu),
        "ephemeral-storage": "%dKi" % eph,
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "memory": "%dKi" % mem_ki,
        "pods": str(pods),
    }
    alloc = {
        "cpu": "%dm" % (cpu * 1000 - (90 if cpu < 16 else 400)),
        "ephemeral-storage": str(eph * 1024 * 92 // 100),
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "memory": "%dKi" % (mem_ki - 3400000 if mem_ki > 20000000 else mem_ki - 600000),
        "pods": str(pods),
    }
    cap.update(gpu_cap or {})
    alloc.update(gpu_alloc if gpu_alloc is not None else (gpu_cap or {}))
    hb = timedelta(seconds=40)
    if ready == "True":
        ready_cond = {"lastHeartbeatTime": ts(hb), "lastTransitionTime": ts(timedelta(days=age_days) - timedelta(minutes=2)),
                      "message": "kubelet is posting ready status", "reason": "KubeletReady",
                      "status": "True", "type": "Ready"}
    elif ready == "Unknown":
        ready_cond = {"lastHeartbeatTime": ts(not_ready_since + timedelta(seconds=20)),
                      "lastTransitionTime": ts(not_ready_since - timedelta(seconds=20)),
                      "message": "Kubelet stopped posting node status.", "reason": "NodeStatusUnknown",
                      "status": "Unknown", "type": "Ready"}
    else:
        ready_cond = {"lastHeartbeatTime": ts(hb), "lastTransitionTime": ts(not_ready_since),
                      "message": "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady",
                      "reason": "KubeletNotReady", "status": "False", "type": "Ready"}

    def cond(t, reason, msg):
        if ready == "Unknown":
            return {"lastHeartbeatTime": ready_cond["lastHeartbeatTime"], "lastTransitionTime": ready_cond["lastTransitionTime"],
                    "message": "Kubelet stopped posting node status.", "reason": "NodeStatusUnknown",
                    "status": "Unknown", "type": t}
        return {"lastHeartbeatTime": ts(hb), "lastTransitionTime": ts(timedelta(days=age_days) - timedelta(minutes=2)),
                "message": msg, "reason": reason, "status": "False", "type": t}

    spec = {"providerID": "aws:///%s/i-0%s" % (zone, hexid(16, "node", name))}
    if taints:
        spec["taints"] = taints
    if unschedulable:
        spec["unschedulable"] = True
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": {
                "alpha.kubernetes.io/provided-node-ip": ip,
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true",
            },
            "creationTimestamp": ts(timedelta(days=age_days)),
            "labels": lab,
            "name": name,
            "resourceVersion": rv("node", name),
            "uid": uid("node", name),
        },
        "spec": spec,
        "status": {
            "addresses": [
                {"address": ip, "type": "InternalIP"},
                {"address": name, "type": "Hostname"},
                {"address": name + ".ec2.internal", "type": "InternalDNS"},
            ],
            "allocatable": alloc,
            "capacity": cap,
            "conditions": [
                cond("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
                cond("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
                cond("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
                ready_cond,
            ],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {
                "architecture": "amd64",
                "bootID": uid("boot", name),
                "containerRuntimeVersion": "containerd://1.7.20",
                "kernelVersion": "5.15.0-1063-nvidia",
                "kubeProxyVersion": K8S_VERSION,
                "kubeletVersion": K8S_VERSION,
                "machineID": hexid(32, "machine", name),
                "operatingSystem": "linux",
                "osImage": "Ubuntu 22.04.4 LTS",
                "systemUUID": uid("system", name),
            },
        },
    }


# ---------------------------------------------------------------- pods

def container(name, image, requests=None, limits=None, ports=None, restart_always=False, env=None,
              args=None):
    c = {
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "name": name,
        "resources": {},
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
        "volumeMounts": [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                          "name": "kube-api-access-" + suffix5("vol", name), "readOnly": True}],
    }
    if requests:
        c["resources"]["requests"] = requests
    lim = dict(limits) if limits else {}
    # extended resources must have limits equal to requests (the API server enforces it)
    for k, v in (requests or {}).items():
        if "/" in k and k not in lim:
            lim[k] = v
    if lim:
        c["resources"]["limits"] = lim
    if ports:
        c["ports"] = [{"containerPort": p, "name": n, "protocol": "TCP"} for n, p in ports]
    if restart_always:
        c["restartPolicy"] = "Always"
    if env:
        c["env"] = [{"name": k, "value": v} for k, v in env]
    if args:
        c["args"] = args
    return c


OWNERS = {
    "ReplicaSet": "apps/v1", "StatefulSet": "apps/v1", "DaemonSet": "apps/v1", "Job": "batch/v1",
    "PyTorchJob": "kubeflow.org/v1", "Node": "v1",
}


def default_tolerations():
    """what the DefaultTolerationSeconds admission plugin adds to every pod (a new list)"""
    return [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
            {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]


GPU_TOLERATION = {"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}


def pod(ns, name, *, node=None, phase="Running", containers, init=None, owner=None, labels=None,
        age=timedelta(hours=5), tolerations=None, node_selector=None, priority_class=None,
        priority=0, gates=None, scheduled_msg=None, waiting_reason=None, exit_code=None,
        restarts=0, sa="default", host_ip=None, pod_ip=None, annotations=None, affinity=None):
    """a Pod.  phase Running|Pending|Succeeded|Failed.  owner = (kind, name).
    node None = unbound.  scheduled_msg = the PodScheduled=False message for unbound pods."""
    created = age
    started = age - timedelta(seconds=3) if node else None
    meta = {
        "creationTimestamp": ts(created),
        "labels": dict(labels or {}),
        "name": name,
        "namespace": ns,
        "resourceVersion": rv("pod", ns, name),
        "uid": uid("pod", ns, name),
    }
    if annotations:
        meta["annotations"] = annotations
    if owner:
        kind, oname = owner
        meta["ownerReferences"] = [{
            "apiVersion": OWNERS[kind], "blockOwnerDeletion": True, "controller": True,
            "kind": kind, "name": oname, "uid": uid(kind, ns, oname)}]
        if kind in ("ReplicaSet", "DaemonSet", "Job"):
            meta["generateName"] = name[:len(name) - len(name.split("-")[-1])]
    tol = default_tolerations()
    if tolerations:
        tol = tolerations + tol
    spec = {
        "containers": containers,
        "dnsPolicy": "ClusterFirst",
        "enableServiceLinks": True,
        "preemptionPolicy": "PreemptLowerPriority",
        "priority": priority,
        "restartPolicy": "Never" if owner and owner[0] in ("Job", "PyTorchJob") else "Always",
        "schedulerName": "default-scheduler",
        "securityContext": {},
        "serviceAccount": sa,
        "serviceAccountName": sa,
        "terminationGracePeriodSeconds": 30,
        "tolerations": tol,
        "volumes": [{"name": "kube-api-access-" + suffix5("vol", c["name"]), "projected": {
            "defaultMode": 420, "sources": [{"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}}]}}
            for c in containers[:1]],
    }
    if init:
        spec["initContainers"] = init
    if node:
        spec["nodeName"] = node
    if node_selector:
        spec["nodeSelector"] = node_selector
    if affinity:
        spec["affinity"] = affinity
    if priority_class:
        spec["priorityClassName"] = priority_class
    if gates:
        spec["schedulingGates"] = [{"name": g} for g in gates]

    st = {"phase": phase, "qosClass": qos(containers)}
    if node:
        t_sched = ts(created - timedelta(seconds=1))
        st["hostIP"] = host_ip or "10.0.1.10"
        st["hostIPs"] = [{"ip": st["hostIP"]}]
        st["startTime"] = ts(started)
        conds = [{"lastProbeTime": None, "lastTransitionTime": t_sched, "status": "True", "type": "PodScheduled"}]
        running = phase == "Running"
        done = phase in ("Succeeded", "Failed")
        init_ok = phase != "Pending"
        conds.insert(0, {"lastProbeTime": None, "lastTransitionTime": ts(started - timedelta(seconds=1)),
                         "status": "True" if init_ok else "False", "type": "Initialized",
                         **({} if init_ok else {"reason": "ContainersNotInitialized",
                                                "message": "containers with incomplete status: [%s]" % ",".join(c["name"] for c in (init or []))})})
        rstat = "True" if running else "False"
        extra = {} if running else {"reason": "PodCompleted" if done else "ContainersNotReady"}
        if not running and not done:
            extra["message"] = "containers with unready status: [%s]" % " ".join(c["name"] for c in containers)
        conds.insert(0, {"lastProbeTime": None, "lastTransitionTime": ts(started - timedelta(seconds=1)),
                         "status": "True" if node else "False", "type": "PodReadyToStartContainers"})
        conds.append({"lastProbeTime": None, "lastTransitionTime": ts(started - timedelta(seconds=20)), "status": rstat,
                      "type": "ContainersReady", **extra})
        conds.append({"lastProbeTime": None, "lastTransitionTime": ts(started - timedelta(seconds=20)), "status": rstat,
                      "type": "Ready", **extra})
        st["conditions"] = conds
        if pod_ip or phase != "Pending":
            st["podIP"] = pod_ip or "10.244.%d.%d" % (int(hexid(2, ns, name), 16) % 200, int(hexid(2, name), 16) % 250 + 2)
            st["podIPs"] = [{"ip": st["podIP"]}]
        st["containerStatuses"] = [cstatus(c, phase, started, waiting_reason, exit_code, restarts, ns, name)
                                   for c in containers]
        if init:
            st["initContainerStatuses"] = [cstatus(c, "Succeeded" if phase != "Pending" and c.get("restartPolicy") != "Always"
                                                   else ("Running" if phase == "Running" else "Pending"),
                                                   started, "PodInitializing" if phase == "Pending" else None, 0, 0, ns, name)
                                           for c in init]
    else:
        cond = {"lastProbeTime": None, "lastTransitionTime": ts(created - timedelta(seconds=1)),
                "status": "False", "type": "PodScheduled"}
        if gates:
            cond["reason"] = "SchedulingGated"
            cond["message"] = "Scheduling is blocked due to non-empty scheduling gates"
        else:
            cond["reason"] = "Unschedulable"
            cond["message"] = scheduled_msg
        st["conditions"] = [cond]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": st}


def qos(containers):
    req = [c.get("resources", {}) for c in containers]
    if all(r.get("requests") and r.get("limits") and
           all(r["limits"].get(k) == r["requests"].get(k) for k in ("cpu", "memory")) and
           "cpu" in r["limits"] and "memory" in r["limits"] for r in req):
        return "Guaranteed"
    if any(r.get("requests") or r.get("limits") for r in req):
        return "Burstable"
    return "BestEffort"


def cstatus(c, phase, started, waiting_reason, exit_code, restarts, ns, pname):
    img = c["image"]
    s = {
        "image": img if ":" in img.split("/")[-1] else img + ":latest",
        "imageID": "",
        "lastState": {},
        "name": c["name"],
        "ready": phase == "Running",
        "restartCount": restarts,
        "started": phase == "Running",
    }
    if phase != "Pending":
        s["containerID"] = "containerd://" + hexid(64, "container", ns, pname, c["name"])
        s["imageID"] = img.split(":")[0] + "@sha256:" + hexid(64, "image", img)
    if phase == "Running":
        s["state"] = {"running": {"startedAt": ts(started - timedelta(seconds=5))}}
    elif phase in ("Succeeded", "Failed"):
        code = 0 if phase == "Succeeded" else (exit_code if exit_code is not None else 1)
        s["state"] = {"terminated": {
            "containerID": s["containerID"], "exitCode": code,
            "finishedAt": ts(started - timedelta(minutes=40)),
            "reason": "Completed" if code == 0 else "Error",
            "startedAt": ts(started - timedelta(seconds=5))}}
    else:
        s["state"] = {"waiting": {"reason": waiting_reason or "ContainerCreating"}}
    return s


# ---------------------------------------------------------------- other kinds

def scheduler_event(ns, pod_name, message, *, first_ago, last_ago, count=1):
    """a FailedScheduling event written by kube-scheduler through events.k8s.io, read via core/v1
    (shared/reference/scheduler-messages.md §9)"""
    ev = {
        "action": "Scheduling",
        "apiVersion": "v1",
        "eventTime": micro_ts(first_ago),
        "firstTimestamp": None,
        "involvedObject": {"apiVersion": "v1", "kind": "Pod", "name": pod_name, "namespace": ns,
                           "resourceVersion": rv("pod", ns, pod_name), "uid": uid("pod", ns, pod_name)},
        "kind": "Event",
        "lastTimestamp": None,
        "message": message,
        "metadata": {"creationTimestamp": ts(first_ago), "name": "%s.%x" % (pod_name, int(hexid(12, "ev", ns, pod_name), 16) | 0x17d0000000000000),
                     "namespace": ns, "resourceVersion": rv("event", ns, pod_name), "uid": uid("event", ns, pod_name)},
        "reason": "FailedScheduling",
        "reportingComponent": "default-scheduler",
        "reportingInstance": "default-scheduler-cp-1",
        "source": {},
        "type": "Warning",
    }
    if count > 1:
        ev["series"] = {"count": count, "lastObservedTime": micro_ts(last_ago)}
    return ev


def core_event(ns, kind, name, reason, message, *, etype="Normal", component="kubelet", host=None,
               ago=timedelta(minutes=30), count=1, api="v1"):
    ev = {
        "apiVersion": "v1",
        "count": count,
        "eventTime": None,
        "firstTimestamp": ts(ago),
        "involvedObject": {"apiVersion": api, "kind": kind, "name": name, "namespace": ns,
                           "uid": uid(kind if kind != "Pod" else "pod", ns, name)},
        "kind": "Event",
        "lastTimestamp": ts(ago),
        "message": message,
        "metadata": {"creationTimestamp": ts(ago), "name": "%s.%s" % (name, hexid(16, "cev", ns, name, reason)),
                     "namespace": ns, "resourceVersion": rv("cevent", ns, name, reason), "uid": uid("cevent", ns, name, reason)},
        "reason": reason,
        "reportingComponent": component,
        "reportingInstance": host or "",
        "source": {"component": component, **({"host": host} if host else {})},
        "type": etype,
    }
    return ev


def daemonset(ns, name, *, app_label=None, selector=None, desired, ready, node_selector=None, image,
              age_days=60, available=None, labels=None):
    sel = selector or {"app": app_label or name}
    lab = dict(labels or {})
    if app_label:
        lab.setdefault("app", app_label)
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {
            "annotations": {"deprecated.daemonset.template.generation": "3"},
            "creationTimestamp": ts(timedelta(days=age_days)),
            "generation": 3,
            "labels": lab,
            "name": name,
            "namespace": ns,
            "resourceVersion": rv("ds", ns, name),
            "uid": uid("DaemonSet", ns, name),
        },
        "spec": {
            "revisionHistoryLimit": 10,
            "selector": {"matchLabels": sel},
            "template": {
                "metadata": {"labels": dict(sel)},
                "spec": {
                    "containers": [{"image": image, "imagePullPolicy": "IfNotPresent", "name": name.split("-")[-1] if len(name) > 40 else name,
                                    "resources": {}}],
                    **({"nodeSelector": node_selector} if node_selector else {}),
                    "priorityClassName": "system-node-critical",
                    "tolerations": [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}],
                },
            },
            "updateStrategy": {"rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}, "type": "RollingUpdate"},
        },
        "status": {
            "currentNumberScheduled": desired,
            "desiredNumberScheduled": desired,
            "numberAvailable": ready if available is None else available,
            "numberMisscheduled": 0,
            "numberReady": ready,
            **({"numberUnavailable": desired - ready} if desired > ready else {}),
            "observedGeneration": 3,
            "updatedNumberScheduled": desired,
        },
    }


def helm_device_plugin_daemonset(ns="kube-system", release="nvidia-device-plugin", *, chart_version="0.17.0",
                                 image_tag=None, repository="nvcr.io/nvidia/k8s-device-plugin", config_name=None,
                                 config_map=True, config_default="", fallback=("named", "single"),
                                 desired=1, ready=None, age_days=40):
    """the device plugin's DaemonSet as its Helm chart renders it at v0.17.0 (k8s-device-plugin
    deployments/helm/nvidia-device-plugin/templates/daemonset-device-plugin.yml:21-251 and
    _helpers.tpl): name = fullname (the release name when it contains the chart name, else
    release-chart, _helpers.tpl:14-25); labels helm.sh/chart, app.kubernetes.io/{name,instance,
    version,managed-by} (:49-56); with a config (config.name, or config.map rendered into
    <fullname>-configs, :237-245) the config-manager init container and sidecar, the
    available-configs ConfigMap volume and CONFIG_FILE=/config/config.yaml (:58-132, :180-183,
    :245-251); DEFAULT_CONFIG = config.default, FALLBACK_STRATEGIES = the list joined by ","."""
    name = release if "nvidia-device-plugin" in release else release + "-nvidia-device-plugin"
    image = "%s:%s" % (repository, image_tag or "v" + chart_version)
    cm = config_name or (name + "-configs" if config_map else None)
    sel = {"app.kubernetes.io/name": "nvidia-device-plugin", "app.kubernetes.io/instance": release}
    labels = dict(sel, **{"helm.sh/chart": "nvidia-device-plugin-" + chart_version,
                          "app.kubernetes.io/version": chart_version, "app.kubernetes.io/managed-by": "Helm"})

    def cfgm(cname, oneshot):
        env = [{"name": "ONESHOT", "value": "true" if oneshot else "false"}, {"name": "KUBECONFIG", "value": ""},
               {"name": "NODE_NAME", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
               {"name": "NODE_LABEL", "value": "nvidia.com/device-plugin.config"},
               {"name": "CONFIG_FILE_SRCDIR", "value": "/available-configs"},
               {"name": "CONFIG_FILE_DST", "value": "/config/config.yaml"},
               {"name": "DEFAULT_CONFIG", "value": config_default},
               {"name": "FALLBACK_STRATEGIES", "value": ",".join(fallback)},
               {"name": "SEND_SIGNAL", "value": "false" if oneshot else "true"},
               {"name": "SIGNAL", "value": "" if oneshot else "1"},
               {"name": "PROCESS_TO_SIGNAL", "value": "" if oneshot else "nvidia-device-plugin"}]
        c = {"image": image, "name": cname, "command": ["config-manager"], "env": env,
             "volumeMounts": [{"name": "available-configs", "mountPath": "/available-configs"},
                              {"name": "config", "mountPath": "/config"}]}
        if not oneshot:
            c["securityContext"] = {"capabilities": {"add": ["SYS_ADMIN"]}}
        return c
    plugin_env = [{"name": "MPS_ROOT", "value": "/run/nvidia/mps"}]
    if cm:
        plugin_env.append({"name": "CONFIG_FILE", "value": "/config/config.yaml"})
        plugin_env.append({"name": "NVIDIA_MIG_MONITOR_DEVICES", "value": "all"})
    plugin_env += [{"name": "NVIDIA_VISIBLE_DEVICES", "value": "all"},
                   {"name": "NVIDIA_DRIVER_CAPABILITIES", "value": "compute,utility"}]
    mounts = [{"name": "device-plugin", "mountPath": "/var/lib/kubelet/device-plugins"},
              {"name": "mps-shm", "mountPath": "/dev/shm"}, {"name": "mps-root", "mountPath": "/mps"},
              {"name": "cdi-root", "mountPath": "/var/run/cdi"}]
    if cm:
        mounts += [{"name": "available-configs", "mountPath": "/available-configs"},
                   {"name": "config", "mountPath": "/config"}]
    plugin = {"image": image, "imagePullPolicy": "IfNotPresent", "name": "nvidia-device-plugin-ctr",
              "command": ["nvidia-device-plugin"], "env": plugin_env,
              "securityContext": {"capabilities": {"add": ["SYS_ADMIN"]}}, "volumeMounts": mounts}
    volumes = [{"name": "device-plugin", "hostPath": {"path": "/var/lib/kubelet/device-plugins"}},
               {"name": "mps-root", "hostPath": {"path": "/run/nvidia/mps", "type": "DirectoryOrCreate"}},
               {"name": "mps-shm", "hostPath": {"path": "/run/nvidia/mps/shm"}},
               {"name": "cdi-root", "hostPath": {"path": "/var/run/cdi", "type": "DirectoryOrCreate"}}]
    spec = {"securityContext": {}, "containers": ([cfgm("nvidia-device-plugin-sidecar", False)] if cm else []) + [plugin],
            "volumes": volumes, "priorityClassName": "system-node-critical",
            "tolerations": [{"key": "CriticalAddonsOnly", "operator": "Exists"},
                            {"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}]}
    if cm:
        spec["serviceAccountName"] = name + "-service-account"
        spec["shareProcessNamespace"] = True
        spec["initContainers"] = [cfgm("nvidia-device-plugin-init", True)]
        volumes += [{"name": "available-configs", "configMap": {"name": cm}}, {"name": "config", "emptyDir": {}}]
    ready = desired if ready is None else ready
    return {
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"annotations": {"deprecated.daemonset.template.generation": "1", "meta.helm.sh/release-name": release,
                                     "meta.helm.sh/release-namespace": ns},
                     "creationTimestamp": ts(timedelta(days=age_days)), "generation": 1, "labels": labels,
                     "name": name, "namespace": ns, "resourceVersion": rv("ds", ns, name), "uid": uid("DaemonSet", ns, name)},
        "spec": {"revisionHistoryLimit": 10, "selector": {"matchLabels": sel},
                 "template": {"metadata": {"labels": dict(sel), "annotations": {}}, "spec": spec},
                 "updateStrategy": {"type": "RollingUpdate"}},
        "status": {"currentNumberScheduled": desired, "desiredNumberScheduled": desired, "numberAvailable": ready,
                   "numberMisscheduled": 0, "numberReady": ready, "observedGeneration": 1,
                   "updatedNumberScheduled": desired},
    }


def static_device_plugin_daemonset(ns="kube-system", *, image="nvcr.io/nvidia/k8s-device-plugin:v0.17.0",
                                   configmap=None, config_key="config.yaml", desired=1, age_days=40):
    """k8s-device-plugin v0.17.0 deployments/static/nvidia-device-plugin.yml (no config-manager),
    with configmap: its ConfigMap mounted at /etc/nvidia-device-plugin and CONFIG_FILE naming
    config_key there (read once, at start: cmd/nvidia-device-plugin/main.go loadConfig)"""
    name = "nvidia-device-plugin-daemonset"
    env = [{"name": "FAIL_ON_INIT_ERROR", "value": "false"}]
    mounts = [{"name": "device-plugin", "mountPath": "/var/lib/kubelet/device-plugins"}]
    volumes = [{"name": "device-plugin", "hostPath": {"path": "/var/lib/kubelet/device-plugins"}}]
    if configmap:
        env.append({"name": "CONFIG_FILE", "value": "/etc/nvidia-device-plugin/" + config_key})
        mounts.append({"name": "device-plugin-config", "mountPath": "/etc/nvidia-device-plugin"})
        volumes.append({"name": "device-plugin-config", "configMap": {"name": configmap}})
    return {
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"annotations": {"deprecated.daemonset.template.generation": "1"},
                     "creationTimestamp": ts(timedelta(days=age_days)), "generation": 1, "name": name, "namespace": ns,
                     "resourceVersion": rv("ds", ns, name), "uid": uid("DaemonSet", ns, name)},
        "spec": {"selector": {"matchLabels": {"name": "nvidia-device-plugin-ds"}},
                 "template": {"metadata": {"labels": {"name": "nvidia-device-plugin-ds"}},
                              "spec": {"tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
                                       "priorityClassName": "system-node-critical",
                                       "containers": [{"image": image, "name": "nvidia-device-plugin-ctr", "env": env,
                                                       "securityContext": {"allowPrivilegeEscalation": False,
                                                                           "capabilities": {"drop": ["ALL"]}},
                                                       "volumeMounts": mounts}],
                                       "volumes": volumes}},
                 "updateStrategy": {"type": "RollingUpdate"}},
        "status": {"currentNumberScheduled": desired, "desiredNumberScheduled": desired, "numberAvailable": desired,
                   "numberMisscheduled": 0, "numberReady": desired, "updatedNumberScheduled": desired},
    }


def configmap(ns, name, data, labels=None, age_days=40):
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name, "namespace": ns, "uid": uid("ConfigMap", ns, name), "labels": dict(labels or {}),
                         "creationTimestamp": ts(timedelta(days=age_days)), "resourceVersion": rv("cm", ns, name)},
            "data": data}


def resource_quota(ns, name, hard, used, age_days=30):
    return {
        "apiVersion": "v1",
        "kind": "ResourceQuota",
        "metadata": {"creationTimestamp": ts(timedelta(days=age_days)), "name": name, "namespace": ns,
                     "resourceVersion": rv("rq", ns, name), "uid": uid("rq", ns, name)},
        "spec": {"hard": hard},
        "status": {"hard": hard, "used": used},
    }


def kubectl_list(items):
    # the snapshot time makes ages ("AGE 35m") independent of when the file is read
    return {"apiVersion": "v1", "items": items, "kind": "List",
            "metadata": {"resourceVersion": "",
                         "annotations": {"kubectl-gpu/snapshot-time": NOW.strftime("%Y-%m-%dT%H:%M:%SZ")}}}


# ---------------------------------------------------------------- compact objects
# The fields the model reads and nothing else, at the fixed times of the pending fixtures (their
# snapshot's now is 2025-01-15T12:00:00Z).  Key order is the builders' (these files are not
# key-sorted).

COMPACT_CREATED = "2025-01-15T11:35:00Z"      # pending pods: 25m old
COMPACT_OLD = "2025-01-14T12:00:00Z"          # nodes and running pods
COMPACT_SCHEDULED = "2025-01-15T11:58:00Z"    # the scheduler's last attempt


def compact_gfd_labels(product, count, memory, family="ampere", mig_capable=True, extra=None):
    """a GPU node's labels as GFD (driver 550.54.15, CUDA 12.4) and the operator write them"""
    l = {"kubernetes.io/os": "linux", "nvidia.com/gpu.present": "true"}
    l.update(gfd_labels(product, count, memory, family, (9 if family == "hopper" else 8, 0),
                        mig_capable=mig_capable, driver=("550", "54", "15"), cuda=("12", "4"),
                        machine="PIO-4124GS-TNR-01-NC24B", legacy_cuda=False, timestamp="1736940000"))
    l.update(deploy_labels(("device-plugin", "gpu-feature-discovery", "dcgm-exporter")))
    l.update(NVIDIA_PCI)
    l.update(extra or {})
    return l


def write_fixture_list(path, items, now):
    """A fixture cluster as a snapshot of it reads: a List whose items are the cluster's objects,
    taken at now (kubectl-gpu/snapshot-time), of the context "fixture"; written to path."""
    doc = {"apiVersion": "v1", "kind": "List",
           "metadata": {"annotations": {"kubectl-gpu/snapshot-time": now, "kubectl-gpu/context": "fixture"}},
           "items": items}
    with open(path, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")


def compact_node(name, labels=None, gpus=None, cpu="96", memory="1056561968Ki", pods="110", taints=None,
                 unschedulable=False, ready=True, extra_res=None):
    res = {"cpu": cpu, "memory": memory, "pods": pods, "ephemeral-storage": "1845300328Ki"}
    if gpus is not None:
        res.update(gpus)
    res.update(extra_res or {})
    labels = dict(labels or {})
    labels.setdefault("kubernetes.io/hostname", name)
    spec = {}
    if taints:
        spec["taints"] = taints
    if unschedulable:
        spec["unschedulable"] = True
    cond = {"type": "Ready", "status": "True", "reason": "KubeletReady", "message": "kubelet is posting ready status"}
    if not ready:
        cond = {"type": "Ready", "status": "Unknown", "reason": "NodeStatusUnknown",
                "message": "Kubelet stopped posting node status."}
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "uid": "uid-node-" + name, "creationTimestamp": COMPACT_OLD, "labels": labels},
            "spec": spec,
            "status": {"capacity": res, "allocatable": res, "conditions": [cond]}}


def compact_container(name, gpu=None, resource="nvidia.com/gpu", cpu="4", memory="32Gi", restart=None):
    lim = {}
    req = {"cpu": cpu, "memory": memory}
    if gpu:
        lim[resource] = str(gpu)
        req[resource] = str(gpu)
    c = {"name": name, "image": "nvcr.io/nvidia/pytorch:24.05-py3", "resources": {"requests": req, "limits": lim}}
    if restart:
        c["restartPolicy"] = restart
    return c


def compact_pod(ns, name, containers, node_name=None, phase=None, priority=0, init=None, tolerations=None,
                node_selector=None, affinity=None, gates=None, condition=None, owner=None, nominated=None,
                created=COMPACT_CREATED, priority_class=None):
    """condition: (reason, message) of PodScheduled=False for an unbound pod; owner: (kind, name)"""
    spec = {"containers": containers, "schedulerName": "default-scheduler", "priority": priority,
            "restartPolicy": "Never",
            "tolerations": default_tolerations() + (tolerations or [])}
    if priority_class:
        spec["priorityClassName"] = priority_class
    if init:
        spec["initContainers"] = init
    if node_name:
        spec["nodeName"] = node_name
    if node_selector:
        spec["nodeSelector"] = node_selector
    if affinity:
        spec["affinity"] = affinity
    if gates:
        spec["schedulingGates"] = [{"name": g} for g in gates]
    status = {"phase": phase or ("Running" if node_name else "Pending"), "qosClass": "Burstable"}
    conds = []
    if node_name:
        conds.append({"type": "PodScheduled", "status": "True", "lastTransitionTime": created})
    elif condition:
        reason, msg = condition
        conds.append({"type": "PodScheduled", "status": "False", "reason": reason, "message": msg,
                      "lastTransitionTime": COMPACT_SCHEDULED})
    status["conditions"] = conds
    if nominated:
        status["nominatedNodeName"] = nominated
    meta = {"name": name, "namespace": ns, "uid": "uid-pod-" + name, "creationTimestamp": created}
    if owner:
        meta["ownerReferences"] = [{"apiVersion": OWNERS.get(owner[0], "apps/v1"), "kind": owner[0],
                                    "name": owner[1], "uid": "uid-" + owner[1], "controller": True}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


def compact_event(ns, name, kind, obj, reason, message, last=COMPACT_SCHEDULED, count=12, uid=None):
    """a Warning event about obj (a Pod: FailedScheduling; an owner: FailedCreate)"""
    inv = {"kind": kind, "namespace": ns, "name": obj}
    if kind == "Pod":
        inv["apiVersion"] = "v1"
        inv["uid"] = uid or "uid-pod-" + obj
    return {"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": name, "namespace": ns, "creationTimestamp": "2025-01-15T11:36:00Z"},
            "involvedObject": inv, "reason": reason, "message": message, "type": "Warning",
            "source": {"component": "default-scheduler" if reason == "FailedScheduling" else
                       ("replicaset-controller" if kind == "ReplicaSet" else "job-controller")},
            "firstTimestamp": "2025-01-15T11:36:00Z", "lastTimestamp": last, "count": count}


# ---------------------------------------------------------------- batch queues (compact)
# Kueue (kueue.x-k8s.io/v1beta2 unless told: apis/kueue/v1beta2/*_types.go; v1beta1 names the
# ClusterQueue's cohort spec.cohort, v1beta2 spec.cohortName), Volcano (scheduling.volcano.sh/
# v1beta1) and KAI (scheduling.run.ai v2 Queue, v2alpha2 PodGroup): the fields the model reads,
# at the compact times.

KUEUE = "kueue.x-k8s.io/v1beta2"
OWNERS.setdefault("JobSet", "jobset.x-k8s.io/v1alpha2")
OWNERS.setdefault("Pod", "v1")


def _kueue_meta(name, ns=None, created=COMPACT_OLD, owner=None):
    meta = {"name": name, "uid": "uid-" + name, "creationTimestamp": created}
    if ns:
        meta["namespace"] = ns
    if owner:
        kind, oname = owner[0], owner[1]
        api = owner[2] if len(owner) > 2 else OWNERS.get(kind, "batch/v1")
        meta["ownerReferences"] = [{"apiVersion": api, "kind": kind, "name": oname, "uid": "uid-" + oname,
                                    "controller": True, "blockOwnerDeletion": True}]
    return meta


def resource_flavor(name, node_labels=None, api=KUEUE, *, node_taints=None, tolerations=None):
    spec = {"nodeLabels": node_labels} if node_labels else {}
    if node_taints:
        spec["nodeTaints"] = node_taints
    if tolerations:
        spec["tolerations"] = tolerations
    return {"apiVersion": api, "kind": "ResourceFlavor", "metadata": _kueue_meta(name), "spec": spec}


def kueue_cohort(name, parent=None, api=KUEUE):
    return {"apiVersion": api, "kind": "Cohort", "metadata": _kueue_meta(name),
            "spec": {"parentName": parent} if parent else {}}


def workload_priority_class(name, value, description=None, api=KUEUE):
    """kueue.x-k8s.io WorkloadPriorityClass (cluster-scoped: value, description)"""
    o = {"apiVersion": api, "kind": "WorkloadPriorityClass", "metadata": _kueue_meta(name), "value": value}
    if description:
        o["description"] = description
    return o


def cluster_queue(name, flavors, *, cohort=None, strategy="BestEffortFIFO", stop=None, used=None, active=True,
                  preemption=None,
                  inactive=("FlavorNotFound", "Can't admit new workloads: references missing ResourceFlavor(s): x."),
                  api=KUEUE):
    """flavors: [(flavor, {resource: (nominal, borrowingLimit|None, lendingLimit|None)})] (one resource
    group covering them all); used: {flavor: {resource: total}} (status.flavorsReservation)"""
    covered = sorted({r for _, res in flavors for r in res})
    fl = []
    for fname, res in flavors:
        rs = []
        for r in covered:
            nominal, bl, ll = res.get(r, (0, None, None))
            e = {"name": r, "nominalQuota": str(nominal)}
            if bl is not None:
                e["borrowingLimit"] = str(bl)
            if ll is not None:
                e["lendingLimit"] = str(ll)
            rs.append(e)
        fl.append({"name": fname, "resources": rs})
    spec = {"namespaceSelector": {}, "queueingStrategy": strategy,
            "resourceGroups": [{"coveredResources": covered, "flavors": fl}]}
    if cohort:
        spec["cohortName" if api.endswith("v1beta2") else "cohort"] = cohort
    if stop:
        spec["stopPolicy"] = stop
    if preemption:
        spec["preemption"] = preemption
    usage = [{"name": f, "resources": [{"name": r, "total": str(t), "borrowed": "0"} for r, t in sorted(res.items())]}
             for f, res in sorted((used or {}).items())]
    cond = {"type": "Active", "status": "True", "reason": "Ready", "message": "Can admit new workloads",
            "lastTransitionTime": COMPACT_OLD}
    if not active:
        cond.update({"status": "False", "reason": inactive[0], "message": inactive[1]})
    return {"apiVersion": api, "kind": "ClusterQueue", "metadata": _kueue_meta(name), "spec": spec,
            "status": {"flavorsReservation": usage, "flavorsUsage": usage, "conditions": [cond]}}


def local_queue(ns, name, cluster_queue_name, stop=None, api=KUEUE):
    spec = {"clusterQueue": cluster_queue_name}
    if stop:
        spec["stopPolicy"] = stop
    return {"apiVersion": api, "kind": "LocalQueue", "metadata": _kueue_meta(name, ns), "spec": spec}


def kueue_workload(ns, name, owner, queue, podsets, *, priority=0, created=COMPACT_CREATED, admitted_to=None,
                   message=None, reason="Pending", active=True, api=KUEUE):
    """podsets: [(name, count, containers, nodeSelector|None[, more template spec])]; owner (kind, name[, apiVersion]);
    admitted_to: (clusterQueue, {resource: flavor}) for an admitted workload; message: the
    QuotaReserved=False message of a waiting one"""
    ps = []
    assign = []
    for podset in podsets:
        psname, count, containers, sel = podset[:4]
        tspec = {"containers": containers, "restartPolicy": "Never"}
        if sel:
            tspec["nodeSelector"] = sel
        if len(podset) > 4:
            tspec.update(podset[4])
        ps.append({"name": psname, "count": count, "template": {"spec": tspec}})
        if admitted_to:
            assign.append({"name": psname, "count": count, "flavors": admitted_to[1]})
    spec = {"podSets": ps, "queueName": queue, "priority": priority, "active": active}
    status = {}
    if admitted_to:
        status["admission"] = {"clusterQueue": admitted_to[0], "podSetAssignments": assign}
        status["conditions"] = [
            {"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved",
             "message": "Quota reserved in ClusterQueue " + admitted_to[0], "lastTransitionTime": created},
            {"type": "Admitted", "status": "True", "reason": "Admitted",
             "message": "The workload is admitted", "lastTransitionTime": created}]
    elif message:
        status["conditions"] = [{"type": "QuotaReserved", "status": "False", "reason": reason, "message": message,
                                 "lastTransitionTime": COMPACT_SCHEDULED}]
    return {"apiVersion": api, "kind": "Workload", "metadata": _kueue_meta(name, ns, created, owner),
            "spec": spec, "status": status}


def volcano_queue(name, *, deserved=None, capability=None, allocated=None, state="Open"):
    spec = {"weight": 1, "reclaimable": True}
    if deserved:
        spec["deserved"] = deserved
    if capability:
        spec["capability"] = capability
    return {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": _kueue_meta(name),
            "spec": spec, "status": {"state": state, "allocated": allocated or {}}}


def volcano_podgroup(ns, name, owner, queue, min_member, *, min_resources=None, phase="Pending", message=None,
                     created=COMPACT_CREATED):
    status = {"phase": phase}
    if message:
        status["conditions"] = [{"type": "Unschedulable", "status": "True", "reason": "NotEnoughResources",
                                 "message": message, "transitionID": "tid-" + name,
                                 "lastTransitionTime": COMPACT_SCHEDULED}]
    spec = {"minMember": min_member, "queue": queue}
    if min_resources:
        spec["minResources"] = min_resources
    return {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
            "metadata": _kueue_meta(name, ns, created, owner), "spec": spec, "status": status}


def kai_queue(name, *, quota, limit=-1, over_quota_weight=1, parent=None, allocated=None):
    spec = {"resources": {"gpu": {"quota": quota, "limit": limit, "overQuotaWeight": over_quota_weight},
                          "cpu": {"quota": -1, "limit": -1, "overQuotaWeight": 1},
                          "memory": {"quota": -1, "limit": -1, "overQuotaWeight": 1}}}
    if parent:
        spec["parentQueue"] = parent
    return {"apiVersion": "scheduling.run.ai/v2", "kind": "Queue", "metadata": _kueue_meta(name),
            "spec": spec, "status": {"allocated": allocated or {}}}


def kai_podgroup(ns, name, owner, queue, min_member, *, message=None, created=COMPACT_CREATED):
    status = {}
    if message:
        status["schedulingConditions"] = [{"type": "UnschedulableOnNodePool", "nodePool": "default",
                                           "reason": "OverLimit", "message": message, "transitionID": "0"}]
    return {"apiVersion": "scheduling.run.ai/v2alpha2", "kind": "PodGroup",
            "metadata": _kueue_meta(name, ns, created, owner),
            "spec": {"minMember": min_member, "queue": queue}, "status": status}
