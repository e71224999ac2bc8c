#!/usr/bin/env python3
"""Every fix `explain` prints is applied to the cluster it was printed for, and the pod must then fit.

For each snapshot given, `kubectl gpu pending -A -o json` lists the pending pods with their fixes
and, per fix, the change it makes ("fixDetails": requests, nodeSelector, tolerations, ended pods,
one node uncordoned / Ready / advertising its GPUs / relabelled) and the node it names.  This
script applies that change to the snapshot's objects the way the user (or the cluster) would —
the pod spec edited, the ended pods gone, the node object changed — writes the result to a new
snapshot, runs `kubectl gpu explain` on it and checks that the named node now has no reason
left for the pod.  A fix without a node (a plan command, a quota, Kueue) is not re-checkable by
the filters and is only counted.

usage: apply_fixes.py --bin KUBECTL_GPU SNAPSHOT...     (TAP-style "ok"/"not ok" lines; exit 1 on failure)
"""
import argparse, copy, json, os, subprocess, sys, tempfile


def load(path):
    with open(path) as f:
        return json.load(f)


def run(binary, args):
    p = subprocess.run([binary] + args, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def amount(res, v):
    if res == "cpu":
        return "%gm" % (v * 1000) if v != int(v) else str(int(v))
    if res in ("memory", "ephemeral-storage") or res.startswith("hugepages-"):
        return "%dMi" % v
    return str(int(v))


def set_request(spec, res, value):
    """the pod's effective request of res becomes value (0: none): every container and init
    container loses it, the first container gets it (as request and limit)"""
    for c in spec.get("initContainers", []) + spec.get("containers", []):
        for part in ("requests", "limits"):
            c.get("resources", {}).get(part, {}).pop(res, None)
    if value:
        r = spec["containers"][0].setdefault("resources", {})
        r.setdefault("requests", {})[res] = amount(res, value)
        if res not in ("cpu", "memory"):
            r.setdefault("limits", {})[res] = amount(res, value)


def apply(doc, ns, name, change):
    doc = copy.deepcopy(doc)
    items = doc["items"]
    pod = next(i for i in items if i["kind"] == "Pod" and i["metadata"]["name"] == name
               and i["metadata"].get("namespace") == ns)
    spec = pod["spec"]
    for res, v in change.get("requests", {}).items():
        set_request(spec, res, v)
    if change.get("nodeSelector"):
        spec.setdefault("nodeSelector", {}).update(change["nodeSelector"])
    if change.get("removeRequiredNodeAffinity"):
        spec.get("affinity", {}).get("nodeAffinity", {}).pop("requiredDuringSchedulingIgnoredDuringExecution", None)
    for t in change.get("addTolerations", []):
        key_val, effect = t.rsplit(":", 1)
        if "=" in key_val:
            k, v = key_val.split("=", 1)
            tol = {"key": k, "operator": "Equal", "value": v, "effect": effect}
        else:
            tol = {"key": key_val, "operator": "Exists", "effect": effect}
        spec.setdefault("tolerations", []).append(tol)
    ended = set(change.get("endPods", []))
    items[:] = [i for i in items if not (i["kind"] == "Pod" and
                                         "%s/%s" % (i["metadata"].get("namespace"), i["metadata"]["name"]) in ended)]
    nc = change.get("node")
    if nc:
        node = next(i for i in items if i["kind"] == "Node" and i["metadata"]["name"] == nc["name"])
        taints = node.get("spec", {}).get("taints", [])
        if nc.get("uncordon"):
            node["spec"].pop("unschedulable", None)
            taints[:] = [t for t in taints if t["key"] != "node.kubernetes.io/unschedulable"]
        if nc.get("ready"):
            node["status"]["conditions"] = [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]
            taints[:] = [t for t in taints if t["key"] not in ("node.kubernetes.io/not-ready",
                                                               "node.kubernetes.io/unreachable")]
        labels = node["metadata"].setdefault("labels", {})
        labels.update(nc.get("labels", {}))
        for res, n in nc.get("advertise", {}).items():
            for part in ("capacity", "allocatable"):
                rl = node["status"].setdefault(part, {})
                if labels.get("nvidia.com/mig.config") == "all-disabled":
                    for k in [k for k in rl if k.startswith("nvidia.com/mig-")]:
                        del rl[k]
                rl[res] = str(n)
    return doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("snapshots", nargs="+")
    a = ap.parse_args()
    failed = checked = skipped = 0
    tmp = tempfile.mkdtemp(prefix="kgpu-fixes-")
    for snap in a.snapshots:
        doc = load(snap)
        listing = run(a.bin, ["pending", "--snapshot", snap, "-A", "-o", "json"])
        for p in listing["pods"]:
            if not p.get("created", True):
                skipped += len(p["fixes"])
                continue
            for k, (text, fd) in enumerate(zip(p["fixes"], p.get("fixDetails", []))):
                what = "%s %s/%s fix %d" % (os.path.basename(snap), p["namespace"], p["name"], k + 1)
                if not fd.get("fitsOn"):
                    skipped += 1
                    continue
                out = os.path.join(tmp, "applied.json")
                with open(out, "w") as f:
                    json.dump(apply(doc, p["namespace"], p["name"], fd["change"]), f)
                e = run(a.bin, ["explain", p["name"], "-n", p["namespace"], "--snapshot", out, "-o", "json"])
                node = next((n for n in e["nodes"] if n["name"] == fd["fitsOn"]), None)
                checked += 1
                if node is not None and node["reasons"] == [] and e["verdict"] in ("Unknown", "Gated"):
                    print("ok - %s: fits %s after %s" % (what, fd["fitsOn"], json.dumps(fd["change"], sort_keys=True)))
                else:
                    failed += 1
                    print("not ok - %s: after %s the pod does not fit %s: verdict %s, reasons %s\n#   fix: %s"
                          % (what, json.dumps(fd["change"]), fd["fitsOn"], e["verdict"],
                             node and node["reasons"], text.replace("\n", "\n#   ")))
    print("# %d fixes applied and re-checked, %d not re-checkable by the filters, %d failed" % (checked, skipped, failed))
    if checked == 0:
        print("not ok - no fix was checked")
        failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
