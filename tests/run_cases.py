#!/usr/bin/env python3
"""Data-driven test cases: each tests/cases/**/*.case file is a fixture + command + expected result.

Format (one directive per line; '#' lines are comments; paths are relative to the repo root;
a value is taken without its leading and trailing blanks):

    # what this case proves
    args: status --snapshot examples/clusters/mixed-fleet.json -o json
    env: NO_COLOR=1                      (optional, repeatable; "env: NAME=" sets it empty)
    unset-env: NAME                      (optional, repeatable)
    stdin: tests/cases/fit/manifests/list.json   (optional: the command's standard input is this
                                          file; without it, standard input is empty)
    exit: 0                              (default 0)
    json: d['summary']['physicalGPUs'] == 44      (Python expression over d = parsed stdout;
                                                    one assertion per line; in a live case,
                                                    fixture = the server fixture's items;
                                                    drop(d, 'k', ...) = d without keys k)
    stdout-contains: some text           (repeatable)
    stdout-not-contains: text
    stdout-matches: REGEX                (re.search, MULTILINE)
    stdout-is: text                      (stdout without its trailing newlines is exactly text;
                                          "stdout-is:" with nothing = stdout empty)
    stderr-contains: text
    stderr-not-contains: text
    stderr-matches: REGEX
    stderr-is: text                      (as stdout-is, for stderr)
    stderr-lines: 1                      (number of non-empty stderr lines)
    stdout-file: tests/cases/status/mixed.out     (exact golden output)
    elapsed: < 8                         (wall seconds the command took: "< N", "<= N",
                                          ">= N", "> N"; bounds stretch x4 under valgrind)
    no-file: GLOB                        (no file matches GLOB, e.g. @TMP@/denied.json*)
    file-lines: PATH N                   (the file has N lines, e.g. an exec plugin's run count)
    file-json: PATH EXPR                 (EXPR over d = the file's first JSON line is true)
    no-secret:                           (no test credential in stdout or stderr: the tokens,
                                          the basic password and its base64 with the user, a
                                          line of the client key and of its base64)
    same-as-clean: EXPR                  (live cases: EXPR over d = parsed stdout equals EXPR
                                          over the stdout of the same command against a second
                                          server with the same fixture and options but no
                                          fault and no rbac line: "the fault changed nothing")
    clean-unset-env: NAME                (the same-as-clean run goes without env NAME, e.g.
                                          KUBECTL_GPU_CHUNK_SIZE: paged reads = one read)

The live path (tests/cases/live/): a case with a `server:` line runs its command against its
own fake API server (tests/fakeapi/server.py), started for the case and stopped afterwards
whatever happens (SIGTERM, then SIGKILL after 5 s; the server also exits when the runner is
gone), on a free port, so live cases run in parallel (a pool of --jobs workers, default 4 or
$KGPU_CASE_JOBS).  The request checks read the server's log once it has stopped (it logs every
request it answered before it exits).

    server: tests/fixtures/api/small.json [--server-cert wronghost ...]
                                         (the fixture, then any other server.py options;
                                          TLS certificates, the test tokens and basic user of
                                          tests/lib/fakeapi.sh are passed as that script does)
    fault: {"path": "^/api/v1/nodes$", "code": 429, "retryAfter": 1, "times": 1}
                                         (repeatable: one fault object of the faults file,
                                          tests/fakeapi/README.md)
    rbac: {"user": "gpu-admin", "verb": "list", "resource": "pods"}   (repeatable: deny rules)
    proxy: {...}                         (the proxy-config object)
    role: examples/rbac.yaml             (a Role/ClusterRole in YAML, read with libyaml through
                                          tests/tools/yaml2json: every user is granted its
                                          rules and discovery, nothing else (403); the log's
                                          roleRules field names the rules, by index, that
                                          granted each request)
    kubeconfig: token                    (which identity/TLS setting the generated kubeconfig
                                          holds: token (default), viewer, cert, certdata,
                                          basic, exec, insecure, wrongca, roguecert, tlsname,
                                          tokenfile (tokenFile: token, relative to the
                                          kubeconfig), badtoken (an unknown token), as (token +
                                          as: jane, as-groups: [gpu-users]), noexec (exec of a
                                          command not installed), down (token, a closed port),
                                          or incluster: no kubeconfig, KUBERNETES_SERVICE_HOST
                                          and _PORT set and a service account directory
                                          (token, ca.crt, namespace gpu-system) in @TMP@/sa)
    request: PATTERN                     (at least one request the server received matches)
    no-request: PATTERN                  (none matches)
    request-count: N PATTERN             (exactly N match; also "<= N", ">= N")
    request-all: PATTERN                 (there were requests, and every one matches)
    request-last: PATTERN                (the last request logged matches)

A request PATTERN is `METHOD PATH[?QUERY] [FIELD=REGEX ...]`, whitespace-separated:
    METHOD  GET, POST, ... or * for any
    PATH    a regular expression the whole (decoded) path must match: /api/v1/pods,
            /apis/apps/v1/.*, .* for any
    QUERY   after the last "?" that starts name=..., !name or "=": items joined by &, every
            one of which the request's query must hold (values compared decoded, as regular
            expressions matching the whole value; name=* = present with any value; !name =
            absent; !name=REGEX = absent or no value matching); a last item "=" (or a QUERY
            of just "=") means no other parameter: ?limit=500&= is exactly limit=500
    FIELD   a field of the server's request log (user, auth, status, fault, userAgent, accept)
            or h:NAME for the request header NAME (lower case), e.g. h:authorization=Bearer.*
            or user=gpu-admin; the regular expression must match the whole value; h:!NAME =
            the header was not sent
The server logs Authorization as "SCHEME sha256:<16 hex>" (never the credential), so cases assert
the scheme (h:authorization=Bearer\\ssha256:.*) or compare hashes, never a secret.

In args, env and expected values, @ROOT@ is the repository, @URL@ the server's
https://127.0.0.1:PORT, @DOWNURL@ the closed port's URL of kubeconfig "down", @CERTS@ the
certificate directory, @TMP@ the case's scratch directory (kept under $TEST_TMP_ROOT/cases
when run-all sets it: the suite's secret scan reads it).  A live case runs with KUBECONFIG = the generated kubeconfig, KUBECACHEDIR in @TMP@,
KUBECTL_GPU_SA_DIR=/nonexistent/sa and no KUBERNETES_SERVICE_HOST/PORT or
KUBECTL_GPU_CHUNK_SIZE (set them with env:).

Every directive that checks is one assertion (exit, each check, each request line).  Prints
"ok - case: assertion" / "not ok - ..." and a closing "# RESULT passed=N failed=M" line.  The
binary is --bin (valgrind-wrapped when KGPU_VALGRIND=1).
"""
import argparse, atexit, concurrent.futures, json, os, re, shlex, shutil, signal, socket
import subprocess, sys, tempfile, threading, time, urllib.parse

