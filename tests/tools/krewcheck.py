#!/usr/bin/env python3
"""Check a krew plugin manifest against krew's rules (shared/reference/kubectl-plugin-conventions.md
section 4; krew's internal/index/validation/validate.go and cmd/validate-krew-manifest), and
optionally install each platform from its release archive the way krew does.

    krewcheck.py MANIFEST.yaml MANIFEST.json VERSION [--install ROOT ARCHIVE...]
MANIFEST.json is the manifest converted by tests/tools/yaml2json (one document).  VERSION is the
Makefile's.  With --install, every platform's archive (found among ARCHIVE... by the name its uri
ends with) must have the manifest's sha256 and hold only directories and regular files (krew's
tar extraction knows no others); it is extracted and its `files` moved as krew's
internal/installation/move.go does (a `from` that exists is moved whole, file or directory, to
`to`, "." meaning its own name; otherwise `from` is a glob whose matches, not crossing "/", go
into the directory `to`) into ROOT/OS-ARCH/store, then `bin` must be an executable and
ROOT/OS-ARCH/bin/kubectl-NAME a link to it, as krew makes, and a license file must have been
installed (krew's validator).  Prints "PASS ..." / "FAIL ...: why" lines; exits 1 when anything
failed.
"""
import glob
import hashlib
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
    root, archives = None, []
    if len(sys.argv) > 4:
        if sys.argv[4] != "--install" or len(sys.argv) < 7:
            sys.exit("usage: krewcheck.py MANIFEST.yaml MANIFEST.json VERSION [--install ROOT ARCHIVE...]")
        root, archives = sys.argv[5], sys.argv[6:]
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
        os_, arch = labels.get("os"), labels.get("arch")
        check((os_, arch) in KREW_PLATFORMS, w + ".selector matches a platform krew supports", repr(labels))
        want = "kubectl-gpu-%s-%s-%s.tar.gz" % (version, os_, arch)
        check(isinstance(uri, str) and uri.endswith("/" + want) and ("/v%s/" % version) in uri,
              w + ".uri names the archive `make dist` builds", "%r, want .../v%s/%s" % (uri, version, want))
        froms = [f.get("from", "") for f in files or []]
        check(not files or any(os.path.basename(f) in ("LICENSE", "LICENSE.txt") for f in froms),
              w + ": the license file is installed", repr(froms))
        for f in files or []:
            to = f.get("to", "")
            check(os.path.normpath(to) == to, w + ": `to` %r is a clean path (krew refuses others)" % to)
        if root is not None:
            arc = [a for a in archives if os.path.basename(a) == want]
            if check(len(arc) == 1, w + ": archive %s given" % want, repr(archives)):
                install(p, arc[0], os.path.join(root, "%s-%s" % (os_, arch)), w, md.get("name"))
    sels = [platform_key(p) for p in plats or []]
    check(len(set(sels)) == len(sels), "no two platforms select the same os/arch", repr(sels))
    for line in results:
        print(line)
    sys.exit(1 if any(l.startswith("FAIL") for l in results) else 0)


# krew's allPlatforms() (cmd/validate-krew-manifest/main.go)
KREW_PLATFORMS = {("windows", "386"), ("windows", "amd64"), ("windows", "arm64"), ("linux", "386"),
                  ("linux", "amd64"), ("linux", "arm"), ("linux", "arm64"), ("linux", "ppc64le"),
                  ("darwin", "386"), ("darwin", "amd64"), ("darwin", "arm64")}
LICENSE_NAMES = {"license", "license.txt", "license.md", "licenses", "licenses.txt", "licenses.md",
                 "copying", "copying.txt"}


def platform_key(p):
    ml = (p.get("selector") or {}).get("matchLabels") or {}
    return (ml.get("os"), ml.get("arch"))


def install(p, archive, root, w, name):
    """krew install --manifest --archive: check, extract, move `files`, link `bin`."""
    data = open(archive, "rb").read()
    check(hashlib.sha256(data).hexdigest() == p.get("sha256"), w + ": sha256 is the archive's",
          "%s vs %s" % (hashlib.sha256(data).hexdigest(), p.get("sha256")))
    work, store, bindir = os.path.join(root, "extract"), os.path.join(root, "store"), os.path.join(root, "bin")
    for d in (work, store, bindir):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    with tarfile.open(archive) as t:
        odd = [m.name for m in t.getmembers() if not (m.isdir() or m.isreg())]
        check(not odd, w + ": the archive holds only directories and regular files", repr(odd))
        t.extractall(work, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(work)
    for f in p.get("files") or [{"from": "*", "to": "."}]:
        src = os.path.normpath(os.path.join(work, f["from"]))
        if os.path.exists(src):                        # krew's getDirectMove
            dst = os.path.join(store, os.path.basename(src) if os.path.normpath(f["to"]) == "." else f["to"])
            moves = [(src, dst)]
        else:                                          # filepath.Glob: no match crosses "/"
            moves = [(m, os.path.join(store, f["to"], os.path.basename(m)))
                     for m in sorted(glob.glob(os.path.join(work, f["from"])))]
        check(len(moves) > 0, "%s: archive has %s" % (w, f["from"]))
        for a, b in moves:
            os.makedirs(os.path.dirname(b), exist_ok=True)
            shutil.move(a, b)
    b = os.path.join(store, p["bin"])
    ok = check(os.path.isfile(b) and os.access(b, os.X_OK), "%s: bin %s is an executable after install" % (w, p["bin"]))
    if ok:
        os.symlink(os.path.abspath(b), os.path.join(bindir, "kubectl-" + name.replace("-", "_")))
    installed = [n.lower() for _, _, ns in os.walk(store) for n in ns]
    check(any(n in LICENSE_NAMES for n in installed), w + ": a license file is installed (krew's validator)",
          repr(installed))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
