#!/usr/bin/env python3
"""fakeprom.py — a stand-in Prometheus for `make bench`: DCGM usage for a generated cluster.

    fakeprom.py --cluster CLUSTER.json --port-file FILE [--seed 1] [--log FILE] [--parent-pid PID]

Reads the cluster (tests/gen/gen_cluster.py output, one item per line; any JSON List works but
is read whole), gives every GPU node its devices (whole GPUs, MIG instances of the node's
layout, time-sliced / MPS GPUs shared by several pods) and every running GPU pod the devices
it holds, draws each device's memory and utilization (seeded), and answers kubectl-gpu's
queries (src/sources/prometheus.c) with instant vectors computed once at start:
  - the usage query (label_replace(max by (__name__, ...)) ... kgpu_field ...): FB_USED,
    FB_FREE, FB_RESERVED, GPU_UTIL or GR_ENGINE_ACTIVE per device and pod, and the window
    maxima (gpu_util_max, gr_engine_active_max);
  - the per-workload window statistics (quantile_over_time / max_over_time /
    count_over_time of FB_USED, GR_ENGINE_ACTIVE, GPU_UTIL), one series per device and pod.
  - the series query_range (one per field: label_replace ... kgpu_field "util" / "gr" / "mem",
    max_over_time per step): per device and pod a matrix over [start, end] at step, each point the
    device's value varied (built per request, cached by start/end/step): memory in 11 steps (an
    allocator holds what it took), utilization point to point by a seeded stream, +-25 % (a
    step's maximum of GR_ENGINE_ACTIVE has four decimals, nearly all distinct: a row of them
    does not pack into fewer bits, as a real one would not).
Anything else gets an empty vector.  POST (form) and GET (query string) /api/v1/query and
/api/v1/query_range are served, over plain HTTP on 127.0.0.1, with TCP_NODELAY and one write per answer.
"""
import argparse
import hashlib
import http.server
import json
import os
import random
import re
import signal
import socket
import sys
import threading
import time
import urllib.parse

GPU_RES = re.compile(r'^nvidia\.com/(gpu|gpu\.shared|mig-[0-9]+g\.[0-9]+gb)$')
PROF_PRODUCTS = ('H100', 'A100')          # devices with profiling metrics (GR_ENGINE_ACTIVE)
MIG_PER_GPU = {'1g.10gb': 7, '2g.20gb': 3, '3g.40gb': 2, '1g.5gb': 7, '2g.10gb': 3, '3g.20gb': 2}
MIG_MEM = {'1g.10gb': 9728, '2g.20gb': 19968, '3g.40gb': 40192, '1g.5gb': 4864, '2g.10gb': 9984,
           '3g.20gb': 20096}


def items(path):
    """Items of a JSON List, streamed when the file has one item per line."""
    with open(path, encoding='utf-8') as fh:
        first = fh.read(4096)
        fh.seek(0)
        if '\n{"' in first or first.startswith('{"apiVersion'):
            for line in fh:
                line = line.strip()
                if line.startswith('{"') and ('"kind":' in line):
                    if line.endswith(','):
                        line = line[:-1]
                    try:
                        yield json.loads(line)
                    except ValueError:
                        continue
            return
        doc = json.load(fh)
    for it in (doc.get('items') or []) if isinstance(doc, dict) else doc:
        yield it


def gpu_requests(ctr):
    res = ctr.get('resources') or {}
    out = {}
    for src in (res.get('limits') or {}, res.get('requests') or {}):
        for k, v in src.items():
            if GPU_RES.match(k):
                try:
                    out[k] = int(str(v))
                except ValueError:
                    pass
    return out


class Device:
    __slots__ = ('node', 'gpu', 'uuid', 'model', 'profile', 'gi', 'mem_total', 'prof', 'holders')

    def __init__(self, node, gpu, model, mem_total, prof, profile=None, gi=-1):
        self.node, self.gpu, self.model, self.mem_total, self.prof = node, gpu, model, mem_total, prof
        self.profile, self.gi = profile, gi
        h = hashlib.md5(('%s/%d' % (node, gpu)).encode()).hexdigest()
        self.uuid = 'GPU-%s-%s-%s-%s-%s' % (h[:8], h[8:12], h[12:16], h[16:20], h[20:32])
        self.holders = []            # (ns, pod, container)


