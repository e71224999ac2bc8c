#!/usr/bin/env python3
"""A fake kube-apiserver for kubectl-gpu's integration tests (Python 3 standard library only).

Serves a fixture (a JSON List as `kubectl get ... -o json` prints it) read-only over HTTPS,
with the real server's discovery (legacy and aggregated), lists with limit/continue,
label and field selectors, server-side Table printing, token / client-certificate / basic
authentication, RBAC-like denials, gzip over 128 KiB, service and pod proxies, a
request log, and faults injected from a JSON file that is re-read whenever it changes.

    python3 tests/fakeapi/server.py --fixture F.json [--fixture G.json] --certs DIR \
        --port-file FILE [--log FILE] [--faults FILE] [--rbac FILE] [--proxy-config FILE] \
        [--token TOKEN=USER ...] [--basic USER:PASSWORD ...] [--anonymous] \
        [--server-cert server|wronghost] [--no-aggregated-discovery] [--server-version v1.31.4]

See tests/fakeapi/README.md for the faults, rbac and proxy file formats.
"""

import argparse
import base64
import copy
import datetime
import gzip
import hashlib
import http.server
import json
import os
import re
import select
import signal
import socket
import ssl
import struct
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from k8s_selectors import FieldSelector, LabelSelector, SelectorError  # noqa: E402
from k8s_store import (ContinueError, FixtureError, Store, decode_continue, field_values,  # noqa: E402
                       encode_continue)
from k8s_tables import to_table  # noqa: E402
from k8s_watch import BreakStream, ChangeLog, Scenario, watch_events  # noqa: E402

GZIP_THRESHOLD = 128 * 1024          # writers.go defaultGzipThresholdBytes (compress when >)
CHUNKING_THRESHOLD = 2048            # net/http bufferBeforeChunkingSize
EXPIRED_MSG = ('The provided continue parameter is too old to display a consistent list result. '
               'You can start a new list without the continue parameter')
EXPIRED_MSG_FRESH = (EXPIRED_MSG + ', or use the continue token in this response to retrieve '
                     'the remainder of the results. Continuing with the provided token results in '
                     'an inconsistent list - objects that were created, modified, or deleted '
                     'between the time the first chunk was returned and now may show up in the '
                     'list.')
EXPIRED_MSG_PLAIN = EXPIRED_MSG + '.'
APF_429_BODY = 'Too many requests, please try again later.\n'
FLOWSCHEMA_UID = 'a3f5c9e2-7b1d-4c8e-9f60-2d4b8e1a7c35'
PRIORITYLEVEL_UID = '5e0b6f4a-91c2-4d7e-b3a8-6c2f1e9d0a47'

STATUS_REASONS = {
    400: ('BadRequest', 'the server rejected our request for an unknown reason'),
    401: ('Unauthorized', 'Unauthorized'),
    403: ('Forbidden', 'forbidden'),
    404: ('NotFound', 'the server could not find the requested resource'),
    405: ('MethodNotAllowed', 'the server does not allow this method on the requested resource'),
    406: ('NotAcceptable', 'the server was unable to respond with a content type that the client supports'),
    409: ('Conflict', 'the server reported a conflict'),
    410: ('Expired', EXPIRED_MSG_PLAIN),
    422: ('Invalid', 'the server rejected our request due to an error in our request'),
    429: ('TooManyRequests', 'the server has received too many requests and has asked us to try again later'),
    500: ('InternalError', 'Internal error occurred: unexpected error'),
    502: ('', 'the server responded with the status code 502 but did not return more information'),
    503: ('ServiceUnavailable', 'the server is currently unable to handle the request'),
    504: ('Timeout', 'Timeout: request did not complete within requested timeout - context deadline exceeded'),
}

VERSION_INFO = {
    'v1.31.4': ('a78aa47129b8539636eb86a9d00e31b2720fe06b', '2024-12-10T18:36:08Z', 'go1.22.9'),
}


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc)


def jdump(obj):
    """JSON as Go's encoding/json writes it: compact, UTF-8, HTML characters and U+2028/9
    escaped (these never occur outside strings, so replacing them in the text is exact)."""
    text = json.dumps(obj, separators=(',', ':'), ensure_ascii=False)
    text = (text.replace('<', '\\u003c').replace('>', '\\u003e').replace('&', '\\u0026')
            .replace('\u2028', '\\u2028').replace('\u2029', '\\u2029'))
    return (text + '\n').encode('utf-8')


def list_item_json(obj, builtin):
    """An object as an item of a list: jdump's text without the newline; built-in types
    without kind and apiVersion (as the real server lists them)."""
    if builtin:
        obj = dict(obj)
        obj.pop('kind', None)
        obj.pop('apiVersion', None)
    return jdump(obj)[:-1]


def status_obj(code, message=None, reason=None, details=None, continue_token=None):
    r, m = STATUS_REASONS.get(code, ('', 'unknown'))
    st = {'kind': 'Status', 'apiVersion': 'v1', 'metadata': {}, 'status': 'Failure',
          'message': m if message is None else message}
    if (reason if reason is not None else r):
        st['reason'] = reason if reason is not None else r
    if details is not None:
        st['details'] = details
    st['code'] = code
    if continue_token:
        st['metadata'] = {'continue': continue_token}
    return st


class ApiError(Exception):
    def __init__(self, code, message=None, reason=None, details=None, headers=None,
                 continue_token=None):
        super().__init__(message)
        self.code = code
        self.status = status_obj(code, message, reason, details, continue_token)
        self.headers = headers or {}


def not_found(res, name):
    d = {'name': name, 'kind': res.plural}
    if res.group:
        d['group'] = res.group
    return ApiError(404, '%s "%s" not found' % (res.group_resource, name), 'NotFound', d)


def bad_request(msg):
    return ApiError(400, msg, 'BadRequest')


# ----------------------------------------------------------------------------------------
# files re-read when they change

class Reloadable:
    def __init__(self, path, default, parse=None, name='file'):
        self.path = path
        self.default = default
        self.parse = parse or (lambda d: d)
        self.name = name
        self.sig = None
        self.raw = None
        self.value = self.parse(copy.deepcopy(default))
        self.lock = threading.Lock()
        self.generation = 0

    def get(self):
        """(value, generation); generation changes whenever the file is rewritten."""
        if not self.path:
            return self.value, self.generation
        with self.lock:
            try:
                st = os.stat(self.path)
                sig = (st.st_ino, st.st_mtime_ns, st.st_size)
                with open(self.path, 'rb') as fh:
                    raw = fh.read()
            except OSError:
                sig, raw = None, None
            if sig == self.sig and raw == self.raw:
                return self.value, self.generation
            if raw is None:
                self.value = self.parse(copy.deepcopy(self.default))
            else:
                try:
                    text = raw.decode('utf-8')
                    data = json.loads(text) if text.strip() else copy.deepcopy(self.default)
                    self.value = self.parse(data)
                except (ValueError, UnicodeDecodeError) as e:
                    if raw != self.raw:
                        sys.stderr.write('fakeapi: ignoring invalid %s %s: %s\n'
                                         % (self.name, self.path, e))
                    self.sig, self.raw = sig, raw
                    return self.value, self.generation
            self.sig, self.raw = sig, raw
            self.generation += 1
            return self.value, self.generation


# ----------------------------------------------------------------------------------------
# faults

def parse_faults(data):
    if isinstance(data, dict):
        data = data.get('faults', [])
    if not isinstance(data, list):
        raise ValueError('faults: want a list or {"faults": [...]}')
    out = []
    for i, f in enumerate(data):
        if not isinstance(f, dict):
            raise ValueError('fault %d is not an object' % i)
        f = dict(f)
        f.setdefault('name', 'fault%d' % i)
        f['_path'] = re.compile(f.get('path', '.*'))
        f['_query'] = re.compile(f['query']) if f.get('query') is not None else None
        f['action'] = f.get('action') or f.get('type') or 'status'
        if f['action'] not in ('status', 'expired', 'cut', 'truncate', 'invalid', 'body',
                               'delay', 'stall', 'close', 'reset', 'watch-stream'):
            raise ValueError('fault %s: unknown action %s' % (f['name'], f['action']))
        out.append(f)
    return out


