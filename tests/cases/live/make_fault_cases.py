#!/usr/bin/env python3
"""Writes tests/cases/live/faults-*.case: what the API server can do wrong, for every command
that reads the cluster (status, pending, explain, plan, snapshot), and the one right outcome of
each fault (was tests/integration/test_faults_api.sh; the snapshot command's messages in detail
are in api-errors-*.case):
  - recovered (429 with Retry-After, 500, one cut connection, one expired continue token):
    exit 0 and the same answer as the fault-free run (same-as-clean: the document without
    warnings and ages; a snapshot's objects);
  - an optional list refused (403) or absent (404 ClusterPolicy): exit 0, the rest shown, the
    gap named (text: "warning:" on stderr; JSON: "warnings");
  - anything else (401, 403 on nodes/pods, 503 forever, cut/truncated/invalid/stalled pages,
    unreachable server, TLS failures, exec plugin failures): exit 1, one line on stderr saying
    what, nothing on stdout (never a partial table presented as complete), bounded in time.

Run it after changing it: python3 tests/cases/live/make_fault_cases.py (rewrites the files
byte for byte; removes faults-*.case it no longer makes).
"""
import glob, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = "server: tests/fixtures/api/small.json"
CMDS = ("status", "pending", "explain", "plan", "snapshot")
# the JSON form of each command (metrics off: these cases are about the API server)
JSON = {"status": "status --no-metrics -o json", "pending": "pending -A --no-metrics -o json",
        "explain": "explain -n team-a train-large-0 --no-metrics -o json",
        "plan": "plan --no-metrics -o json", "snapshot": "snapshot --no-metrics"}
# the text form (tables, reports); JSON is the snapshot's only form
TEXT = {"status": "status --no-metrics", "pending": "pending -A --no-metrics",
        "explain": "explain -n team-a train-large-0 --no-metrics",
        "plan": "plan --no-metrics", "snapshot": "snapshot --no-metrics"}
FORMS = {"json": JSON, "text": TEXT}
# what must not change when the read recovers: the document without warnings and ages
ESSENCE = {c: "drop(d, 'warnings', 'ageSeconds')" for c in CMDS}
ESSENCE["snapshot"] = ("sorted((i['kind'], i['metadata'].get('namespace', ''), i['metadata']['name'])"
                       " for i in d['items'])")
UNAUTHORIZED = ('error: the server rejected the credentials of context "fake" (Unauthorized); '
                'check the token/certificate, or log in again')
EXEC = "@ROOT@/tests/fakeapi/exec-plugin.sh"


def fault(**f):
    return "fault: " + json.dumps(f)


def rbac(**r):
    return "rbac: " + json.dumps(r)


def failed_cleanly():
    """exit 1, one stderr line saying error, nothing on stdout"""
    return ["exit: 1", "stderr-lines: 1", "stdout-is:", "stderr-matches: ^error: "]


CASES = {}


def case(name, what, *lines):
    CASES[f"faults-{name}.case"] = "\n".join([f"# {what}", "# (made by make_fault_cases.py)",
                                               SERVER] + [l for l in lines if l]) + "\n"


for c in CMDS:
    case(f"baseline-{c}", f"{c} without a fault: exit 0, nothing on stderr, a real document",
         f"args: {JSON[c]}", "exit: 0", "stderr-is:", "json: len(json.dumps(d)) > 200")
    case(f"baseline-{c}-paged", f"{c} read in pages of 2 items gives the same answer",
         "env: KUBECTL_GPU_CHUNK_SIZE=2", "clean-unset-env: KUBECTL_GPU_CHUNK_SIZE",
         f"args: {JSON[c]}", "exit: 0", f"same-as-clean: {ESSENCE[c]}")

# ---- 401 ----
for c in CMDS:
    for form, args in FORMS.items():
        case(f"401-{c}-{form}", f"401 on nodes, {c} ({form}): the credentials rejected",
             fault(path="^/api/v1/nodes$", code=401), f"args: {args[c]}",
             *failed_cleanly(), f"stderr-is: {UNAUTHORIZED}")

