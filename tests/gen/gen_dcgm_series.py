#!/usr/bin/env python3
"""Generate a week of DCGM exporter series for a cluster fixture, and the values kubectl-gpu must
report from them.

    gen_dcgm_series.py --spec tests/fixtures/metrics/fleet-usage.json \
        [--cluster FILE] --openmetrics OUT.om --expected OUT.json [--scrape-dir DIR]

The spec names devices (node, gpu index, MIG instance), the pods holding them and a usage
pattern (see the spec's comment).  Outputs:
  OUT.om       OpenMetrics text with timestamps and "# EOF", for
               `promtool tsdb create-blocks-from openmetrics` (one sample every 10 minutes over
               the week, every minute over the last 2 hours; the last sample is at spec.end).
  OUT.json     the expected values, computed here from the very samples written: per device
               the last values and the maximum of utilization over spec.window, per pod the
               summed memory and mean utilization, the idle-but-allocated devices, and per
               workload the spec.percentile quantile and the maximum over spec.planWindow.
               Queries must be evaluated at "evalTime" (spec.end + 30 s, between two samples
               so no range boundary falls on a sample).
  DIR/NODE.txt what each node's exporter would serve at spec.end (Prometheus text format,
               no timestamps), for the pod-proxy scrape path.

Device-level rules (the same kubectl-gpu documents in include/sources/dcgm.h): utilization is
DCGM_FI_PROF_GR_ENGINE_ACTIVE x 100 where the device has profiling metrics (always on MIG),
else DCGM_FI_DEV_GPU_UTIL; several pod series of one device with equal values carry the
device value once, with different values (per-process split) their sum; total memory is
used + free + reserved.
"""
import argparse
import json
import math
import os
import random
import sys

OLD_STEP = 600
NEW_STEP = 60
NEW_SPAN = 7200


def quantile(q, values):
    """Prometheus' quantile (promql/quantile.go): linear interpolation between closest ranks."""
    if not values:
        return None
    v = sorted(values)
    n = len(v)
    rank = q * (n - 1)
    lo = max(0, math.floor(rank))
    hi = min(n - 1, lo + 1)
    w = rank - math.floor(rank)
    return v[int(lo)] * (1 - w) + v[int(hi)] * w


def combine(values):
    if not values:
        return None
    return values[0] if all(x == values[0] for x in values) else sum(values)


def timestamps(end, span):
    ts = set(range(end - NEW_SPAN, end + 1, NEW_STEP))
    t = end - NEW_SPAN - OLD_STEP
    while t >= end - span:
        ts.add(t)
        t -= OLD_STEP
    return sorted(ts)


