#!/usr/bin/env python3
"""check-objects.py — floors inside a module, read from the objects of a build with `nm`.

  check-objects.py --loops BUILD_DIR    no call loops between the files of one folder
  check-objects.py --names BUILD_DIR    every external symbol carries its module's prefix

Loops: object A "calls" object B of the same folder (src/<layer>/) when A leaves undefined a
symbol that B defines (a call, or a reference to data).  Within a folder the files must form
floors: no file may reach itself again through such calls, be it A -> B -> A or a longer ring
(A -> B -> C -> A).  A ring is reported with the calls that close it.  Known rings are listed
in KNOWN_LOOPS, each a TODO: the check passes with them and fails on any other, and on an entry
that no longer occurs (so the list shrinks).

Names: an external symbol of src/<layer>/<file>.o must start with its module's prefix: the
file's name up to its first "_" ("explain_node.c" -> "explain_") or the whole name, or one of
the prefixes PREFIXES gives the module (the names of the public types it acts on:
"status_" for allocation.c's GpuStatus).  Today's other offenders are listed in KNOWN_NAMES
(a TODO each; the list must shrink, never grow); the modules in STRICT may have none.

Both read the objects, so `make check` runs them after the builds (make check-objects, beside
check-calls).  Exit 0 = the rules hold.
"""
import os
import sys

sys.dont_write_bytecode = True      # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from objsyms import object_symbols  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Call rings between the files of one folder, as the sorted files of the ring.
KNOWN_LOOPS = set()      # none left (issue 30); a new ring is fixed, not listed

# Module (the file name up to its first "_") -> further prefixes its external symbols may carry.
PREFIXES = {
    'analysis/explain': ('explanation_', 'verdict_', 'fix_effort_', 'node_reason_', 'node_result_',
                         'reason_groups_'),
    'analysis/allocation': ('status_', 'node_status_', 'node_dra_status_', 'problem_code_'),
    'analysis/groups': ('group_', 'status_group', 'status_hours_', 'price_list_'),
    'analysis/plan': ('plan_',),
    'render/textdoc': ('text_',),
    'model/usage': ('usage_', 'workload_usage_'),
    # the public types a model module defines and its functions are named after
    'model/labels': ('kv_', 'selreq_', 'label_selector_'),    # KV/KVList, SelReq, LabelSelector
    'model/resources': ('rlist_',),                           # ResourceList
    'model/cluster': ('obj_kind_',),                          # ObjKind
    'model/node': ('gpu_facts_', 'mig_strategy_', 'sharing_strategy_'),  # GpuFacts, MigStrategy, SharingStrategy
    'sources/jsonscan': ('json_arena_', 'json_list_info_'),   # JsonArena, JsonListInfo
    'sources/prometheus': ('prom_client_',),                  # PromClient
    'sources/watch': ('watcher_',),                           # Watcher
    'render/json': ('jw_',),                                  # JsonWriter (json_writer.h)
    'tui/tui': ('app_', 'feed_', 'keymap_', 'panel_', 'pods_view_',  # App, Feed, KeyMap, Panel, PodsView
                'top_cluster_', 'top_data_', 'top_shown_'),            # TopCluster, TopData, TopShown (tui.h)
    'util/str': ('strbuf_', 'strvec_'),                       # Strbuf, Strvec
    'cli/options': ('cli_', 'command_', 'output_format_'),    # CliArgs/CliProgram, Command, OutputFormat
}

# util/xalloc.c names its functions as git's wrapper.c does: "x" + the libc function it wraps
# (xmalloc is malloc that exits on out-of-memory), and only those.
XALLOC_WRAPS = ('malloc', 'calloc', 'realloc', 'strdup', 'strndup', 'asprintf', 'vasprintf')

# Modules that may have no entry in KNOWN_NAMES.
STRICT = {'analysis/explain', 'analysis/allocation', 'analysis/groups', 'analysis/manifests', 'analysis/plan',
          'model/usage'}

# "folder/file symbol" pairs allowed without their module's prefix, each with its reason.  None
# today: keep it so.
KNOWN_NAMES = set()


