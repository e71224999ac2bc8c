#!/usr/bin/env python3
"""Data-driven test cases: each tests/cases/**/*.case file is a fixture + command + expected result.

Format (one directive per line; '#' lines are comments; paths are relative to the repo root):

    # what this case proves
    args: status --snapshot examples/clusters/mixed-fleet.json -o json
    env: NO_COLOR=1                      (optional, repeatable)
    exit: 0                              (default 0)
    json: d['summary']['physicalGPUs'] == 44      (Python expression over d = parsed stdout;
                                                    one assertion per line)
    stdout-contains: some text           (repeatable)
    stdout-not-contains: text
    stdout-matches: REGEX                (re.search, MULTILINE)
    stderr-contains: text
    stderr-lines: 1                      (number of non-empty stderr lines)
    stdout-file: tests/cases/status/mixed.out     (exact golden output)

Every directive is one assertion.  Prints "ok - case: assertion" / "not ok - ..." and a closing
"# RESULT passed=N failed=M" line.  The binary is --bin (valgrind-wrapped when KGPU_VALGRIND=1).
"""
import argparse, json, os, re, shlex, subprocess, sys

def load(path):
    d = {"args": None, "env": {}, "exit": 0, "checks": []}
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
            elif key == "exit":
                d["exit"] = int(val)
            elif key in ("json", "stdout-contains", "stdout-not-contains", "stdout-matches",
                         "stderr-contains", "stderr-lines", "stdout-file", "stderr-not-contains"):
                d["checks"].append((key, val, ln))
            else:
                raise ValueError(f"{path}:{ln}: unknown directive {key!r}")
    if d["args"] is None:
        raise ValueError(f"{path}: no args")
    return d

def run_case(binary, root, path):
    results = []
    name = os.path.relpath(path, os.path.join(root, "tests", "cases"))
    try:
        c = load(path)
    except Exception as e:  # a malformed case is a failure, not a skip
        return [(False, f"{name}: {e}")]
    env = dict(os.environ)
    env.setdefault("NO_COLOR", "1")
    env["KUBECONFIG"] = env.get("KGPU_CASE_KUBECONFIG", "/nonexistent/kubeconfig")
    env.update(c["env"])
    cmd = [binary] + c["args"]
    if os.environ.get("KGPU_VALGRIND"):
        cmd = ["valgrind", "-q", "--error-exitcode=99", "--leak-check=full",
               "--errors-for-leak-kinds=definite"] + cmd
    try:
        p = subprocess.run(cmd, cwd=root, env=env, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return [(False, f"{name}: timed out")]
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    ok = p.returncode == c["exit"]
    results.append((ok, f"{name}: exit {p.returncode}" + ("" if ok else f", want {c['exit']}; stderr: {err[:800]}")))
    doc = None
    for key, val, ln in c["checks"]:
        label = f"{name}:{ln}: {key}: {val}"
        try:
            if key == "json":
                if doc is None:
                    doc = json.loads(out)
                good = bool(eval(val, {"d": doc, "len": len, "sum": sum, "any": any, "all": all,
                                       "sorted": sorted, "set": set, "abs": abs}))
                if not good:
                    label += "  (false)"
            elif key == "stdout-contains":
                good = val in out
            elif key == "stdout-not-contains":
                good = val not in out
            elif key == "stderr-not-contains":
                good = val not in err
            elif key == "stdout-matches":
                good = re.search(val, out, re.M) is not None
            elif key == "stderr-contains":
                good = val in err
            elif key == "stderr-lines":
                n = len([l for l in err.splitlines() if l.strip()])
                good = n == int(val)
                if not good:
                    label += f"  (got {n}: {err[:400]})"
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
    return results

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = []
    for d in a.dirs:
        for dp, _, fs in os.walk(d):
            files += [os.path.join(dp, f) for f in fs if f.endswith(".case")]
    passed = failed = 0
    for f in sorted(files):
        for good, label in run_case(a.bin, root, os.path.abspath(f)):
            print(("ok - " if good else "not ok - ") + label)
            passed += good
            failed += not good
    print(f"# RESULT passed={passed} failed={failed}")
    return 0 if failed == 0 else 1

if __name__ == "__main__":
    sys.exit(main())
