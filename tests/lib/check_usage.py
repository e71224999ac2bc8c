#!/usr/bin/env python3
"""Compare what kubectl-gpu reports for metrics with what tests/gen/gen_dcgm_series.py put in.

    check_usage.py MODE EXPECTED.json ACTUAL.json [--nodes a,b]

MODE
  devices    ACTUAL is `test_prometheus --dump` output: per device (node, gpu, MIG instance)
             memory used/total, utilization, utilization max over the window, holders, idle;
             per pod summed memory and mean utilization
  instant    the same, from a DCGM scrape: no window, so utilizationMax is null and nothing is
             idle; only the devices of --nodes
  workloads  ACTUAL is `--dump --workloads` output: per workload percentile and peak of memory
             and utilization over the plan window, device count, samples
  status     ACTUAL is `kubectl-gpu status -o json`: per node "gpus" and "pods" usage keys and
             summary.idleAllocatedGPUs

Prints one "ok - ..." or "not ok - ..." line per check (tests/lib/common.sh counts them).
"""
import json
import math
import sys


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-6)


class Checker:
    def __init__(self):
        self.failed = 0

    def check(self, cond, what):
        print(('ok - ' if cond else 'not ok - ') + what)
        if not cond:
            self.failed += 1

    def eq(self, got, want, what):
        if isinstance(want, bool) or isinstance(want, str):
            good = got == want
        elif isinstance(want, (int, float)) or want is None:
            good = (not isinstance(got, bool)) and close(got, want)
        else:
            good = got == want
        self.check(good, what if good else '%s: got %r, want %r' % (what, got, want))


def dev_key(d):
    return (d['node'], d['gpu'], d.get('migInstance', -1))


def check_devices(c, exp, act, instant, nodes):
    want = [d for d in exp['devices'] if not nodes or d['node'] in nodes]
    got = {dev_key(d): d for d in act['devices']}
    c.eq(len(act['devices']), len(want), 'number of devices')
    for w in want:
        k = dev_key(w)
        name = '%s gpu %d%s' % (w['node'], w['gpu'], ' GI %d' % w['migInstance'] if w['migInstance'] >= 0 else '')
        g = got.get(k)
        c.check(g is not None, name + ' present')
        if g is None:
            continue
        c.eq(g.get('uuid'), w['uuid'], name + ' uuid')
        c.eq(g.get('migProfile'), w['migProfile'], name + ' MIG profile')
        c.eq(g['memoryUsedMiB'], w['memoryUsedMiB'], name + ' memory used')
        c.eq(g['memoryTotalMiB'], w['memoryTotalMiB'], name + ' memory total')
        c.eq(g['utilization'], w['utilization'], name + ' utilization')
        c.eq(g['utilizationMax'], None if instant else w['utilizationMax'], name + ' utilization max over the window')
        c.eq(g['holders'], w['holders'], name + ' holders')
        if w['holders'] == 1:
            c.eq(g.get('pod'), w['pods'][0]['pod'], name + ' pod')
        idle = [w['node'], w['gpu'], w['migInstance']] in exp['idleAllocatedDevices']
        c.eq(g['idleAllocated'], False if instant else idle, name + ' idle-allocated')
        gp = {(p.get('namespace'), p['pod']): p for p in g.get('pods', [])}
        for p in w['pods']:
            q = gp.get((p['namespace'], p['pod']))
            c.check(q is not None, '%s pod %s/%s attributed' % (name, p['namespace'], p['pod']))
            if q:
                c.eq(q['memoryUsedMiB'], p['memoryUsedMiB'], '%s pod %s memory' % (name, p['pod']))
                c.eq(q['utilization'], p['utilization'], '%s pod %s utilization' % (name, p['pod']))
    pods_want = {}
    for d in want:
        for p in d['pods']:
            pods_want.setdefault((p['namespace'], p['pod']), []).append((p['memoryUsedMiB'], p['utilization']))
    gotp = {(p['namespace'], p['pod']): p for p in act['pods']}
    c.eq(len(act['pods']), len(pods_want), 'number of pods with usage')
    for (ns, pod), vals in sorted(pods_want.items()):
        g = gotp.get((ns, pod))
        c.check(g is not None, 'pod %s/%s has usage' % (ns, pod))
        if g:
            c.eq(g['memoryUsedMiB'], sum(v[0] for v in vals), 'pod %s/%s memory (sum over its devices)' % (ns, pod))
            c.eq(g['utilization'], sum(v[1] for v in vals) / len(vals), 'pod %s/%s utilization (mean)' % (ns, pod))
    if not instant and not nodes:
        c.eq(sum(1 for d in act['devices'] if d['idleAllocated']), exp['idleAllocatedDeviceCount'], 'idle-allocated devices')