def read_objects(build):
    """{"src/<layer>/<file>" (no .o): (defined, undefined)} for the objects of current sources"""
    base = os.path.join(build, 'src')
    objects = {}
    for d, _, names in os.walk(base):
        for n in sorted(names):
            if n.endswith('.o'):
                rel = os.path.relpath(os.path.join(d, n), build)[:-2]
                if os.path.exists(os.path.join(ROOT, rel + '.c')):   # not one left from a moved source
                    objects[rel] = object_symbols(os.path.join(d, n))
    return objects


def calls_within_folders(objects):
    """{a: {b: [symbols]}}: a uses what b defines, a and b in one folder"""
    calls = {}
    for a, (_, und) in objects.items():
        for b, (dfn, _) in objects.items():
            if a != b and os.path.dirname(a) == os.path.dirname(b) and und & dfn:
                calls.setdefault(a, {})[b] = sorted(und & dfn)
    return calls


def rings(calls, nodes):
    """the strongly connected sets of more than one file (Tarjan), each sorted"""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(calls.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            ring = []
            while True:
                w = stack.pop()
                on.discard(w)
                ring.append(w)
                if w == v:
                    break
            if len(ring) > 1:
                out.append(tuple(sorted(ring)))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def check_loops(objects):
    calls, errors = calls_within_folders(objects), []
    found = rings(calls, objects)
    for ring in found:
        if ring in KNOWN_LOOPS:
            continue
        lines = ['%s calls %s (%s)' % (os.path.basename(a), os.path.basename(b), ', '.join(calls[a][b]))
                 for a in ring for b in ring if b in calls.get(a, {})]
        errors.append('call loop between %s: %s; move what they share below them'
                      % (', '.join(r + '.c' for r in ring), '; '.join(lines)))
    for ring in sorted(KNOWN_LOOPS - set(found)):
        errors.append('%s: listed in KNOWN_LOOPS but no longer a loop; remove it from the list'
                      % ', '.join(ring))
    return errors, 'no call loops between the files of one folder (%d objects, %d known loops)' \
        % (len(objects), len(KNOWN_LOOPS))


def module_of(rel):
    """"src/analysis/explain_node" -> ("analysis/explain", "explain_node")"""
    layer, name = rel.split('/')[1], os.path.basename(rel)
    return layer + '/' + name.split('_')[0], name


def name_ok(rel, sym):
    module, name = module_of(rel)
    if module == 'util/xalloc':
        return sym[:1] == 'x' and sym[1:] in XALLOC_WRAPS
    prefixes = (module.split('/')[1] + '_', name + '_') + PREFIXES.get(module, ())
    return sym in (name, module.split('/')[1]) or sym.startswith(prefixes)


def check_names(objects):
    errors, seen = [], set()
    for rel, (defined, _) in sorted(objects.items()):
        if len(rel.split('/')) != 3:
            continue                                  # src/main.c: main only
        for sym in sorted(defined):
            if name_ok(rel, sym):
                continue
            key = '%s %s' % (rel[len('src/'):], sym)
            module = module_of(rel)[0]
            if key in KNOWN_NAMES and module not in STRICT:
                seen.add(key)
                continue
            errors.append('%s.c defines %s: an external name starts with its module\'s prefix (%s)'
                          % (rel, sym, ', '.join((module.split('/')[1] + '_',) + PREFIXES.get(module, ()))))
    for key in sorted(KNOWN_NAMES - seen):
        errors.append('%s: listed in KNOWN_NAMES but no longer defined without a prefix; remove it'
                      % key)
    return errors, 'external names carry their module\'s prefix (%d known exceptions)' % len(KNOWN_NAMES)


def main():
    checks = {'--loops': check_loops, '--names': check_names}
    if len(sys.argv) != 3 or sys.argv[1] not in checks:
        print('usage: check-objects.py --loops|--names BUILD_DIR', file=sys.stderr)
        return 2
    if not os.path.isdir(os.path.join(sys.argv[2], 'src')):
        print('check-objects: %s/src: no objects (build first: make kubectl-gpu)' % sys.argv[2],
              file=sys.stderr)
        return 1
    errors, ok = checks[sys.argv[1]](read_objects(sys.argv[2]))
    for e in errors:
        print('check-objects: ' + e, file=sys.stderr)
    if errors:
        return 1
    print('check-objects: ' + ok)
    return 0


if __name__ == '__main__':
    sys.exit(main())
