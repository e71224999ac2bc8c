#!/usr/bin/env python3
"""The usage series, held times and GPU-hours kubectl-gpu must read from a Prometheus backfilled
with an OpenMetrics file, computed here from the samples of that file, and compared with what
kubectl-gpu wrote.  Prints "ok - ..." / "not ok - ..." lines (tests/integration/*.sh count them).

    check_hours.py series OM CLUSTER EVAL WINDOW THRESHOLD SNAPSHOT.json
        every device's utilSeries/memSeries and every GPUHeld record of the snapshot
    check_hours.py groups OM CLUSTER EVAL WINDOW THRESHOLD STATUS_BY_NS.json [PRICES]
        status --by namespace -o json: gpuHours, idleGPUHours (and with PRICES "M=P,..." cost,
        idleCost) per namespace
    check_hours.py summary OM CLUSTER EVAL WINDOW THRESHOLD STATUS.json PRICES
        status --price -o json: summary.hours

The model of the queries (src/sources/prometheus_series.c): 60 points over the window, point k
at t_k = EVAL - (59 - k) * step, its value the highest sample in [t_k - step, t_k] (Prometheus
2.x range selectors include both ends; the generators' samples never fall on an end), per
device (Hostname, UUID, GPU_I_ID) and pod.  A pod held a device at point k when one of its
series has a sample there; idle when its utilization there is under THRESHOLD.  Several pods on
a device at one point: the device's value is theirs when equal, else their sum, and each pod's
share of the point is 1/holders.  GPU-hours = share seconds / 3600 (whole GPUs here).
"""
import json
import math
import re
import sys

profiles = {}
LINE = re.compile(r'^([A-Za-z_:][A-Za-z0-9_:]*)\{(.*)\}\s+(\S+)\s+(\S+)\s*$')
LABEL = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"')
FIELDS = {"DCGM_FI_DEV_GPU_UTIL": "util", "DCGM_FI_PROF_GR_ENGINE_ACTIVE": "gr", "DCGM_FI_DEV_FB_USED": "mem"}

results = []


def check(cond, what):
    results.append(("ok - " if cond else "not ok - ") + what)


def close(a, b, eps=1e-3):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= eps


def points(om, eval_t, window):
    n = 60 if window >= 60 else max(1, int(window))
    step = round(window * 1000 / n) / 1000.0
    ends = [eval_t - (n - 1 - k) * step for k in range(n)]
    # (device, pod) -> field -> k -> max
    series = {}
    models = {}
    global profiles
    for line in open(om):
        m = LINE.match(line)
        if not m or m.group(1) not in FIELDS:
            continue
        labels = dict(LABEL.findall(m.group(2)))
        v, ts = float(m.group(3)), float(m.group(4))
        if ts < ends[0] - step or ts > ends[-1]:
            continue
        ks = [k for k in (math.ceil((ts - ends[0]) / step) + d for d in (-1, 0, 1))
              if 0 <= k < n and ends[k] - step <= ts <= ends[k]]
        if not ks:
            continue
        dev = (labels.get("Hostname"), labels.get("UUID"), int(labels.get("GPU_I_ID", "-1")))
        # the pod: exported_* (Prometheus renamed the exporter's own labels) before the plain ones
        pod = None
        for nsl, pl in (("exported_namespace", "exported_pod"), ("namespace", "pod"), ("pod_namespace", "pod_name")):
            if labels.get(pl):
                pod = (labels.get(nsl), labels[pl])
                break
        profiles[dev] = labels.get("GPU_I_PROFILE")
        f = FIELDS[m.group(1)]
        val = v * 100 if f == "gr" else v
        d = series.setdefault((dev, pod), {}).setdefault(f, {})
        for k in ks:
            d[k] = max(d.get(k, val), val)
        models[dev] = labels.get("modelName")
    return n, step, series, models


def device_values(n, series):
    """per device: util and mem rows (the combining rule), and per (device, pod) held/idle"""
    devs = {}
    for (dev, pod), fields in series.items():
        devs.setdefault(dev, []).append((pod, fields))
    rows, held = {}, {}
    for dev, lst in devs.items():
        has_gr = any("gr" in f for _, f in lst)
        uf = "gr" if has_gr else "util"
        row = {}
        for name, key in (("util", uf), ("mem", "mem")):
            vals = []
            for k in range(n):
                seen = [f[key][k] for _, f in lst if key in f and k in f[key]]
                if not seen:
                    vals.append(None)
                elif all(x == seen[0] for x in seen):
                    vals.append(seen[0])
                else:
                    vals.append(sum(seen))
            row[name] = vals
        rows[dev] = row
        pres = {}
        for pod, f in lst:
            if pod is None:
                continue
            ks = set()
            for key in f:
                ks |= set(f[key].keys())
            idle = {k for k, x in f.get(uf, {}).items() if x < THRESHOLD}
            pres[pod] = (ks, idle, uf in f)
        for pod, (ks, idle, has_util) in pres.items():
            share = sum(1.0 / sum(1 for p2 in pres.values() if k in p2[0]) for k in ks)
            ishare = sum(1.0 / sum(1 for p2 in pres.values() if k in p2[0]) for k in idle)
            held[(dev, pod)] = (len(ks), len(idle), share, ishare)
    return rows, held


def products(cluster):
    c = json.load(open(cluster))
    out = {}
    for item in c.get("items", []):
        if item.get("kind") == "Node":
            out[item["metadata"]["name"]] = item["metadata"].get("labels", {}).get("nvidia.com/gpu.product")
    return out


def price_of(prices, product):
    for k, v in prices.items():
        if product and (product.lower() == k.lower() or product[7:].lower() == k.lower()):
            return v
    return None


