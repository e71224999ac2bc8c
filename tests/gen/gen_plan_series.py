#!/usr/bin/env python3
"""Generate a window of DCGM exporter series for `kubectl gpu plan`'s Prometheus test, and the
per-workload values the plan must read from them.

    gen_plan_series.py --spec tests/fixtures/plan/prom-usage.json --cluster tests/fixtures/plan/prom-cluster.json \
        --openmetrics OUT.om --expected OUT.json

Reuses the sampling grid and the OpenMetrics helpers of tests/gen/gen_dcgm_series.py (the metrics
engineer's generator: one sample every 10 minutes over the window, every minute over the last
2 hours, Prometheus' quantile); its usage patterns are fixed, the plan needs bounded ones, so the
spec here gives every workload a uniform range of memory (MiB) and utilization (%):

  "workloads": [{"namespace", "name", "mem": [lo, hi], "util": [lo, hi],
                 "since": seconds before the end its pods started (default: the whole window)}]
  "gone": [{"namespace", "pod", "node", "gpu", "mem", "util", "from", "to"}]   pods that no longer
           exist (replaced by a rollout), with data from `from` to `to` seconds before the end

The workload's current pods are found in the cluster file (their owner name) and each gets the
next free GPU index of its node, one device per GPU requested.  Devices are whole GPUs without
profiling metrics: utilization is DCGM_FI_DEV_GPU_UTIL.  Expected (OUT.json), per workload:
the maximum over its pods (gone ones included) of the spec.percentile quantile and of the peak,
over (evalTime - planWindow, evalTime]; and the coverage: its samples (all pods) over those of
one series spanning the window times its current pods, at most 1.
"""
import argparse
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_dcgm_series import fmt, label_text, quantile, timestamps  # noqa: E402


def owner_name(pod):
    refs = pod["metadata"].get("ownerReferences") or []
    if not refs:
        return pod["metadata"]["name"]
    ref = refs[0]
    if ref["kind"] == "ReplicaSet":
        h = pod["metadata"].get("labels", {}).get("pod-template-hash")
        if h and ref["name"].endswith("-" + h):
            return ref["name"][:-len(h) - 1]
    return ref["name"]


