"""Server-side printing (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`).

Column sets and cell rules follow kubernetes pkg/printers/internalversion/printers.go
(printNode, printPod, printNamespace, printConfigMap, printService, printEvent,
printResourceQuota, printDaemonSet, printDeployment, printJob) and the generic
DefaultTableConvertor ("Name", "Created At") of k8s.io/apiserver for other resources.
The server always generates the wide (priority 1) columns; kubectl hides them unless -o wide.
"""

import datetime
import json

NAME_DESC = ('Name must be unique within a namespace. Is required when creating resources, '
             'although some resources may allow a client to request the generation of an '
             'appropriate name automatically. Name is primarily intended for creation '
             'idempotence and configuration definition. Cannot be updated. More info: '
             'https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names')
AGE_DESC = ('CreationTimestamp is a timestamp representing the server time when this object '
            'was created. It is not guaranteed to be set in happens-before order across '
            'separate operations. Clients may not set this value. It is represented in '
            'RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. '
            'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/'
            'api-conventions.md#metadata')


def parse_time(s):
    if not s:
        return None
    try:
        s = s.replace('Z', '+00:00')
        if '.' in s:
            head, frac = s.split('.', 1)
            tz = ''
            for sep in ('+', '-'):
                if sep in frac:
                    frac, tz = frac.split(sep, 1)
                    tz = sep + tz
                    break
            s = head + '.' + (frac + '000000')[:6] + tz
        return datetime.datetime.fromisoformat(s)
    except ValueError:
        return None