mode, om, cluster, eval_t, window, THRESHOLD = sys.argv[1:7]
eval_t, window, THRESHOLD = float(eval_t), float(window), float(THRESHOLD)
n, step, series, models = points(om, eval_t, window)
rows, held = device_values(n, series)
check(len(held) > 0, "the samples give held devices to compare (%d)" % len(held))

if mode == "series":
    snap = json.load(open(sys.argv[7]))
    items = [i for i in snap["items"] if i.get("apiVersion") == "kubectl-gpu/v1"]
    src = [i for i in items if i["kind"] == "UsageSource" and i["for"] == "devices"][0]
    check(src.get("seriesPoints") == n and close(src.get("seriesStepSeconds"), step),
          "series of %d points of %gs" % (n, step))
    bad = []
    count = 0
    for i in items:
        if i["kind"] != "GPUUsage" or i["of"] != "device":
            continue
        dev = (i["node"], i.get("uuid"), i.get("migInstance", -1))
        want = rows.get(dev)
        if want is None:
            bad.append("%s: no samples, yet a record" % (dev,))
            continue
        count += 1
        for name in ("util", "mem"):
            got = i.get(name + "Series")
            if got is None or len(got) != n or any(not close(a, b) for a, b in zip(got, want[name])):
                bad.append("%s %s: got %s want %s" % (dev, name, got, want[name]))
    check(count > 0 and not bad, "every device's utilization and memory series = the samples' (%d devices)%s"
          % (count, "" if not bad else ": " + "; ".join(bad[:3])))
    got_held = {}
    for i in items:
        if i["kind"] == "GPUHeld":
            got_held[((i["node"], i.get("uuid"), i.get("migInstance", -1)), (i["namespace"], i["pod"]))] = i
    check(set(got_held) == set(held), "one GPUHeld record per (device, pod) with samples in the window "
          "(%d; missing %s, extra %s)" % (len(held), sorted(set(held) - set(got_held))[:2],
                                          sorted(set(got_held) - set(held))[:2]))
    bad = []
    for key, (nk, ni, share, ishare) in held.items():
        g = got_held.get(key)
        if not g:
            continue
        want = (nk * step, ni * step, share * step, ishare * step)
        got = (g["heldSeconds"], g["idleSeconds"], g["shareSeconds"], g["idleShareSeconds"])
        if any(not close(a, b) for a, b in zip(got, want)):
            bad.append("%s: got %s want %s" % (key, got, want))
    check(not bad, "held, idle and shared seconds per (device, pod) = the samples'%s"
          % ("" if not bad else ": " + "; ".join(bad[:3])))
    shared = [k for k, v in held.items() if v[2] < v[0] - 1e-9]
    check(len(shared) >= 2, "the data has a device held by two pods at once (%d records share)" % len(shared))

prods = products(cluster)
prices = {}
if len(sys.argv) > 8 and sys.argv[8]:
    for kv in sys.argv[8].split(","):
        k, v = kv.split("=")
        prices[k] = float(v)


def totals(keyf):
    out = {}
    for (dev, pod), (nk, ni, share, ishare) in held.items():
        k = keyf(dev, pod)
        t = out.setdefault(k, {"gpuHours": 0.0, "idleGPUHours": 0.0, "cost": 0.0, "idleCost": 0.0})
        # a MIG device is its compute slices' part of the GPU: 7 per A100/H100, 4 per A30
        frac = 1.0
        if dev[2] >= 0 and profiles.get(dev):
            frac = int(profiles[dev].split("g")[0]) / (4.0 if "A30" in (prods.get(dev[0]) or "") else 7.0)
        gh, ih = share * step / 3600 * frac, ishare * step / 3600 * frac
        t["gpuHours"] += gh
        t["idleGPUHours"] += ih
        p = price_of(prices, prods.get(dev[0]))
        for name, h in (("cost", gh), ("idleCost", ih)):
            if h == 0:
                continue
            t[name] = None if p is None or t[name] is None else t[name] + h * p
    return out


def r2(x):
    return None if x is None else round(x * 100) / 100


if mode == "groups":
    doc = json.load(open(sys.argv[7]))
    want = totals(lambda dev, pod: pod[0])
    got = {g["name"]: g for g in doc["groups"]}
    check(set(want) <= set(got), "every namespace with held time is a group")
    check(doc.get("windowSeconds") == window, "the window is said")
    keys = ["gpuHours", "idleGPUHours"] + (["cost", "idleCost"] if prices else [])
    bad = ["%s %s: got %s want %s" % (ns, k, got.get(ns, {}).get(k), r2(w[k]))
           for ns, w in sorted(want.items()) for k in keys
           if not close(got.get(ns, {}).get(k), r2(w[k]), 0.011)]
    check(not bad, "GPU-hours%s per namespace = the samples'%s" % (" and their cost" if prices else "",
                                                                  "" if not bad else ": " + "; ".join(bad[:4])))
    check(any(w["idleGPUHours"] > 0 for w in want.values()), "some namespace has idle GPU-hours")

if mode == "summary":
    doc = json.load(open(sys.argv[7]))
    h = doc["summary"].get("hours") or {}
    want = totals(lambda dev, pod: "all").get("all", {})
    check(close(h.get("gpuHours"), r2(want.get("gpuHours")), 0.011), "summary gpuHours %s = %s" % (h.get("gpuHours"), r2(want.get("gpuHours"))))
    check(close(h.get("idleGPUHours"), r2(want.get("idleGPUHours")), 0.011),
          "summary idleGPUHours %s = %s" % (h.get("idleGPUHours"), r2(want.get("idleGPUHours"))))
    check(close(h.get("idleCost"), r2(want.get("idleCost")), 0.011),
          "summary idleCost %s = %s" % (h.get("idleCost"), r2(want.get("idleCost"))))

for r in results:
    print(r)