# ---- 403 on a required list: an error naming it ----
# The server's message once, as kubectl prints it (it says "forbidden" itself), and where the
# rights the tool needs are written down.  explain runs with -n team-a: the cluster-wide list
# refused, the namespace's pods are asked for (loader.c), and refused too by this rule.
RBAC_POINTER = " (the RBAC rules kubectl-gpu needs: examples/rbac.yaml)"
for c in CMDS:
    scope = 'in the namespace "team-a"' if "-n team-a" in TEXT[c] else "at the cluster scope"
    case(f"403-pods-{c}", f"403 on pods, {c}: the server's message",
         rbac(user="gpu-admin", verb="list", resource="pods"), f"args: {TEXT[c]}",
         *failed_cleanly(),
         'stderr-is: error: pods is forbidden: User "gpu-admin" cannot list resource '
         f'"pods" in API group "" {scope}{RBAC_POINTER}')
    case(f"403-nodes-{c}", f"403 on nodes, {c}: named",
         rbac(user="gpu-admin", verb="list", resource="nodes"), f"args: {JSON[c]}",
         *failed_cleanly(),
         'stderr-contains: nodes is forbidden: User "gpu-admin" cannot list resource "nodes"')

# ---- 403 on one optional list: the rest shown, the gap stated (text: stderr; JSON: warnings) ----
# which optional list each command reads, and what the warning says is missing
OPT = {"status": ("daemonsets", "apps", "(GPU Operator health not shown)"),
       "pending": ("resourcequotas", "", "(GPU quotas not checked)"),
       "explain": ("events", "", "(scheduler messages not shown)"),
       "plan": ("daemonsets", "apps", "(GPU Operator health not shown)"),
       "snapshot": ("services", "", "(in-cluster Prometheus not looked for)")}
for c in CMDS:
    res, group, gap = OPT[c]
    deny = rbac(user="gpu-admin", verb="list", resource=res, apiGroup=group)
    warnings = ("d['metadata']['annotations'].get('kubectl-gpu/warnings', '')" if c == "snapshot"
                else "'\\n'.join(d['warnings'])")
    said = f"{res}: forbidden: "
    case(f"403-optional-{c}-json", f"403 on {res}, {c} -o json: not fatal, the gap in the warnings",
         deny, f"args: {JSON[c]}", "exit: 0",
         f"json: {said!r} in {warnings}", f"json: {gap!r} in {warnings}")
    if c == "snapshot":
        continue
    gap_re = gap.replace("(", "\\(").replace(")", "\\)")
    if c == "plan":       # the plan report lists its warnings itself, on stdout
        shown = [f"stdout-matches: ^  - {said}.*{gap_re}$", "stderr-is:"]
    else:
        shown = [f"stderr-matches: ^warning: {said}.*{gap_re}$", "stderr-lines: 1"]
    case(f"403-optional-{c}-text", f"403 on {res}, {c} (text): not fatal, the gap named, the rest shown",
         deny, f"args: {TEXT[c]}", "exit: 0", *shown, "stdout-matches: .")
# the part that was read is the whole answer for what it covers: status without daemonsets still
# counts every node and GPU
case("403-daemonsets-summary", "403 on daemonsets: the status summary is the full one",
     rbac(user="gpu-admin", verb="list", resource="daemonsets", apiGroup="apps"),
     f"args: {JSON['status']}", "exit: 0", "same-as-clean: json.dumps(d['summary'], sort_keys=True)")
case("403-clusterpolicies", "403 on clusterpolicies: not fatal, a warning",
     rbac(user="gpu-admin", verb="list", resource="clusterpolicies", apiGroup="nvidia.com"),
     f"args: {JSON['status']}", "exit: 0", "json: 'clusterpolicies: forbidden: ' in '\\n'.join(d['warnings'])")

