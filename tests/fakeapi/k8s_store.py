"""The fake API server's object store: resource registry, fixture loading, list semantics.

Objects live in one snapshot (a fixture never changes while the server runs), keyed as etcd
keys (`<namespace>/<name>` or `<name>`) and listed in key order as etcd returns them.
Pagination follows k8s.io/apiserver pkg/storage: the continue token is
base64.RawURLEncoding(JSON {"v":"meta.k8s.io/v1","rv":<list RV>,"start":"<last key>\\x00"}),
all pages share the first page's resourceVersion, remainingItemCount is only reported when
no selector filters the list.
"""

import base64
import binascii
import bisect
import copy
import gc
import json
import sys
import zlib

# ----------------------------------------------------------------------------------------
# resource registry

ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']
RO_VERBS = ['get', 'list', 'watch']


class Resource:
    """One served resource (group/version/plural)."""

    def __init__(self, group, version, plural, kind, namespaced, singular=None, short=(),
                 categories=(), verbs=None, subresources=(), builtin=True, field_labels=(),
                 list_kind=None):
        self.group = group
        self.version = version
        self.plural = plural
        self.kind = kind
        self.namespaced = namespaced
        self.singular = singular or kind.lower()
        self.short = list(short)
        self.categories = list(categories)
        self.verbs = list(verbs if verbs is not None else ALL_VERBS)
        self.subresources = list(subresources)     # (name, kind, verbs)
        self.builtin = builtin
        self.list_kind = list_kind or kind + 'List'
        base = ['metadata.name'] + (['metadata.namespace'] if namespaced else [])
        self.field_labels = base + [f for f in field_labels if f not in base]

    @property
    def api_version(self):
        return self.group + '/' + self.version if self.group else self.version

    @property
    def group_resource(self):
        """GroupResource.String(): `pods`, `daemonsets.apps`."""
        return self.plural + ('.' + self.group if self.group else '')

    def key_for(self, namespace, name):
        return namespace + '/' + name if self.namespaced else name


POD_FIELDS = ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName',
              'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP',
              'status.podIPs', 'status.nominatedNodeName']
EVENT_FIELDS = ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name',
                'involvedObject.uid', 'involvedObject.apiVersion',
                'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason',
                'reportingComponent', 'source', 'type']
EVENTS_V1_FIELDS = ['regarding.kind', 'regarding.namespace', 'regarding.name', 'regarding.uid',
                    'regarding.apiVersion', 'regarding.resourceVersion', 'regarding.fieldPath',
                    'reason', 'reportingController', 'type']

PROXY = ('proxy', None, ['create', 'delete', 'get', 'patch', 'update'])
STATUS = ('status', None, ['get', 'patch', 'update'])