class FaultBook:
    def __init__(self, path):
        self.file = Reloadable(path, [], parse_faults, 'faults file')
        self.lock = threading.Lock()
        self.gen = -1
        self.hits = {}

    def match(self, method, path, query, user):
        faults, gen = self.file.get()
        with self.lock:
            if gen != self.gen:
                self.gen = gen
                self.hits = {}
            for i, f in enumerate(faults):
                if f.get('method') and f['method'].upper() != method:
                    continue
                if not f['_path'].search(path):
                    continue
                if f['_query'] is not None and not f['_query'].search(query):
                    continue
                if f.get('user') and f['user'] != user:
                    continue
                n = self.hits.get(i, 0)
                self.hits[i] = n + 1
                if n < int(f.get('skip', 0)):
                    continue
                times = f.get('times')
                if times is not None and n - int(f.get('skip', 0)) >= int(times):
                    continue
                return f
        return None


def watch_stream_fault(f):
    """the body of a "watch-stream" fault, in 1 MiB chunks: "eventBytes": N sends one ADDED
    event of a Pending GPU pod (name f["podName"], default huge-event-0) padded by an annotation
    to N bytes, then a newline, and ends; "endless": true sends the start of an event and then
    "x" without a newline until the client goes (or "maxBytes", default 1 GiB)"""
    mib = 1 << 20
    if f.get('endless'):
        yield b'{"type":"ADDED","object":{"metadata":{"annotations":{"pad":"'
        sent, limit, piece = 0, int(f.get('maxBytes', 1 << 30)), b'x' * mib
        while sent < limit:
            yield piece
            sent += mib
        return
    pod = {'apiVersion': 'v1', 'kind': 'Pod',
           'metadata': {'name': f.get('podName', 'huge-event-0'), 'namespace': 'default',
                        'uid': 'huge-0000', 'resourceVersion': '999999999',
                        'creationTimestamp': '2026-11-24T03:00:00Z', 'annotations': {'pad': ''}},
           'spec': {'schedulerName': 'default-scheduler',
                    'containers': [{'name': 'c', 'image': 'x',
                                    'resources': {'limits': {'nvidia.com/gpu': '64'}}}]},
           'status': {'phase': 'Pending', 'conditions': [
               {'type': 'PodScheduled', 'status': 'False', 'reason': 'Unschedulable',
                'message': '0/3 nodes are available: 3 Insufficient nvidia.com/gpu.'}]}}
    base = len(json.dumps({'type': 'ADDED', 'object': pod}, separators=(',', ':')))
    pod['metadata']['annotations']['pad'] = 'x' * max(0, int(f['eventBytes']) - base)
    body = json.dumps({'type': 'ADDED', 'object': pod}, separators=(',', ':')).encode() + b'\n'
    for i in range(0, len(body), mib):
        yield body[i:i + mib]


# ----------------------------------------------------------------------------------------
# RBAC-like denials

def parse_rbac(data):
    if isinstance(data, dict):
        data = data.get('deny', [])
    if not isinstance(data, list):
        raise ValueError('rbac: want a list or {"deny": [...]}')
    return data


def rule_matches(rule, user, groups, attrs):
    """A deny rule: {"user": U|"*"|[..], "userGroup": G, "verb": V|"*"|[..],
    "resource": "pods"|"services/proxy"|"*"|[..], "apiGroup": ""|"apps"|"*",
    "namespace": "*" (default: any) | "" (cluster scope only) | NS | [..], "name": N,
    "path": REGEX (non-resource URLs instead of resources), "reason": TEXT}"""
    def m(field, value, default='*'):
        want = rule.get(field, default)
        if want == '*':
            return True
        if isinstance(want, list):
            return value in want
        return want == value
    if not m('user', user):
        return False
    if rule.get('userGroup') and rule['userGroup'] not in groups:
        return False
    if not m('verb', attrs['verb']):
        return False
    if 'path' in rule:
        return not attrs['resource_request'] and re.search(rule['path'], attrs['path']) is not None
    if not attrs['resource_request']:
        return False
    res = attrs['resource'] + ('/' + attrs['subresource'] if attrs['subresource'] else '')
    if not m('resource', res):
        return False
    if not m('apiGroup', attrs['group']):
        return False
    if not m('namespace', attrs['namespace']):
        return False
    if 'name' in rule and rule['name'] != attrs['name']:
        return False
    return True


# discovery: readable by every authenticated user (the system:discovery ClusterRole)
DISCOVERY_PATH = re.compile(r'^/(version|api|apis|api/v1|apis/[^/]+(/[^/]+)?)/?$')


def parse_role(data):
    """--role FILE: a Role or ClusterRole as JSON (examples/rbac.yaml through
    tests/tools/yaml2json): its rules are all that any user is granted"""
    rules = data.get('rules') if isinstance(data, dict) else None
    if not isinstance(rules, list) or not all(isinstance(r, dict) for r in rules):
        raise ValueError('role: want a Role or ClusterRole with "rules"')
    return rules


def role_grants(rule, attrs):
    """a PolicyRule (verbs, apiGroups, resources, resourceNames) grants the resource request"""
    def has(field, value):
        want = rule.get(field) or []
        return '*' in want or value in want
    res = attrs['resource'] + ('/' + attrs['subresource'] if attrs['subresource'] else '')
    if rule.get('resourceNames') and attrs['name'] not in rule['resourceNames']:
        return False
    return has('verbs', attrs['verb']) and has('apiGroups', attrs['group']) and has('resources', res)


def forbidden_error(user, attrs, reason=''):
    if not attrs['resource_request']:
        msg = 'User "%s" cannot %s path "%s"' % (user, attrs['verb'], attrs['path'])
        if reason:
            msg += ': ' + reason
        return ApiError(403, 'forbidden: ' + msg, 'Forbidden', {})
    resource = attrs['resource'] + ('/' + attrs['subresource'] if attrs['subresource'] else '')
    if attrs['namespace']:
        msg = 'User "%s" cannot %s resource "%s" in API group "%s" in the namespace "%s"' % (
            user, attrs['verb'], resource, attrs['group'], attrs['namespace'])
    else:
        msg = 'User "%s" cannot %s resource "%s" in API group "%s" at the cluster scope' % (
            user, attrs['verb'], resource, attrs['group'])
    if reason:
        msg += ': ' + reason
    gr = attrs['resource'] + ('.' + attrs['group'] if attrs['group'] else '')
    details = {}
    if attrs['name']:
        details['name'] = attrs['name']
        message = '%s "%s" is forbidden: %s' % (gr, attrs['name'], msg)
    else:
        message = '%s is forbidden: %s' % (gr, msg)
    if attrs['group']:
        details['group'] = attrs['group']
    details['kind'] = attrs['resource']
    return ApiError(403, message, 'Forbidden', details)


# ----------------------------------------------------------------------------------------
# request attributes (k8s.io/apiserver pkg/endpoints/request/requestinfo.go)

def request_attrs(method, path, query):
    a = {'path': path, 'resource_request': False, 'verb': method.lower(), 'group': '',
         'version': '', 'namespace': '', 'resource': '', 'subresource': '', 'name': '',
         'parts': []}
    parts = [p for p in path.strip('/').split('/')]
    if not parts or parts[0] not in ('api', 'apis'):
        return a
    if parts[0] == 'api':
        if len(parts) < 3:
            return a
        a['version'] = parts[1]
        rest = parts[2:]
    else:
        if len(parts) < 4:
            return a
        a['group'] = parts[1]
        a['version'] = parts[2]
        rest = parts[3:]
    a['resource_request'] = True
    verb = {'GET': 'get', 'HEAD': 'get', 'POST': 'create', 'PUT': 'update', 'PATCH': 'patch',
            'DELETE': 'delete'}.get(method, method.lower())
    if rest[0] == 'namespaces' and len(rest) > 1:
        a['namespace'] = rest[1]
        if len(rest) > 2 and rest[2] not in ('status', 'finalize'):
            rest = rest[2:]
    a['resource'] = rest[0]
    if len(rest) > 1:
        a['name'] = rest[1]
    if len(rest) > 2:
        a['subresource'] = rest[2]
    a['parts'] = rest
    watch = (query.get('watch', [''])[0] in ('1', 'true'))
    if verb == 'get' and not a['name']:
        verb = 'watch' if watch else 'list'
    elif verb == 'delete' and not a['name']:
        verb = 'deletecollection'
    a['verb'] = verb
    return a


# ----------------------------------------------------------------------------------------
# content negotiation

def parse_accept(header):
    out = []
    for part in (header or '').split(','):
        part = part.strip()
        if not part:
            continue
        fields = [x.strip() for x in part.split(';')]
        params = {}
        for p in fields[1:]:
            if '=' in p:
                k, v = p.split('=', 1)
                params[k.strip()] = v.strip()
        out.append((fields[0].lower(), params))
    return out


def json_ok(mt):
    return mt in ('application/json', '*/*', 'application/*')


