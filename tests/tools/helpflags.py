#!/usr/bin/env python3
"""Read kubectl-gpu's --help output into JSON, for tests that compare it with other views of
the same tables (completion, the man page).

    helpflags.py BIN            -> {"commands": {NAME: SUMMARY}, "global": {FLAGS}, "cmd": {NAME: {FLAGS}},
                                    "usage": {NAME: USAGE}}
FLAGS maps a long name ("output") to {"short": "o" or null, "arg": "FORMAT" or null,
"choices": [...] or null}.  Only the printed --help is read: no knowledge of the C tables.
"""
import json
import re
import subprocess
import sys

FLAG_RE = re.compile(r"^\s+(?:-(\S), )?--([A-Za-z0-9][A-Za-z0-9-]*)(?: ([A-Z][A-Z0-9:_.|-]*))?(?:\s+(.*))?$")
CHOICES_RE = re.compile(r"\(([^()|\s]+(?:\|[^()|\s]+)+)\)\s*$")


def run_help(binary, *args):
    p = subprocess.run([binary, *args, "--help"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise SystemExit("%s %s --help: exit %d: %s" % (binary, " ".join(args), p.returncode, p.stderr))
    return p.stdout


def sections(text):
    """{"Options": [lines], "Global flags": [lines], "Commands": [lines], "Usage": [lines]}"""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^([A-Z][A-Za-z ]*):\s*$", line)
        if m:
            cur = m.group(1)
            out[cur] = []
        elif cur is not None:
            if line.strip() == "":
                cur = None if cur not in ("Examples",) else cur
                continue
            out[cur].append(line)
    return out


def join_wrapped(lines):
    """--help wraps a flag's help to the terminal: lines indented as deep as the help column
    (20 spaces or more) continue the flag above; a line broken after '|' (inside a choice list)
    joins without a space"""
    out = []
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if out and indent >= 20:
            sep = "" if out[-1].endswith("|") else " "
            out[-1] = out[-1].rstrip() + sep + line.strip()
        else:
            out.append(line)
    return out


def parse_flags(lines):
    flags = {}
    for line in join_wrapped(lines):
        m = FLAG_RE.match(line)
        if not m:
            continue
        short, long_, arg, help_ = m.groups()
        c = CHOICES_RE.search(help_ or "")
        flags[long_] = {"short": short, "arg": arg, "choices": c.group(1).split("|") if c else None}
    return flags


def main():
    binary = sys.argv[1]
    top = sections(run_help(binary))
    commands = {}
    for line in top.get("Commands", []):
        m = re.match(r"^\s+(\S+)\s*(.*)$", line)
        if m and not m.group(1).startswith("__"):
            commands[m.group(1)] = m.group(2)
    doc = {"commands": commands, "global": parse_flags(top.get("Global flags", [])), "cmd": {}, "usage": {}}
    for name in commands:
        s = sections(run_help(binary, name))
        doc["cmd"][name] = parse_flags(s.get("Options", s.get("Flags", [])))   # kubectl's word
        doc["usage"][name] = " ".join(l.strip() for l in s.get("Usage", []))
    json.dump(doc, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