# ---- 404: the ClusterPolicy CRD is not installed (an optional API): silence ----
# (pending and explain do not read the ClusterPolicy; no resource.k8s.io API is read at all)
for c in ("status", "plan", "snapshot"):
    case(f"404-clusterpolicy-{c}", f"404 ClusterPolicy, {c}: no warning (not installed is normal)",
         fault(path="^/apis/nvidia.com/v1/clusterpolicies$", code=404,
               message="the server could not find the requested resource"),
         f"args: {JSON[c]}", "exit: 0", "stderr-is:")

# ---- 410 on a continue token: the read starts over once; every object once ----
for c in CMDS:
    case(f"410-once-{c}", f"410 once, {c}: the whole read restarted, the same answer",
         fault(path="^/api/v1/pods$", query="continue=", action="expired", times=1),
         "env: KUBECTL_GPU_CHUNK_SIZE=2", "clean-unset-env: KUBECTL_GPU_CHUNK_SIZE",
         f"args: {JSON[c]}", "exit: 0", f"same-as-clean: {ESSENCE[c]}",
         "request-count: 2 GET /api/v1/nodes?limit=2&=")
    case(f"410-always-{c}", f"410 every time, {c}: said",
         fault(path="^/api/v1/pods$", query="continue=", action="expired"),
         "env: KUBECTL_GPU_CHUNK_SIZE=2", f"args: {JSON[c]}", *failed_cleanly(),
         "stderr-contains: the list GET /api/v1/pods expired while being read (410 Expired at page 2")

# ---- 429 with Retry-After, 500: retried, the same answer ----
for c in CMDS:
    case(f"429-{c}", f"429 with Retry-After: 1, {c}: waited, asked again once, the same answer",
         fault(path="^/api/v1/nodes$", code=429, retryAfter=1, times=1), f"args: {JSON[c]}",
         "exit: 0", "elapsed: >= 1", "request-count: 2 GET /api/v1/nodes",
         f"same-as-clean: {ESSENCE[c]}")
    case(f"500-{c}", f"500 twice, {c}: retried, the same answer",
         fault(path="^/api/v1/pods$", code=500, times=2), f"args: {JSON[c]}", "exit: 0",
         f"same-as-clean: {ESSENCE[c]}")

# ---- 503 forever: bounded retries, then one line ----
for c in CMDS:
    case(f"503-forever-{c}", f"503 forever, {c}: five retries, no more, then what to do",
         fault(path="^/api/v1/pods$", code=503, retryAfter=0), f"args: {TEXT[c]}",
         *failed_cleanly(),
         "stderr-contains: kept answering GET /api/v1/pods with 503 ServiceUnavailable",
         "stderr-contains: after 5 retries; try again later",
         "request-count: 6 * /api/v1/pods")

# ---- the connection cut mid-page ----
for c in CMDS:
    case(f"cut-once-{c}", f"the connection cut once mid-page, {c}: retried, the same answer",
         fault(path="^/api/v1/pods$", action="cut", after=300, times=1), f"args: {JSON[c]}",
         "exit: 0", f"same-as-clean: {ESSENCE[c]}")
    case(f"cut-always-{c}", f"the connection cut every time (chunked), {c}: named",
         fault(path="^/api/v1/pods$", action="cut", after=300, chunked=True),
         f"args: {TEXT[c]} --request-timeout 5s", *failed_cleanly(),
         "stderr-contains: the connection to the API server @URL@ broke while reading GET /api/v1/pods")

# ---- a truncated page (a complete response holding half a JSON document), an HTML page ----
for c in CMDS:
    case(f"truncated-{c}", f"a truncated page, {c}: invalid JSON on page 1",
         fault(path="^/api/v1/nodes$", action="truncate", after=500), f"args: {TEXT[c]}",
         *failed_cleanly(), "stderr-is: error: invalid JSON in the response to GET /api/v1/nodes (page 1)")
    case(f"html-page2-{c}", f"HTML instead of page 2, {c}: invalid JSON on page 2",
         fault(path="^/api/v1/pods$", query="continue=", action="invalid"),
         "env: KUBECTL_GPU_CHUNK_SIZE=2", f"args: {JSON[c]}", *failed_cleanly(),
         "stderr-is: error: invalid JSON in the response to GET /api/v1/pods (page 2)")
    case(f"items-not-list-{c}", f'"items" not a list on page 2, {c}: said',
         fault(path="^/api/v1/pods$", query="continue=", action="body",
               body='{"kind": "PodList", "items": {"a": 1}}', contentType="application/json"),
         "env: KUBECTL_GPU_CHUNK_SIZE=2", f"args: {JSON[c]}", *failed_cleanly(),
         'stderr-is: error: invalid response to GET /api/v1/pods (page 2): "items" is not a list')