def check_workloads(c, exp, act):
    got = {(w['namespace'], w['pod'], w['container']): w for w in act['workloads']}
    c.eq(len(act['workloads']), len(exp['workloads']), 'number of workloads')
    for w in exp['workloads']:
        k = (w['namespace'], w['pod'], w['container'])
        g = got.get(k)
        name = 'workload %s/%s/%s' % k
        c.check(g is not None, name + ' present')
        if not g:
            continue
        for key in ('devices', 'memoryPercentileMiB', 'memoryPeakMiB', 'utilizationPercentile',
                    'utilizationPeak', 'samples'):
            c.eq(g[key], w[key], '%s %s' % (name, key))


def check_status(c, exp, act):
    nodes = {n['name']: n for n in act.get('nodes', [])}
    c.eq(act.get('metrics', {}).get('source'), 'prometheus', 'metrics.source')
    c.eq(act.get('summary', {}).get('idleAllocatedGPUs'), exp['idleAllocated'], 'summary.idleAllocatedGPUs')
    for w in exp['devices']:
        n = nodes.get(w['node'])
        name = '%s gpu %d%s' % (w['node'], w['gpu'], ' GI %d' % w['migInstance'] if w['migInstance'] >= 0 else '')
        c.check(n is not None, w['node'] + ' in status')
        if not n:
            continue
        cand = [g for g in n.get('gpus', []) if g.get('index') == w['gpu'] and
                (w['migInstance'] < 0 or g.get('migInstance', g.get('gpuInstance')) == w['migInstance'])]
        c.check(len(cand) == 1, name + ' in nodes[].gpus')
        if len(cand) != 1:
            continue
        g = cand[0]
        c.eq(g.get('uuid'), w['uuid'], name + ' uuid')
        c.eq(g.get('memoryUsedMiB'), w['memoryUsedMiB'], name + ' memoryUsedMiB')
        c.eq(g.get('memoryTotalMiB'), w['memoryTotalMiB'], name + ' memoryTotalMiB')
        near(c, g.get('utilization'), w['utilization'], name + ' utilization')
    pods = {}
    for n in act.get('nodes', []):
        for p in n.get('pods', []):
            pods[(p.get('namespace'), p.get('name'))] = p
    for p in exp['pods']:
        g = pods.get((p['namespace'], p['pod']))
        name = 'pod %s/%s' % (p['namespace'], p['pod'])
        c.check(g is not None, name + ' in nodes[].pods')
        if g:
            c.eq(g.get('memoryUsedMiB'), p['memoryUsedMiB'], name + ' memoryUsedMiB')
            near(c, g.get('utilization'), p['utilization'], name + ' utilization')


def near(c, got, want, what):
    """status prints utilization with one decimal"""
    good = isinstance(got, (int, float)) and not isinstance(got, bool) and abs(got - want) <= 0.05 + 1e-9
    c.check(good, what if good else '%s: got %r, want %r (to 0.1)' % (what, got, want))


def main():
    mode, exp_path, act_path = sys.argv[1:4]
    nodes = None
    if '--nodes' in sys.argv:
        nodes = set(sys.argv[sys.argv.index('--nodes') + 1].split(','))
    exp = json.load(open(exp_path))
    try:
        act = json.load(open(act_path))
    except ValueError as e:
        print('not ok - %s is not JSON: %s' % (act_path, e))
        return 1
    c = Checker()
    if mode in ('devices', 'instant'):
        check_devices(c, exp, act, mode == 'instant', nodes)
    elif mode == 'workloads':
        check_workloads(c, exp, act)
    elif mode == 'status':
        check_status(c, exp, act)
    else:
        print('not ok - unknown mode %s' % mode)
        return 2
    return 1 if c.failed else 0


if __name__ == '__main__':
    sys.exit(main())