def negotiate(header, allow_table=False, allow_aggregated=False):
    """Returns ('json'|'table'|'aggregated-v2'|'aggregated-v2beta1', content_type) or raises 406."""
    entries = parse_accept(header) or [('*/*', {})]
    for mt, params in entries:
        if not json_ok(mt):
            continue
        as_ = params.get('as')
        if as_ is None:
            return 'json', 'application/json'
        if as_ == 'Table' and allow_table and params.get('g') == 'meta.k8s.io' and \
                params.get('v') in ('v1', 'v1beta1'):
            return 'table', 'application/json;as=Table;v=%s;g=meta.k8s.io' % params['v']
        if as_ == 'APIGroupDiscoveryList' and allow_aggregated and \
                params.get('g') == 'apidiscovery.k8s.io' and params.get('v') in ('v2', 'v2beta1'):
            return ('aggregated-' + params['v'],
                    'application/json;g=apidiscovery.k8s.io;v=%s;as=APIGroupDiscoveryList'
                    % params['v'])
    raise ApiError(406, 'only the following media types are accepted: application/json, '
                   'application/yaml, application/vnd.kubernetes.protobuf', 'NotAcceptable')


# ----------------------------------------------------------------------------------------
# discovery

def storage_version_hash(group, version, kind):
    h = hashlib.sha256(('%s/%s/%s' % (group, version, kind)).encode()).digest()[:8]
    return base64.b64encode(h).decode()


def legacy_resource_list(store, group, version):
    out = []
    for r in store.resources_in(group, version):
        e = {'name': r.plural, 'singularName': r.singular, 'namespaced': r.namespaced,
             'kind': r.kind, 'verbs': r.verbs}
        if r.short:
            e['shortNames'] = r.short
        if r.categories:
            e['categories'] = r.categories
        if 'create' in r.verbs and 'get' in r.verbs:
            e['storageVersionHash'] = storage_version_hash(r.group, r.version, r.kind)
        out.append(e)
        for sub, kind, verbs in r.subresources:
            s = {'name': r.plural + '/' + sub, 'singularName': '', 'namespaced': r.namespaced,
                 'kind': kind or r.kind, 'verbs': verbs}
            if sub == 'scale':
                s['group'] = 'autoscaling'
                s['version'] = 'v1'
            if sub == 'eviction':
                s['group'] = 'policy'
                s['version'] = 'v1'
            out.append(s)
    out.sort(key=lambda e: e['name'])
    return {'kind': 'APIResourceList', 'apiVersion': 'v1',
            'groupVersion': (group + '/' + version) if group else version, 'resources': out}


def aggregated_version(store, group, version):
    res = []
    for r in store.resources_in(group, version):
        e = {'resource': r.plural,
             'responseKind': {'group': r.group, 'version': r.version, 'kind': r.kind},
             'scope': 'Namespaced' if r.namespaced else 'Cluster',
             'singularResource': r.singular, 'verbs': r.verbs}
        if r.short:
            e['shortNames'] = r.short
        if r.categories:
            e['categories'] = r.categories
        subs = []
        for sub, kind, verbs in r.subresources:
            rk = {'group': r.group, 'version': r.version, 'kind': kind or r.kind}
            if sub == 'scale':
                rk = {'group': 'autoscaling', 'version': 'v1', 'kind': 'Scale'}
            if sub == 'eviction':
                rk = {'group': 'policy', 'version': 'v1', 'kind': 'Eviction'}
            subs.append({'subresource': sub, 'responseKind': rk, 'verbs': verbs})
        if subs:
            e['subresources'] = subs
        res.append(e)
    return {'version': version, 'resources': res, 'freshness': 'Current'}


def aggregated_list(store, core, apiver):
    items = []
    for g, versions in store.group_versions():
        if core != (g == ''):
            continue
        md = {'creationTimestamp': None}
        if g:
            md['name'] = g
        items.append({'metadata': md,
                      'versions': [aggregated_version(store, g, v) for v in versions]})
    return {'kind': 'APIGroupDiscoveryList', 'apiVersion': 'apidiscovery.k8s.io/' + apiver,
            'metadata': {}, 'items': items}


def api_group(g, versions):
    vs = [{'groupVersion': g + '/' + v, 'version': v} for v in versions]
    return {'name': g, 'versions': vs, 'preferredVersion': vs[0]}


# ----------------------------------------------------------------------------------------
# the server

class Config:
    pass


class Response:
    def __init__(self, code, body=b'', ctype='application/json', headers=None, stream=None,
                 compress=True):
        self.compress = compress    # the API's gzip rule; proxied bodies pass through as is
        self.code = code
        self.body = body
        self.ctype = ctype
        self.headers = dict(headers or {})
        self.stream = stream        # generator of bytes chunks (watch)
        self.gz = None              # the gzip-compressed body, made once (see --cache-pages)
        self.items = None           # a list page: its number of items (logged: make bench)


class FakeApiServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, addr, handler, cfg):
        self.cfg = cfg
        super().__init__(addr, handler)

    def finish_request(self, request, client_address):
        # the TLS handshake runs in the connection's own thread, so a stalled client
        # cannot block accept()
        request.settimeout(30)
        try:
            # answers go out in one write; without this a small answer after the headers
            # waits for the client's delayed ACK (Nagle): ~40 ms a request
            request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass
        try:
            tls = self.cfg.ssl_ctx.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError) as e:
            sys.stderr.write('fakeapi: TLS handshake with %s:%d failed: %s\n'
                             % (client_address[0], client_address[1], e))
            return
        try:
            self.RequestHandlerClass(tls, client_address, self)
        finally:
            try:
                tls.close()
            except OSError:
                pass

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, ssl.SSLError, socket.timeout, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    server_version = 'fakeapi'
    timeout = 120

    def log_message(self, fmt, *args):       # silence the default stderr access log
        pass

    # -- helpers

    @property
    def cfg(self):
        return self.server.cfg

    def _read_body(self):
        n = int(self.headers.get('Content-Length') or 0)
        return self.rfile.read(n) if n > 0 else b''

    def _authenticate(self):
        """Returns (kind, user, groups) or raises ApiError(401)."""
        cfg = self.cfg
        kind = 'none'
        cert = None
        try:
            cert = self.connection.getpeercert()
        except (ValueError, AttributeError):
            cert = None
        auth = self.headers.get('Authorization') or ''
        if cert:
            subj = {}
            for rdn in cert.get('subject', ()):
                for k, v in rdn:
                    subj.setdefault(k, []).append(v)
            cn = (subj.get('commonName') or [''])[0]
            groups = subj.get('organizationName') or []
            if cn:
                return 'cert', cn, groups + ['system:authenticated']
        if auth[:7].lower() == 'bearer ':
            kind = 'token'
            tok = auth[7:].strip()
            ident = cfg.tokens.get(tok)
            if ident is None:
                raise ApiError(401, 'Unauthorized', 'Unauthorized')
            return kind, ident[0], ident[1] + ['system:authenticated']
        if auth[:6].lower() == 'basic ':
            kind = 'basic'
            try:
                user, _, pw = base64.b64decode(auth[6:].strip()).decode('utf-8').partition(':')
            except (ValueError, UnicodeDecodeError):
                raise ApiError(401, 'Unauthorized', 'Unauthorized')
            ident = cfg.basic.get(user)
            if ident is None or ident[0] != pw:
                raise ApiError(401, 'Unauthorized', 'Unauthorized')
            return kind, user, ident[1] + ['system:authenticated']
        if cfg.anonymous:
            return 'none', 'system:anonymous', ['system:unauthenticated']
        raise ApiError(401, 'Unauthorized', 'Unauthorized')

    def _authorize(self, user, groups, attrs):
        if user == 'system:anonymous':
            public = ('/version', '/version/', '/healthz', '/livez', '/readyz')
            if attrs['resource_request'] or attrs['path'] not in public:
                raise forbidden_error(user, attrs)
            return
        if not attrs['resource_request']:
            rules, _ = self.cfg.rbac.get()
            for r in rules + self.cfg.deny:
                if 'path' in r and rule_matches(r, user, groups, attrs):
                    raise forbidden_error(user, attrs, r.get('reason', ''))
            if self.cfg.role is not None and not DISCOVERY_PATH.match(attrs['path']):
                raise forbidden_error(user, attrs)
            return
        if attrs['resource'] == 'selfsubjectaccessreviews':
            return
        rules, _ = self.cfg.rbac.get()
        for r in rules + self.cfg.deny:
            if rule_matches(r, user, groups, attrs):
                raise forbidden_error(user, attrs, r.get('reason', ''))
        if self.cfg.role is not None:
            granted = [i for i, r in enumerate(self.cfg.role) if role_grants(r, attrs)]
            if not granted:
                raise forbidden_error(user, attrs)
            if attrs['verb'] != 'impersonate':
                self._log['roleRules'] = ' '.join(str(i) for i in granted)

    def _is_denied(self, user, groups, attrs):
        try:
            self._authorize(user, groups, attrs)
            return False
        except ApiError:
            return True

    # -- entry points

    def do_GET(self):
        self._dispatch('GET')

    def do_HEAD(self):
        self._dispatch('HEAD')

    def do_POST(self):
        self._dispatch('POST')

    def do_PUT(self):
        self._dispatch('PUT')

    def do_PATCH(self):
        self._dispatch('PATCH')

    def do_DELETE(self):
        self._dispatch('DELETE')

    def _logged_headers(self):
        """Every request header for the request log (lower-case name -> value; repeated headers
        joined by ", "), credentials never in the clear: an Authorization value is logged as its
        scheme and the first 16 hex digits of the SHA-256 of the credential after it
        ("Bearer sha256:0123456789abcdef"), so a test can check the scheme and which credential
        was sent without the log holding it."""
        out = {}
        for name in self.headers.keys():
            key = name.lower()
            if key in out:
                continue
            val = ', '.join(self.headers.get_all(name) or [])
            if key in ('authorization', 'proxy-authorization'):
                scheme, _, cred = val.partition(' ')
                val = '%s sha256:%s' % (scheme, hashlib.sha256(cred.encode()).hexdigest()[:16])
            elif key == 'cookie':
                val = 'sha256:%s' % hashlib.sha256(val.encode()).hexdigest()[:16]
            out[key] = val
        return out

    def _dispatch(self, method):
        started = time.monotonic()
        with self.cfg.idle:              # in flight until logged (see main: the log is complete)
            self.cfg.inflight += 1
        body_in = self._read_body() if method in ('POST', 'PUT', 'PATCH', 'DELETE') else b''
        u = urllib.parse.urlsplit(self.path)
        path = urllib.parse.unquote(u.path) or '/'
        raw_query = u.query
        query = urllib.parse.parse_qs(raw_query, keep_blank_values=True)
        self._log = {'method': method, 'path': path, 'query': raw_query, 'auth': 'none',
                     'user': '', 'status': 0, 'bytes': 0, 'headers': self._logged_headers()}
        for h, k in (('User-Agent', 'userAgent'), ('Accept', 'accept')):
            if self.headers.get(h):
                self._log[k] = self.headers[h]
        fault = None
        try:
            try:
                kind, user, groups = self._authenticate()
            except ApiError:
                auth = self.headers.get('Authorization') or ''
                self._log['auth'] = ('token' if auth[:7].lower() == 'bearer ' else
                                     'basic' if auth[:6].lower() == 'basic ' else 'none')
                raise
            self._log['auth'] = kind
            self._log['user'] = user
            imp = self.headers.get('Impersonate-User')
            if imp:
                # impersonation filter: the real user needs "impersonate" on users
                iattrs = {'path': path, 'resource_request': True, 'verb': 'impersonate',
                          'group': '', 'version': 'v1', 'namespace': '', 'resource': 'users',
                          'subresource': '', 'name': imp}
                self._authorize(user, groups, iattrs)
                user = imp
                groups = (self.headers.get_all('Impersonate-Group') or []) + ['system:authenticated']
                self._log['impersonatedBy'] = self._log['user']
                self._log['user'] = user
            fault = self.cfg.faults.match(method, path, raw_query, user)
            if fault is not None:
                self._log['fault'] = fault['name']
                if fault.get('delay'):
                    time.sleep(float(fault['delay']))
                if fault['action'] == 'delay':
                    time.sleep(float(fault.get('seconds', 1)))
                elif fault['action'] in ('status', 'expired'):
                    raise self._fault_error(fault, method, path, query)
                elif fault['action'] == 'invalid':
                    self._send(Response(int(fault.get('code', 200)),
                                        fault.get('body', '<html><head><title>502 Bad Gateway'
                                                  '</title></head><body>nginx</body></html>\n'
                                                  ).encode(),
                                        fault.get('contentType', 'application/json'),
                                        fault.get('headers')))
                    return
                elif fault['action'] == 'body':
                    self._send(Response(int(fault.get('code', 200)),
                                        fault.get('body', '').encode(),
                                        fault.get('contentType', 'application/json'),
                                        fault.get('headers')))
                    return
                elif fault['action'] == 'watch-stream':
                    self._send(Response(200, stream=watch_stream_fault(fault), ctype='application/json'))
                    return
                elif fault['action'] in ('close', 'reset'):
                    self._abort(reset=fault['action'] == 'reset')
                    self._log['status'] = 0
                    return
            attrs = request_attrs(method, path, query)
            self._authorize(user, groups, attrs)
            self._user, self._groups = user, groups
            resp = self._route(method, path, query, attrs, body_in)
            if fault is not None and fault.get('headers'):
                resp.headers.update(fault['headers'])
            if fault is not None and fault['action'] in ('cut', 'truncate', 'stall'):
                self._send_mangled(resp, fault)
            else:
                self._send(resp, head=(method == 'HEAD'))
        except ApiError as e:
            hdrs = dict(e.headers)
            if fault is not None and fault.get('headers'):
                hdrs.update(fault['headers'])
            if e.code == 429 and e.status.get('_apf'):
                self._send(Response(429, APF_429_BODY.encode(), 'text/plain; charset=utf-8',
                                    dict(hdrs, **{'X-Content-Type-Options': 'nosniff'})))
            else:
                st = {k: v for k, v in e.status.items() if not k.startswith('_')}
                self._send(Response(e.code, jdump(st), 'application/json', hdrs))
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, socket.timeout):
            self.close_connection = True
        except Exception as e:          # a bug in the fake server: answer 500 and say so
            import traceback
            traceback.print_exc()
            try:
                self._send(Response(500, jdump(status_obj(
                    500, 'Internal error occurred: fakeapi: %s' % e, 'InternalError')), 'application/json'))
            except OSError:
                pass
        finally:
            if not getattr(self, '_logged', False):
                self._log['ms'] = int((time.monotonic() - started) * 1000)
                self.cfg.write_log(self._log)
            self._logged = False
            with self.cfg.idle:
                self.cfg.inflight -= 1
                self.cfg.idle.notify_all()

    # -- faults

    def _fault_error(self, f, method, path, query):
        hdrs = dict(f.get('headers') or {})
        if f['action'] == 'expired':
            store = self.cfg.store
            if f.get('compact', True):
                # etcd compacted the list's revision: writes happened (RV moves on) and every
                # continue token of the old snapshot is expired from now on
                with self.cfg.store_lock:
                    store.compacted_rv = store.resource_version + 1
                    store.resource_version += 1
            token = None
            if f.get('fresh', True):
                try:
                    start, _rv = decode_continue(query.get('continue', [''])[0])
                    token = encode_continue(start, -1)   # -1: continue at the latest RV
                except ContinueError:
                    token = None
            msg = EXPIRED_MSG_FRESH if token else EXPIRED_MSG_PLAIN
            return ApiError(410, f.get('message', msg), 'Expired', None, hdrs, token)
        code = int(f.get('code', 500))
        retry = f.get('retryAfter')
        if retry is not None:
            hdrs['Retry-After'] = str(retry)
        if code == 429 and f.get('apf', True) and 'message' not in f:
            hdrs.setdefault('Retry-After', '1')
            hdrs.setdefault('X-Kubernetes-PF-FlowSchema-UID', FLOWSCHEMA_UID)
            hdrs.setdefault('X-Kubernetes-PF-PriorityLevel-UID', PRIORITYLEVEL_UID)
            e = ApiError(429, headers=hdrs)
            e.status['_apf'] = True
            return e
        if code == 403 and 'message' not in f:
            attrs = request_attrs(method, path, query)
            e = forbidden_error(getattr(self, '_log', {}).get('user', ''), attrs, f.get('reason', ''))
            e.headers = hdrs
            return e
        if code == 404 and 'message' not in f:
            attrs = request_attrs(method, path, query)
            if attrs['resource_request'] and attrs['name']:
                res = self.cfg.store.lookup(attrs['group'], attrs['version'], attrs['resource'])
                if res is not None:
                    e = not_found(res, attrs['name'])
                    e.headers = hdrs
                    return e
            return ApiError(404, headers=hdrs, details={})
        details = None
        if retry is not None:
            details = {'retryAfterSeconds': int(retry)}
        if 'causes' in f:
            details = dict(details or {}, causes=f['causes'])
        return ApiError(code, f.get('message'), f.get('reason'), details, hdrs)

    def _abort(self, reset=False):
        self.close_connection = True
        try:
            self.wfile.flush()
        except OSError:
            pass
        try:
            if reset:
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                           struct.pack('ii', 1, 0))
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    # -- responses

    def _common_headers(self, resp):
        self.send_header('Audit-Id', str(uuid.uuid4()))
        self.send_header('Cache-Control', 'no-cache, private')
        self.send_header('Content-Type', resp.ctype)
        self.send_header('Date', self.date_time_string())
        if self._log.get('auth') != 'none' or self._log.get('user'):
            self.send_header('X-Kubernetes-Pf-Flowschema-Uid', FLOWSCHEMA_UID)
            self.send_header('X-Kubernetes-Pf-Prioritylevel-Uid', PRIORITYLEVEL_UID)
        for k, v in resp.headers.items():
            self.send_header(k, str(v))

    def _encode(self, resp):
        """Applies the real server's gzip rule; returns (body, gzipped)."""
        ae = self.headers.get('Accept-Encoding') or ''
        wants = any(t.split(';')[0].strip().lower() == 'gzip' for t in ae.split(','))
        if resp.body is None:           # a page cached gzipped only (--lean --cache-pages)
            return (resp.gz, True) if wants else (gzip.decompress(resp.gz), False)
        if wants and resp.compress and len(resp.body) > GZIP_THRESHOLD:
            if resp.gz is None:
                resp.gz = gzip.compress(resp.body, compresslevel=1)
            return resp.gz, True
        return resp.body, False

    def _send(self, resp, head=False):
        self._log['status'] = resp.code
        if resp.items is not None:
            self._log['items'] = resp.items
        if resp.stream is not None:
            return self._send_stream(resp)
        body, gz = self._encode(resp)
        self.send_response_only(resp.code)
        self._common_headers(resp)
        if gz:
            self.send_header('Content-Encoding', 'gzip')
            self.send_header('Vary', 'Accept-Encoding')
            self._log['gzip'] = True
        chunked = len(body) >= CHUNKING_THRESHOLD
        if chunked:
            self.send_header('Transfer-Encoding', 'chunked')
        else:
            self.send_header('Content-Length', str(len(body)))
        # headers and body in one write (one TLS record stream, no Nagle wait in between)
        self._headers_buffer.append(b'\r\n')
        out = [b''.join(self._headers_buffer)]
        self._headers_buffer = []
        if head:
            self.wfile.write(out[0])
            return
        if chunked:
            mv = memoryview(body)
            for i in range(0, len(body), 65536):
                piece = mv[i:i + 65536]
                out.append(b'%x\r\n' % len(piece))
                out.append(piece)
                out.append(b'\r\n')
            out.append(b'0\r\n\r\n')
        else:
            out.append(body)
        self.wfile.write(b''.join(out))
        self._log['bytes'] = len(body)

    def _send_mangled(self, resp, f):
        """cut: headers promise the whole body, part is sent, then the connection drops.
        truncate: a valid HTTP response whose body is a prefix of the real one.
        stall: headers and part of the body, then nothing for `seconds`."""
        body, gz = self._encode(resp)
        self._log['status'] = resp.code
        after = f.get('after')
        if after is None:
            after = len(body) // 2 if f['action'] != 'stall' else 0
        after = max(0, min(int(after), len(body)))
        self.send_response_only(resp.code)
        self._common_headers(resp)
        if gz:
            self.send_header('Content-Encoding', 'gzip')
        if f['action'] == 'truncate':
            self.send_header('Content-Length', str(after))
            self.end_headers()
            self.wfile.write(body[:after])
            self._log['bytes'] = after
            return
        if f.get('chunked', False):
            self.send_header('Transfer-Encoding', 'chunked')
            self.end_headers()
            if after:
                self.wfile.write(b'%x\r\n%s\r\n' % (after, body[:after]))
        else:
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body[:after])
        self.wfile.flush()
        self._log['bytes'] = after
        if f['action'] == 'stall':
            deadline = time.monotonic() + float(f.get('seconds', 600))
            while time.monotonic() < deadline and not self.cfg.stopping.is_set():
                time.sleep(0.1)
        self._abort(reset=bool(f.get('reset')))

    def _client_gone(self):
        """During a watch the client sends nothing: a readable socket means it closed."""
        try:
            r, _, _ = select.select([self.connection], [], [], 0)
        except (OSError, ValueError):
            return True
        return bool(r)

    def _send_stream(self, resp):
        self.send_response_only(resp.code)
        self._common_headers(resp)
        self.send_header('Transfer-Encoding', 'chunked')
        self.end_headers()
        self.wfile.flush()
        # a stream is logged when it starts (it may last long, or end with the client)
        self._log['stream'] = True
        self.cfg.write_log(dict(self._log, ms=0))
        self._logged = True
        try:
            for piece in resp.stream:
                if piece:
                    self.wfile.write(b'%x\r\n%s\r\n' % (len(piece), piece))
                    self.wfile.flush()
                elif self._client_gone():
                    self.close_connection = True
                    return
        except BreakStream:
            # cut: the chunked body never ends (the client sees a broken transfer)
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        self.wfile.write(b'0\r\n\r\n')

    def _json(self, obj, code=200, ctype='application/json'):
        return Response(code, jdump(obj), ctype)

    # -- routing

    def _route(self, method, path, query, attrs, body_in):
        cfg = self.cfg
        store = cfg.store
        if path in ('/healthz', '/livez', '/readyz'):
            return Response(200, b'ok', 'text/plain; charset=utf-8',
                            {'X-Content-Type-Options': 'nosniff'})
        if cfg.writer and path == '/openapi/v2' and method == 'GET':
            # an empty OpenAPI v2 document (protobuf: zero bytes): kubectl's client-side
            # validation finds no schema for any kind and skips it, as with CRDs without one
            return Response(200, b'', 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf')
        if method not in ('GET', 'HEAD') and not attrs['resource_request']:
            raise ApiError(405, reason='MethodNotAllowed', details={})
        if path in ('/version', '/version/'):
            return self._json(cfg.version_info)
        accept = self.headers.get('Accept')
        if path in ('/api', '/api/'):
            kind, ctype = negotiate(accept, allow_aggregated=cfg.aggregated)
            if kind.startswith('aggregated'):
                return self._json(aggregated_list(store, True, kind.split('-')[1]), ctype=ctype)
            return self._json({'kind': 'APIVersions', 'versions': ['v1'],
                               'serverAddressByClientCIDRs': [
                                   {'clientCIDR': '0.0.0.0/0',
                                    'serverAddress': '%s:%d' % self.server.server_address[:2]}]})
        if path in ('/apis', '/apis/'):
            kind, ctype = negotiate(accept, allow_aggregated=cfg.aggregated)
            if kind.startswith('aggregated'):
                return self._json(aggregated_list(store, False, kind.split('-')[1]), ctype=ctype)
            groups = [api_group(g, vs) for g, vs in store.group_versions() if g]
            return self._json({'kind': 'APIGroupList', 'apiVersion': 'v1', 'groups': groups})
        if path in ('/api/v1', '/api/v1/'):
            negotiate(accept)
            return self._json(legacy_resource_list(store, '', 'v1'))
        m = re.match(r'^/apis/([^/]+)/?$', path)
        if m:
            negotiate(accept)
            for g, vs in store.group_versions():
                if g == m.group(1):
                    d = api_group(g, vs)
                    d.update({'kind': 'APIGroup', 'apiVersion': 'v1'})
                    return self._json(d)
            raise ApiError(404, details={})
        m = re.match(r'^/apis/([^/]+)/([^/]+)/?$', path)
        if m:
            negotiate(accept)
            for g, vs in store.group_versions():
                if g == m.group(1) and m.group(2) in vs:
                    return self._json(legacy_resource_list(store, g, m.group(2)))
            raise ApiError(404, details={})
        if not attrs['resource_request']:
            raise ApiError(404, details={})
        served = any(g == attrs['group'] and attrs['version'] in vs
                     for g, vs in store.group_versions())
        if (served and attrs['group'] == 'visibility.kueue.x-k8s.io' and attrs['resource'] == 'clusterqueues'
                and attrs['subresource'] == 'pendingworkloads' and method in ('GET', 'HEAD')):
            # Kueue's aggregated visibility API (pkg/visibility/storage/pending_workloads_cq.go):
            # the fixture's PendingWorkloadsSummary named after the ClusterQueue is the answer
            vres = store.lookup(attrs['group'], attrs['version'], 'pendingworkloadssummaries')
            obj = store.get(vres, '', attrs['name']) if vres else None
            if obj is None:
                raise ApiError(404, details={})
            return self._json(obj)
        res = store.lookup(attrs['group'], attrs['version'], attrs['resource']) if served else None
        if res is None:
            raise ApiError(404, details={})
        if method == 'POST' and res.plural == 'selfsubjectaccessreviews':
            return self._ssar(body_in)
        sub = attrs['subresource']
        if sub == 'proxy' and res.group == '' and res.plural in ('services', 'pods'):
            return self._proxy(method, res, attrs, query)
        if method not in ('GET', 'HEAD') and cfg.writer:
            with cfg.store_lock:
                code, obj = cfg.writer.write(method, res, attrs, query, body_in,
                                             self.headers.get('Content-Type') or '')
            return self._json(obj, code=code)
        if method not in ('GET', 'HEAD'):
            raise ApiError(405, reason='MethodNotAllowed', details={})
        if 'get' not in res.verbs:
            raise ApiError(405, reason='MethodNotAllowed', details={})
        if attrs['namespace'] and not res.namespaced and res.plural != 'namespaces':
            raise ApiError(404, details={})
        if res.namespaced is False and attrs['namespace'] and res.plural == 'namespaces':
            # /api/v1/namespaces/{name}
            return self._get_one(res, '', attrs['name'], query)
        if sub:
            if sub == 'status' and any(s[0] == 'status' for s in res.subresources):
                return self._get_one(res, attrs['namespace'], attrs['name'], query)
            if sub == 'log' and res.plural == 'pods':
                obj = store.get(res, attrs['namespace'], attrs['name'])
                if obj is None:
                    raise not_found(res, attrs['name'])
                return Response(200, b'', 'text/plain')
            raise ApiError(404, details={})
        if attrs['name']:
            return self._get_one(res, attrs['namespace'], attrs['name'], query)
        if attrs['verb'] == 'watch':
            return self._watch(res, attrs['namespace'], query)
        return self._list(res, attrs['namespace'], query)

    def _table_kind(self):
        kind, ctype = negotiate(self.headers.get('Accept'), allow_table=True)
        return kind == 'table', ctype

    def _get_one(self, res, namespace, name, query):
        as_table, ctype = self._table_kind()
        obj = self.cfg.store.get(res, namespace, name)
        if obj is None:
            raise not_found(res, name)
        obj = dict(obj)
        obj['kind'] = res.kind
        obj['apiVersion'] = res.api_version
        if as_table:
            t = to_table(res, [obj], {'resourceVersion': obj['metadata'].get('resourceVersion', '')},
                         self.cfg.now(), query.get('includeObject', ['Metadata'])[0])
            return self._json(t, ctype=ctype)
        return self._json(obj, ctype=ctype)

    def _selectors(self, res, query):
        try:
            ls = LabelSelector(query.get('labelSelector', [''])[0])
        except SelectorError as e:
            raise bad_request(str(e))
        try:
            fs = FieldSelector(query.get('fieldSelector', [''])[0])
            fs.check_supported(res.field_labels)
        except SelectorError as e:
            raise bad_request(str(e))
        return ls, fs

    def _list(self, res, namespace, query):
        # --cache-pages (make bench): a list page answered before, at the same resource
        # version, is sent again as it was rendered and compressed then, so that the client,
        # not this server, is what a benchmark measures
        cache = self.cfg.page_cache
        if cache is None:
            return self._list_render(res, namespace, query)
        key = (self.path, self.headers.get('Accept') or '', self.cfg.store.resource_version)
        resp = cache.get(key)
        if resp is None:
            resp = self._list_render(res, namespace, query)
            if resp.code == 200:
                if self.cfg.lean and resp.compress and len(resp.body) > GZIP_THRESHOLD:
                    # --lean: the page is kept gzipped only (a cluster's pages are GBs of JSON)
                    resp.gz = gzip.compress(resp.body, compresslevel=1)
                    resp.body = None
                cache[key] = resp
        return resp

    def _list_render(self, res, namespace, query):
        store = self.cfg.store
        as_table, ctype = self._table_kind()
        q = {k: v[0] for k, v in query.items()}
        rv = q.get('resourceVersion', '')
        rvm = q.get('resourceVersionMatch', '')
        cont = q.get('continue', '')
        limit = 0
        if q.get('limit'):
            try:
                limit = int(q['limit'])
            except ValueError:
                raise bad_request('strconv.ParseInt: parsing "%s": invalid syntax' % q['limit'])
        errs = []
        if rvm:
            if not rv:
                errs.append('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden '
                            'unless resourceVersion is provided')
            if cont:
                errs.append('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden '
                            'when continue is provided')
            if rvm not in ('Exact', 'NotOlderThan'):
                errs.append('resourceVersionMatch: Unsupported value: "%s": supported values: '
                            '"Exact", "NotOlderThan", ""' % rvm)
            elif rvm == 'Exact' and rv == '0':
                errs.append('resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is '
                            'forbidden for resourceVersion "0"')
        if errs:
            raise ApiError(422, 'ListOptions.meta.k8s.io "" is invalid: ' + (
                errs[0] if len(errs) == 1 else '[' + ', '.join(errs) + ']'), 'Invalid',
                {'kind': 'ListOptions', 'group': 'meta.k8s.io',
                 'causes': [{'reason': 'FieldValueForbidden', 'message': e.split(': ', 1)[1],
                             'field': e.split(':', 1)[0]} for e in errs]})
        ls, fs = self._selectors(res, query)
        list_rv = store.resource_version
        start = None
        if cont:
            if rv and rv != '0':
                raise bad_request('specifying resource version is not allowed when using continue')
            try:
                start, tok_rv = decode_continue(cont)
            except ContinueError as e:
                raise bad_request('invalid continue token: %s' % e)
            if tok_rv > store.resource_version:
                raise ApiError(504, 'Too large resource version: %d, current: %d'
                               % (tok_rv, store.resource_version), 'Timeout',
                               {'causes': [{'reason': 'ResourceVersionTooLarge',
                                            'message': 'Too large resource version'}],
                                'retryAfterSeconds': 1}, {'Retry-After': '1'})
            if tok_rv == -1:
                list_rv = store.resource_version      # continue at the latest RV (inconsistent)
            elif tok_rv < store.compacted_rv:
                raise ApiError(410, EXPIRED_MSG_FRESH, 'Expired',
                               continue_token=encode_continue(start, -1))
            else:
                list_rv = tok_rv
        elif rv:
            try:
                n = int(rv)
                if n < 0:
                    raise ValueError
            except ValueError:
                raise bad_request('invalid resource version: strconv.ParseUint: parsing "%s": '
                                  'invalid syntax' % rv)
            if n > store.resource_version:
                raise ApiError(504, 'Too large resource version: %d, current: %d'
                               % (n, store.resource_version), 'Timeout',
                               {'causes': [{'reason': 'ResourceVersionTooLarge',
                                            'message': 'Too large resource version'}],
                                'retryAfterSeconds': 1}, {'Retry-After': '1'})
            if rv == '0' or rvm == 'NotOlderThan':
                limit = 0        # served from the watch cache, which ignores limit for rv=0
            elif n and n < store.compacted_rv and (rvm == 'Exact' or limit):
                raise ApiError(410, 'The resourceVersion for the provided list is too old.',
                               'Expired')
        items, token, remaining = store.list_page(
            res, namespace, ls, fs, limit, start, list_rv,
            sel_key=(q.get('labelSelector', ''), q.get('fieldSelector', '')))
        meta = {'resourceVersion': str(list_rv)}
        if token:
            meta['continue'] = token
        if remaining is not None:
            meta['remainingItemCount'] = remaining
        if as_table:
            t = to_table(res, items, meta, self.cfg.now(), q.get('includeObject', 'Metadata'))
            return self._json(t, ctype=ctype)
        # the list's JSON is jdump's, assembled from each item's encoding (made once)
        head = jdump({'kind': res.list_kind, 'apiVersion': res.api_version, 'metadata': meta})
        parts = [store.item_json(it, res.builtin) for it in items]
        body = b''.join((head[:-2], b',"items":[', b','.join(parts), b']}\n'))
        resp = Response(200, body, ctype)
        resp.items = len(items)
        return resp

    def _watch(self, res, namespace, query):
        store = self.cfg.store
        as_table, ctype = self._table_kind()
        q = {k: v[0] for k, v in query.items()}
        ls, fs = self._selectors(res, query)
        rv = q.get('resourceVersion', '')
        try:
            timeout = float(q.get('timeoutSeconds') or self.cfg.watch_timeout)
        except ValueError:
            raise bad_request('timeoutSeconds: invalid value')
        timeout = min(timeout, self.cfg.watch_timeout)
        matched, _ = store.select(res, namespace, ls, fs)
        send_initial = rv in ('', '0') or q.get('sendInitialEvents') == 'true'
        log = self.cfg.changes
        log.watch_requests += 1
        log.first_watch.set()
        if rv not in ('', '0'):
            try:
                oldest = max(store.compacted_rv, log.floor)
                if int(rv) < oldest:
                    ev = {'type': 'ERROR', 'object': status_obj(
                        410, 'too old resource version: %s (%d)' % (rv, oldest),
                        'Expired')}
                    return Response(200, stream=iter([jdump(ev)]), ctype='application/json')
            except ValueError:
                raise bad_request('invalid resource version: %s' % rv)
        bookmarks = q.get('allowWatchBookmarks') in ('true', '1')
        now = self.cfg.now
        stopping = self.cfg.stopping

        def gen():
            first = True
            if send_initial:
                for _, o in matched:
                    o = dict(o)
                    o['kind'] = res.kind
                    o['apiVersion'] = res.api_version
                    if as_table:
                        obj = to_table(res, [o], {'resourceVersion': o['metadata'].get('resourceVersion', '')},
                                       now(), q.get('includeObject', 'Metadata'), no_headers=not first)
                        first = False
                    else:
                        obj = o
                    yield jdump({'type': 'ADDED', 'object': obj})
            # a BOOKMARK at the start only ends the initial events of a watch-list
            # (sendInitialEvents=true); a plain watch gets its first one later (k8s_watch.py)
            if bookmarks and q.get('sendInitialEvents') == 'true':
                md = {'resourceVersion': str(store.resource_version),
                      'annotations': {'k8s.io/initial-events-end': 'true'}}
                yield jdump({'type': 'BOOKMARK', 'object': {
                    'kind': res.kind, 'apiVersion': res.api_version, 'metadata': md}})
            start_rv = store.resource_version if rv in ('', '0') else int(rv)

            def matches(o):
                if ls is not None and not ls.matches((o.get('metadata') or {}).get('labels')):
                    return False
                return fs is None or fs.matches(field_values(res, o))

            def encode(ev):
                if as_table and ev['type'] != 'BOOKMARK':
                    ev = dict(ev, object=to_table(res, [ev['object']], {'resourceVersion': ev['object'][
                        'metadata'].get('resourceVersion', '')}, now(), q.get('includeObject', 'Metadata'),
                        no_headers=True))
                return jdump(ev)
            yield from watch_events(log, res, namespace, matches, start_rv, timeout, bookmarks,
                                    self.cfg.bookmark_every, stopping, encode, res.kind)
        return Response(200, stream=gen(), ctype=ctype if as_table else 'application/json')

    def _ssar(self, body_in):
        try:
            req = json.loads(body_in.decode('utf-8') or '{}')
        except ValueError as e:
            raise bad_request('error decoding body: %s' % e)
        spec = req.get('spec') or {}
        ra = spec.get('resourceAttributes')
        nra = spec.get('nonResourceAttributes')
        if ra:
            attrs = {'path': '', 'resource_request': True, 'verb': ra.get('verb', ''),
                     'group': ra.get('group', ''), 'version': ra.get('version', ''),
                     'namespace': ra.get('namespace', ''), 'resource': ra.get('resource', ''),
                     'subresource': ra.get('subresource', ''), 'name': ra.get('name', '')}
        elif nra:
            attrs = {'path': nra.get('path', ''), 'resource_request': False,
                     'verb': nra.get('verb', ''), 'group': '', 'version': '', 'namespace': '',
                     'resource': '', 'subresource': '', 'name': ''}
        else:
            raise ApiError(422, 'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: '
                           'spec.resourceAttributes: Invalid value: "null": exactly one of '
                           'nonResourceAttributes or resourceAttributes must be specified',
                           'Invalid')
        denied = self._is_denied(self._user, self._groups, attrs)
        status = {'allowed': not denied}
        if not denied:
            status['reason'] = ('RBAC: allowed by ClusterRoleBinding "fakeapi-%s" of ClusterRole '
                                '"cluster-admin" to User "%s"' % (self._user, self._user))
        out = {'kind': 'SelfSubjectAccessReview', 'apiVersion': 'authorization.k8s.io/v1',
               'metadata': {'creationTimestamp': None}, 'spec': spec, 'status': status}
        return self._json(out, code=201)

    # -- proxies

    def _proxy(self, method, res, attrs, query):
        store = self.cfg.store
        pcfg, _ = self.cfg.proxy.get()
        ns = attrs['namespace']
        spec_name = attrs['name']
        rest = '/' + '/'.join(attrs['parts'][3:]) if len(attrs['parts']) > 3 else '/'
        if attrs['path'].endswith('/') and rest != '/':
            rest += '/'
        parts = spec_name.split(':')
        scheme = ''
        if len(parts) == 3:
            scheme, name, port = parts
        elif len(parts) == 2:
            name, port = parts
        else:
            name, port = parts[0], ''
        obj = store.get(res, ns, name)
        if obj is None:
            raise not_found(res, name)
        raw_query = urllib.parse.urlsplit(self.path).query
        if res.plural == 'services':
            ports = (obj.get('spec') or {}).get('ports') or []
            chosen = None
            for p in ports:
                if port == '' and (not p.get('name') or len(ports) == 1):
                    chosen = p
                    break
                if port and (p.get('name') == port or str(p.get('port')) == port):
                    chosen = p
                    break
            if chosen is None:
                raise ApiError(503, 'no service port %s found for service "%s"'
                               % ('"%s"' % port if port else '""', name), 'ServiceUnavailable')
            table = pcfg.get('services') or {}
            target = None
            for key in ('%s/%s:%s' % (ns, name, port), '%s/%s:%s' % (ns, name, chosen.get('name', '')),
                        '%s/%s:%s' % (ns, name, chosen.get('port')), '%s/%s' % (ns, name)):
                if key in table:
                    target = table[key]
                    break
            if target is None:
                raise ApiError(503, 'no endpoints available for service "%s"' % name,
                               'ServiceUnavailable')
        else:
            table = pcfg.get('pods') or {}
            target = None
            for key in ('%s/%s:%s' % (ns, name, port), '%s/%s' % (ns, name)):
                if key in table:
                    target = table[key]
                    break
            if target is None:
                ip = (obj.get('status') or {}).get('podIP') or ''
                raise ApiError(503, 'error trying to reach service: dial tcp %s:%s: connect: '
                               'connection refused' % (ip, port or '80'), 'ServiceUnavailable')
        return self._proxy_target(method, target, rest, raw_query, name)

    def _proxy_target(self, method, target, rest, raw_query, name):
        if isinstance(target, str):
            target = {'url': target}
        hdrs = dict(target.get('headers') or {})
        if 'status' in target and 'url' not in target and 'file' not in target and 'body' not in target:
            raise ApiError(int(target['status']), target.get('message'))
        if 'file' in target or 'body' in target:
            if 'file' in target:
                fp = target['file']
                if not os.path.isabs(fp) and self.cfg.proxy.path:
                    fp = os.path.join(os.path.dirname(os.path.abspath(self.cfg.proxy.path)), fp)
                try:
                    with open(fp, 'rb') as fh:
                        data = fh.read()
                except OSError as e:
                    raise ApiError(503, 'error trying to reach service: %s' % e,
                                   'ServiceUnavailable')
            else:
                data = target['body'].encode('utf-8')
            paths = target.get('paths')
            if paths is not None and rest not in paths:
                return Response(404, b'404 page not found\n', 'text/plain; charset=utf-8',
                                compress=False)
            return Response(int(target.get('code', 200)), data,
                            target.get('contentType', 'text/plain; version=0.0.4; charset=utf-8'),
                            hdrs, compress=False)
        url = target['url'].rstrip('/') + rest
        if raw_query:
            url += '?' + raw_query
        req = urllib.request.Request(url, method=method if method in ('GET', 'HEAD') else method)
        for h in ('Accept', 'Accept-Encoding', 'User-Agent'):
            if self.headers.get(h):
                req.add_header(h, self.headers[h])
        try:
            with urllib.request.urlopen(req, timeout=float(target.get('timeout', 30))) as r:
                data = r.read()
                code = r.status
                out_h = {k: v for k, v in r.headers.items()
                         if k.lower() in ('content-encoding',)}
                ctype = r.headers.get('Content-Type', 'application/octet-stream')
        except urllib.error.HTTPError as e:
            data = e.read()
            code = e.code
            out_h = {k: v for k, v in e.headers.items() if k.lower() in ('content-encoding',)}
            ctype = e.headers.get('Content-Type', 'text/plain')
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, 'reason', e)
            raise ApiError(503, 'error trying to reach service: %s' % reason, 'ServiceUnavailable')
        out_h.update(hdrs)
        return Response(code, data, ctype, out_h, compress=False)


