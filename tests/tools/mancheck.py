#!/usr/bin/env python3
"""Compare man/kubectl-gpu.1 (mdoc source) with kubectl-gpu's --help (as tests/tools/helpflags.py
reads it): the same commands, and for each command and for the global flags the same flags,
short names and -o formats.

    mancheck.py MANPAGE HELP.json
Prints "PASS <what>" or "FAIL <what>: <why>" lines; exits 1 when anything failed.

Man page conventions read here: commands are `.Ss NAME` subsections of `.Sh COMMANDS`; the
global flags are `.Sh GLOBAL FLAGS`; a flag is an `.It` line of the form
`.It Fl o , Fl \\-output Ar format`; the values of a flag with choices are the `.It Cm VALUE`
lines that follow it, up to the next flag.
"""
import json
import re
import sys


def man_sections(src):
    """{("Sh", name): [lines], ("Ss", "COMMANDS/name"): [lines]}"""
    out, sh, ss = {}, None, None
    for line in src.splitlines():
        m = re.match(r"^\.Sh\s+(.*)$", line)
        if m:
            sh, ss = m.group(1).strip('"'), None
            out[("Sh", sh)] = []
            continue
        m = re.match(r"^\.Ss\s+(.*)$", line)
        if m:
            ss = m.group(1).strip('"')
            out[("Ss", "%s/%s" % (sh, ss))] = []
            continue
        if sh is not None:
            out[("Sh", sh)].append(line)
        if ss is not None:
            out[("Ss", "%s/%s" % (sh, ss))].append(line)
    return out


def man_flags(lines):
    """{long: {"short": c|None, "choices": [..]|None}} from .It Fl lines"""
    flags, current = {}, None
    for line in lines:
        if re.match(r"^\.It\s+Fl\b", line):
            words = line.split()
            longs, shorts = [], []
            for i, w in enumerate(words[:-1]):
                if w == "Fl":
                    v = words[i + 1]
                    if v.startswith("\\-"):
                        longs.append(v[2:])
                    elif v.startswith("-"):
                        longs.append(v[1:])
                    elif len(v) == 1:
                        shorts.append(v)
            current = None
            for l in longs:
                flags[l] = {"short": shorts[0] if shorts else None, "choices": None}
                current = l
        elif current and re.match(r"^\.It\s+Cm\s+(\S+)", line):
            v = re.match(r"^\.It\s+Cm\s+(\S+)", line).group(1)
            flags[current]["choices"] = (flags[current]["choices"] or []) + [v]
    return flags


def compare(what, helpf, manf, report):
    problems = []
    for name in sorted(set(helpf) - set(manf)):
        problems.append("--%s is in --help but not in the man page" % name)
    for name in sorted(set(manf) - set(helpf)):
        problems.append("--%s is in the man page but not in --help" % name)
    for name in sorted(set(helpf) & set(manf)):
        h, m = helpf[name], manf[name]
        if h["short"] != m["short"]:
            problems.append("--%s: short flag -%s in --help, -%s in the man page" % (name, h["short"], m["short"]))
        if h.get("choices") and sorted(h["choices"]) != sorted(m["choices"] or []):
            problems.append("--%s: values %s in --help, %s in the man page" %
                            (name, "|".join(h["choices"]), "|".join(m["choices"] or [])))
    if problems:
        report("FAIL %s: %s" % (what, "; ".join(problems)))
    else:
        report("PASS %s: %d flags agree (%s)" % (what, len(helpf), " ".join("--" + f for f in sorted(helpf))))
    return not problems


def main():
    src = open(sys.argv[1], encoding="utf-8").read()
    helpdoc = json.load(open(sys.argv[2]))
    secs = man_sections(src)
    ok = True

    def report(line):
        print(line)

    for sh in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL FLAGS", "ENVIRONMENT",
               "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"):
        if ("Sh", sh) in secs:
            report("PASS section %s" % sh)
        else:
            report("FAIL section %s is missing" % sh)
            ok = False

    man_cmds = {k[1].split("/", 1)[1] for k in secs if k[0] == "Ss" and k[1].startswith("COMMANDS/")}
    help_cmds = set(helpdoc["commands"])
    if man_cmds == help_cmds:
        report("PASS commands: %s" % " ".join(sorted(help_cmds)))
    else:
        ok = False
        report("FAIL commands: in --help only: %s; in the man page only: %s" %
               (" ".join(sorted(help_cmds - man_cmds)) or "-", " ".join(sorted(man_cmds - help_cmds)) or "-"))
    synopsis = "\n".join(secs.get(("Sh", "SYNOPSIS"), []))
    for c in sorted(help_cmds):
        if re.search(r"^\.Cm %s$" % re.escape(c), synopsis, re.M):
            report("PASS synopsis names %s" % c)
        else:
            ok = False
            report("FAIL synopsis does not name %s" % c)

    for c in sorted(help_cmds & man_cmds):
        ok &= compare("flags of %s" % c, helpdoc["cmd"][c], man_flags(secs[("Ss", "COMMANDS/" + c)]), report)
    ok &= compare("global flags", helpdoc["global"], man_flags(secs.get(("Sh", "GLOBAL FLAGS"), [])), report)

    env = "\n".join(secs.get(("Sh", "ENVIRONMENT"), []))
    for var in ("KUBECONFIG", "NO_COLOR", "TERM", "KUBECTL_GPU_PROMETHEUS_TOKEN", "KUBECTL_GPU_PROMETHEUS_BASIC_AUTH"):
        if re.search(r"^\.It Ev %s\b" % var, env, re.M):
            report("PASS ENVIRONMENT lists %s" % var)
        else:
            ok = False
            report("FAIL ENVIRONMENT does not list %s" % var)
    exits = re.findall(r"^\.It (\d+)$", "\n".join(secs.get(("Sh", "EXIT STATUS"), [])), re.M)
    if exits == ["0", "1", "2"]:
        report("PASS EXIT STATUS lists 0, 1, 2")
    else:
        ok = False
        report("FAIL EXIT STATUS lists %s, want 0 1 2" % exits)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