def build_devices(path):
    nodes = {}                       # name -> {'devs': {kind: [Device]}, 'shared': bool}
    pods = []
    for it in items(path):
        kind = it.get('kind')
        if kind == 'Node':
            md = it.get('metadata') or {}
            lab = md.get('labels') or {}
            product = lab.get('nvidia.com/gpu.product')
            if not product:
                continue
            name = md.get('name')
            try:
                count = int(lab.get('nvidia.com/gpu.count', '0'))
                mem = int(lab.get('nvidia.com/gpu.memory', '0'))
            except ValueError:
                continue
            base = re.sub(r'-(MIG-.*|SHARED)$', '', product)
            model = base.replace('-', ' ')
            prof = any(p in base for p in PROF_PRODUCTS)
            strategy = lab.get('nvidia.com/mig.strategy', 'none')
            cap = (it.get('status') or {}).get('capacity') or {}
            n = {'devs': {}, 'shared': lab.get('nvidia.com/gpu.sharing-strategy', 'none') != 'none'}
            migs = [k[len('nvidia.com/mig-'):] for k in cap if k.startswith('nvidia.com/mig-')]
            if strategy == 'mixed' and migs:
                phys = max(1, int(lab.get('nvidia.com/gpu.count', '8') or 8)) if count else 8
                gi = 0
                for p in sorted(migs):
                    total = int(str(cap.get('nvidia.com/mig-' + p, '0')) or 0)
                    devs = []
                    for i in range(total):
                        devs.append(Device(name, i % phys, model, MIG_MEM.get(p, 10000), True, p, gi))
                        gi += 1
                    n['devs']['nvidia.com/mig-' + p] = devs
            elif strategy == 'single' and '-MIG-' in product:
                p = product.split('-MIG-', 1)[1]
                per = MIG_PER_GPU.get(p, 7)
                n['devs']['nvidia.com/gpu'] = [Device(name, i // per, model, MIG_MEM.get(p, mem), True, p, i)
                                               for i in range(count)]
            else:
                devs = [Device(name, i, model, mem, prof) for i in range(max(count, 1))]
                n['devs']['nvidia.com/gpu'] = devs
                n['devs']['nvidia.com/gpu.shared'] = devs
            nodes[name] = n
        elif kind == 'Pod':
            spec = it.get('spec') or {}
            node = spec.get('nodeName')
            if not node or (it.get('status') or {}).get('phase') != 'Running':
                continue
            for ctr in spec.get('containers') or []:
                req = gpu_requests(ctr)
                if req:
                    md = it.get('metadata') or {}
                    pods.append((node, md.get('namespace', 'default'), md.get('name'), ctr.get('name'), req))
    for node, ns, pod, ctr, req in pods:
        n = nodes.get(node)
        if n is None:
            continue
        for res, cnt in req.items():
            devs = n['devs'].get(res)
            if not devs:
                continue
            if n['shared']:
                for _ in range(cnt):
                    d = min(devs, key=lambda x: len(x.holders))
                    d.holders.append((ns, pod, ctr))
            else:
                free = [d for d in devs if not d.holders][:cnt]
                for d in free:
                    d.holders.append((ns, pod, ctr))
    out, seen = [], set()
    for n in nodes.values():
        for devs in n['devs'].values():
            for d in devs:
                if id(d) not in seen:
                    seen.add(id(d))
                    out.append(d)
    return out


def build_answers(devices, seed, now):
    rng = random.Random(seed)
    usage, wl = [], {}
    ranges = []                # (labels JSON without the closing brace, field, value) for query_range
    for key in ('quantile_over_time/DCGM_FI_DEV_FB_USED', 'max_over_time/DCGM_FI_DEV_FB_USED',
                'quantile_over_time/DCGM_FI_PROF_GR_ENGINE_ACTIVE', 'max_over_time/DCGM_FI_PROF_GR_ENGINE_ACTIVE',
                'quantile_over_time/DCGM_FI_DEV_GPU_UTIL', 'max_over_time/DCGM_FI_DEV_GPU_UTIL',
                'count_over_time/DCGM_FI_DEV_FB_USED'):
        wl[key] = []

    def sample(metric, v):
        return {'metric': metric, 'value': [now, repr(float(v)) if not float(v).is_integer() else str(int(v))]}

    for d in devices:
        base = {'Hostname': d.node, 'gpu': str(d.gpu), 'UUID': d.uuid, 'modelName': d.model}
        if d.profile:
            base['GPU_I_PROFILE'] = d.profile
            base['GPU_I_ID'] = str(d.gi)
        holders = d.holders or [None]
        busy = bool(d.holders)
        mem_frac = rng.uniform(0.1, 0.9) if busy else 0.0
        util = rng.uniform(2, 95) if busy and rng.random() > 0.15 else rng.uniform(0, 3)
        used = int(d.mem_total * mem_frac)
        for h in holders:
            m = dict(base)
            if h:
                m['namespace'], m['pod'], m['container'] = h
            fields = [('DCGM_FI_DEV_FB_USED', used), ('DCGM_FI_DEV_FB_FREE', d.mem_total - used),
                      ('DCGM_FI_DEV_FB_RESERVED', 0)]
            if not d.profile:
                fields.append(('DCGM_FI_DEV_GPU_UTIL', round(util)))
            if d.prof:
                fields.append(('DCGM_FI_PROF_GR_ENGINE_ACTIVE', round(util / 100, 4)))
            for f, v in fields:
                usage.append(sample(dict(m, kgpu_field=f), v))
            lab = json.dumps(m, separators=(',', ':'))[:-1]
            ranges.append((lab, 'mem', used))
            if d.prof:
                ranges.append((lab, 'gr', round(util / 100, 4)))
            elif not d.profile:
                ranges.append((lab, 'util', round(util)))
            if not d.profile:
                usage.append(sample(dict(m, kgpu_field='gpu_util_max'), min(100, round(util * 1.3))))
            if d.prof:
                usage.append(sample(dict(m, kgpu_field='gr_engine_active_max'), min(1.0, round(util * 1.3 / 100, 4))))
            if not h:
                continue
            peak = min(d.mem_total, int(used * rng.uniform(1.0, 1.3)))
            wl['quantile_over_time/DCGM_FI_DEV_FB_USED'].append(sample(m, int(used * 0.9)))
            wl['max_over_time/DCGM_FI_DEV_FB_USED'].append(sample(m, peak))
            if d.prof:
                wl['quantile_over_time/DCGM_FI_PROF_GR_ENGINE_ACTIVE'].append(sample(m, round(util * 0.9 / 100, 4)))
                wl['max_over_time/DCGM_FI_PROF_GR_ENGINE_ACTIVE'].append(sample(m, min(1.0, round(util * 1.3 / 100, 4))))
            if not d.profile:
                wl['quantile_over_time/DCGM_FI_DEV_GPU_UTIL'].append(sample(m, round(util * 0.9)))
                wl['max_over_time/DCGM_FI_DEV_GPU_UTIL'].append(sample(m, min(100, round(util * 1.3))))
            wl['count_over_time/DCGM_FI_DEV_FB_USED'].append(sample(m, rng.randrange(1000, 1130)))

    def enc(result):
        return json.dumps({'status': 'success', 'data': {'resultType': 'vector', 'result': result}},
                          separators=(',', ':')).encode()
    return enc(usage), {k: enc(v) for k, v in wl.items()}, enc([]), ranges


def range_answer(ranges, start, end, step, want):
    """the series matrix of field want: its range series at start, start+step, ... end"""
    n = max(1, min(11000, int(round((end - start) / step)) + 1))
    ts = [start + k * step for k in range(n)]
    parts = []
    for i, (lab, field, v) in enumerate(ranges):
        if field != want:
            continue
        pts = []
        h = (i * 2654435761 + 12345) & 0xffffffff
        for k, t in enumerate(ts):
            if field == 'mem':
                # memory moves in steps (an allocator holds what it took): 11 levels
                x = int(v * (0.7 + 0.6 * (((k * 7 + i) % 11) / 10.0)))
            else:
                # utilization's per-step maxima vary point to point: GR_ENGINE_ACTIVE's four
                # decimals nearly all distinct, GPU_UTIL's whole percents within +-25
                h = (h * 1103515245 + 12345) & 0xffffffff
                f = 0.75 + 0.5 * (h >> 8) / float(1 << 24)
                x = min(1.0, round(v * f, 4)) if field == 'gr' else min(100, round(v * f))
            pts.append('[%.3f,"%s"]' % (t, x))
        parts.append('{"metric":%s,"kgpu_field":"%s"},"values":[%s]}' % (lab, field, ','.join(pts)))
    return ('{"status":"success","data":{"resultType":"matrix","result":[%s]}}' % ','.join(parts)).encode()


WL_QUERY = re.compile(r'(quantile_over_time|max_over_time|count_over_time)\((?:[0-9.eE+-]+, *)?(DCGM_[A-Z_]+)\[')


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, fmt, *args):
        pass

    def _answer(self, params, is_range=False):
        srv = self.server
        q = (params.get('query') or [''])[0]
        if is_range:
            try:
                key = tuple(float(params[k][0]) for k in ('start', 'end', 'step'))
            except (KeyError, ValueError):
                key = None
            fm = re.search(r'"kgpu_field", *"(\w+)"', q)
            if key and fm:
                key = key + (fm.group(1),)
                with srv.lock:
                    if srv.range_key != key:
                        srv.range_key, srv.range_body = key, range_answer(srv.ranges, *key)
                    body = srv.range_body
                what = 'series'
            else:
                body, what = srv.empty, 'other'
        elif 'kgpu_field' in q and 'label_replace' in q:
            body, what = srv.usage, 'usage'
        else:
            m = WL_QUERY.search(q)
            body = srv.wl.get('%s/%s' % m.groups()) if m else None
            what = ('%s/%s' % m.groups()) if body is not None else 'other'
            if body is None:
                body = srv.empty
        head = ('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n'
                % len(body)).encode()
        self.wfile.write(head + body)
        if srv.log:
            with srv.lock:
                srv.log.write(json.dumps({'path': self.path.split('?')[0], 'query': what, 'bytes': len(body)}) + '\n')
                srv.log.flush()

    def do_GET(self):
        u = urllib.parse.urlsplit(self.path)
        if u.path not in ('/api/v1/query', '/api/v1/query_range'):
            self.send_error(404)
            return
        self._answer(urllib.parse.parse_qs(u.query), u.path.endswith('_range'))

    def do_POST(self):
        n = int(self.headers.get('Content-Length') or 0)
        form = self.rfile.read(n).decode('utf-8', 'replace') if n else ''
        path = urllib.parse.urlsplit(self.path).path
        if path not in ('/api/v1/query', '/api/v1/query_range'):
            self.send_error(404)
            return
        self._answer(urllib.parse.parse_qs(form), path.endswith('_range'))


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, BrokenPipeError)):
            super().handle_error(request, client_address)

    def get_request(self):
        s, a = super().get_request()
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return s, a


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--cluster', required=True)
    ap.add_argument('--port-file', required=True)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--log')
    ap.add_argument('--parent-pid', type=int)
    a = ap.parse_args()
    t0 = time.time()
    devices = build_devices(a.cluster)
    usage, wl, empty, ranges = build_answers(devices, a.seed, round(time.time(), 3))
    srv = Server(('127.0.0.1', 0), Handler)
    srv.usage, srv.wl, srv.empty = usage, wl, empty
    srv.ranges, srv.range_key, srv.range_body = ranges, None, b''
    srv.lock = threading.Lock()
    srv.log = open(a.log, 'a', encoding='utf-8') if a.log else None
    sys.stderr.write('fakeprom: %d devices, %d held; answers %.1f MB; ready in %.1f s\n' % (
        len(devices), sum(1 for d in devices if d.holders), (len(usage) + sum(map(len, wl.values()))) / 1e6,
        time.time() - t0))
    tmp = a.port_file + '.tmp'
    with open(tmp, 'w') as fh:
        fh.write('%d\n' % srv.server_address[1])
    os.replace(tmp, a.port_file)

    def stop(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    if a.parent_pid:
        def watchdog():
            while True:
                try:
                    os.kill(a.parent_pid, 0)
                except ProcessLookupError:
                    os.kill(os.getpid(), signal.SIGTERM)
                    return
                except PermissionError:
                    pass
                time.sleep(0.5)
        threading.Thread(target=watchdog, daemon=True).start()
    try:
        srv.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
    return 0


if __name__ == '__main__':
    sys.exit(main())
