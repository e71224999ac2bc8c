"""k8s_watch.py — watches over a store that changes: the change log, the watch stream, and
changes injected on a schedule (--scenario).

What kube-apiserver does, and what is kept here (the cacher, staging/src/k8s.io/apiserver/
pkg/storage/cacher/cacher.go and watch_cache.go, and the handler, pkg/endpoints/handlers/
watch.go):
- every write takes the next resourceVersion; a watch from RV N sends every change with an RV
  above N, in order, as JSON objects one per line on a chunked 200 answer;
- a watch whose RV is older than the oldest change still kept gets one ERROR event holding a
  Status 410 "too old resource version: N (M)", reason Expired (watch_cache.go);
- with a label or field selector, an object that stops matching is sent as DELETED and one
  that starts matching as ADDED (cacher.go, the watcher's filter on old and new object);
- allowWatchBookmarks=true gets BOOKMARK events (only metadata.resourceVersion) every
  --bookmark-interval seconds (the cacher: "roughly every minute") and one 2 s before the
  stream's deadline, never at the start of a plain watch (cache_watcher.go, nextBookmarkTime:
  the first is due bookmarkFrequency after the watch began); only a watch-list
  (sendInitialEvents=true) gets one at once, closing its initial events;
- the server ends the stream after timeoutSeconds (capped by --watch-timeout here).

Scenario file (JSON): {"steps": [STEP, ...]}; the clock starts at the first watch request (the
lists are read by then).  Each STEP waits "after" seconds (since the previous step), and, when
"watches" is given, until that many watch requests were made in all; then does "op":
  {"op": "add"|"replace", "object": OBJ}           ADDED (or MODIFIED when it exists)
  {"op": "delete", "kind": K, "namespace": NS, "name": N}
  {"op": "patch", "kind": K, "namespace": NS, "name": N, "merge": {...}}   JSON merge patch
  {"op": "break-watches", "kind": K, "expire": B}   every open watch (of kind K only, when
                            given) is cut in the middle of an event (no final chunk); with
                            "expire": true the change log is dropped at the same time, so the
                            resumed watch gets 410 and must list again
  {"op": "compact"}         the change log is dropped: resuming from an older RV gets 410
"""
import copy
import json
import threading
import time

from k8s_writes import merge_patch      # RFC 7386, as the writes apply it


class BreakStream(Exception):
    """Raised by a watch stream to cut the connection without ending the chunked body."""


class ChangeLog:
    KEEP = 100000

    def __init__(self, store, lock):
        self.store = store
        self.lock = lock                     # the store's lock (writes)
        self.cond = threading.Condition()
        self.changes = []                    # (rv, (group, plural), type, new_obj, old_obj)
        self.floor = store.resource_version  # changes at or below this RV are not kept
        self.breaks = 0                      # bumped by break-watches
        self.break_key = None                # ... of this resource only (None: all)
        self.watch_requests = 0
        self.first_watch = threading.Event()

    def _res_for_kind(self, kind, api_version=None):
        group = (api_version or '').rpartition('/')[0] if api_version and '/' in api_version else ''
        for r in self.store.resources.values():
            if r.kind == kind and (api_version is None or r.group == group):
                return r
        raise ValueError('scenario: unknown kind %s' % kind)

    def _invalidate(self, res):
        st = self.store
        st._sorted.pop((res.group, res.plural), None)
        st._matches.clear()
        st.encoded.clear()
        if res.group == '' and res.plural == 'events':
            st._events_v1 = None

    def _record(self, res, typ, new, old):
        with self.cond:
            self.changes.append((int(new['metadata']['resourceVersion']), (res.group, res.plural),
                                 typ, new, old))
            if len(self.changes) > self.KEEP:
                drop = len(self.changes) - self.KEEP
                self.floor = self.changes[drop - 1][0]
                del self.changes[:drop]
            self.cond.notify_all()

    def put(self, obj, replace_only=False):
        res = self._res_for_kind(obj.get('kind'), obj.get('apiVersion'))
        obj = copy.deepcopy(obj)
        md = obj.setdefault('metadata', {})
        if res.namespaced:
            md.setdefault('namespace', 'default')
        else:
            md.pop('namespace', None)
        with self.lock:
            objs = self.store.objects.setdefault((res.group, res.plural), {})
            key = res.key_for(md.get('namespace', ''), md['name'])
            old = objs.get(key)
            self.store.resource_version += 1
            md['resourceVersion'] = str(self.store.resource_version)
            objs[key] = obj
            self._invalidate(res)
        self._record(res, 'MODIFIED' if old is not None else 'ADDED', obj, old)

    def patch(self, kind, namespace, name, merge):
        res = self._res_for_kind(kind)
        with self.lock:
            old = self.store.objects.get((res.group, res.plural), {}).get(res.key_for(namespace or '', name))
        if old is None:
            raise ValueError('scenario: no %s %s/%s to patch' % (kind, namespace, name))
        new = merge_patch(old, merge)
        new.setdefault('kind', kind)
        self.put(new)

    def delete(self, kind, namespace, name):
        res = self._res_for_kind(kind)
        with self.lock:
            objs = self.store.objects.get((res.group, res.plural), {})
            old = objs.pop(res.key_for(namespace or '', name), None)
            if old is None:
                return
            self.store.resource_version += 1
            gone = copy.deepcopy(old)
            gone['metadata']['resourceVersion'] = str(self.store.resource_version)
            self._invalidate(res)
        self._record(res, 'DELETED', gone, old)

    def compact(self):
        with self.cond:
            self.floor = self.store.resource_version
            self.store.compacted_rv = self.store.resource_version
            self.changes = []
            self.cond.notify_all()

    def break_watches(self, kind=None, expire=False):
        res_key = None
        if kind:
            r = self._res_for_kind(kind)
            res_key = (r.group, r.plural)
        with self.lock, self.cond:
            if expire:
                self.store.resource_version += 1
                self.floor = self.store.resource_version
                self.store.compacted_rv = self.floor
                self.changes = []
            self.breaks += 1
            self.break_key = res_key
            self.cond.notify_all()

    def since(self, rv, key):
        """changes of resource key with an RV above rv (a snapshot)"""
        with self.cond:
            return [c for c in self.changes if c[0] > rv and c[1] == key]