def gpu_request(pod):
    n = 0
    for c in pod["spec"]["containers"]:
        n += int(c.get("resources", {}).get("limits", {}).get("nvidia.com/gpu", "0"))
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spec", required=True)
    ap.add_argument("--cluster", required=True)
    ap.add_argument("--openmetrics", required=True)
    ap.add_argument("--expected", required=True)
    a = ap.parse_args()
    spec = json.load(open(a.spec))
    cluster = json.load(open(a.cluster))
    end, window = spec["end"], spec["planWindow"]
    eval_t = end + 30
    q = spec["percentile"] / 100.0
    grid = timestamps(end, window + 3600)
    nodes = {i["metadata"]["name"]: i for i in cluster["items"] if i["kind"] == "Node"}
    pods = [i for i in cluster["items"] if i["kind"] == "Pod" and i["spec"].get("nodeName")
            and i["status"].get("phase") == "Running" and gpu_request(i) > 0]
    next_gpu = {}
    current = {}          # workload -> its pods now
    devices = []          # (workload key, node, gpu, namespace, pod, mem range, util range, from, to)
    for w in spec["workloads"]:
        mine = sorted((p for p in pods if p["metadata"]["namespace"] == w["namespace"]
                       and owner_name(p) == w["name"]), key=lambda p: p["metadata"]["name"])
        if not mine:
            sys.exit("%s: no pods of %s/%s in %s" % (a.spec, w["namespace"], w["name"], a.cluster))
        current[(w["namespace"], w["name"])] = len(mine)
        for p in mine:
            node = p["spec"]["nodeName"]
            for _ in range(gpu_request(p)):
                g = next_gpu.get(node, 0)
                next_gpu[node] = g + 1
                devices.append(((w["namespace"], w["name"]), node, g, w["namespace"], p["metadata"]["name"],
                                w["mem"], w["util"], w.get("since", window + 3600), 0))
    for g in spec.get("gone", []):
        key = None
        for w in spec["workloads"]:
            if w["namespace"] == g["namespace"] and g["pod"].startswith(w["name"] + "-"):
                key = (w["namespace"], w["name"])
        devices.append((key, g["node"], g["gpu"], g["namespace"], g["pod"], g["mem"], g["util"], g["from"], g["to"]))

    families = {"DCGM_FI_DEV_FB_USED": [], "DCGM_FI_DEV_FB_FREE": [], "DCGM_FI_DEV_GPU_UTIL": []}
    expected = {}
    best_samples = 0
    for i, (key, node, gpu, ns, pod, mem, util, t_from, t_to) in enumerate(devices):
        product = nodes[node]["metadata"]["labels"]["nvidia.com/gpu.product"]
        total = int(nodes[node]["metadata"]["labels"]["nvidia.com/gpu.memory"])
        rng = random.Random("%s/%d/%s" % (node, gpu, pod))
        ts = [t for t in grid if end - t_from <= t <= end - t_to]
        vals = [(rng.randint(mem[0], mem[1]), rng.randint(util[0], util[1])) for _ in ts]
        uuid = "GPU-%08x-%04x-4000-8000-000000000000" % (sum(map(ord, node)) * 7919 & 0xffffffff, gpu)
        lab = [("gpu", str(gpu)), ("UUID", uuid), ("device", "nvidia%d" % gpu),
               ("modelName", product.replace("-", " ")), ("Hostname", node),
               ("DCGM_FI_DRIVER_VERSION", "550.54.15"), ("container", "main"), ("namespace", ns), ("pod", pod),
               ("job", "gpu-metrics"), ("instance", "10.0.%d.1:9400" % (i % 250))]
        families["DCGM_FI_DEV_FB_USED"].append((lab, [(t, v[0]) for t, v in zip(ts, vals)]))
        families["DCGM_FI_DEV_FB_FREE"].append((lab, [(t, total - v[0]) for t, v in zip(ts, vals)]))
        families["DCGM_FI_DEV_GPU_UTIL"].append((lab, [(t, v[1]) for t, v in zip(ts, vals)]))
        in_win = [v for t, v in zip(ts, vals) if eval_t - window < t <= eval_t]
        best_samples = max(best_samples, len(in_win))
        if key is None or not in_win:
            continue
        e = expected.setdefault(key, {"namespace": key[0], "name": key[1], "memoryPercentileMiB": 0,
                                      "memoryPeakMiB": 0, "utilizationPercentile": 0, "utilizationPeak": 0,
                                      "podSamples": {}})
        e["memoryPercentileMiB"] = max(e["memoryPercentileMiB"], quantile(q, [v[0] for v in in_win]))
        e["memoryPeakMiB"] = max(e["memoryPeakMiB"], max(v[0] for v in in_win))
        e["utilizationPercentile"] = max(e["utilizationPercentile"], quantile(q, [v[1] for v in in_win]))
        e["utilizationPeak"] = max(e["utilizationPeak"], max(v[1] for v in in_win))
        e["podSamples"][pod] = max(e["podSamples"].get(pod, 0), len(in_win))
    for e in expected.values():
        e["coverage"] = min(1.0, sum(e.pop("podSamples").values()) / (best_samples * current[(e["namespace"], e["name"])]))
        e["memoryPercentileMiB"] = int(math.ceil(e["memoryPercentileMiB"] - 1e-9))

    with open(a.openmetrics, "w") as f:
        for metric in sorted(families):
            f.write("# TYPE %s gauge\n" % metric)
            for lab, pts in families[metric]:
                lt = label_text(lab)
                for t, v in pts:
                    f.write("%s{%s} %s %d\n" % (metric, lt, fmt(v), t))
        f.write("# EOF\n")
    with open(a.expected, "w") as f:
        json.dump({"evalTime": eval_t, "planWindow": window, "percentile": spec["percentile"],
                   "workloads": sorted(expected.values(), key=lambda e: (e["namespace"], e["name"]))},
                  f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
