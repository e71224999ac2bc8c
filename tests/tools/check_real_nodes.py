#!/usr/bin/env python3
"""Real GPU nodes (tests/fixtures/real/nodes/, sources in tests/fixtures/real/README.md) read by
`kubectl gpu status -o json`, compared with the truth worked out by hand from each object
(tests/fixtures/real/truth.json; never from the tool's output).

Usage: check_real_nodes.py KUBECTL_GPU_BINARY
Prints "ok - ..." / "not ok - ..." per assertion; exit 1 when any failed.

truth.json, per node:
  physicalGPUs     int, or null when the object cannot tell (the tool must print ? / null)
  resourcesOnly    the count can only come from advertised units (no label or config says
                   whether they are replicas): the tool must flag it (sources.physicalGPUs)
  mig              {enabled, strategy, devices}
  sharing          {strategy: none|time-slicing|mps|shared|unknown, replicas: int|null}
  memoryPerGPUMiB  int, or null when the object does not say (then not checked)
  product          (optional) the GFD-spelled product, null when nothing names it
  productSource    (optional) sources.product.source: gfd|gke|eks|karpenter|aks|dra|none
  problems         (optional) the problem codes of the node, sorted
  unhealthyGPUs    (optional) GPU indices status must list as unhealthy (health.gpus[].index)
"""
import json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REAL = os.environ.get("KGPU_REAL_DIR") or os.path.join(ROOT, "tests", "fixtures", "real")
failed = 0

def check(cond, what):
    global failed
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        failed += 1

def main():
    binary = sys.argv[1]
    truth = json.load(open(os.path.join(REAL, "truth.json")))
    items = [json.load(open(os.path.join(REAL, "nodes", t["file"]))) for t in truth]
    with tempfile.TemporaryDirectory() as d:
        snap = os.path.join(d, "real-nodes.json")
        json.dump({"apiVersion": "v1", "kind": "List", "items": items}, open(snap, "w"))
        env = dict(os.environ, NO_COLOR="1", KUBECONFIG="/nonexistent")
        out = subprocess.run([binary, "status", "--snapshot", snap, "-o", "json"], capture_output=True, text=True, env=env)
        check(out.returncode == 0, f"status -o json exits 0 ({out.stderr.strip()[:200]})")
        doc = json.loads(out.stdout)
        text = subprocess.run([binary, "status", "--snapshot", snap], capture_output=True, text=True, env=env).stdout
    nodes = {n["name"]: n for n in doc["nodes"]}
    check(len(truth) >= 20, f"{len(truth)} real nodes (at least 20)")
    for t in truth:
        name, n = t["name"], nodes.get(t["name"])
        check(n is not None, f"{t['file']}: shown as a GPU node")
        if n is None:
            continue
        src = n.get("sources", {}).get("physicalGPUs", {})
        check(n["physicalGPUs"] == t["physicalGPUs"],
              f"{t['file']}: physical GPUs {n['physicalGPUs']} == {t['physicalGPUs']}")
        check(bool(src.get("resourcesOnly")) == t["resourcesOnly"],
              f"{t['file']}: counted from resources alone flagged: {bool(src.get('resourcesOnly'))} == {t['resourcesOnly']}")
        m = t["mig"]
        check(n["migEnabled"] == m["enabled"], f"{t['file']}: MIG enabled {n['migEnabled']} == {m['enabled']}")
        check(n["migStrategy"] == m["strategy"], f"{t['file']}: MIG strategy {n['migStrategy']} == {m['strategy']}")
        check(n["migDevices"] == m["devices"], f"{t['file']}: MIG devices {n['migDevices']} == {m['devices']}")
        s = t["sharing"]
        check(n["sharing"]["strategy"] == s["strategy"], f"{t['file']}: sharing {n['sharing']['strategy']} == {s['strategy']}")
        check(n["sharing"]["replicas"] == s["replicas"], f"{t['file']}: replicas {n['sharing']['replicas']} == {s['replicas']}")
        if "product" in t:
            check(n["product"] == t["product"], f"{t['file']}: product {n['product']} == {t['product']}")
        if "productSource" in t:
            ps = n.get("sources", {}).get("product", {}).get("source")
            check(ps == t["productSource"], f"{t['file']}: product source {ps} == {t['productSource']}")
        if "problems" in t:
            codes = sorted(p["code"] for p in n.get("problems", []))
            check(codes == sorted(t["problems"]), f"{t['file']}: problems {codes} == {sorted(t['problems'])}")
        if "unhealthyGPUs" in t:
            bad = sorted(g["index"] for g in (n.get("health") or {}).get("gpus", []) if g.get("index") is not None)
            check(bad == t["unhealthyGPUs"], f"{t['file']}: unhealthy GPUs {bad} == {t['unhealthyGPUs']}")
        if t["memoryPerGPUMiB"] is not None:
            check(n["gpuMemoryPerGPUMiB"] == t["memoryPerGPUMiB"],
                  f"{t['file']}: memory per GPU {n['gpuMemoryPerGPUMiB']} == {t['memoryPerGPUMiB']} MiB")
    known = sum(t["physicalGPUs"] for t in truth if t["physicalGPUs"] is not None)
    unknown = sum(1 for t in truth if t["physicalGPUs"] is None)
    check(doc["summary"]["physicalGPUs"] == known, f"summary physicalGPUs {doc['summary']['physicalGPUs']} == {known}")
    check(doc["summary"]["gpuNodesUnknown"] == unknown, f"summary gpuNodesUnknown {doc['summary']['gpuNodesUnknown']} == {unknown}")
    want = f"GPUs: {known} physical (+{unknown} node{'' if unknown == 1 else 's'} unknown)"
    check(want in text, f"table header says '{want}'")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