OUTPUT_CHECKS = ("json", "same-as-clean", "no-file", "file-lines", "file-json", "no-secret",
                 "stdout-contains", "stdout-not-contains", "stdout-matches", "stdout-is",
                 "stderr-contains", "stderr-not-contains", "stderr-matches", "stderr-is",
                 "stderr-lines", "stdout-file", "elapsed")
REQUEST_CHECKS = ("request", "no-request", "request-count", "request-all", "request-last")
KUBECONFIG_KINDS = ("token", "viewer", "cert", "certdata", "basic", "exec", "insecure", "wrongca",
                    "roguecert", "tlsname", "down", "tokenfile", "badtoken", "as", "noexec",
                    "incluster")
VALGRIND = bool(os.environ.get("KGPU_VALGRIND"))


def load(path):
    d = {"args": None, "env": {}, "unset": [], "exit": 0, "checks": [], "server": None,
         "faults": [], "rbac": [], "proxy": {}, "kubeconfig": "token"}
    with open(path, encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if ":" not in line:
                raise ValueError(f"{path}:{ln}: expected 'directive: value'")
            key, val = line.split(":", 1)
            key, val = key.strip(), val.strip()
            if key == "args":
                d["args"] = shlex.split(val)
            elif key == "env":
                k, _, v = val.partition("=")
                d["env"][k] = v
            elif key == "unset-env":
                d["unset"].append(val)
            elif key == "stdin":
                d["stdin"] = val
            elif key == "clean-unset-env":
                d.setdefault("clean_unset", []).append(val)
            elif key == "exit":
                d["exit"] = int(val)
            elif key == "server":
                d["server"] = shlex.split(val)
                if not d["server"]:
                    raise ValueError(f"{path}:{ln}: server: wants a fixture")
            elif key in ("fault", "rbac"):
                obj = json.loads(val)
                if not isinstance(obj, dict):
                    raise ValueError(f"{path}:{ln}: {key}: wants one JSON object")
                d["faults" if key == "fault" else "rbac"].append(obj)
            elif key == "proxy":
                d["proxy"] = json.loads(val)
            elif key == "role":
                d["role"] = val
            elif key == "kubeconfig":
                if val not in KUBECONFIG_KINDS:
                    raise ValueError(f"{path}:{ln}: kubeconfig: one of {', '.join(KUBECONFIG_KINDS)}")
                d["kubeconfig"] = val
            elif key in OUTPUT_CHECKS:
                d["checks"].append((key, val, ln))
            elif key in REQUEST_CHECKS:
                parse_request_check(key, val)          # malformed: an error now, not later
                d["checks"].append((key, val, ln))
            else:
                raise ValueError(f"{path}:{ln}: unknown directive {key!r}")
    if d["args"] is None:
        raise ValueError(f"{path}: no args")
    if d["server"] is None and (d["faults"] or d["rbac"] or d["proxy"] or d.get("role") or
                                any(k in REQUEST_CHECKS + ("same-as-clean",)
                                    for k, _, _ in d["checks"])):
        raise ValueError(f"{path}: fault/rbac/proxy/role/request/same-as-clean need a server: line")
    return d


# ---- request patterns ------------------------------------------------------------------------

QUERY_RX = re.compile(r"^(=|!?[A-Za-z_][\w.-]*(=[^&]*)?(&(=$|!?[A-Za-z_][\w.-]*(=[^&]*)?))*)$")


def parse_pattern(text):
    """'GET /api/v1/pods?limit=500&= user=gpu-admin' -> a predicate over a log entry."""
    words = text.split()
    if len(words) < 2:
        raise ValueError(f"request pattern wants METHOD PATH: {text!r}")
    method, target, fields = words[0], words[1], words[2:]
    path_re, qtext = target, ""
    for i in range(len(target) - 1, 0, -1):      # the query: after the last "?" that starts one
        if target[i] == "?" and target[i - 1] != "(" and QUERY_RX.match(target[i + 1:]):
            path_re, qtext = target[:i], target[i + 1:]
            break
    path_rx = re.compile(path_re)
    exact = False
    qwant = []                                     # (name, regex or None=any, present?)
    if qtext:
        parts = qtext.split("&")
        if parts[-1] == "=":
            exact, parts = True, parts[:-1]
        for p in parts:
            if p.startswith("!"):
                n, sep, v = p[1:].partition("=")
                qwant.append((n, re.compile(v) if sep else None, False))
                continue
            n, sep, v = p.partition("=")
            if not sep:
                raise ValueError(f"query item wants name=value, name=* or !name: {p!r}")
            qwant.append((n, None if v == "*" else re.compile(v), True))
    fwant = []
    for f in fields:
        n, sep, v = f.partition("=")
        if not sep and not n.startswith("h:!"):
            raise ValueError(f"field wants NAME=REGEX: {f!r}")
        fwant.append((n, re.compile(v) if sep else None))

    def match(e):
        if method != "*" and e.get("method") != method:
            return False
        if not path_rx.fullmatch(e.get("path", "")):
            return False
        q = urllib.parse.parse_qs(e.get("query", ""), keep_blank_values=True)
        for n, rx, present in qwant:
            if not present:
                if n in q and (rx is None or any(rx.fullmatch(v) for v in q[n])):
                    return False
                continue
            if n not in q or (rx is not None and not any(rx.fullmatch(v) for v in q[n])):
                return False
        if exact and set(q) - {n for n, _, p in qwant if p}:
            return False
        hdrs = e.get("headers", {})
        for n, rx in fwant:
            if n.startswith("h:!"):
                if n[3:] in hdrs:
                    return False
                continue
            val = hdrs.get(n[2:]) if n.startswith("h:") else e.get(n)
            if val is None or not rx.fullmatch(str(val)):
                return False
        return True
    return match


def parse_request_check(key, val):
    """-> (comparison, N, predicate) for request-count, else (None, None, predicate)."""
    if key != "request-count":
        return None, None, parse_pattern(val)
    m = re.match(r"^(<=|>=|=)?\s*(\d+)\s+(.*)$", val)
    if not m:
        raise ValueError(f"request-count wants [<=|>=] N PATTERN: {val!r}")
    return m.group(1) or "=", int(m.group(2)), parse_pattern(m.group(3))


def check_requests(key, val, log):
    cmp, n, pred = parse_request_check(key, val)
    hits = [e for e in log if pred(e)]
    if key == "request":
        return bool(hits), ""
    if key == "no-request":
        return not hits, f"{len(hits)} matched, first {short(hits[0])}" if hits else ""
    if key == "request-all":
        bad = [e for e in log if not pred(e)]
        return bool(log) and not bad, (f"{len(bad)} of {len(log)} do not match, first "
                                       f"{short(bad[0])}" if bad else "no request logged")
    if key == "request-last":
        return bool(log) and pred(log[-1]), short(log[-1]) if log else "no request logged"
    good = {"=": len(hits) == n, "<=": len(hits) <= n, ">=": len(hits) >= n}[cmp]
    return good, f"{len(hits)} matched"


def short(e):
    return f"{e.get('method')} {e.get('path')}?{e.get('query', '')} user={e.get('user')}"


# ---- the fake API server, per case -----------------------------------------------------------

def fakeapi_identities(root):
    """The test tokens and basic user, read from tests/lib/fakeapi.sh (one place for them)."""
    ids = {}
    with open(os.path.join(root, "tests", "lib", "fakeapi.sh"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^(FAKEAPI_[A-Z_]+)=([A-Za-z0-9_.-]+)$", line.strip())
            if m:
                ids[m.group(1)] = m.group(2)
    return ids


_certs_lock = threading.Lock()


def make_certs(root, certs):
    with _certs_lock:
        subprocess.run(["bash", os.path.join(root, "tests", "fakeapi", "gen-certs.sh"), certs],
                       check=True, capture_output=True, timeout=120)


def closed_port():
    """A port bound but not listening: connections are refused, and no other case's server can
    take it while the socket is held (close it after the case)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    return s, s.getsockname()[1]


def kubeconfig_text(kind, url, certs, ids, home):
    import base64
    ca = f"    certificate-authority: {certs}/ca.crt"
    tok = f"    token: {ids['FAKEAPI_TOKEN']}"
    b64 = lambda p: base64.b64encode(open(os.path.join(certs, p), "rb").read()).decode()
    cluster, user = {
        "token": (ca, tok), "down": (ca, tok), "incluster": (ca, tok),
        "tokenfile": (ca, "    tokenFile: token"),
        "badtoken": (ca, "    token: not-a-valid-token"),
        "as": (ca, tok + "\n    as: jane\n    as-groups: [gpu-users]"),
        "viewer": (ca, f"    token: {ids['FAKEAPI_VIEWER_TOKEN']}"),
        "cert": (ca, f"    client-certificate: {certs}/client.crt\n    client-key: {certs}/client.key"),
        "certdata": (f"    certificate-authority-data: {b64('ca.crt')}",
                     f"    client-certificate-data: {b64('client.crt')}\n"
                     f"    client-key-data: {b64('client.key')}"),
        "roguecert": (ca, f"    client-certificate: {certs}/rogue-client.crt\n"
                          f"    client-key: {certs}/rogue-client.key"),
        "basic": (ca, f"    username: {ids['FAKEAPI_BASIC_USER']}\n"
                      f"    password: {ids['FAKEAPI_BASIC_PASSWORD']}"),
        "exec": (ca, "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n"
                     f"      command: {home}/exec-plugin.sh\n"
                     "      args: [\"get-token\", \"--cluster\", \"fake\"]\n"
                     "      env:\n      - name: FAKEAPI_EXEC_TOKEN\n"
                     f"        value: {ids['FAKEAPI_EXEC_TOKEN']}\n"
                     "      interactiveMode: Never\n      provideClusterInfo: true\n"
                     "      installHint: fake exec plugin from tests/fakeapi"),
        "noexec": (ca, "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n"
                       "      command: kgpu-no-such-auth-plugin\n"
                       "      interactiveMode: Never\n"
                       "      installHint: fake exec plugin from tests/fakeapi"),
        "insecure": ("    insecure-skip-tls-verify: true", tok),
        "wrongca": (f"    certificate-authority: {certs}/other-ca.crt", tok),
        "tlsname": (ca + "\n    tls-server-name: kgpu-wronghost.test", tok),
    }[kind]
    return (f"apiVersion: v1\nkind: Config\nclusters:\n- name: fake-cluster\n  cluster:\n"
            f"    server: {url}\n{cluster}\nusers:\n- name: fake-user\n  user:\n{user}\n"
            "contexts:\n- name: fake\n  context:\n    cluster: fake-cluster\n    user: fake-user\n"
            "current-context: fake\npreferences: {}\n")


def secrets(ids, certs):
    """The test credentials no output may hold (as tests/integration/test_secrets.sh)."""
    import base64
    out = [ids["FAKEAPI_TOKEN"], ids["FAKEAPI_VIEWER_TOKEN"], ids["FAKEAPI_EXEC_TOKEN"],
           ids["FAKEAPI_BASIC_PASSWORD"],
           base64.b64encode(f"{ids['FAKEAPI_BASIC_USER']}:{ids['FAKEAPI_BASIC_PASSWORD']}"
                            .encode()).decode()]
    if certs:
        key = open(os.path.join(certs, "client.key"), "rb").read()
        out.append(key.decode().splitlines()[1])
        out.append(base64.b64encode(key).decode()[:40])
    return out


_yaml2json = {"lock": threading.Lock(), "bin": None}


def yaml2json(root, src, dst):
    """src (YAML) as JSON Lines in dst, by tests/tools/yaml2json (libyaml), built once per run"""
    with _yaml2json["lock"]:
        if _yaml2json["bin"] is None:
            d = tempfile.mkdtemp(prefix="kgpu-y2j-")
            atexit.register(shutil.rmtree, d, True)
            out = os.path.join(d, "yaml2json")
            flags = subprocess.run(["pkg-config", "--cflags", "--libs", "yaml-0.1", "libcjson"],
                                   capture_output=True, text=True, check=True).stdout.split()
            subprocess.run(["cc", "-std=c11", "-o", out,
                            os.path.join(root, "tests", "tools", "yaml2json.c")] + flags,
                           capture_output=True, check=True)
            _yaml2json["bin"] = out
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        subprocess.run([_yaml2json["bin"]], stdin=fin, stdout=fout, check=True, timeout=30)
    return dst


class FakeApi:
    """One server.py for one case: start() waits for its port file (bounded); stop() always."""

    def __init__(self, root, tmp, certs, ids, c):
        self.root, self.tmp, self.certs, self.ids, self.c = root, tmp, certs, ids, c
        self.proc = None
        self.log = os.path.join(tmp, "fakeapi.log")
        self.url = None

    def start(self, timeout=30):
        def wr(name, obj):
            p = os.path.join(self.tmp, name)
            with open(p, "w", encoding="utf-8") as f:
                json.dump(obj, f)
            return p
        fixture, extra = self.c["server"][0], self.c["server"][1:]
        portfile = os.path.join(self.tmp, "fakeapi.port")
        ids = self.ids
        cmd = [sys.executable, os.path.join(self.root, "tests", "fakeapi", "server.py"),
               "--fixture", os.path.join(self.root, fixture), "--certs", self.certs,
               "--port-file", portfile, "--log", self.log,
               "--faults", wr("faults.json", self.c["faults"]),
               "--rbac", wr("rbac.json", self.c["rbac"]),
               "--proxy-config", wr("proxy.json", self.c["proxy"]),
               "--token", f"{ids['FAKEAPI_TOKEN']}=gpu-admin",
               "--token", f"{ids['FAKEAPI_VIEWER_TOKEN']}=gpu-viewer",
               "--token", f"{ids['FAKEAPI_EXEC_TOKEN']}=gpu-exec",
               "--basic", f"{ids['FAKEAPI_BASIC_USER']}:{ids['FAKEAPI_BASIC_PASSWORD']}",
               "--parent-pid", str(os.getpid())] + extra
        if self.c.get("role"):
            cmd += ["--role", yaml2json(self.root, os.path.join(self.root, self.c["role"]),
                                        os.path.join(self.tmp, "role.json"))]
        self.stderr = open(os.path.join(self.tmp, "fakeapi.stderr"), "wb")
        open(self.log, "w").close()
        self.proc = subprocess.Popen(cmd, cwd=self.root, stdin=subprocess.DEVNULL,
                                     stdout=self.stderr, stderr=self.stderr,
                                     start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if os.path.exists(portfile) and os.path.getsize(portfile) > 0:
                port = int(open(portfile).read().strip())
                self.url = f"https://127.0.0.1:{port}"
                return
            if self.proc.poll() is not None:
                raise RuntimeError("fake API server exited during start-up: " + self.stderr_text())
            time.sleep(0.05)
        raise RuntimeError(f"fake API server did not start within {timeout} s: " + self.stderr_text())

    def stderr_text(self):
        try:
            return open(os.path.join(self.tmp, "fakeapi.stderr"), encoding="utf-8",
                        errors="replace").read()[-800:]
        except OSError:
            return ""

    def requests(self):
        out = []
        with open(self.log, encoding="utf-8") as f:
            for line in f:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
        return out

    def stop(self):
        p, self.proc = self.proc, None
        if p is not None and p.poll() is None:
            p.terminate()
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=5)
        if getattr(self, "stderr", None):
            self.stderr.close()


# ---- one case --------------------------------------------------------------------------------

def case_tmp(root, name):
    base = os.environ.get("TEST_TMP_ROOT")
    if base:
        d = os.path.join(base, "cases", re.sub(r"[^A-Za-z0-9_.-]", "_", name))
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        return d, False
    return tempfile.mkdtemp(prefix="kgpu-case-"), True


def run_case(binary, root, path, shared=None):
    name = os.path.relpath(path, os.path.join(root, "tests", "cases"))
    try:
        c = load(path)
    except Exception as e:  # a malformed case is a failure, not a skip
        return [(False, f"{name}: {e}")]
    if c["server"] is None:
        return run_command(binary, root, name, c, {}, None)[0]
    tmp, remove = case_tmp(root, name)
    try:
        make_certs(root, shared["certs"])
        clean = None
        if any(k == "same-as-clean" for k, _, _ in c["checks"]):
            ctmp = os.path.join(tmp, "clean")
            os.makedirs(ctmp)
            cc = dict(c, faults=[], rbac=[], role=None, checks=[],
                      env={k: v for k, v in c["env"].items() if k not in c.get("clean_unset", [])},
                      unset=c["unset"] + c.get("clean_unset", []))
            clean = live_run(binary, root, name, cc, ctmp, shared)[1]
        return live_run(binary, root, name, c, tmp, shared, clean)[0]
    except Exception as e:
        return [(False, f"{name}: {type(e).__name__}: {e}")]
    finally:
        if remove:
            shutil.rmtree(tmp, ignore_errors=True)


def live_run(binary, root, name, c, tmp, shared, clean=None):
    """Start the case's server, run the command against it, stop the server -> (results, stdout)."""
    server = down = None
    certs = shared["certs"]
    try:
        server = FakeApi(root, tmp, certs, shared["ids"], c)
        server.start()
        subst = {"@URL@": server.url, "@CERTS@": certs, "@TMP@": tmp, "@ROOT@": root}
        url = server.url
        if c["kubeconfig"] == "down":
            down, port = closed_port()
            url = subst["@DOWNURL@"] = f"https://127.0.0.1:{port}"
        else:
            subst["@DOWNURL@"] = ""
        kc = os.path.join(tmp, "kubeconfig")
        with open(kc, "w", encoding="utf-8") as f:
            f.write(kubeconfig_text(c["kubeconfig"], url, certs, shared["ids"],
                                    os.path.join(root, "tests", "fakeapi")))
        env = {"KUBECONFIG": kc, "KUBECACHEDIR": os.path.join(tmp, "kube-cache"),
               "KUBECTL_GPU_SA_DIR": "/nonexistent/sa"}
        if c["kubeconfig"] == "incluster":
            sa = os.path.join(tmp, "sa")
            os.makedirs(sa, exist_ok=True)
            with open(os.path.join(sa, "token"), "w") as f:
                f.write(shared["ids"]["FAKEAPI_TOKEN"])
            shutil.copy(os.path.join(certs, "ca.crt"), os.path.join(sa, "ca.crt"))
            with open(os.path.join(sa, "namespace"), "w") as f:
                f.write("gpu-system\n")
            env = {"KUBECONFIG": "/nonexistent/config", "KUBECTL_GPU_SA_DIR": sa,
                   "KUBERNETES_SERVICE_HOST": "127.0.0.1",
                   "KUBERNETES_SERVICE_PORT": server.url.rsplit(":", 1)[1],
                   "KUBECACHEDIR": env["KUBECACHEDIR"]}
        elif c["kubeconfig"] == "tokenfile":
            with open(os.path.join(tmp, "token"), "w") as f:
                f.write(shared["ids"]["FAKEAPI_TOKEN"] + "\n")
        return run_command(binary, root, name, c, env, server, subst, clean, shared["ids"])
    finally:
        if server is not None:
            server.stop()
        if down is not None:
            down.close()


def drop(o, *keys):
    """o without the given keys, at any depth (for json:/same-as-clean: expressions)."""
    if isinstance(o, dict):
        return {k: drop(v, *keys) for k, v in o.items() if k not in keys}
    if isinstance(o, list):
        return [drop(v, *keys) for v in o]
    return o


def run_command(binary, root, name, c, live_env, server, subst=None, clean=None, shared_ids=None):
    """-> (results, stdout)"""
    subst = subst or {}

    def sub(s):
        for k, v in subst.items():
            s = s.replace(k, v)
        return s
    results = []
    env = dict(os.environ)
    env.setdefault("NO_COLOR", "1")
    env["KUBECONFIG"] = env.get("KGPU_CASE_KUBECONFIG", "/nonexistent/kubeconfig")
    if server is not None:
        for k in ("KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT", "KUBECTL_GPU_CHUNK_SIZE",
                  "FAKEAPI_EXEC_MODE"):
            env.pop(k, None)
    env.update(live_env)
    env.update({k: sub(v) for k, v in c["env"].items()})
    for k in c["unset"]:
        env.pop(k, None)
    cmd = [binary] + [sub(a) for a in c["args"]]
    if VALGRIND:
        cmd = ["valgrind", "-q", "--error-exitcode=99", "--leak-check=full",
               "--errors-for-leak-kinds=definite"] + cmd
    t0 = time.monotonic()
    try:
        stdin_kw = {}
        if c.get("stdin"):
            with open(os.path.join(root, sub(c["stdin"])), "rb") as f:
                stdin_kw["input"] = f.read()
        p = subprocess.run(cmd, cwd=root, env=env, capture_output=True, timeout=120, **stdin_kw)
    except subprocess.TimeoutExpired:
        return [(False, f"{name}: timed out")], ""
    elapsed = time.monotonic() - t0
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    ok = p.returncode == c["exit"]
    results.append((ok, f"{name}: exit {p.returncode}" + ("" if ok else f", want {c['exit']}; stderr: {err[:800]}")))
    doc = None
    log = []
    if server is not None:       # stopped first: its log then holds every request answered
        server.stop()
        log = server.requests()
    evalenv = {"drop": drop, "len": len, "sum": sum, "any": any, "all": all, "sorted": sorted,
               "set": set, "abs": abs, "json": json, "re": re, "fixture": []}
    if c.get("server"):
        with open(os.path.join(root, c["server"][0]), encoding="utf-8") as f:
            evalenv["fixture"] = json.load(f).get("items", [])
    for key, raw, ln in c["checks"]:
        val = sub(raw)
        label = f"{name}:{ln}: {key}: {raw}"
        try:
            if key == "json":
                if doc is None:
                    doc = json.loads(out)
                good = bool(eval(val, dict(evalenv, d=doc)))
                if not good:
                    label += "  (false)"
            elif key == "file-lines":
                fpath, _, n = val.rpartition(" ")
                with open(os.path.join(root, fpath), encoding="utf-8") as f:
                    got = len(f.read().splitlines())
                good = got == int(n)
                if not good:
                    label += f"  (got {got})"
            elif key == "file-json":
                fpath, _, expr = val.partition(" ")
                with open(os.path.join(root, fpath), encoding="utf-8") as f:
                    fdoc = json.loads(f.readline())
                good = bool(eval(expr, dict(evalenv, d=fdoc)))
            elif key == "no-secret":
                leaked = [i for i, sec in enumerate(secrets(shared_ids, subst.get("@CERTS@")))
                          if sec in out or sec in err]
                good = not leaked
                if not good:
                    label += f"  (secrets number {leaked} of run_cases.secrets())"
            elif key == "no-file":
                import glob
                hits = glob.glob(os.path.join(root, val))
                good = not hits
                if not good:
                    label += f"  (found {hits[:3]})"
            elif key == "same-as-clean":
                if doc is None:
                    doc = json.loads(out)
                want = eval(val, dict(evalenv, d=json.loads(clean)))
                got = eval(val, dict(evalenv, d=doc))
                good = got == want
                if not good:
                    label += f"  (got {str(got)[:300]}; without faults {str(want)[:300]})"
            elif key == "stdout-contains":
                good = val in out
            elif key == "stdout-not-contains":
                good = val not in out
            elif key == "stderr-not-contains":
                good = val not in err
            elif key == "stdout-matches":
                good = re.search(val, out, re.M) is not None
            elif key == "stderr-matches":
                good = re.search(val, err, re.M) is not None
            elif key == "stderr-contains":
                good = val in err
            elif key in ("stdout-is", "stderr-is"):
                got = (out if key == "stdout-is" else err).rstrip("\n")
                good = got == val
                if not good:
                    label += f"  (got {got[:600]!r})"
            elif key == "stderr-lines":
                n = len([l for l in err.splitlines() if l.strip()])
                good = n == int(val)
                if not good:
                    label += f"  (got {n}: {err[:400]})"
            elif key == "elapsed":
                m = re.match(r"^(<=|>=|<|>)\s*([0-9.]+)$", val)
                if not m:
                    raise ValueError("elapsed wants < N, <= N, > N or >= N seconds")
                lim = float(m.group(2)) * (4 if VALGRIND and m.group(1)[0] == "<" else 1)
                good = {"<": elapsed < lim, "<=": elapsed <= lim, ">": elapsed > lim,
                        ">=": elapsed >= lim}[m.group(1)]
                label += f"  ({elapsed:.2f} s)"
            elif key in REQUEST_CHECKS:
                good, why = check_requests(key, val, log)
                if not good:
                    label += f"  ({why}; {len(log)} requests logged)"
            elif key == "stdout-file":
                with open(os.path.join(root, val), encoding="utf-8") as f:
                    want = f.read()
                good = out == want
                if not good:
                    import difflib
                    diff = "".join(difflib.unified_diff(want.splitlines(True), out.splitlines(True),
                                                        "expected", "actual"))
                    label += "\n" + diff[:3000]
        except Exception as e:
            good = False
            label += f"  ({type(e).__name__}: {e}; stdout: {out[:300]!r})"
        results.append((good, label))
    return results, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("KGPU_CASE_JOBS", "4")),
                    help="cases run at once (live cases mostly wait on the server; default 4)")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = os.path.abspath(a.bin) if os.sep in a.bin else a.bin
    files = []
    for d in a.dirs:
        for dp, _, fs in os.walk(d):
            files += [os.path.join(dp, f) for f in fs if f.endswith(".case")]
    files = sorted(os.path.abspath(f) for f in files)
    if os.environ.get("TEST_TMP_ROOT"):         # keys there: the suite's secret scan reads them
        shared_dir = os.path.join(os.environ["TEST_TMP_ROOT"], "cases", ".shared")
        os.makedirs(shared_dir, exist_ok=True)
    else:
        shared_dir = tempfile.mkdtemp(prefix="kgpu-cases-")
    shared = {"certs": os.path.join(shared_dir, "certs"), "ids": fakeapi_identities(root)}
    passed = failed = 0
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            futures = [pool.submit(run_case, binary, root, f, shared) for f in files]
            for fut in futures:                        # printed in file order
                for good, label in fut.result():
                    print(("ok - " if good else "not ok - ") + label, flush=True)
                    passed += good
                    failed += not good
    finally:
        if not os.environ.get("TEST_TMP_ROOT"):
            shutil.rmtree(shared_dir, ignore_errors=True)
    print(f"# RESULT passed={passed} failed={failed}")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
