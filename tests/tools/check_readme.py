#!/usr/bin/env python3
"""check_readme.py — the README's samples are what the binary prints now.

    check_readme.py --bin ./kubectl-gpu README.md

Every fenced block whose first line is `$ kubectl gpu ...` (a `# ...` comment after the command
is dropped; `top` is interactive and skipped here: test_readme.sh draws it in tmux) is run from the repository root (--root; default the file's directory) with the binary,
NO_COLOR=1 and no kubeconfig; a command with an "on a N-column terminal" comment runs on a
pseudo-terminal N columns wide.  A
block without "..." lines must equal the output (trailing spaces aside); a block with "..."
lines is an excerpt: each run of lines between them must appear in the output, in order, each
run as consecutive lines.  Prints "ok - ..." / "not ok - ..." and "# RESULT passed=N failed=M".
"""
import argparse
import os
import pty
import re
import shlex
import subprocess
import sys


def blocks(text):
    out, cur, inside = [], None, False
    for line in text.split("\n"):
        if line.startswith("```"):
            if inside:
                out.append(cur)
                inside = False
            else:
                inside, cur = True, []
            continue
        if inside:
            cur.append(line)
    return out


def run_on_terminal(argv, cwd, env):
    """stdout on a pseudo-terminal (the width applies only there)"""
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=slave, stderr=subprocess.DEVNULL)
    os.close(slave)
    data = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    p.wait(timeout=120)
    os.close(master)
    return data.decode("utf-8", "replace").replace("\r\n", "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--root", help="where the commands run (default: the file's directory)")
    ap.add_argument("readme")
    a = ap.parse_args()
    root = os.path.abspath(a.root) if a.root else os.path.dirname(os.path.abspath(a.readme))
    label = os.path.basename(a.readme) if os.path.basename(a.readme) != "README.md" else "README"
    if label != "README":
        label = os.path.relpath(os.path.abspath(a.readme), root)
    passed = failed = 0
    for b in blocks(open(a.readme, encoding="utf-8").read()):
        if not b or not b[0].startswith("$ kubectl gpu "):
            continue
        cmd = b[0][2:]
        cols = 100
        m = re.search(r"#.*on an? (\d+)-column terminal", cmd)
        if m:
            cols = int(m.group(1))
        cmd = re.sub(r"\s+#.*$", "", cmd)
        argv = shlex.split(cmd)[2:]
        if argv and argv[0] == "top":
            continue
        env = dict(os.environ, NO_COLOR="1", COLUMNS=str(cols), KUBECONFIG="/nonexistent/kubeconfig")
        if m:
            stdout = run_on_terminal([a.bin] + argv, root, env)
        else:
            stdout = subprocess.run([a.bin] + argv, cwd=root, env=env, capture_output=True, text=True,
                                    timeout=120).stdout
        got = [l.rstrip() for l in stdout.rstrip("\n").split("\n")]
        want = [l.rstrip() for l in b[1:]]
        while want and not want[-1]:
            want.pop()
        name = cmd
        if "..." not in want:
            if got == want:
                passed += 1
                print("ok - %s: %s" % (label, name))
            else:
                failed += 1
                diff = next((i for i, (x, y) in enumerate(zip(got, want)) if x != y), min(len(got), len(want)))
                print("not ok - %s: %s: differs at line %d:\n#   got:  %r\n#   want: %r" % (
                    label, name, diff + 1, got[diff] if diff < len(got) else None, want[diff] if diff < len(want) else None))
            continue
        runs, cur = [], []
        for l in want:
            if l == "...":
                if cur:
                    runs.append(cur)
                cur = []
            else:
                cur.append(l)
        if cur:
            runs.append(cur)
        pos, bad = 0, None
        for run in runs:
            found = None
            for i in range(pos, len(got) - len(run) + 1):
                if got[i:i + len(run)] == run:
                    found = i
                    break
            if found is None:
                bad = run[0]
                break
            pos = found + len(run)
        if bad is None:
            passed += 1
            print("ok - %s (excerpt): %s" % (label, name))
        else:
            failed += 1
            print("not ok - %s (excerpt): %s: not in the output (in order): %r" % (label, name, bad))
    print("# RESULT passed=%d failed=%d" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