def human_duration(seconds_f):
    """k8s.io/apimachinery/pkg/util/duration.HumanDuration."""
    seconds = int(seconds_f)
    if seconds < -1:
        return '<invalid>'
    if seconds < 0:
        return '0s'
    if seconds < 60 * 2:
        return '%ds' % seconds
    minutes = seconds // 60
    if minutes < 10:
        s = seconds % 60
        return '%dm' % minutes if s == 0 else '%dm%ds' % (minutes, s)
    if minutes < 60 * 3:
        return '%dm' % minutes
    hours = seconds // 3600
    if hours < 8:
        m = minutes % 60
        return '%dh' % hours if m == 0 else '%dh%dm' % (hours, m)
    if hours < 48:
        return '%dh' % hours
    if hours < 24 * 8:
        h = hours % 24
        return '%dd' % (hours // 24) if h == 0 else '%dd%dh' % (hours // 24, h)
    if hours < 24 * 365 * 2:
        return '%dd' % (hours // 24)
    if hours < 24 * 365 * 8:
        dy = (hours // 24) % 365
        return '%dy' % (hours // 24 // 365) if dy == 0 else '%dy%dd' % (hours // 24 // 365, dy)
    return '%dy' % (hours // 24 // 365)


def since(ts, now):
    t = parse_time(ts)
    if t is None:
        return '<unknown>'
    return human_duration((now - t).total_seconds())


def col(name, typ='string', desc='', priority=0, fmt=''):
    return {'name': name, 'type': typ, 'format': fmt, 'description': desc, 'priority': priority}


# ----------------------------------------------------------------------------------------

def _node_columns():
    return [col('Name', fmt='name', desc=NAME_DESC),
            col('Status', desc='The status of the node'),
            col('Roles', desc='The roles of the node'),
            col('Age', desc=AGE_DESC),
            col('Version', desc='Kubelet Version reported by the node.'),
            col('Internal-IP', priority=1, desc='List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses'),
            col('External-IP', priority=1, desc='List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses'),
            col('OS-Image', priority=1, desc='OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).'),
            col('Kernel-Version', priority=1, desc="Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64)."),
            col('Container-Runtime', priority=1, desc='ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).')]


def _node_cells(o, now):
    st = o.get('status') or {}
    conds = {c.get('type'): c for c in st.get('conditions') or []}
    status = []
    if 'Ready' in conds:
        status.append('Ready' if conds['Ready'].get('status') == 'True' else 'NotReady')
    if not status:
        status.append('Unknown')
    if (o.get('spec') or {}).get('unschedulable'):
        status.append('SchedulingDisabled')
    roles = set()
    for k, v in ((o.get('metadata') or {}).get('labels') or {}).items():
        if k.startswith('node-role.kubernetes.io/'):
            r = k[len('node-role.kubernetes.io/'):]
            if r:
                roles.add(r)
        elif k == 'kubernetes.io/role' and v:
            roles.add(v)
    info = st.get('nodeInfo') or {}

    def addr(t):
        for a in st.get('addresses') or []:
            if a.get('type') == t:
                return a.get('address', '')
        return '<none>'
    return [o['metadata']['name'], ','.join(status), ','.join(sorted(roles)) or '<none>',
            since(o['metadata'].get('creationTimestamp'), now), info.get('kubeletVersion', ''),
            addr('InternalIP'), addr('ExternalIP'), info.get('osImage') or '<unknown>',
            info.get('kernelVersion') or '<unknown>',
            info.get('containerRuntimeVersion') or '<unknown>']


def _pod_columns():
    return [col('Name', fmt='name', desc=NAME_DESC),
            col('Ready', desc='The aggregate readiness state of this pod for accepting traffic.'),
            col('Status', desc='The aggregate status of the containers in this pod.'),
            col('Restarts', desc='The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
            col('Age', desc=AGE_DESC),
            col('IP', priority=1, desc='podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.'),
            col('Node', priority=1, desc="NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename"),
            col('Nominated Node', priority=1, desc='nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.'),
            col('Readiness Gates', priority=1, desc='If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates')]


def _pod_cells(o, now):
    spec = o.get('spec') or {}
    st = o.get('status') or {}
    md = o.get('metadata') or {}
    restarts = 0
    ri_restarts = 0
    containers = spec.get('containers') or []
    total = len(containers)
    ready = 0
    last_restart = None
    last_ri_restart = None
    phase = st.get('phase', '')
    reason = st.get('reason') or phase
    for c in st.get('conditions') or []:
        if c.get('type') == 'PodScheduled' and c.get('reason') == 'SchedulingGated':
            reason = 'SchedulingGated'
    inits = {c.get('name'): c for c in spec.get('initContainers') or []}

    def restartable(c):
        return c is not None and c.get('restartPolicy') == 'Always'
    for c in inits.values():
        if restartable(c):
            total += 1

    def later(a, b):
        if b is None:
            return a
        tb = parse_time(b)
        if tb is None:
            return a
        return tb if a is None or tb > a else a

    initializing = False
    istatuses = st.get('initContainerStatuses') or []
    for i, cs in enumerate(istatuses):
        restarts += int(cs.get('restartCount', 0))
        lt = ((cs.get('lastState') or {}).get('terminated') or {}).get('finishedAt')
        last_restart = later(last_restart, lt)
        if restartable(inits.get(cs.get('name'))):
            ri_restarts += int(cs.get('restartCount', 0))
            last_ri_restart = later(last_ri_restart, lt)
        state = cs.get('state') or {}
        term = state.get('terminated')
        wait = state.get('waiting')
        if term is not None and int(term.get('exitCode', 0)) == 0:
            continue
        if restartable(inits.get(cs.get('name'))) and cs.get('started'):
            if cs.get('ready'):
                ready += 1
            continue
        if term is not None:
            if not term.get('reason'):
                if term.get('signal'):
                    reason = 'Init:Signal:%d' % term['signal']
                else:
                    reason = 'Init:ExitCode:%d' % int(term.get('exitCode', 0))
            else:
                reason = 'Init:' + term['reason']
            initializing = True
        elif wait is not None and wait.get('reason') and wait.get('reason') != 'PodInitializing':
            reason = 'Init:' + wait['reason']
            initializing = True
        else:
            reason = 'Init:%d/%d' % (i, len(spec.get('initContainers') or []))
            initializing = True
        break

    initialized = any(c.get('type') == 'Initialized' and c.get('status') == 'True'
                      for c in st.get('conditions') or [])
    if not initializing or initialized:
        restarts = ri_restarts
        last_restart = last_ri_restart
        has_running = False
        for cs in reversed(st.get('containerStatuses') or []):
            restarts += int(cs.get('restartCount', 0))
            lt = ((cs.get('lastState') or {}).get('terminated') or {}).get('finishedAt')
            last_restart = later(last_restart, lt)
            state = cs.get('state') or {}
            wait = state.get('waiting')
            term = state.get('terminated')
            if wait is not None and wait.get('reason'):
                reason = wait['reason']
            elif term is not None and term.get('reason'):
                reason = term['reason']
            elif term is not None:
                if term.get('signal'):
                    reason = 'Signal:%d' % term['signal']
                else:
                    reason = 'ExitCode:%d' % int(term.get('exitCode', 0))
            elif cs.get('ready') and state.get('running') is not None:
                has_running = True
                ready += 1
        if reason == 'Completed' and has_running:
            if any(c.get('type') == 'Ready' and c.get('status') == 'True'
                   for c in st.get('conditions') or []):
                reason = 'Running'
            else:
                reason = 'NotReady'
    if md.get('deletionTimestamp') and st.get('reason') == 'NodeLost':
        reason = 'Unknown'
    elif md.get('deletionTimestamp') and phase not in ('Succeeded', 'Failed'):
        reason = 'Terminating'
    rs = str(restarts)
    if restarts != 0 and last_restart is not None:
        rs = '%d (%s ago)' % (restarts, human_duration((now - last_restart).total_seconds()))
    ips = st.get('podIPs') or []
    ip = ips[0].get('ip', '') if ips else ''
    gates = spec.get('readinessGates') or []
    rg = '<none>'
    if gates:
        n = 0
        for g in gates:
            for c in st.get('conditions') or []:
                if c.get('type') == g.get('conditionType'):
                    if c.get('status') == 'True':
                        n += 1
                    break
        rg = '%d/%d' % (n, len(gates))
    return [md['name'], '%d/%d' % (ready, total), reason, rs, since(md.get('creationTimestamp'), now),
            ip or '<none>', spec.get('nodeName') or '<none>',
            st.get('nominatedNodeName') or '<none>', rg]


def _pod_conditions(o):
    phase = (o.get('status') or {}).get('phase')
    if phase == 'Succeeded':
        return [{'type': 'Completed', 'status': 'True', 'reason': 'Succeeded',
                 'message': 'The pod has completed successfully.'}]
    if phase == 'Failed':
        return [{'type': 'Completed', 'status': 'True', 'reason': 'Failed',
                 'message': 'The pod failed.'}]
    return None


def _ns_columns():
    return [col('Name', fmt='name', desc=NAME_DESC),
            col('Status', desc='The status of the namespace'), col('Age', desc=AGE_DESC)]


def _ns_cells(o, now):
    return [o['metadata']['name'], (o.get('status') or {}).get('phase', ''),
            since(o['metadata'].get('creationTimestamp'), now)]


def _cm_columns():
    return [col('Name', fmt='name', desc=NAME_DESC),
            col('Data', typ='string', desc='Data contains the configuration data. Each key must consist of alphanumeric characters, \'-\', \'_\' or \'.\'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.'),
            col('Age', desc=AGE_DESC)]


def _cm_cells(o, now):
    n = len(o.get('data') or {}) + len(o.get('binaryData') or {})
    return [o['metadata']['name'], n, since(o['metadata'].get('creationTimestamp'), now)]


def _svc_columns():
    return [col('Name', fmt='name', desc=NAME_DESC),
            col('Type', desc='type determines how the Service is exposed.'),
            col('Cluster-IP', desc='clusterIP is the IP address of the service.'),
            col('External-IP', desc='List of IP addresses for which nodes in the cluster will also accept traffic for this service.'),
            col('Port(s)', desc='The list of ports that are exposed by this service.'),
            col('Age', desc=AGE_DESC),
            col('Selector', priority=1, desc='Route service traffic to pods with label keys and values matching this selector.')]


def _svc_cells(o, now):
    spec = o.get('spec') or {}
    typ = spec.get('type', 'ClusterIP')
    ext = '<none>'
    if typ == 'ExternalName':
        ext = spec.get('externalName', '<none>')
    elif typ == 'LoadBalancer':
        ing = ((o.get('status') or {}).get('loadBalancer') or {}).get('ingress') or []
        ips = [i.get('ip') or i.get('hostname') for i in ing] + list(spec.get('externalIPs') or [])
        ext = ','.join(ips) if ips else '<pending>'
    elif spec.get('externalIPs'):
        ext = ','.join(spec['externalIPs'])
    ports = []
    for p in spec.get('ports') or []:
        s = '%d/%s' % (p.get('port', 0), p.get('protocol', 'TCP'))
        if p.get('nodePort'):
            s = '%d:%d/%s' % (p.get('port', 0), p['nodePort'], p.get('protocol', 'TCP'))
        ports.append(s)
    sel = ','.join('%s=%s' % kv for kv in sorted((spec.get('selector') or {}).items())) or '<none>'
    return [o['metadata']['name'], typ, spec.get('clusterIP') or '<none>', ext,
            ','.join(ports) or '<none>', since(o['metadata'].get('creationTimestamp'), now), sel]


def _event_columns():
    return [col('Last Seen', desc='The time at which the most recent occurrence of this event was recorded.'),
            col('Type', desc='Type of this event (Normal, Warning), new types could be added in the future'),
            col('Reason', desc='This should be a short, machine understandable string that gives the reason for the transition into the object\'s current status.'),
            col('Object', desc='The object that this event is about.'),
            col('Subobject', priority=1, desc='The specific sub-object that this event is about.'),
            col('Source', priority=1, desc='The component reporting this event. Should be a short machine understandable string.'),
            col('Message', desc='A human-readable description of the status of this operation.'),
            col('First Seen', priority=1, desc='The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)'),
            col('Count', priority=1, desc='The number of times this event has occurred.'),
            col('Name', priority=1, fmt='name', desc=NAME_DESC)]


def _event_cells(o, now):
    io = o.get('involvedObject') or {}
    src = o.get('source') or {}
    first = since(o.get('firstTimestamp'), now) if o.get('firstTimestamp') else since(o.get('eventTime'), now)
    last = since(o.get('lastTimestamp'), now) if o.get('lastTimestamp') else first
    count = o.get('count') or 0
    if o.get('series'):
        last = since(o['series'].get('lastObservedTime'), now)
        count = o['series'].get('count', 0)
    elif count == 0:
        count = 1
    kind = (io.get('kind') or '').lower()
    target = '%s/%s' % (kind, io['name']) if io.get('name') else kind
    # formatEventSource
    comp = src.get('component') or o.get('reportingComponent') or ''
    host = src.get('host') or o.get('reportingInstance') or ''
    source = comp + (', ' + host if host else '')
    return [last, o.get('type', ''), o.get('reason', ''), target, io.get('fieldPath', ''),
            source, (o.get('message') or '').strip(), first, int(count), o['metadata']['name']]


def _quota_columns():
    return [col('Name', fmt='name', desc=NAME_DESC), col('Age', desc=AGE_DESC),
            col('Request', desc='Request represents a minimum amount of cpu/memory that a container may consume.'),
            col('Limit', desc='Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.')]


def _quota_cells(o, now):
    st = o.get('status') or {}
    hard = st.get('hard') or (o.get('spec') or {}).get('hard') or {}
    used = st.get('used') or {}
    req, lim = [], []
    for k in sorted(hard):
        s = '%s: %s/%s' % (k, used.get(k, '0'), hard[k])
        if k.startswith('limits.'):
            lim.append(s)
        else:
            req.append(s)
    return [o['metadata']['name'], since(o['metadata'].get('creationTimestamp'), now),
            ', '.join(req), ', '.join(lim)]


def _containers(tmpl):
    cs = ((tmpl or {}).get('spec') or {}).get('containers') or []
    return ','.join(c.get('name', '') for c in cs), ','.join(c.get('image', '') for c in cs)


def _selector_string(sel):
    if not sel:
        return '<none>'
    parts = ['%s=%s' % kv for kv in sorted((sel.get('matchLabels') or {}).items())]
    for e in sel.get('matchExpressions') or []:
        op = e.get('operator')
        if op == 'In':
            parts.append('%s in (%s)' % (e['key'], ','.join(sorted(e.get('values') or []))))
        elif op == 'NotIn':
            parts.append('%s notin (%s)' % (e['key'], ','.join(sorted(e.get('values') or []))))
        elif op == 'Exists':
            parts.append(e['key'])
        elif op == 'DoesNotExist':
            parts.append('!' + e['key'])
    return ','.join(parts) or '<none>'


def _ds_columns():
    return [col('Name', fmt='name', desc=NAME_DESC),
            col('Desired', typ='integer', desc='The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).'),
            col('Current', typ='integer', desc='The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.'),
            col('Ready', typ='integer', desc='numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.'),
            col('Up-to-date', typ='integer', desc='The total number of nodes that are running updated daemon pod'),
            col('Available', typ='integer', desc='The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
            col('Node Selector', desc='NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node\'s labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/'),
            col('Age', desc=AGE_DESC),
            col('Containers', priority=1, desc='Names of each container in the template.'),
            col('Images', priority=1, desc='Images referenced by each container in the template.'),
            col('Selector', priority=1, desc='A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template\'s labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors')]


def _ds_cells(o, now):
    st = o.get('status') or {}
    spec = o.get('spec') or {}
    tmpl = spec.get('template') or {}
    ns = ','.join('%s=%s' % kv for kv in sorted(((tmpl.get('spec') or {}).get('nodeSelector') or {}).items()))
    cn, im = _containers(tmpl)
    return [o['metadata']['name'], st.get('desiredNumberScheduled', 0),
            st.get('currentNumberScheduled', 0), st.get('numberReady', 0),
            st.get('updatedNumberScheduled', 0), st.get('numberAvailable', 0), ns or '<none>',
            since(o['metadata'].get('creationTimestamp'), now), cn, im,
            _selector_string(spec.get('selector'))]


def _deploy_columns():
    return [col('Name', fmt='name', desc=NAME_DESC),
            col('Ready', desc='Number of the pod with ready state'),
            col('Up-to-date', typ='string', desc='Total number of non-terminating pods targeted by this deployment that have the desired template spec.'),
            col('Available', typ='string', desc='Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.'),
            col('Age', desc=AGE_DESC),
            col('Containers', priority=1, desc='Names of each container in the template.'),
            col('Images', priority=1, desc='Images referenced by each container in the template.'),
            col('Selector', priority=1, desc='Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template\'s labels.')]


def _deploy_cells(o, now):
    st = o.get('status') or {}
    spec = o.get('spec') or {}
    cn, im = _containers(spec.get('template'))
    return [o['metadata']['name'], '%d/%d' % (st.get('readyReplicas', 0), spec.get('replicas', 1)),
            st.get('updatedReplicas', 0), st.get('availableReplicas', 0),
            since(o['metadata'].get('creationTimestamp'), now), cn, im,
            _selector_string(spec.get('selector'))]


def _default_columns():
    return [col('Name', fmt='name', desc=NAME_DESC),
            col('Created At', typ='date', desc=AGE_DESC)]


def _default_cells(o, now):
    return [o['metadata']['name'], (o['metadata'].get('creationTimestamp') or '')]


def _crd_columns(res):
    cols = [col('Name', fmt='name', desc=NAME_DESC)]
    for pc in getattr(res, 'printer_columns', []) or []:
        cols.append(col(pc.get('name', ''), typ=pc.get('type', 'string'),
                        desc=pc.get('description', ''), priority=pc.get('priority', 0),
                        fmt=pc.get('format', '')))
    if not any(pc.get('jsonPath') == '.metadata.creationTimestamp'
               for pc in getattr(res, 'printer_columns', []) or []):
        cols.append(col('Age', typ='date', desc=AGE_DESC))
    return cols


def _jsonpath_simple(o, path):
    cur = o
    for part in path.strip('.').split('.'):
        if not part:
            continue
        if isinstance(cur, dict):
            cur = cur.get(part)
        else:
            return None
    return cur


def _crd_cells_fn(res):
    pcs = getattr(res, 'printer_columns', []) or []

    def cells(o, now):
        out = [o['metadata']['name']]
        for pc in pcs:
            v = _jsonpath_simple(o, pc.get('jsonPath', ''))
            if pc.get('type') == 'date' and isinstance(v, str):
                v = since(v, now)
            elif isinstance(v, (dict, list)):
                v = json.dumps(v, separators=(',', ':'))
            out.append('' if v is None else v)
        if not any(pc.get('jsonPath') == '.metadata.creationTimestamp' for pc in pcs):
            out.append(since(o['metadata'].get('creationTimestamp'), now))
        return out
    return cells


PRINTERS = {
    ('', 'nodes'): (_node_columns, _node_cells),
    ('', 'pods'): (_pod_columns, _pod_cells),
    ('', 'namespaces'): (_ns_columns, _ns_cells),
    ('', 'configmaps'): (_cm_columns, _cm_cells),
    ('', 'services'): (_svc_columns, _svc_cells),
    ('', 'events'): (_event_columns, _event_cells),
    ('', 'resourcequotas'): (_quota_columns, _quota_cells),
    ('apps', 'daemonsets'): (_ds_columns, _ds_cells),
    ('apps', 'deployments'): (_deploy_columns, _deploy_cells),
}


def partial_metadata(o):
    return {'kind': 'PartialObjectMetadata', 'apiVersion': 'meta.k8s.io/v1',
            'metadata': o.get('metadata') or {}}


def to_table(res, objs, list_meta, now, include_object='Metadata', no_headers=False):
    """Builds a meta.k8s.io/v1 Table for objects of resource `res`."""
    key = (res.group, res.plural)
    if key in PRINTERS:
        cols_fn, cells_fn = PRINTERS[key]
        cols = cols_fn()
    elif not res.builtin:
        cols, cells_fn = _crd_columns(res), _crd_cells_fn(res)
    else:
        cols, cells_fn = _default_columns(), _default_cells
    rows = []
    for o in objs:
        row = {'cells': cells_fn(o, now)}
        if key == ('', 'pods'):
            c = _pod_conditions(o)
            if c:
                row['conditions'] = c
        if include_object == 'Object':
            full = dict(o)
            full.setdefault('kind', res.kind)
            full.setdefault('apiVersion', res.api_version)
            row['object'] = full
        elif include_object != 'None':
            row['object'] = partial_metadata(o)
        rows.append(row)
    t = {'kind': 'Table', 'apiVersion': 'meta.k8s.io/v1', 'metadata': list_meta,
         'columnDefinitions': [] if no_headers else cols, 'rows': rows}
    return t
