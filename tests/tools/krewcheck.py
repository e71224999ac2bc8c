#!/usr/bin/env python3
"""Check a krew plugin manifest against krew's rules (shared/reference/kubectl-plugin-conventions.md
section 4: krew's validator and docs), and optionally install it from a release archive the way
krew would (files from/to, then bin).

    krewcheck.py MANIFEST.yaml MANIFEST.json VERSION [ARCHIVE INSTALL_DIR]
MANIFEST.json is the manifest converted by tests/tools/yaml2json (one document).  VERSION is the
Makefile's.  Prints "PASS ..." / "FAIL ...: why" lines; exits 1 when anything failed.
"""
import fnmatch
import json
import os
import re
import shutil
import sys
import tarfile
import zipfile

SEMVER = re.compile(r"^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
                    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
                    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$")
GOOS = {"linux", "darwin", "windows", "freebsd", "netbsd", "openbsd", "android", "ios", "illumos",
        "solaris", "aix", "dragonfly", "plan9", "js", "wasip1"}
GOARCH = {"amd64", "arm64", "386", "arm", "ppc64le", "ppc64", "s390x", "mips", "mipsle", "mips64",
          "mips64le", "riscv64", "loong64", "wasm"}
RESERVED = {"CON", "PRN", "AUX", "NUL"} | {"COM%d" % i for i in range(1, 10)} | {"LPT%d" % i for i in range(1, 10)}

results = []


def check(cond, what, why=""):
    results.append(("PASS %s" % what) if cond else ("FAIL %s: %s" % (what, why)))
    return cond


def main():
    path, jpath, version = sys.argv[1:4]
    archive = sys.argv[4] if len(sys.argv) > 5 else None
    install_dir = sys.argv[5] if len(sys.argv) > 5 else None
    m = json.load(open(jpath))
    spec = m.get("spec") or {}
    md = m.get("metadata") or {}
    check(m.get("apiVersion") == "krew.googlecontainertools.github.com/v1alpha2", "apiVersion",
          repr(m.get("apiVersion")))
    check(m.get("kind") == "Plugin", "kind is Plugin", repr(m.get("kind")))
    name = md.get("name")
    fname = os.path.basename(path)
    check(isinstance(name, str) and fname == name + ".yaml", "metadata.name matches the file name",
          "%r vs %s" % (name, fname))
    check(isinstance(name, str) and re.match(r"^[\w-]+$", name) is not None, "metadata.name is [\\w-]+", repr(name))
    check(str(name).upper() not in RESERVED, "metadata.name is not a Windows reserved name", repr(name))
    v = spec.get("version")
    check(isinstance(v, str) and SEMVER.match(v) is not None, "spec.version is v-prefixed semver", repr(v))
    check(v == "v" + version, "spec.version is the Makefile's VERSION", "%r vs v%s" % (v, version))
    sd = spec.get("shortDescription")
    check(isinstance(sd, str) and sd.strip() != "" and "\n" not in sd.strip(), "shortDescription: one line",
          repr(sd))
    check(isinstance(sd, str) and len(sd) <= 80, "shortDescription: a few words", "%d chars" % len(sd or ""))
    check(isinstance(spec.get("description"), str) and spec["description"].strip() != "", "description present")
    plats = spec.get("platforms")
    check(isinstance(plats, list) and len(plats) >= 1, "at least one platform", repr(plats))
    for i, p in enumerate(plats or []):
        w = "platforms[%d]" % i
        uri = p.get("uri")
        check(isinstance(uri, str) and (uri.endswith(".tar.gz") or uri.endswith(".zip")),
              w + ".uri is a .tar.gz or .zip", repr(uri))
        check(isinstance(uri, str) and uri.startswith("https://"), w + ".uri is https", repr(uri))
        check(isinstance(p.get("sha256"), str) and re.match(r"^[a-f0-9]{64}$", p["sha256"]) is not None,
              w + ".sha256 is 64 lowercase hex", repr(p.get("sha256")))
        check(isinstance(p.get("bin"), str) and p["bin"] != "", w + ".bin present", repr(p.get("bin")))
        files = p.get("files", None)
        if "files" in p:
            good = isinstance(files, list) and len(files) > 0 and all(
                isinstance(f, dict) and isinstance(f.get("from"), str) and f["from"] and
                isinstance(f.get("to"), str) and f["to"] for f in files)
            check(good, w + ".files: non-empty, each with from and to", repr(files))
        sel = p.get("selector")
        labels = {}
        ok = isinstance(sel, dict) and (sel.get("matchLabels") or sel.get("matchExpressions"))
        if ok:
            labels.update(sel.get("matchLabels") or {})
            for e in sel.get("matchExpressions") or []:
                ok = ok and e.get("operator") in ("In", "NotIn", "Exists", "DoesNotExist")
                labels[e.get("key")] = (e.get("values") or [None])[0]
            ok = ok and set(labels) <= {"os", "arch"} and len(labels) > 0
        check(bool(ok), w + ".selector: non-empty, only os and arch", repr(sel))
        check(labels.get("os") in GOOS and labels.get("arch", "amd64") in GOARCH,
              w + ".selector: Go GOOS/GOARCH values", repr(labels))
        if labels.get("os") == "linux" and labels.get("arch") == "amd64":
            want = "kubectl-gpu-%s-linux-amd64.tar.gz" % version
            check(isinstance(uri, str) and uri.endswith("/" + want) and ("/v%s/" % version) in uri,
                  w + ".uri names the archive `make dist` builds", "%r, want .../v%s/%s" % (uri, version, want))
            froms = [f.get("from", "") for f in files or []]
            check(any(os.path.basename(f) in ("LICENSE", "LICENSE.txt") for f in froms),
                  w + ": the license file is installed", repr(froms))
            if archive:
                install(p, archive, install_dir, w)
    for line in results:
        print(line)
    sys.exit(1 if any(l.startswith("FAIL") for l in results) else 0)


def install(p, archive, install_dir, w):
    """krew: extract the archive, copy each `files` match to `to`, then `bin` must exist."""
    work = install_dir + ".extract"
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(install_dir, ignore_errors=True)
    os.makedirs(work)
    os.makedirs(install_dir)
    if archive.endswith(".zip"):
        zipfile.ZipFile(archive).extractall(work)
    else:
        with tarfile.open(archive) as t:
            t.extractall(work, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(work)
    all_files = []
    for root, _, names in os.walk(work):
        for n in names:
            all_files.append(os.path.relpath(os.path.join(root, n), work))
    for f in p.get("files") or [{"from": "*", "to": "."}]:
        matches = [a for a in all_files if fnmatch.fnmatchcase(a, f["from"])]
        check(len(matches) > 0, "%s: archive has %s" % (w, f["from"]), "archive holds: %s" % " ".join(sorted(all_files)))
        for a in matches:
            dst = os.path.join(install_dir, f["to"], os.path.basename(a))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(os.path.join(work, a), dst)
    b = os.path.join(install_dir, p["bin"])
    check(os.path.isfile(b) and os.access(b, os.X_OK), "%s: bin %s is an executable after install" % (w, p["bin"]))


if __name__ == "__main__":
    main()