def builtin_resources():
    R = Resource
    return [
        R('', 'v1', 'configmaps', 'ConfigMap', True, short=['cm']),
        R('', 'v1', 'endpoints', 'Endpoints', True, singular='endpoints', short=['ep']),
        R('', 'v1', 'events', 'Event', True, short=['ev'], field_labels=EVENT_FIELDS),
        R('', 'v1', 'limitranges', 'LimitRange', True, short=['limits']),
        R('', 'v1', 'namespaces', 'Namespace', False, short=['ns'],
          verbs=['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
          subresources=[('finalize', 'Namespace', ['update']), ('status', 'Namespace', ['get', 'patch', 'update'])],
          field_labels=['status.phase']),
        R('', 'v1', 'nodes', 'Node', False, short=['no'],
          subresources=[('proxy', 'NodeProxyOptions', PROXY[2]), ('status', 'Node', STATUS[2])],
          field_labels=['spec.unschedulable']),
        R('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', True, short=['pvc'],
          subresources=[('status', 'PersistentVolumeClaim', STATUS[2])]),
        R('', 'v1', 'persistentvolumes', 'PersistentVolume', False, short=['pv'],
          subresources=[('status', 'PersistentVolume', STATUS[2])]),
        R('', 'v1', 'pods', 'Pod', True, short=['po'], categories=['all'],
          subresources=[('log', 'Pod', ['get']), ('proxy', 'PodProxyOptions', PROXY[2]),
                        ('status', 'Pod', STATUS[2])],
          field_labels=POD_FIELDS),
        R('', 'v1', 'resourcequotas', 'ResourceQuota', True, short=['quota'],
          subresources=[('status', 'ResourceQuota', STATUS[2])]),
        R('', 'v1', 'secrets', 'Secret', True, field_labels=['type']),
        R('', 'v1', 'serviceaccounts', 'ServiceAccount', True, short=['sa']),
        R('', 'v1', 'services', 'Service', True, short=['svc'], categories=['all'],
          verbs=['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
          subresources=[('proxy', 'ServiceProxyOptions', PROXY[2]), ('status', 'Service', STATUS[2])]),
        R('apps', 'v1', 'controllerrevisions', 'ControllerRevision', True),
        R('apps', 'v1', 'daemonsets', 'DaemonSet', True, short=['ds'], categories=['all'],
          subresources=[('status', 'DaemonSet', STATUS[2])]),
        R('apps', 'v1', 'deployments', 'Deployment', True, short=['deploy'], categories=['all'],
          subresources=[('scale', 'Scale', ['get', 'patch', 'update']), ('status', 'Deployment', STATUS[2])]),
        R('apps', 'v1', 'replicasets', 'ReplicaSet', True, short=['rs'], categories=['all'],
          subresources=[('scale', 'Scale', ['get', 'patch', 'update']), ('status', 'ReplicaSet', STATUS[2])],
          field_labels=['status.replicas']),
        R('apps', 'v1', 'statefulsets', 'StatefulSet', True, short=['sts'], categories=['all'],
          subresources=[('scale', 'Scale', ['get', 'patch', 'update']), ('status', 'StatefulSet', STATUS[2])]),
        R('batch', 'v1', 'cronjobs', 'CronJob', True, short=['cj'], categories=['all'],
          subresources=[('status', 'CronJob', STATUS[2])]),
        R('batch', 'v1', 'jobs', 'Job', True, categories=['all'],
          subresources=[('status', 'Job', STATUS[2])], field_labels=['status.successful']),
        R('events.k8s.io', 'v1', 'events', 'Event', True, short=['ev'],
          field_labels=EVENTS_V1_FIELDS),
        R('authorization.k8s.io', 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview',
          False, verbs=['create']),
        R('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition',
          False, short=['crd', 'crds'], categories=['api-extensions'],
          subresources=[('status', 'CustomResourceDefinition', STATUS[2])]),
        R('node.k8s.io', 'v1', 'runtimeclasses', 'RuntimeClass', False),
        R('scheduling.k8s.io', 'v1', 'priorityclasses', 'PriorityClass', False, short=['pc']),
        R('coordination.k8s.io', 'v1', 'leases', 'Lease', True),
    ]


# groups served even when the fixture holds none of their objects
BUILTIN_GROUPS = ('', 'apps', 'batch', 'events.k8s.io', 'authorization.k8s.io',
                  'apiextensions.k8s.io', 'node.k8s.io', 'scheduling.k8s.io',
                  'coordination.k8s.io')

# known custom resources, used when the fixture carries objects but no CRD for them
STATE_COLUMNS = [{'name': 'Status', 'type': 'string', 'jsonPath': '.status.state'},
                 {'name': 'Age', 'type': 'date', 'jsonPath': '.metadata.creationTimestamp'}]
KNOWN_CUSTOM = {
    # resource.k8s.io (DRA): built in from Kubernetes 1.32 (v1beta1), 1.33 (v1beta2), 1.34 (v1);
    # served only in the versions the fixture's objects carry, so a fixture of v1beta1 objects is
    # a 1.32 cluster, and one without them a cluster with DRA disabled (404)
    ('resource.k8s.io', 'ResourceSlice'): ('resourceslices', False, [], []),
    ('resource.k8s.io', 'ResourceClaim'): ('resourceclaims', True, [], []),
    ('resource.k8s.io', 'ResourceClaimTemplate'): ('resourceclaimtemplates', True, [], []),
    ('resource.k8s.io', 'DeviceClass'): ('deviceclasses', False, [], []),
    ('nvidia.com', 'ClusterPolicy'): ('clusterpolicies', False, [], STATE_COLUMNS),
    ('nvidia.com', 'NVIDIADriver'): ('nvidiadrivers', False, ['nvd', 'nvdriver', 'nvdrivers'],
                                     STATE_COLUMNS),
    # batch queues: Kueue (config/components/crd/bases/kueue.x-k8s.io_*.yaml: short names wl,
    # queue/queues, cq, flavor/flavors/rf), Volcano (scheduling.volcano.sh: pg/podgroup-v1beta1,
    # q/queue-v1beta1), KAI (scheduling.run.ai)
    ('kueue.x-k8s.io', 'Workload'): ('workloads', True, ['wl'], []),
    ('kueue.x-k8s.io', 'LocalQueue'): ('localqueues', True, ['queue', 'queues', 'lq'], []),
    ('kueue.x-k8s.io', 'ClusterQueue'): ('clusterqueues', False, ['cq'], []),
    ('kueue.x-k8s.io', 'ResourceFlavor'): ('resourceflavors', False, ['flavor', 'flavors', 'rf'], []),
    ('kueue.x-k8s.io', 'Cohort'): ('cohorts', False, ['co'], []),
    ('visibility.kueue.x-k8s.io', 'PendingWorkloadsSummary'): ('pendingworkloadssummaries', False, [], []),   # the fixture's answers of clusterqueues/NAME/pendingworkloads (server.py)
    ('scheduling.volcano.sh', 'PodGroup'): ('podgroups', True, ['pg', 'podgroup-v1beta1'], []),
    ('scheduling.volcano.sh', 'Queue'): ('queues', False, ['q', 'queue-v1beta1'], []),
    ('scheduling.run.ai', 'PodGroup'): ('podgroups', True, [], []),
    ('scheduling.run.ai', 'Queue'): ('queues', False, [], []),
    ('nfd.k8s-sigs.io', 'NodeFeature'): ('nodefeatures', True, [], []),
    ('nfd.k8s-sigs.io', 'NodeFeatureRule'): ('nodefeaturerules', False, ['nfr'], []),
}


def _guess_plural(kind):
    k = kind.lower()
    if k.endswith('y') and not k.endswith(('ay', 'ey', 'oy', 'uy')):
        return k[:-1] + 'ies'
    if k.endswith(('s', 'x', 'z', 'ch', 'sh')):
        return k + 'es'
    return k + 's'


# ----------------------------------------------------------------------------------------
# continue tokens

class ContinueError(ValueError):
    pass


def encode_continue(start_key, rv):
    raw = json.dumps({'v': 'meta.k8s.io/v1', 'rv': int(rv), 'start': start_key},
                     separators=(',', ':')).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip('=')


def decode_continue(token):
    """Returns (start_key, rv) or raises ContinueError with the real server's text."""
    try:
        pad = '=' * (-len(token) % 4)
        if any(c in token for c in '+/='):
            raise binascii.Error('illegal base64 data at input byte %d'
                                 % min(token.index(c) for c in '+/=' if c in token))
        data = base64.urlsafe_b64decode(token + pad)
    except (binascii.Error, ValueError) as e:
        raise ContinueError('continue key is not valid: %s' % e)
    try:
        c = json.loads(data)
        if not isinstance(c, dict):
            raise ValueError('not an object')
    except ValueError as e:
        raise ContinueError('continue key is not valid: %s' % e)
    if c.get('v') != 'meta.k8s.io/v1':
        raise ContinueError('continue key is not valid: server does not recognize this '
                            'encoded version %s' % c.get('v'))
    rv = c.get('rv') or 0
    if not isinstance(rv, int) or rv == 0:
        raise ContinueError('continue key is not valid: incorrect encoded start '
                            'resourceVersion (version meta.k8s.io/v1)')
    start = c.get('start') or ''
    if not start:
        raise ContinueError('continue key is not valid: encoded start key empty '
                            '(version meta.k8s.io/v1)')
    if start.startswith('/') or '/../' in start or start.startswith('../') or start.endswith('/..'):
        raise ContinueError('continue key is not valid: %s' % start)
    return start, rv


# ----------------------------------------------------------------------------------------
# field values per resource (pkg/registry/*/strategy.go GetAttrs / ToSelectableFields)

def _s(v):
    if v is None:
        return ''
    if isinstance(v, bool):
        return 'true' if v else 'false'
    return str(v)


def field_values(res, obj):
    md = obj.get('metadata') or {}
    f = {'metadata.name': md.get('name', '')}
    if res.namespaced:
        f['metadata.namespace'] = md.get('namespace', '')
    spec = obj.get('spec') or {}
    status = obj.get('status') or {}
    if res.group == '' and res.plural == 'pods':
        f['spec.nodeName'] = _s(spec.get('nodeName'))
        f['spec.restartPolicy'] = _s(spec.get('restartPolicy'))
        f['spec.schedulerName'] = _s(spec.get('schedulerName'))
        f['spec.serviceAccountName'] = _s(spec.get('serviceAccountName'))
        f['spec.hostNetwork'] = _s(bool(spec.get('hostNetwork', False)))
        f['status.phase'] = _s(status.get('phase'))
        f['status.podIP'] = _s(status.get('podIP'))
        ips = [p.get('ip', '') for p in (status.get('podIPs') or [])]
        f['status.podIPs'] = ips[0] if ips else ''
        f['status.nominatedNodeName'] = _s(status.get('nominatedNodeName'))
    elif res.group == '' and res.plural == 'nodes':
        f['spec.unschedulable'] = _s(bool(spec.get('unschedulable', False)))
    elif res.group == '' and res.plural == 'events':
        io = obj.get('involvedObject') or {}
        for k in ('kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'):
            f['involvedObject.' + k] = _s(io.get(k))
        f['reason'] = _s(obj.get('reason'))
        f['reportingComponent'] = _s(obj.get('reportingComponent'))
        f['source'] = _s((obj.get('source') or {}).get('component'))
        f['type'] = _s(obj.get('type'))
    elif res.group == 'events.k8s.io':
        rg = obj.get('regarding') or {}
        for k in ('kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'):
            f['regarding.' + k] = _s(rg.get(k))
        f['reason'] = _s(obj.get('reason'))
        f['reportingController'] = _s(obj.get('reportingController'))
        f['type'] = _s(obj.get('type'))
    elif res.plural == 'namespaces':
        f['status.phase'] = _s(status.get('phase'))
    elif res.plural == 'secrets':
        f['type'] = _s(obj.get('type'))
    elif res.plural == 'replicasets':
        f['status.replicas'] = _s(status.get('replicas', 0))
    elif res.plural == 'jobs':
        f['status.successful'] = _s(status.get('succeeded', 0))
    return f


def core_event_to_v1(ev):
    """events.k8s.io/v1 view of a core/v1 Event (pkg/apis/events/v1/conversion.go)."""
    out = {'apiVersion': 'events.k8s.io/v1', 'kind': 'Event',
           'metadata': copy.deepcopy(ev.get('metadata') or {})}
    if ev.get('eventTime'):
        out['eventTime'] = ev['eventTime']
    else:
        out['eventTime'] = None
    if ev.get('series'):
        out['series'] = ev['series']
    rc = ev.get('reportingComponent') or (ev.get('source') or {}).get('component')
    if rc:
        out['reportingController'] = rc
    ri = ev.get('reportingInstance') or (ev.get('source') or {}).get('host')
    if ri:
        out['reportingInstance'] = ri
    for k in ('action', 'reason', 'type'):
        if ev.get(k):
            out[k] = ev[k]
    if ev.get('involvedObject'):
        out['regarding'] = ev['involvedObject']
    if ev.get('related'):
        out['related'] = ev['related']
    if ev.get('message'):
        out['note'] = ev['message']
    if ev.get('source'):
        out['deprecatedSource'] = ev['source']
    if ev.get('firstTimestamp'):
        out['deprecatedFirstTimestamp'] = ev['firstTimestamp']
    if ev.get('lastTimestamp'):
        out['deprecatedLastTimestamp'] = ev['lastTimestamp']
    if ev.get('count'):
        out['deprecatedCount'] = ev['count']
    return out


# ----------------------------------------------------------------------------------------
# the store

class FixtureError(Exception):
    pass


# --lean (make bench's clusters larger than the largest): pods and nodes are kept as their
# list-item JSON, zlib-compressed, beside a skeleton holding what selectors, namespaces and
# resource versions read; list pages are assembled from those bytes, so what is served is
# byte for byte what the full object gives.  Tables, watches and GETs of one pod or node see
# the skeleton.
LEAN_KINDS = ('Pod', 'Node')
LEAN_METADATA = ('name', 'namespace', 'labels', 'resourceVersion', 'creationTimestamp', 'uid')
LEAN_SPEC = ('nodeName', 'restartPolicy', 'schedulerName', 'serviceAccountName', 'hostNetwork',
             'unschedulable')
LEAN_STATUS = ('phase', 'podIP', 'podIPs', 'nominatedNodeName')


def _interned(v):
    if isinstance(v, str):
        return sys.intern(v)
    if isinstance(v, dict):
        return {sys.intern(k): _interned(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_interned(x) for x in v]
    return v


def _skeleton(obj):
    out = {'apiVersion': obj['apiVersion'], 'kind': obj['kind']}
    for part, keys in (('metadata', LEAN_METADATA), ('spec', LEAN_SPEC), ('status', LEAN_STATUS)):
        src = obj.get(part)
        if isinstance(src, dict):
            out[part] = {sys.intern(k): _interned(src[k]) for k in keys if k in src}
    return out


class Store:
    def __init__(self, fixture_paths, resource_version=None, lean=False, encode=None):
        self.resources = {}              # (group, version, plural) -> Resource
        for r in builtin_resources():
            self.resources[(r.group, r.version, r.plural)] = r
        self.by_kind = {(r.group, r.kind): r for r in self.resources.values()}
        self.objects = {}                # (group, plural) -> {key: obj}
        self._sorted = {}
        self._events_v1 = None
        self.encoded = {}                # (id(obj), builtin) -> list-item JSON (server.py _list)
        self.packed = {}                 # --lean: (id(skeleton), True) -> zlib of that JSON
        self.lean = lean
        self._encode_item = encode       # server.py's list_item_json (Go's encoding)
        self._matches = {}               # selector results (see _matching)
        self.custom_groups = {}          # group -> [versions] (order: preferred first)
        items = []
        # a large fixture is millions of containers: the cyclic GC would scan them over and
        # over while they are built (4x the load time); nothing here makes cycles
        gc_was = gc.isenabled()
        gc.disable()
        try:
            for p in fixture_paths:
                items.extend(self._read_fixture_lean(p) if lean else self._read_fixture(p))
            self._load(items, resource_version)
            if lean:
                self._pack_rest()
        finally:
            if gc_was:
                gc.enable()
        gc.freeze()                      # the snapshot never changes: keep it out of GC scans

    def _load(self, items, resource_version):
        # CRDs first, so that their objects map to the declared resource
        for it in items:
            if it.get('kind') == 'CustomResourceDefinition':
                self._register_crd(it)
        max_rv = 0
        for it in items:
            res = self._resource_for_item(it)
            md = it.setdefault('metadata', {})
            if 'name' not in md:
                raise FixtureError('fixture item of kind %s has no metadata.name' % it.get('kind'))
            if res.namespaced:
                md.setdefault('namespace', 'default')
            else:
                md.pop('namespace', None)
            try:
                max_rv = max(max_rv, int(md.get('resourceVersion', '0')))
            except ValueError:
                pass
            self.objects.setdefault((res.group, res.plural), {})[
                res.key_for(md.get('namespace', ''), md['name'])] = it
        # objects without a resourceVersion get one, as if written after the others
        nxt = max_rv
        for (g, p), objs in sorted(self.objects.items()):
            for k in sorted(objs):
                md = objs[k]['metadata']
                if 'resourceVersion' not in md:
                    nxt += 1
                    md['resourceVersion'] = str(nxt)
        self.resource_version = int(resource_version) if resource_version else max(nxt + 1, 1000)
        self._synthesize_namespaces()

    # -- loading

    @staticmethod
    def _read_fixture(path):
        try:
            with open(path, 'rb') as fh:
                doc = json.loads(fh.read().decode('utf-8'))
        except (OSError, ValueError) as e:
            raise FixtureError('cannot read fixture %s: %s' % (path, e))
        if isinstance(doc, list):
            return doc
        if not isinstance(doc, dict):
            raise FixtureError('fixture %s: not a JSON object' % path)
        if doc.get('kind') == 'List' or doc.get('kind', '').endswith('List') or 'items' in doc:
            items = doc.get('items') or []
            if doc.get('kind', 'List') not in ('List', '') and doc.get('kind', '').endswith('List'):
                kind = doc['kind'][:-4]
                for it in items:
                    it.setdefault('kind', kind)
                    it.setdefault('apiVersion', doc.get('apiVersion', 'v1'))
            return items
        return [doc]

    def _pack(self, it):
        """--lean: a Pod or Node as its compressed list-item JSON and a skeleton; normalized
        first as _load does (a namespace for pods, none for nodes) so that the bytes are the
        ones the full object would be listed as.  Objects without a name or a resourceVersion
        are kept whole until _load has given them one (_pack_rest)."""
        md = it.get('metadata')
        if (it.get('apiVersion') != 'v1' or it.get('kind') not in LEAN_KINDS or not isinstance(md, dict)
                or 'name' not in md or 'resourceVersion' not in md):
            return it
        if it['kind'] == 'Pod':
            md.setdefault('namespace', 'default')
        else:
            md.pop('namespace', None)
        sk = _skeleton(it)
        self.packed[(id(sk), True)] = zlib.compress(self._encode_item(it, True), 1)
        return sk

    def _pack_rest(self):
        live = set()
        for (g, p), objs in self.objects.items():
            if g != '' or p not in ('pods', 'nodes'):
                continue
            for k, o in objs.items():
                if (id(o), True) not in self.packed:
                    o = objs[k] = self._pack(o)
                live.add(id(o))
        # a skeleton replaced by a later item of the same name is gone: its id may be reused
        if len(live) != len(self.packed):
            self.packed = {k: v for k, v in self.packed.items() if k[0] in live}

    def _read_fixture_lean(self, path):
        """--lean: a fixture as tests/gen/gen_cluster.py writes it (a List, one compact item per
        line) is read line by line, each pod and node packed as it comes, so the whole document
        is never held parsed; any other layout is read whole (_read_fixture)."""
        items = []
        try:
            fh = open(path, 'r', encoding='utf-8')
        except OSError as e:
            raise FixtureError('cannot read fixture %s: %s' % (path, e))
        with fh:
            head = []
            for line in fh:
                head.append(line)
                if line.strip() == '"items": [' or len(head) > 20:
                    break
            if not head or head[0].strip() != '{' or head[-1].strip() != '"items": [':
                return self._read_fixture(path)
            tail = []
            for line in fh:
                t = line.strip()
                if t in (']', '],'):
                    tail.append(line)
                    break
                if t.endswith(','):
                    t = t[:-1]
                try:
                    it = json.loads(t)
                except ValueError:
                    return self._read_fixture(path)
                items.append(self._pack(it) if isinstance(it, dict) else it)
            tail.extend(fh)
        try:
            doc = json.loads(''.join(head) + ''.join(tail))
        except ValueError as e:
            raise FixtureError('cannot read fixture %s: %s' % (path, e))
        if not isinstance(doc, dict) or doc.get('kind', 'List') != 'List':
            return self._read_fixture(path)
        return items

    def item_json(self, obj, builtin):
        """An object's list-item JSON (server.py list_item_json), encoded once and kept, or
        unpacked (--lean) each time a page is rendered."""
        key = (id(obj), builtin)
        b = self.encoded.get(key)
        if b is None:
            z = self.packed.get(key)
            if z is not None:
                return zlib.decompress(z)
            b = self._encode_item(obj, builtin)
            self.encoded[key] = b
        return b

    def _register_crd(self, crd):
        spec = crd.get('spec') or {}
        group = spec.get('group')
        names = spec.get('names') or {}
        if not group or not names.get('plural') or not names.get('kind'):
            raise FixtureError('CustomResourceDefinition %s lacks spec.group/names'
                               % (crd.get('metadata') or {}).get('name'))
        versions = [v for v in (spec.get('versions') or []) if v.get('served', True)]
        for v in versions:
            sub = []
            if (v.get('subresources') or {}).get('status') is not None:
                sub.append(('status', names['kind'], STATUS[2]))
            if (v.get('subresources') or {}).get('scale') is not None:
                sub.append(('scale', 'Scale', ['get', 'patch', 'update']))
            r = Resource(group, v['name'], names['plural'], names['kind'],
                         spec.get('scope', 'Namespaced') == 'Namespaced',
                         singular=names.get('singular'), short=names.get('shortNames') or [],
                         categories=names.get('categories') or [], subresources=sub,
                         builtin=False, list_kind=names.get('listKind'))
            r.printer_columns = v.get('additionalPrinterColumns') or []
            self.resources[(group, v['name'], names['plural'])] = r
            self.by_kind[(group, names['kind'])] = r
            vs = self.custom_groups.setdefault(group, [])
            if v['name'] not in vs:
                if v.get('storage'):
                    vs.insert(0, v['name'])
                else:
                    vs.append(v['name'])

    def _resource_for_item(self, it):
        av = it.get('apiVersion')
        kind = it.get('kind')
        if not av or not kind:
            raise FixtureError('fixture item without apiVersion/kind: %s'
                               % json.dumps(it.get('metadata', {}))[:200])
        group, _, version = av.rpartition('/')
        res = self.by_kind.get((group, kind))
        if res is not None and (res.group, version, res.plural) in self.resources:
            return res
        if res is not None and group in BUILTIN_GROUPS:
            return res
        # a custom resource without a CRD in the fixture
        plural, namespaced, short, cols = KNOWN_CUSTOM.get(
            (group, kind), (_guess_plural(kind), 'namespace' in (it.get('metadata') or {}), [], []))
        r = Resource(group, version, plural, kind, namespaced, short=short,
                     builtin=group in BUILTIN_GROUPS)
        r.printer_columns = cols
        self.resources[(group, version, plural)] = r
        self.by_kind[(group, kind)] = r
        if group not in BUILTIN_GROUPS:
            vs = self.custom_groups.setdefault(group, [])
            if version not in vs:
                vs.append(version)
        return r

    def _synthesize_namespaces(self):
        nss = self.objects.setdefault(('', 'namespaces'), {})
        if nss:
            return
        names = {'default', 'kube-system', 'kube-public', 'kube-node-lease'}
        for (g, p), objs in self.objects.items():
            for obj in objs.values():
                ns = (obj.get('metadata') or {}).get('namespace')
                if ns:
                    names.add(ns)
        stamps = sorted(o['metadata']['creationTimestamp'] for objs in self.objects.values()
                        for o in objs.values()
                        if isinstance((o.get('metadata') or {}).get('creationTimestamp'), str))
        created = stamps[0] if stamps else '2024-01-01T00:00:00Z'
        for n in sorted(names):
            nss[n] = {'apiVersion': 'v1', 'kind': 'Namespace',
                      'metadata': {'name': n, 'uid': 'ns-' + n,
                                   'resourceVersion': str(self.resource_version - 1),
                                   'creationTimestamp': created,
                                   'labels': {'kubernetes.io/metadata.name': n}},
                      'spec': {'finalizers': ['kubernetes']},
                      'status': {'phase': 'Active'}}

    # -- queries

    def lookup(self, group, version, plural):
        return self.resources.get((group, version, plural))

    def group_versions(self):
        """[(group, [versions])] served, builtin groups first (in a fixed order)."""
        out = []
        builtin = {}
        for (g, v, p), r in self.resources.items():
            if g in BUILTIN_GROUPS:
                builtin.setdefault(g, [])
                if v not in builtin[g]:
                    builtin[g].append(v)
        for g in BUILTIN_GROUPS:
            if g in builtin:
                out.append((g, builtin[g]))
        for g in sorted(self.custom_groups):
            out.append((g, self.custom_groups[g]))
        return out

    def resources_in(self, group, version):
        return sorted((r for (g, v, p), r in self.resources.items() if g == group and v == version),
                      key=lambda r: r.plural)

    def _source_objects(self, res):
        if res.group == 'events.k8s.io':
            if self._events_v1 is None:
                core = self.objects.get(('', 'events'), {})
                self._events_v1 = {k: core_event_to_v1(o) for k, o in core.items()}
            return self._events_v1
        return self.objects.get((res.group, res.plural), {})

    def _keys(self, res):
        """Sorted keys (etcd order) of a resource; the snapshot never changes."""
        ck = (res.group, res.plural)
        keys = self._sorted.get(ck)
        if keys is None:
            keys = sorted(self._source_objects(res))
            self._sorted[ck] = keys
        return keys

    def get(self, res, namespace, name):
        objs = self._source_objects(res)
        return objs.get(res.key_for(namespace or '', name))

    def select(self, res, namespace, label_sel, field_sel):
        """Matching (key, obj) pairs in etcd key order."""
        prefix = (namespace + '/') if (res.namespaced and namespace) else ''
        out = []
        objs = self._source_objects(res)
        for key in sorted(objs):
            if prefix and not key.startswith(prefix):
                continue
            obj = objs[key]
            if label_sel is not None and not label_sel.matches((obj.get('metadata') or {}).get('labels')):
                continue
            if field_sel is not None and not field_sel.matches(field_values(res, obj)):
                continue
            out.append((key, obj))
        return out, prefix

    def _matching(self, res, namespace, prefix, label_sel, field_sel, sel_key, lo, hi):
        """Indices (into _keys(res)) in [lo, hi) of the objects the selectors match; cached per
        selector text when sel_key is given (the snapshot never changes)."""
        ck = None
        if sel_key is not None:
            ck = (res.group, res.plural, prefix, sel_key)
            m = self._matches.get(ck)
            if m is not None:
                return m
        objs = self._source_objects(res)
        keys = self._keys(res)
        m = []
        for i in range(lo, hi):
            obj = objs[keys[i]]
            if label_sel is not None and not label_sel.matches((obj.get('metadata') or {}).get('labels')):
                continue
            if field_sel is not None and not field_sel.matches(field_values(res, obj)):
                continue
            m.append(i)
        if ck is not None:
            self._matches[ck] = m
        return m

    def list_page(self, res, namespace, label_sel, field_sel, limit, start_key, rv, sel_key=None):
        """One page: (items, continue_token or '', remaining or None).

        As the etcd3 store: a page holds at most `limit` matching objects; a continue token
        is returned when the page is full and keys (matching or not) remain after its last
        object; remainingItemCount only when no selector filters the list.  sel_key (the
        selectors' text) lets the matches be computed once for all pages and lists."""
        objs = self._source_objects(res)
        keys = self._keys(res)
        prefix = (namespace + '/') if (res.namespaced and namespace) else ''
        plo = bisect.bisect_left(keys, prefix) if prefix else 0
        lo = bisect.bisect_left(keys, prefix + (start_key or '')) if (prefix or start_key) else 0
        hi = bisect.bisect_left(keys, prefix[:-1] + '0') if prefix else len(keys)
        filtered = not ((label_sel is None or label_sel.empty()) and
                        (field_sel is None or field_sel.empty()))
        full = limit and limit > 0
        if filtered:
            m = self._matching(res, namespace, prefix, label_sel, field_sel, sel_key, plo, hi)
            a = bisect.bisect_left(m, lo)
            chosen = m[a:a + limit] if full else m[a:]
        else:
            chosen = range(lo, min(hi, lo + limit) if full else hi)
        items = [objs[keys[i]] for i in chosen]
        last = chosen[-1] if full and len(items) == limit else None
        if last is None or last + 1 >= hi:
            return items, '', None
        token = encode_continue(keys[last][len(prefix):] + '\x00', rv)
        return items, token, (None if filtered else hi - (last + 1))
