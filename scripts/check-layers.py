#!/usr/bin/env python3
"""check-layers.py — the arrows between layers, in include lines and in calls
(docs: architecture.md).

Every public header sits in include/<layer>/ and is included by its layer-qualified name
("model/cluster.h"), so each include line names the layer it reaches into.  Every file under
src/<layer>/ (and src/main.c, the entry point, layer "main") may include headers of the layers
its row of ALLOWED allows:

    util      <- model <- sources
                 model <- analysis <- render <- tui <- cmd <- main
    util      <- cli                                 <- cmd

(sources fill the model; analysis reads the model; render presents analysis; cli is the option
library, handed the command table by cmd; cmd wires everything).  A header's own includes obey
its layer's row too.  A private header beside the sources of one layer (src/<layer>/x.h) may be
included only from that layer.  No two layers may allow each other (checked: the rows form no
two-way pair).

Known wrong-way includes are listed in KNOWN below, each a TODO of issue 18; the check passes
with them and fails on any other, and on an entry of KNOWN that no longer occurs (so the list
shrinks as they are fixed).

Calls: with --calls BUILD_DIR (e.g. build/rel), the objects of a build are read with `nm`
instead: every symbol an object leaves undefined and another object of the tree defines (a
call, or a reference to data) must be defined in a layer that the object's row allows.  An
include line can be avoided by a hand-written declaration; the linker's view cannot.  That
needs the objects, so `make check` runs the include check first (before anything is built) and
the call check as `make check-calls` after the builds.  Exit 0 = arrows hold.
"""
import os
import re
import sys

sys.dont_write_bytecode = True      # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from objsyms import object_symbols  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ALLOWED = {
    'util': {'util'},
    'model': {'model', 'util'},
    'sources': {'sources', 'model', 'util'},
    'analysis': {'analysis', 'model', 'util'},
    'render': {'render', 'analysis', 'model', 'util'},
    'tui': {'tui', 'render', 'analysis', 'model', 'util'},
    'cli': {'cli', 'util'},
    'cmd': {'cmd', 'cli', 'tui', 'render', 'analysis', 'sources', 'model', 'util'},
    'main': {'main', 'cmd'},
}

# "file: included header" pairs that point the wrong way today.  TODO(issue 18): remove each
# entry with the change that fixes it.
KNOWN = {
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def header_layer(name):
    """the layer of a public header, named by its directory: "model/cluster.h" -> model"""
    parts = name.split('/')
    if len(parts) != 2 or parts[0] not in ALLOWED:
        return None
    return parts[0]


def files():
    """(path relative to ROOT, its layer, its directory for private headers)"""
    inc = os.path.join(ROOT, 'include')
    for d in sorted(os.listdir(inc)):
        if os.path.isdir(os.path.join(inc, d)):
            for h in sorted(os.listdir(os.path.join(inc, d))):
                if h.endswith('.h'):
                    yield 'include/%s/%s' % (d, h), header_layer(d + '/' + h), None
        elif d.endswith('.h'):
            yield 'include/' + d, None, None
    src = os.path.join(ROOT, 'src')
    for entry in sorted(os.listdir(src)):
        p = os.path.join(src, entry)
        if os.path.isdir(p):
            for f in sorted(os.listdir(p)):
                if f.endswith(('.c', '.h')):
                    yield 'src/%s/%s' % (entry, f), entry, 'src/' + entry
        elif entry.endswith('.c'):
            yield 'src/' + entry, 'main', 'src'


def two_way_pairs():
    """errors for every two layers whose rows allow each other"""
    return ['ALLOWED: %s and %s allow each other; one of them must be below the other' % (a, b)
            for a in sorted(ALLOWED) for b in sorted(ALLOWED[a])
            if a < b and b in ALLOWED and a in ALLOWED[b]]


def object_layer(rel):
    """the layer of an object, from its source's place: src/model/x.o -> model, src/main.o -> main"""
    parts = rel.split(os.sep)
    if len(parts) == 3 and parts[0] == 'src':
        return parts[1]
    if len(parts) == 2 and parts[0] == 'src':
        return 'main'
    return None


def check_calls(build):
    """errors for every symbol an object uses from a layer its row does not allow"""
    base = os.path.join(build, 'src')
    if not os.path.isdir(base):
        return ['%s: no objects (build first: make kubectl-gpu)' % base], 0
    objects = {}
    for d, _, names in os.walk(base):
        for n in sorted(names):
            if n.endswith('.o'):
                rel = os.path.relpath(os.path.join(d, n), build)
                if not os.path.exists(os.path.join(ROOT, rel[:-2] + '.c')):
                    continue                      # an object left over from a moved source
                objects[rel] = object_symbols(os.path.join(d, n))
    owner, errors = {}, []
    for rel, (defined, _) in sorted(objects.items()):
        for sym in defined:
            owner.setdefault(sym, rel)
    for rel, (_, undefined) in sorted(objects.items()):
        layer = object_layer(rel)
        if layer not in ALLOWED:
            errors.append('%s: object of no known layer' % rel)
            continue
        for sym in sorted(undefined):
            to = owner.get(sym)
            if to is None:
                continue                          # a library's (libc, libcurl, ...)
            if object_layer(to) not in ALLOWED[layer]:
                errors.append('%s (%s) uses %s, defined in %s (%s): %s may use only %s'
                              % (rel, layer, sym, to, object_layer(to), layer,
                                 ', '.join(sorted(ALLOWED[layer]))))
    return errors, len(objects)


def main_calls(build):
    errors, nobjects = check_calls(build)
    errors = two_way_pairs() + errors
    for e in errors:
        print('check-layers: ' + e, file=sys.stderr)
    if errors:
        return 1
    print('check-layers: call arrows hold (%d objects of %s)' % (nobjects, build))
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--calls':
        return main_calls(sys.argv[2])
    if len(sys.argv) != 1:
        print('usage: check-layers.py [--calls BUILD_DIR]', file=sys.stderr)
        return 2
    errors, seen, nfiles = two_way_pairs(), set(), 0
    for path, layer, local_dir in files():
        nfiles += 1
        if layer is None:
            errors.append('%s: a public header must sit in include/<layer>/' % path)
            continue
        if layer not in ALLOWED:
            errors.append('%s: directory of no known layer (add it to ALLOWED)' % path)
            continue
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            text = f.read()
        for inc in INCLUDE.findall(text):
            if local_dir and os.path.exists(os.path.join(ROOT, local_dir, inc)):
                continue                      # a private header of the same directory
            if not os.path.exists(os.path.join(ROOT, 'include', inc)):
                errors.append('%s: includes "%s", not a header of include/ nor of %s'
                              % (path, inc, local_dir or 'its layer'))
                continue
            to = header_layer(inc)
            if to is None:
                errors.append('%s: includes "%s"; name public headers by their layer, "<layer>/x.h"' % (path, inc))
                continue
            if to in ALLOWED[layer]:
                continue
            key = '%s: %s' % (path, inc)
            if key in KNOWN:
                seen.add(key)
                continue
            errors.append('%s (%s) includes "%s" (%s): %s may include only %s'
                          % (path, layer, inc, to, layer, ', '.join(sorted(ALLOWED[layer]))))
    for key in sorted(set(KNOWN) - seen):
        errors.append('%s: listed in KNOWN but no longer included; remove it from the list' % key)
    for e in errors:
        print('check-layers: ' + e, file=sys.stderr)
    if errors:
        return 1
    print('check-layers: include arrows hold (%d files, %d known exceptions)' % (nfiles, len(KNOWN)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