class Device:
    def __init__(self, spec, end, span):
        self.spec = spec
        self.node = spec['node']
        self.gpu = spec['gpu']
        self.mig = spec.get('mig')
        self.gi = self.mig['id'] if self.mig else -1
        self.pattern = spec['pattern']
        self.pods = spec.get('pods', [])
        self.total = spec['totalMiB']
        self.reserved = spec.get('reservedMiB', 0)
        self.profiling = bool(spec.get('profiling')) or bool(self.mig)
        self.uuid = 'GPU-%08x-%04x-4%03x-8%03x-%012x' % (
            abs(hash_str(self.node)) & 0xffffffff, self.gpu, 0, 0, abs(hash_str(self.node + '/uuid')) & 0xffffffffffff)
        self.end = end
        full = self.pattern != 'free'
        self.ts = timestamps(end, span if full else NEW_SPAN)
        self.rng = random.Random('%s/%d/%d' % (self.node, self.gpu, self.gi))
        # per pod series (one "holder" series when no pod): {t: (mem, util, gr)}
        self.values = [dict() for _ in (self.pods or [None])]
        for t in self.ts:
            for j, row in enumerate(self.sample(t)):
                self.values[j][t] = row

    def sample(self, t):
        r = self.rng.random
        p = self.pattern
        end = self.end
        if p in ('busy', 'relabeled') or (p == 'idle-recent' and t < end - 3 * 3600):
            util = 55 + int(40 * r())
            row = (int(self.total * (0.35 + 0.35 * r())), util, round(0.45 + 0.5 * r(), 6))
            return [row] * max(1, len(self.pods))
        if p == 'idle-recent':
            return [(self.total // 4, int(3 * r()), round(0.03 * r(), 6))]
        if p == 'free':
            return [(1, 0, 0.0)]
        if p == 'mig':
            return [(int(self.total * (0.3 + 0.4 * r())), None, round(0.2 + 0.5 * r(), 6))]
        if p == 'mig-idle':
            return [(1500, None, round(0.01 * r(), 6))]
        if p == 'shared':
            row = (6000 + int(4000 * r()), 20 + int(60 * r()), None)
            return [row] * len(self.pods)
        if p == 'split':
            rows = []
            for j in range(len(self.pods)):
                rows.append((2000 + int(3000 * r()) + j, 5 + int(20 * r()) + 30 * j, None))
            return rows
        raise SystemExit('unknown pattern %r' % p)

    # -- series as the exporter labels them
    def labels(self, j):
        lab = [('gpu', str(self.gpu)), ('UUID', self.uuid), ('device', 'nvidia%d' % self.gpu),
               ('modelName', self.spec['model'])]
        if self.mig:
            lab += [('GPU_I_PROFILE', self.mig['profile']), ('GPU_I_ID', str(self.gi))]
        lab += [('Hostname', self.node), ('DCGM_FI_DRIVER_VERSION', '550.54.15')]
        if self.pods:
            pod = self.pods[j]
            if self.pattern == 'relabeled':
                lab += [('container', 'exporter'), ('namespace', 'gpu-operator'),
                        ('pod', 'nvidia-dcgm-exporter-' + self.node[-5:]),
                        ('exported_container', pod['container']),
                        ('exported_namespace', pod['namespace']), ('exported_pod', pod['pod'])]
            else:
                lab += [('container', pod['container']), ('namespace', pod['namespace']),
                        ('pod', pod['pod'])]
            if self.pattern == 'split':
                lab.append(('vgpu', str(j)))
        return lab

    def series(self):
        """(metric, labels, [(t, value)]) as scraped; FB_FREE/RESERVED only recently."""
        out = []
        recent = [t for t in self.ts if t >= self.end - NEW_SPAN]
        for j, vals in enumerate(self.values):
            lab = self.labels(j)
            out.append(('DCGM_FI_DEV_FB_USED', lab, [(t, vals[t][0]) for t in self.ts]))
            if not self.mig:
                out.append(('DCGM_FI_DEV_GPU_UTIL', lab, [(t, vals[t][1]) for t in self.ts]))
            if self.profiling:
                out.append(('DCGM_FI_PROF_GR_ENGINE_ACTIVE', lab,
                            [(t, vals[t][2] if vals[t][2] is not None else 0.0) for t in self.ts]))
            out.append(('DCGM_FI_DEV_FB_FREE', lab, [(t, self.free_at(t)) for t in recent]))
            if self.reserved:
                out.append(('DCGM_FI_DEV_FB_RESERVED', lab, [(t, self.reserved) for t in recent]))
        return out

    def free_at(self, t):
        used = combine([v[t][0] for v in self.values])
        free = self.total - self.reserved - used
        if free < 0:
            raise SystemExit('%s gpu %d: pattern %s uses more than totalMiB' % (self.node, self.gpu, self.pattern))
        return free

    def util_of(self, row):
        return row[2] * 100 if self.profiling else row[1]

    # -- expectations
    def expected(self, eval_t, window):
        last = self.end
        mems = [v[last][0] for v in self.values]
        utils = [self.util_of(v[last]) for v in self.values]
        maxes = [max(self.util_of(v[t]) for t in self.ts if eval_t - window <= t <= eval_t)
                 for v in self.values]
        used = combine(mems)
        dev = {'node': self.node, 'gpu': self.gpu, 'migInstance': self.gi,
               'migProfile': self.mig['profile'] if self.mig else None, 'uuid': self.uuid,
               'model': self.spec['model'], 'memoryUsedMiB': used,
               'memoryTotalMiB': used + self.free_at(last) + self.reserved,
               'utilization': combine(utils), 'utilizationMax': combine(maxes),
               'holders': len(self.pods),
               'pods': [{'namespace': p['namespace'], 'pod': p['pod'], 'container': p['container'],
                         'memoryUsedMiB': mems[j], 'utilization': utils[j],
                         'utilizationMax': maxes[j]} for j, p in enumerate(self.pods)]}
        return dev


def hash_str(s):
    h = 1469598103934665603
    for ch in s.encode():
        h = ((h ^ ch) * 1099511628211) & 0xffffffffffffffff
    return h


def fmt(v):
    if isinstance(v, float):
        return '%.6f' % v
    return str(v)


def label_text(lab):
    return ','.join('%s="%s"' % (k, v.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n'))
                    for k, v in lab)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--spec', required=True)
    ap.add_argument('--cluster')
    ap.add_argument('--openmetrics', required=True)
    ap.add_argument('--expected', required=True)
    ap.add_argument('--scrape-dir')
    args = ap.parse_args()
    spec = json.load(open(args.spec))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    cluster_path = args.cluster or os.path.join(root, spec['cluster'])
    cluster = json.load(open(cluster_path))
    nodes = {i['metadata']['name'] for i in cluster['items'] if i.get('kind') == 'Node'}
    pods = {(i['metadata'].get('namespace'), i['metadata']['name'])
            for i in cluster['items'] if i.get('kind') == 'Pod'}
    for d in spec['devices']:
        if d['node'] not in nodes:
            sys.exit('%s: node %s is not in %s' % (args.spec, d['node'], cluster_path))
        for p in d.get('pods', []):
            if (p['namespace'], p['pod']) not in pods:
                sys.exit('%s: pod %s/%s is not in %s' % (args.spec, p['namespace'], p['pod'], cluster_path))

    end = spec['end']
    eval_t = end + 30
    window, plan_window = spec['window'], spec['planWindow']
    q = spec['percentile'] / 100.0
    devices = [Device(d, end, plan_window + 3600) for d in spec['devices']]

    # OpenMetrics: one family at a time, each series in time order; an extra scrape job
    # duplicates the first device's series (the server's max by (...) must fold them)
    families = {}
    for i, dev in enumerate(devices):
        for metric, lab, pts in dev.series():
            families.setdefault(metric, []).append((lab + [('job', 'gpu-metrics'),
                                                           ('instance', '10.0.%d.1:9400' % i)], pts))
            if i == 0:
                families[metric].append((lab + [('job', 'dcgm-duplicate'),
                                                ('instance', '10.9.9.9:9400')], pts))
    with open(args.openmetrics, 'w') as f:
        for metric in sorted(families):
            f.write('# TYPE %s gauge\n' % metric)
            for lab, pts in families[metric]:
                lt = label_text(lab)
                for t, v in pts:
                    f.write('%s{%s} %s %d\n' % (metric, lt, fmt(v), t))
        f.write('# EOF\n')

    exp_devices = [dev.expected(eval_t, window) for dev in devices]
    idle = [d for d in exp_devices
            if d['holders'] > 0 and d['utilizationMax'] < spec['idleThreshold']]
    # idle physical GPUs (issue 29): a GPU (node, index) is idle when something on it is held and
    # every held device on it (the GPU, or each MIG instance) is idle
    by_gpu = {}
    for d in exp_devices:
        if d['holders'] > 0:
            by_gpu.setdefault((d['node'], d['gpu']), []).append(d['utilizationMax'] < spec['idleThreshold'])
    idle_gpus = sorted(k for k, v in by_gpu.items() if all(v))
    pods_out = {}
    for d in exp_devices:
        for p in d['pods']:
            e = pods_out.setdefault((p['namespace'], p['pod']), {'mem': 0, 'utils': []})
            e['mem'] += p['memoryUsedMiB']
            e['utils'].append(p['utilization'])
    workloads = {}
    for dev in devices:
        for j, p in enumerate(dev.pods):
            vals = dev.values[j]
            in_win = [t for t in dev.ts if eval_t - plan_window <= t <= eval_t]
            mem = [vals[t][0] for t in in_win]
            util = [vals[t][2] if dev.profiling else vals[t][1] for t in in_win]
            scale = 100 if dev.profiling else 1
            w = workloads.setdefault((p['namespace'], p['pod'], p['container']),
                                     {'namespace': p['namespace'], 'pod': p['pod'],
                                      'container': p['container'], 'devices': 0,
                                      'memoryPercentileMiB': None, 'memoryPeakMiB': None,
                                      'utilizationPercentile': None, 'utilizationPeak': None,
                                      'samples': 0})
            w['devices'] += 1

            def mx(a, b):
                return b if a is None else max(a, b)
            w['memoryPercentileMiB'] = mx(w['memoryPercentileMiB'], quantile(q, mem))
            w['memoryPeakMiB'] = mx(w['memoryPeakMiB'], max(mem))
            w['utilizationPercentile'] = mx(w['utilizationPercentile'], quantile(q, util) * scale)
            w['utilizationPeak'] = mx(w['utilizationPeak'], max(util) * scale)
            w['samples'] = max(w['samples'], len(mem))
    expected = {
        'evalTime': eval_t, 'window': window, 'planWindow': plan_window,
        'percentile': spec['percentile'], 'idleThreshold': spec['idleThreshold'],
        'devices': exp_devices,
        'idleAllocated': len(idle_gpus),
        'idleAllocatedGPUs': [list(k) for k in idle_gpus],
        'idleAllocatedDeviceCount': len(idle),
        'idleAllocatedDevices': [[d['node'], d['gpu'], d['migInstance']] for d in idle],
        'pods': [{'namespace': k[0], 'pod': k[1], 'memoryUsedMiB': v['mem'],
                  'utilization': sum(v['utils']) / len(v['utils'])}
                 for k, v in sorted(pods_out.items())],
        'workloads': [workloads[k] for k in sorted(workloads)],
    }
    with open(args.expected, 'w') as f:
        json.dump(expected, f, indent=1, sort_keys=True)

    if args.scrape_dir:
        os.makedirs(args.scrape_dir, exist_ok=True)
        by_node = {}
        for dev in devices:
            for metric, lab, pts in dev.series():
                by_node.setdefault(dev.node, {}).setdefault(metric, []).append((lab, pts[-1][1]))
        for node, fams in by_node.items():
            with open(os.path.join(args.scrape_dir, node + '.txt'), 'w') as f:
                for metric in sorted(fams):
                    f.write('# HELP %s %s\n# TYPE %s gauge\n' % (metric, metric.lower(), metric))
                    for lab, v in fams[metric]:
                        f.write('%s{%s} %s\n' % (metric, label_text(lab), fmt(v)))


if __name__ == '__main__':
    main()
