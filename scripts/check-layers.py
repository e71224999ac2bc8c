#!/usr/bin/env python3
"""check-layers.py — the include arrows between layers (docs: architecture.md).

Every public header sits in include/<layer>/ and is included by its layer-qualified name
("model/cluster.h"), so each include line names the layer it reaches into.  Every file under
src/<layer>/ (or src/*.c, the CLI) may include headers of the layers its row allows:

    util      <- model <- sources
                 model <- analysis <- render <- tui <- cmd <- cli

(sources fill the model; analysis reads the model; render presents analysis; cmd and the CLI
wire everything).  A header's own includes obey its layer's row too.  A private header beside
the sources of one layer (src/<layer>/x.h) may be included only from that layer.

Known wrong-way includes are listed in KNOWN below, each a TODO of issue 18; the check passes
with them and fails on any other, and on an entry of KNOWN that no longer occurs (so the list
shrinks as they are fixed).  Run by `make check`; exit 0 = arrows hold.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ALLOWED = {
    'util': {'util'},
    'model': {'model', 'util'},
    'sources': {'sources', 'model', 'util'},
    'analysis': {'analysis', 'model', 'util'},
    'render': {'render', 'analysis', 'model', 'util'},
    'tui': {'tui', 'render', 'analysis', 'model', 'util'},
    'cmd': {'cmd', 'cli', 'tui', 'render', 'analysis', 'sources', 'model', 'util'},
    'cli': {'cli', 'cmd', 'tui', 'render', 'analysis', 'sources', 'model', 'util'},
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
            yield 'src/' + entry, 'cli', 'src'


def main():
    errors, seen, nfiles = [], set(), 0
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