# ----------------------------------------------------------------------------------------

def build_ssl(certs, server_cert):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(os.path.join(certs, server_cert + '.crt'),
                        os.path.join(certs, server_cert + '.key'))
    ctx.load_verify_locations(os.path.join(certs, 'ca.crt'))
    ctx.verify_mode = ssl.CERT_OPTIONAL
    ctx.set_alpn_protocols(['http/1.1'])
    return ctx


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--fixture', action='append', required=True)
    ap.add_argument('--certs', required=True, help='directory made by gen-certs.sh')
    ap.add_argument('--port-file', required=True)
    ap.add_argument('--port', type=int, default=0)
    ap.add_argument('--log')
    ap.add_argument('--faults')
    ap.add_argument('--rbac')
    ap.add_argument('--role', metavar='JSON',
                    help='a Role/ClusterRole as JSON: only its rules are granted (discovery too); '
                         'the log names the rules that granted each request (roleRules)')
    ap.add_argument('--proxy-config')
    ap.add_argument('--token', action='append', default=[], metavar='TOKEN=USER')
    ap.add_argument('--basic', action='append', default=[], metavar='USER:PASSWORD')
    ap.add_argument('--deny', action='append', default=[],
                    metavar='USER:VERB:RESOURCE[:NAMESPACE]',
                    help='resource may be group-qualified (daemonsets.apps) or a subresource '
                         '(services/proxy); namespace "" = cluster scope only, default any')
    ap.add_argument('--anonymous', action='store_true',
                    help='treat requests without credentials as system:anonymous (else 401)')
    ap.add_argument('--server-cert', default='server', help='server (default) or wronghost')
    ap.add_argument('--no-aggregated-discovery', action='store_true')
    ap.add_argument('--server-version', default='v1.31.4')
    ap.add_argument('--resource-version', type=int)
    ap.add_argument('--compacted-rv', type=int, default=0,
                    help='continue tokens / resourceVersions older than this get 410 Expired')
    ap.add_argument('--now', help='RFC 3339 time used for AGE columns (default: wall clock)')
    ap.add_argument('--watch-timeout', type=float, default=30.0)
    ap.add_argument('--bookmark-interval', type=float, default=5.0,
                    help='seconds between BOOKMARK events of a watch that asked for them')
    ap.add_argument('--scenario', help='changes to make on a schedule (k8s_watch.py)')
    ap.add_argument('--operator-sim', metavar='YAML2JSON',
                    help='accept writes (apply, patch, label, cordon, eviction) and react to them as '
                         'the GPU Operator would (k8s_writes.py); YAML2JSON = tests/tools/yaml2json')
    ap.add_argument('--cache-pages', action='store_true',
                    help='keep each list page answered (rendered and gzipped) and send it again '
                         'while the resource version is unchanged (make bench)')
    ap.add_argument('--lean', action='store_true',
                    help='keep pods and nodes as compressed list-item JSON (a fixture of hundreds of '
                         'thousands of pods in a few GB; lists as usual, tables/watches/GETs of one '
                         'pod or node see only the fields selectors use) and, with --cache-pages, '
                         'cached pages as gzip only (make bench --huge)')
    ap.add_argument('--parent-pid', type=int,
                    help='exit when this process is gone (the test script that started us)')
    args = ap.parse_args(argv)

    cfg = Config()
    try:
        cfg.store = Store(args.fixture, args.resource_version, lean=args.lean, encode=list_item_json)
    except FixtureError as e:
        sys.stderr.write('fakeapi: %s\n' % e)
        return 2
    cfg.store.compacted_rv = args.compacted_rv
    cfg.page_cache = {} if args.cache_pages else None
    cfg.lean = args.lean
    cfg.store_lock = threading.Lock()
    cfg.writer = None
    if args.operator_sim:
        from k8s_writes import Writer
        cfg.writer = Writer(cfg.store, args.operator_sim)
    cfg.tokens = {}
    for t in args.token:
        tok, sep, user = t.rpartition('=')
        if not sep or not tok or not user:
            ap.error('--token wants TOKEN=USER: %s' % t)
        cfg.tokens[tok] = (user, [])
    cfg.basic = {}
    for b in args.basic:
        user, sep, pw = b.partition(':')
        if not sep:
            ap.error('--basic wants USER:PASSWORD')
        cfg.basic[user] = (pw, [])
    cfg.deny = []
    for d in args.deny:
        f = d.split(':')
        if len(f) < 3:
            ap.error('--deny wants USER:VERB:RESOURCE[:NAMESPACE]')
        res, _, grp = f[2].partition('.')
        rule = {'user': f[0], 'verb': f[1], 'resource': res, 'apiGroup': grp}
        if len(f) > 3:
            rule['namespace'] = f[3]
        cfg.deny.append(rule)
    cfg.anonymous = args.anonymous
    cfg.aggregated = not args.no_aggregated_discovery
    sv = args.server_version
    commit, built, gov = VERSION_INFO.get(sv, ('0000000000000000000000000000000000000000',
                                                '2025-01-01T00:00:00Z', 'go1.23.4'))
    mm = re.match(r'^v(\d+)\.(\d+)', sv)
    cfg.version_info = {'major': mm.group(1) if mm else '1', 'minor': mm.group(2) if mm else '31',
                        'gitVersion': sv, 'gitCommit': commit, 'gitTreeState': 'clean',
                        'buildDate': built, 'goVersion': gov, 'compiler': 'gc',
                        'platform': 'linux/amd64'}
    if args.now:
        fixed = datetime.datetime.fromisoformat(args.now.replace('Z', '+00:00'))
        cfg.now = lambda: fixed
    else:
        cfg.now = now_utc
    cfg.watch_timeout = args.watch_timeout
    cfg.bookmark_every = args.bookmark_interval
    cfg.changes = ChangeLog(cfg.store, cfg.store_lock)
    cfg.faults = FaultBook(args.faults)
    cfg.rbac = Reloadable(args.rbac, [], parse_rbac, 'rbac file')
    cfg.role = None
    if args.role:
        with open(args.role, encoding='utf-8') as f:
            cfg.role = parse_role(json.loads(f.readline()))
    cfg.proxy = Reloadable(args.proxy_config, {}, lambda d: d if isinstance(d, dict) else {},
                           'proxy config')
    cfg.stopping = threading.Event()
    log_lock = threading.Lock()
    log_fh = open(args.log, 'a', buffering=1, encoding='utf-8') if args.log else None
    cfg.idle = threading.Condition()
    cfg.inflight = 0

    def write_log(entry):
        if log_fh is None:
            return
        line = json.dumps(dict(entry, ts=now_utc().strftime('%Y-%m-%dT%H:%M:%S.%fZ')),
                          separators=(',', ':'))
        with log_lock:
            if log_fh is None:           # closed at exit
                return
            log_fh.write(line + '\n')
            log_fh.flush()
    cfg.write_log = write_log
    try:
        cfg.ssl_ctx = build_ssl(args.certs, args.server_cert)
    except (OSError, ssl.SSLError) as e:
        sys.stderr.write('fakeapi: cannot load certificates from %s: %s\n' % (args.certs, e))
        return 2

    if args.scenario:
        try:
            Scenario(args.scenario, cfg.changes, cfg.stopping, write_log).start()
        except (OSError, ValueError) as e:
            sys.stderr.write('fakeapi: scenario %s: %s\n' % (args.scenario, e))
            return 2
    srv = FakeApiServer(('127.0.0.1', args.port), Handler, cfg)
    port = srv.server_address[1]
    tmp = args.port_file + '.tmp'
    with open(tmp, 'w') as fh:
        fh.write('%d\n' % port)
    os.replace(tmp, args.port_file)

    def stop(signum, frame):
        cfg.stopping.set()
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if args.parent_pid:
        def watchdog():
            while not cfg.stopping.is_set():
                try:
                    os.kill(args.parent_pid, 0)
                except ProcessLookupError:
                    sys.stderr.write('fakeapi: parent %d is gone, exiting\n' % args.parent_pid)
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
        cfg.stopping.set()
        srv.server_close()
        # a request answered just before SIGTERM is logged before the log closes (a test reads
        # the log once the server is gone); stalled and delayed ones are not waited for long
        with cfg.idle:
            cfg.idle.wait_for(lambda: cfg.inflight == 0, timeout=2)
        if log_fh:
            with log_lock:
                log_fh.close()
                log_fh = None
    return 0


if __name__ == '__main__':
    sys.exit(main())