def watch_events(log, res, namespace, matches, rv, timeout, bookmarks, bookmark_every, stopping,
                 encode, builtin_kind):
    """Generator of the stream's pieces after the initial events: the changes after rv that
    concern res/namespace, as the filter sees them; b'' now and then so the writer can notice a
    client that left; raises BreakStream on break-watches."""
    key = (res.group, res.plural)
    prefix = (namespace + '/') if (res.namespaced and namespace) else ''
    deadline = time.monotonic() + timeout
    next_bookmark = time.monotonic() + bookmark_every
    pre_deadline_sent = False
    cursor = rv
    breaks = log.breaks
    while time.monotonic() < deadline and not stopping.is_set():
        if log.breaks != breaks:
            breaks = log.breaks
            if log.break_key in (None, key):
                yield b'{"type":"MODIFIED","object":{"kind":"'
                raise BreakStream()
        for crv, _, typ, new, old in log.since(cursor, key):
            cursor = crv
            md = new.get('metadata') or {}
            if prefix and md.get('namespace', '') + '/' != prefix:
                continue
            now_m = typ != 'DELETED' and matches(new)
            was_m = old is not None and matches(old)
            if typ == 'DELETED':
                if not was_m:
                    continue
                out = 'DELETED'
            elif now_m and was_m:
                out = 'MODIFIED'
            elif now_m:
                out = 'ADDED'
            elif was_m:
                out = 'DELETED'          # it left the selection: the last state, at the new RV
            else:
                continue
            o = dict(new)
            o['kind'] = res.kind
            o['apiVersion'] = res.api_version
            yield encode({'type': out, 'object': o})
        if bookmarks and (time.monotonic() >= next_bookmark or
                          (time.monotonic() >= deadline - 2 and not pre_deadline_sent)):
            pre_deadline_sent = pre_deadline_sent or time.monotonic() >= deadline - 2
            next_bookmark = time.monotonic() + bookmark_every
            latest = log.store.resource_version
            if not log.since(cursor, key):
                cursor = max(cursor, latest)     # nothing of ours in between: resume from here
            yield encode({'type': 'BOOKMARK', 'object': {
                'kind': res.kind, 'apiVersion': res.api_version,
                'metadata': {'resourceVersion': str(cursor)}}})
        with log.cond:
            log.cond.wait(0.1)
        yield b''


class Scenario:
    def __init__(self, path, log, stopping, write_log):
        with open(path, encoding='utf-8') as fh:
            data = json.load(fh)
        self.steps = data.get('steps') or []
        self.log = log
        self.stopping = stopping
        self.write_log = write_log

    def start(self):
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        self.log.first_watch.wait()
        for i, st in enumerate(self.steps):
            end = time.monotonic() + float(st.get('after', 0))
            while time.monotonic() < end or self.log.watch_requests < int(st.get('watches', 0)):
                if self.stopping.is_set():
                    return
                time.sleep(0.05)
            op = st.get('op')
            try:
                if op in ('add', 'replace'):
                    self.log.put(st['object'])
                elif op == 'delete':
                    self.log.delete(st['kind'], st.get('namespace'), st['name'])
                elif op == 'patch':
                    self.log.patch(st['kind'], st.get('namespace'), st['name'], st.get('merge') or {})
                elif op == 'break-watches':
                    self.log.break_watches(st.get('kind'), bool(st.get('expire')))
                elif op == 'compact':
                    self.log.compact()
                else:
                    raise ValueError('scenario: unknown op %r' % op)
            except (KeyError, ValueError) as e:
                self.write_log({'scenario': i, 'error': str(e)})
                continue
            what = ((st.get('object') or {}).get('metadata') or {}).get('name') or st.get('name') or ''
            self.write_log({'scenario': i, 'op': op, 'what': what, 'rv': self.log.store.resource_version})