# ---- a page that never finishes: bounded by --request-timeout ----
for c in CMDS:
    case(f"stalled-{c}", f"a stalled page, {c}: bounded by --request-timeout, named",
         fault(path="^/api/v1/pods$", action="stall", after=200, seconds=60),
         f"args: {TEXT[c]} --request-timeout 2s", *failed_cleanly(),
         "stderr-is: error: GET /api/v1/pods: no complete answer from the API server @URL@ "
         "within 2s (--request-timeout)", "elapsed: < 8")

# ---- unreachable server; TLS: wrong CA, wrong host name ----
for c in CMDS:
    case(f"unreachable-{c}", f"an unreachable server, {c}: named",
         "kubeconfig: down", f"args: {TEXT[c]}", *failed_cleanly(),
         "stderr-matches: ^error: cannot reach the API server @DOWNURL@: .*(refused|Couldn't connect)")
    case(f"wrongca-{c}", f"the wrong CA, {c}: host and CA file named",
         "kubeconfig: wrongca", f"args: {TEXT[c]}", *failed_cleanly(),
         "stderr-contains: TLS verification of the API server 127.0.0.1 failed",
         "stderr-contains: using CA file @CERTS@/other-ca.crt")
    case(f"tlsname-{c}", f"a tls-server-name the certificate is not for, {c}: named",
         "kubeconfig: tlsname", f"args: {TEXT[c]}", *failed_cleanly(),
         "stderr-contains: TLS verification of the API server 127.0.0.1 (verified as "
         "kgpu-wronghost.test, the tls-server-name) failed",
         "stderr-contains: using CA file @CERTS@/ca.crt")

# ---- exec credential plugin: fails, prints garbage, hangs ----
for c in CMDS:
    case(f"exec-fail-{c}", f"the exec plugin fails, {c}: named, no output",
         "kubeconfig: exec", "env: FAKEAPI_EXEC_MODE=fail", f"args: {TEXT[c]}", "exit: 1",
         "stdout-is:", f'stderr-contains: error: kubeconfig @TMP@/kubeconfig: user "fake-user": '
         f"exec: executable {EXEC} failed with exit code 1")
    case(f"exec-garbage-{c}", f"the exec plugin prints garbage, {c}: named",
         "kubeconfig: exec", "env: FAKEAPI_EXEC_MODE=garbage", f"args: {TEXT[c]}",
         *failed_cleanly(), f"stderr-contains: exec: executable {EXEC} returned invalid output: not JSON")
    case(f"exec-hang-{c}", f"the exec plugin hangs, {c}: stopped within the request timeout",
         "kubeconfig: exec", "env: FAKEAPI_EXEC_MODE=hang", f"args: {TEXT[c]} --request-timeout 2s",
         *failed_cleanly(), "stderr-contains: did not finish within 2 s and was stopped",
         "elapsed: < 10")

# only GET requests (the script checked it once over its whole run; here: every command once)
for c in CMDS:
    name = f"faults-baseline-{c}.case"
    CASES[name] += "request-all: GET .*\n" if c == "snapshot" else ""


def main():
    for old in glob.glob(os.path.join(HERE, "faults-*.case")):
        if os.path.basename(old) not in CASES:
            os.remove(old)
    for name, text in sorted(CASES.items()):
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            f.write(text)
    print(f"{len(CASES)} cases")


if __name__ == "__main__":
    main()
