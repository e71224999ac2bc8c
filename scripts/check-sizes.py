#!/usr/bin/env python3
"""check-sizes.py — no source file over MAX_LINES lines (docs: style.md, "small well-named
modules"; issue 30).  A file that grows past it is to be split along a real seam (a stage, a
kind of object, what a failure means to a person), not cut in two by size.

Every src/**/*.c of ROOT (default: this checkout) is counted.  Known long files are listed in
KNOWN with a TODO; the check passes with them and fails on any other file over the limit, and
on an entry of KNOWN that is no longer over it (so the list shrinks as they are split).

usage: check-sizes.py [--max N] [ROOT]    exit 0 = every file within the limit
"""
import os
import sys

MAX_LINES = 800

# path (relative to ROOT) -> why it is still long and who splits it
KNOWN = {
}


def c_files(root):
    for d, dirs, names in os.walk(os.path.join(root, 'src')):
        dirs.sort()
        for n in sorted(names):
            if n.endswith('.c'):
                yield os.path.join(d, n)


def line_count(path):
    with open(path, 'rb') as f:
        return f.read().count(b'\n')


def main(argv):
    limit, root = MAX_LINES, os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    args = list(argv)
    if args[:1] == ['--max']:
        if len(args) < 2 or not args[1].isdigit():
            print('usage: check-sizes.py [--max N] [ROOT]', file=sys.stderr)
            return 2
        limit, args = int(args[1]), args[2:]
    if len(args) > 1:
        print('usage: check-sizes.py [--max N] [ROOT]', file=sys.stderr)
        return 2
    if args:
        root = args[0]
    errors, nfiles, long_known = [], 0, set()
    for path in c_files(root):
        nfiles += 1
        rel = os.path.relpath(path, root)
        n = line_count(path)
        if n <= limit:
            continue
        if rel in KNOWN:
            long_known.add(rel)
            continue
        errors.append('%s: %d lines, more than %d; split it into modules along a real seam' % (rel, n, limit))
    for rel in sorted(set(KNOWN) - long_known):
        errors.append('%s: listed in KNOWN but no longer over %d lines; remove it from the list' % (rel, limit))
    for e in errors:
        print('check-sizes: ' + e, file=sys.stderr)
    if errors:
        return 1
    print('check-sizes: every .c within %d lines (%d files, %d known exceptions)' % (limit, nfiles, len(KNOWN)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
