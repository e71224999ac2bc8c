"""Writes for the fake API server (--operator-sim), and the GPU Operator's reaction to them.

What the plan's script does with the real kubectl: `apply --server-side` (PATCH
application/apply-patch+yaml, creating what does not exist), `patch --type
merge`, `label`, `annotate`, `cordon`/`uncordon` (PATCH), `rollout restart` (PATCH), `drain`
(PATCH, then POST pods/NAME/eviction and GET until the pod is gone).  Patches are applied as
JSON merge patches (RFC 7386); strategic merge patches of the objects involved here only touch
maps, where both agree.

The operator, simulated by its upstream rules (cited per rule below):
  * mig-manager acts only when nvidia.com/mig.config changes (mig-parted
    cmd/nvidia-mig-manager/main.go:572-577) or when it restarts (AddFunc, :569-570; the
    operator restarts it when spec.migManager.config.name changes).  A config the mig-parted
    ConfigMap lacks, a profile the GPU model does not have or a layout that does not fit sets
    nvidia.com/mig.config.state=failed (pkg/mig/reconfigure/reconfigure.go:139).  A layout equal
    to the one the GPUs have passes mig-parted's assert: success, nothing touched.  A change
    while a pod holding a GPU runs on the node fails (the GPU instances cannot be destroyed
    under a process).  Else success and the GPUs take the layout.
  * the device plugin's config-manager selects the node's nvidia.com/device-plugin.config, else
    spec.devicePlugin.config.default, else the empty config (FALLBACK_STRATEGIES=empty,
    gpu-operator controllers/object_controls.go:2893-2894); a name the ConfigMap lacks stops
    the plugin ("specified config X does not exist", k8s-device-plugin
    cmd/config-manager/main.go:352-363): the node advertises no GPU resource.
  * spec.mig.strategy, when set, reaches the plugin as MIG_STRATEGY and overrides the config
    file (object_controls.go:2787-2794); MPS with the mixed strategy is refused
    (cmd/nvidia-device-plugin/main.go:228-229), MPS on MIG devices too (internal/plugin/mps.go:48).
  * advertised resources: none -> nvidia.com/gpu = GPUs with MIG disabled; mixed -> plus
    nvidia.com/mig-<profile>; single -> the MIG devices as nvidia.com/gpu when every GPU has one
    profile; sharing multiplies by replicas and renameByDefault adds ".shared".
  * GPUs unhealthy now (allocatable below capacity) stay unhealthy after a restart: the plugin
    starts every device Healthy (k8s-device-plugin internal/rm/devices.go:92) and marks it again
    when the fault recurs (internal/plugin/server.go:277-278); whole GPUs and MIG-single devices
    lose the unhealthy GPUs' share, mixed MIG devices keep theirs (which GPU failed is unknown).
    Under the single strategy GFD's gpu.count counts MIG devices: the physical GPUs are that
    count over the devices per GPU of the node's mig-parted config.
  * the plugin restarts (and re-reads its config) on a label change, a ClusterPolicy change
    and a DaemonSet rollout restart; a ConfigMap edit alone changes nothing.
Without a ClusterPolicy, what acts is what the cluster's DaemonSets run (issue 27):
  * the device plugin is the DaemonSet whose container image is k8s-device-plugin (any name or
    registry; GPU Feature Discovery, same image, is not it).  With config-manager (a container
    running `config-manager`, as the Helm chart renders it with config.map or config.name:
    deployments/helm/nvidia-device-plugin/templates/daemonset-device-plugin.yml:58-132 at
    v0.17.0) the configs are the keys of the ConfigMap mounted at CONFIG_FILE_SRCDIR
    (available-configs) and a node's nvidia.com/device-plugin.config picks one; a name the map
    lacks stops it ("specified config X does not exist", cmd/config-manager/main.go:351-355
    at v0.17.0); an unlabelled node (or a label removed: DeleteFunc/UpdateFunc set "",
    :269-284) takes DEFAULT_CONFIG (:358-365; a DEFAULT_CONFIG the map lacks stops it too),
    else FALLBACK_STRATEGIES in order: named ("default"), single (the only config), empty
    (:367-391).  MIG_STRATEGY in the plugin's env overrides the file's flag.
  * without config-manager the plugin reads CONFIG_FILE (a key of a mounted ConfigMap) once, at
    start: node labels do nothing, a ConfigMap edit does nothing until the DaemonSet is
    restarted (`kubectl rollout restart` patches its template), then every node re-reads it.
  * nvidia.com/mig.config is read only by a MIG manager: the operator's, or a DaemonSet whose
    image is k8s-mig-manager; with neither (the Helm chart installs none) the label does
    nothing and the GPUs keep their layout.
Failures are recorded in the node annotation fakeapi.test/device-plugin.
"""
import copy
import json
import subprocess
import uuid

# mig-parted device-filter IDs (gpu-operator assets/state-mig-manager/0400_configmap.yaml)
DEVICE_IDS = {'NVIDIA-A100-SXM4-80GB': '0x20B210DE', 'NVIDIA-A100-80GB-PCIe': '0x20B510DE',
              'NVIDIA-H100-80GB-HBM3': '0x233010DE', 'NVIDIA-A100-SXM4-40GB': '0x20B010DE'}
# profile -> (compute slices, memory slices, max per GPU), shared/reference/mig-profiles.md
P80 = {'1g.10gb': (1, 1, 7), '1g.10gb+me': (1, 1, 1), '1g.20gb': (1, 2, 4), '2g.20gb': (2, 2, 3),
       '3g.40gb': (3, 4, 2), '4g.40gb': (4, 4, 1), '7g.80gb': (7, 8, 1)}
P40 = {'1g.5gb': (1, 1, 7), '1g.5gb+me': (1, 1, 1), '1g.10gb': (1, 2, 4), '2g.10gb': (2, 2, 3),
       '3g.20gb': (3, 4, 2), '4g.20gb': (4, 4, 1), '7g.40gb': (7, 8, 1)}
PROFILES = {'NVIDIA-A100-SXM4-80GB': P80, 'NVIDIA-A100-80GB-PCIe': P80, 'NVIDIA-H100-80GB-HBM3': P80,
            'NVIDIA-A100-SXM4-40GB': P40}
SIM_ANNOTATION = 'fakeapi.test/device-plugin'


class WriteError(Exception):
    def __init__(self, code, reason, message):
        super().__init__(message)
        self.code, self.reason, self.message = code, reason, message


def merge_patch(target, patch):
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merge_patch(out.get(k), v)
    return out


def status(code, reason, message):
    return {'kind': 'Status', 'apiVersion': 'v1', 'metadata': {}, 'status': 'Failure',
            'message': message, 'reason': reason, 'code': code}


def base_product(p):
    p = p or ''
    for suf in ('-SHARED',):
        if p.endswith(suf):
            p = p[:-len(suf)]
    i = p.find('-MIG-')
    return p[:i] if i >= 0 else p


class Writer:
    def __init__(self, store, yaml2json):
        self.store = store
        self.yaml2json = yaml2json
        self.mig = {}                 # node -> {'whole': n, 'mig': {profile: n}}
        self.physical = {}            # node -> physical GPUs where GFD counts MIG devices (single)
        self.unhealthy = {}           # node -> GPUs the device plugin reports Unhealthy
        pods = store.lookup('', 'v1', 'pods')
        if pods and not any(s[0] == 'eviction' for s in pods.subresources):
            pods.subresources.append(('eviction', 'Eviction', ['create']))
        for node in self._nodes().values():      # the GPUs' layout as the fixture advertises it
            self._state(node)
        self.started = {}             # node -> config text a plugin without config-manager read at start
        dp = self._dp_daemonset()
        if dp and not self._cfgm(dp):
            for node in self._nodes().values():
                self.started[node['metadata']['name']] = self._static_file(dp)

    # ---------------------------------------------------------------- store
    def _objs(self, res):
        return self.store.objects.setdefault((res.group, res.plural), {})

    def _changed(self, res, obj):
        st = self.store
        st.resource_version += 1
        obj['metadata']['resourceVersion'] = str(st.resource_version)
        st._sorted.pop((res.group, res.plural), None)
        st._matches.clear()
        st.encoded.clear()

    def _get(self, kind_group, plural, ns, name):
        res = next((r for r in self.store.resources.values() if r.group == kind_group and r.plural == plural), None)
        if res is None:
            return None, None
        return res, self._objs(res).get(res.key_for(ns or '', name))

    def _body(self, body, ctype):
        text = body.decode('utf-8') if body else '{}'
        if 'yaml' in ctype and not text.lstrip().startswith('{'):
            return self._yaml(text)
        try:
            return json.loads(text)
        except ValueError:
            raise WriteError(400, 'BadRequest', 'the body is not JSON')

    def _yaml(self, text):
        out = subprocess.run([self.yaml2json], input=text.encode(), capture_output=True, timeout=30)
        if out.returncode != 0:
            return None
        lines = [l for l in out.stdout.decode().splitlines() if l.strip()]
        return json.loads(lines[0]) if lines else None

    # ---------------------------------------------------------------- writes
    def write(self, method, res, attrs, query, body, ctype):
        try:
            return self._write(method, res, attrs, query, body, ctype)
        except WriteError as e:
            return e.code, status(e.code, e.reason, e.message)

    def _write(self, method, res, attrs, query, body, ctype):
        ns, name, sub = attrs['namespace'], attrs['name'], attrs['subresource']
        dry = 'All' in query.get('dryRun', [])
        objs = self._objs(res)
        if method == 'POST' and res.plural == 'pods' and sub == 'eviction':
            key = res.key_for(ns, name)
            if key not in objs:
                raise WriteError(404, 'NotFound', 'pods "%s" not found' % name)
            if not dry:
                pod = objs.pop(key)
                self._changed(res, pod)
            return 201, {'kind': 'Status', 'apiVersion': 'v1', 'metadata': {}, 'status': 'Success', 'code': 201}
        if sub and sub != 'status':
            raise WriteError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource')
        if method == 'POST':
            obj = self._body(body, ctype)
            md = obj.setdefault('metadata', {})
            name = md.get('name') or name
            if res.namespaced:
                md['namespace'] = ns or md.get('namespace') or 'default'
            key = res.key_for(md.get('namespace', ''), name)
            if key in objs:
                raise WriteError(409, 'AlreadyExists', '%s "%s" already exists' % (res.plural, name))
            md['uid'] = str(uuid.uuid4())
            md.setdefault('creationTimestamp', '2025-06-01T00:00:00Z')
            obj['kind'], obj['apiVersion'] = res.kind, res.api_version
            if not dry:
                objs[key] = obj
                self._changed(res, obj)
                self._react(res, None, obj)
            return 201, obj
        key = res.key_for(ns, name)
        old = objs.get(key)
        if old is None and method == 'PATCH' and 'apply-patch' in ctype:
            # server-side apply creates what does not exist
            return self._write('POST', res, dict(attrs, name=''), query, body, 'application/yaml')
        if old is None:
            raise WriteError(404, 'NotFound', '%s "%s" not found' % (res.plural, name))
        if method == 'DELETE':
            if not dry:
                objs.pop(key)
                self._changed(res, old)
            return 200, old
        if 'json-patch' in ctype:
            raise WriteError(415, 'UnsupportedMediaType', 'json patches are not supported by the fake server')
        patch = self._body(body, ctype)
        if not isinstance(patch, dict):
            raise WriteError(400, 'BadRequest', 'the patch is not a JSON object')
        new = patch if method == 'PUT' else merge_patch(old, patch)
        new['metadata'] = merge_patch(new.get('metadata') or {}, {'name': name, 'uid': old['metadata'].get('uid')})
        if res.namespaced:
            new['metadata']['namespace'] = ns
        new['kind'], new['apiVersion'] = res.kind, res.api_version
        cmp_old = dict(old, metadata={k: v for k, v in old['metadata'].items() if k != 'resourceVersion'})
        cmp_new = dict(new, metadata={k: v for k, v in new['metadata'].items() if k != 'resourceVersion'})
        if cmp_old == cmp_new:
            return 200, old                   # a no-op write keeps the resourceVersion, as etcd does
        if not dry:
            objs[key] = new
            self._changed(res, new)
            self._react(res, old, new)
        return 200, new

    # ---------------------------------------------------------------- the operator
    def _clusterpolicy(self):
        _, objs = None, self.store.objects.get(('nvidia.com', 'clusterpolicies'), {})
        return next(iter(objs.values()), None)

    def _nodes(self):
        return self.store.objects.get(('', 'nodes'), {})

    # ---------------------------------------------------------------- without the operator
    @staticmethod
    def _repo(image):
        image = (image or '').split('@')[0]
        last = image.rsplit('/', 1)[-1]
        return last.split(':')[0]

    def _daemonsets(self, repo):
        out = []
        for key, d in sorted(self.store.objects.get(('apps', 'daemonsets'), {}).items()):
            spec = ((d.get('spec') or {}).get('template') or {}).get('spec') or {}
            ctrs = spec.get('containers') or []
            if any('feature-discovery' in (c.get('name') or '') for c in ctrs):
                continue
            if any(self._repo(c.get('image')) == repo for c in ctrs):
                out.append(d)
        return out

    def _dp_daemonset(self):
        ds = self._daemonsets('k8s-device-plugin')
        return ds[0] if ds else None

    @staticmethod
    def _tspec(d):
        return ((d.get('spec') or {}).get('template') or {}).get('spec') or {}

    def _cfgm(self, d):
        sp = self._tspec(d)
        return any('config-manager' in ' '.join(c.get('command') or []) for c in
                   (sp.get('containers') or []) + (sp.get('initContainers') or []))

    def _env(self, d, name):
        sp = self._tspec(d)
        val = None
        for c in (sp.get('initContainers') or []) + (sp.get('containers') or []):
            for e in c.get('env') or []:
                if e.get('name') == name and 'value' in e:
                    val = e['value']
        return val

    def _mounted(self, d, path):
        """the ConfigMap mounted at path (a directory)"""
        sp = self._tspec(d)
        vols = {v.get('name'): (v.get('configMap') or {}).get('name') for v in sp.get('volumes') or []}
        for c in (sp.get('initContainers') or []) + (sp.get('containers') or []):
            for m in c.get('volumeMounts') or []:
                if m.get('mountPath', '').rstrip('/') == path.rstrip('/') and vols.get(m.get('name')):
                    return vols[m['name']]
        return None

    def _ds_map(self, d, name):
        return self.store.objects.get(('', 'configmaps'), {}).get(d['metadata']['namespace'] + '/' + name) if name else None

    def _static_file(self, d):
        f = self._env(d, 'CONFIG_FILE')
        if not f:
            return ''
        cm = self._ds_map(d, self._mounted(d, f.rsplit('/', 1)[0]))
        return ((cm or {}).get('data') or {}).get(f.rsplit('/', 1)[1], '')

    def _own_plugin_config(self, node, d):
        """(config dict, error) of the plugin DaemonSet d on node, by config-manager's rules"""
        if not self._cfgm(d):
            return self._yaml(self.started.get(node['metadata']['name'], '')) or {}, None
        lab = node['metadata'].get('labels') or {}
        cm = self._ds_map(d, self._mounted(d, self._env(d, 'CONFIG_FILE_SRCDIR') or '/available-configs'))
        data = (cm or {}).get('data') or {}
        if not data:
            return None, 'no configuration files available'
        want = lab.get('nvidia.com/device-plugin.config') or ''
        if not want and self._env(d, 'DEFAULT_CONFIG'):
            want = self._env(d, 'DEFAULT_CONFIG')
        if not want:
            for fb in (self._env(d, 'FALLBACK_STRATEGIES') or '').split(','):
                if fb == 'named' and 'default' in data:
                    want = 'default'
                    break
                if fb == 'single' and len(data) == 1:
                    want = next(iter(data))
                    break
                if fb == 'empty':
                    return {}, None
            if not want:
                return None, 'no config was set, no default was provided, and all fallbacks failed'
        if want not in data:
            return None, 'specified config %s does not exist' % want
        return self._yaml(data[want]) or {}, None

    def _react(self, res, old, new):
        if self._clusterpolicy() is None:
            return self._react_own(res, old, new)
        if res.plural == 'nodes' and old is not None:
            ol = (old.get('metadata') or {}).get('labels') or {}
            nl = (new.get('metadata') or {}).get('labels') or {}
            if ol.get('nvidia.com/mig.config') != nl.get('nvidia.com/mig.config'):
                self._mig_manager(new)
                self._device_plugin(new)
            elif ol.get('nvidia.com/device-plugin.config') != nl.get('nvidia.com/device-plugin.config'):
                self._device_plugin(new)
        elif res.plural == 'clusterpolicies':
            spec_o = (old or {}).get('spec') or {}
            spec_n = new.get('spec') or {}
            mm_o = ((spec_o.get('migManager') or {}).get('config') or {}).get('name')
            mm_n = ((spec_n.get('migManager') or {}).get('config') or {}).get('name')
            for node in list(self._nodes().values()):
                if mm_o != mm_n and ((node['metadata'].get('labels') or {}).get('nvidia.com/mig.config')):
                    self._mig_manager(node)      # restarted: applies its label again
                self._device_plugin(node)
        elif res.plural == 'daemonsets' and new['metadata']['name'] == 'nvidia-device-plugin-daemonset':
            for node in list(self._nodes().values()):
                self._device_plugin(node)

    def _react_own(self, res, old, new):
        dp = self._dp_daemonset()
        if res.plural == 'nodes' and old is not None:
            ol = (old.get('metadata') or {}).get('labels') or {}
            nl = (new.get('metadata') or {}).get('labels') or {}
            if ol.get('nvidia.com/mig.config') != nl.get('nvidia.com/mig.config') and self._daemonsets('k8s-mig-manager'):
                self._mig_manager(new)
                self._device_plugin(new)
            elif ol.get('nvidia.com/device-plugin.config') != nl.get('nvidia.com/device-plugin.config') \
                    and dp is not None and self._cfgm(dp):
                self._device_plugin(new)
        elif res.plural == 'daemonsets' and dp is not None and new['metadata']['name'] == dp['metadata']['name'] \
                and new['metadata'].get('namespace') == dp['metadata'].get('namespace') \
                and (old is None or (old.get('spec') or {}).get('template') != (new.get('spec') or {}).get('template')):
            # a restart: the DaemonSet controller rolls out a changed pod template only (kubectl
            # rollout restart patches its restartedAt annotation); every plugin starts again and
            # reads its file
            for node in list(self._nodes().values()):
                if not self._cfgm(dp):
                    self.started[node['metadata']['name']] = self._static_file(dp)
                self._device_plugin(node)

    def _cp_ns(self):
        cp = self._clusterpolicy() or {}
        return (cp.get('status') or {}).get('namespace') or 'gpu-operator'

    def _configmap(self, name):
        return self.store.objects.get(('', 'configmaps'), {}).get(self._cp_ns() + '/' + name)

    def _state(self, node):
        name = node['metadata']['name']
        if name not in self.mig:
            lab = node['metadata'].get('labels') or {}
            alloc = (node.get('status') or {}).get('allocatable') or {}
            count = int(lab.get('nvidia.com/gpu.count', '0') or 0)
            mig = {}
            for k, v in alloc.items():
                if k.startswith('nvidia.com/mig-') and not k.endswith('.shared'):
                    p = k[len('nvidia.com/mig-'):]
                    r = int(lab.get('nvidia.com/mig-%s.replicas' % p, '1') or 1)
                    if int(v) > 0:
                        mig[p] = int(v) // max(r, 1)
            r = int(lab.get('nvidia.com/gpu.replicas', '1') or 1)
            whole = count
            if mig:
                whole = (int(alloc.get('nvidia.com/gpu', '0')) + int(alloc.get('nvidia.com/gpu.shared', '0'))) // max(r, 1)
            prod = lab.get('nvidia.com/gpu.product', '')
            if '-MIG-' in prod and not prod.endswith('-MIG-INVALID'):
                # single strategy: GFD's gpu.count and the plugin's nvidia.com/gpu count MIG devices of
                # one profile on every GPU (device plugin internal/lm/mig-strategy.go:182-234,
                # internal/rm/device_map.go:91-104); the GPUs are that count over the devices per GPU
                # of the node's mig-parted config
                p = prod.split('-MIG-', 1)[1]
                per = self._per_gpu(lab.get('nvidia.com/mig.config'), base_product(prod), p)
                mig, whole = {p: count}, 0
                self.physical[name] = count // per if per else 0
            # unhealthy GPUs (allocatable below capacity) are marked again after a restart: the
            # plugin starts every device Healthy (internal/rm/devices.go:92) and its health check
            # marks a faulty one Unhealthy when the fault recurs (internal/plugin/server.go:277-278);
            # the simulation keeps the fault
            cap = (node.get('status') or {}).get('capacity') or {}
            bad = 0
            for k in ('nvidia.com/gpu', 'nvidia.com/gpu.shared'):
                bad += max(0, int(cap.get(k, alloc.get(k, '0'))) - int(alloc.get(k, '0')))
            per = max(r, 1)
            if name in self.physical and self.physical[name]:
                per *= max(1, count // self.physical[name])      # MIG devices per GPU (single)
            self.unhealthy[name] = -(-bad // per)
            self.mig[name] = {'whole': whole, 'mig': mig}
        return self.mig[name]

    def _mig_configs(self):
        cp = self._clusterpolicy() or {}
        mname = (((cp.get('spec') or {}).get('migManager') or {}).get('config') or {}).get('name') \
            or 'default-mig-parted-config'
        cm = self._configmap(mname)
        doc = self._yaml(((cm or {}).get('data') or {}).get('config.yaml', '')) if cm else None
        return (doc or {}).get('mig-configs') or {}

    def _per_gpu(self, config, product, profile):
        """MIG devices of PROFILE per GPU under the node's mig-parted CONFIG (else the profile's
        maximum, as all-<profile> gives)"""
        for e in self._mig_configs().get(config or '') or []:
            f = e.get('device-filter')
            fl = [f] if isinstance(f, str) else (f or [])
            if f is not None and DEVICE_IDS.get(product, '').lower() not in [x.lower() for x in fl]:
                continue
            n = (e.get('mig-devices') or {}).get(profile.replace('.me', '+me'))
            if e.get('mig-enabled') and n:
                return int(n)
        return PROFILES.get(product, {}).get(profile, (0, 0, 0))[2]

    def _set_label(self, node, key, value):
        lab = node['metadata'].setdefault('labels', {})
        if value is None:
            lab.pop(key, None)
        else:
            lab[key] = value

    def _mig_manager(self, node):
        lab = node['metadata'].get('labels') or {}
        want = lab.get('nvidia.com/mig.config')
        if not want:
            return
        configs = self._mig_configs()
        product = base_product(lab.get('nvidia.com/gpu.product'))
        ok = want in configs
        self._state(node)
        count = self.physical.get(node['metadata']['name'], int(lab.get('nvidia.com/gpu.count', '0') or 0))
        whole, mig = 0, {}
        profiles = PROFILES.get(product, {})
        for i in range(count if ok else 0):
            chosen = None
            for e in configs[want] or []:
                f = e.get('device-filter')
                if f is not None:
                    fl = [f] if isinstance(f, str) else f
                    if DEVICE_IDS.get(product, '').lower() not in [x.lower() for x in fl]:
                        continue
                d = e.get('devices')
                if d == 'all' or (isinstance(d, list) and i in d):
                    chosen = e
            if chosen is None or not chosen.get('mig-enabled'):
                whole += 1
                continue
            comp = mem = 0
            for p, n in (chosen.get('mig-devices') or {}).items():
                if p not in profiles or n > profiles[p][2]:
                    ok = False
                    break
                comp += profiles[p][0] * n
                mem += profiles[p][1] * n
                mig[p.replace('+', '.')] = mig.get(p.replace('+', '.'), 0) + n
            if comp > 7 or mem > 8:
                ok = False
        new = {'whole': whole, 'mig': mig}
        note = None if ok else 'config %s missing or invalid for %s' % (want, product)
        if ok and new != self._state(node):
            # a real change destroys the GPU instances: any process on the GPUs makes it fail
            busy = self._gpu_pods_on(node['metadata']['name'])
            if busy:
                ok, note = False, 'GPUs in use by %s' % ', '.join(busy[:3])
        # (an unchanged layout passes mig-parted's assert: success without touching the GPUs)
        self._set_label(node, 'nvidia.com/mig.config.state', 'success' if ok else 'failed')
        ann = node['metadata'].setdefault('annotations', {})
        if ok:
            self.mig[node['metadata']['name']] = new
            ann.pop('fakeapi.test/mig-manager', None)
        else:
            ann['fakeapi.test/mig-manager'] = note
        self._changed(self.store.lookup('', 'v1', 'nodes'), node)

    def _gpu_pods_on(self, name):
        out = []
        for key, p in sorted(self.store.objects.get(('', 'pods'), {}).items()):
            if (p.get('spec') or {}).get('nodeName') != name:
                continue
            if (p.get('status') or {}).get('phase') in ('Succeeded', 'Failed'):
                continue
            for c in (p['spec'].get('containers') or []) + (p['spec'].get('initContainers') or []):
                r = c.get('resources') or {}
                if any(k.startswith('nvidia.com/') for k in list((r.get('requests') or {})) + list((r.get('limits') or {}))):
                    out.append(key)
                    break
        return out

    def _fail(self, node, msg):
        node['metadata'].setdefault('annotations', {})[SIM_ANNOTATION] = 'error: ' + msg
        self._advertise(node, {})

    def _advertise(self, node, resources):
        st = node.setdefault('status', {})
        for k in ('capacity', 'allocatable'):
            m = {kk: vv for kk, vv in (st.get(k) or {}).items() if not kk.startswith('nvidia.com/')}
            m.update({kk: str(vv) for kk, vv in resources.items()})
            st[k] = m
        self._changed(self.store.lookup('', 'v1', 'nodes'), node)

    def _device_plugin(self, node):
        lab = node['metadata'].get('labels') or {}
        if not lab.get('nvidia.com/gpu.count'):
            return
        cp = self._clusterpolicy() or {}
        spec = cp.get('spec') or {}
        dpc = (spec.get('devicePlugin') or {}).get('config') or {}
        cfg = {}
        own = self._dp_daemonset() if not cp else None
        if not cp and own is None:
            return                            # no plugin this simulation knows (a cloud's own)
        if own is not None:
            cfg, err = self._own_plugin_config(node, own)
            if err:
                return self._fail(node, err)
            spec = {'mig': {'strategy': self._env(own, 'MIG_STRATEGY')}} if self._env(own, 'MIG_STRATEGY') else {}
        elif dpc.get('name'):
            cm = self._configmap(dpc['name'])
            want = lab.get('nvidia.com/device-plugin.config') or dpc.get('default') or ''
            if want:
                data = (cm or {}).get('data') or {}
                if want not in data:
                    return self._fail(node, 'specified config %s does not exist' % want)
                cfg = self._yaml(data[want]) or {}
        strategy = (spec.get('mig') or {}).get('strategy') or ((cfg.get('flags') or {}).get('migStrategy')) or 'none'
        sharing = cfg.get('sharing') or {}
        mode = 'mps' if sharing.get('mps') else 'time-slicing' if sharing.get('timeSlicing') else None
        sh = sharing.get('mps') or sharing.get('timeSlicing') or {}
        st = self._state(node)
        if mode == 'mps' and strategy == 'mixed':
            return self._fail(node, 'using --mig-strategy=mixed is not supported with MPS')
        if mode == 'mps' and st['mig']:
            return self._fail(node, 'sharing using MPS is not supported for MIG devices')
        res = {}
        bad = self.unhealthy.get(node['metadata']['name'], 0)
        if strategy == 'single' and st['mig']:
            res['nvidia.com/gpu'] = sum(st['mig'].values()) if len(st['mig']) == 1 and st['whole'] == 0 else 0
            if res['nvidia.com/gpu'] and bad:   # uniform: the unhealthy GPUs' MIG devices
                gpus = self.physical.get(node['metadata']['name']) or 1
                res['nvidia.com/gpu'] -= min(res['nvidia.com/gpu'], bad * (res['nvidia.com/gpu'] // gpus))
        else:
            res['nvidia.com/gpu'] = max(0, st['whole'] - bad)
            if strategy == 'mixed':
                for p, n in st['mig'].items():
                    res['nvidia.com/mig-' + p] = n
        replicas = 1
        for r in sh.get('resources') or []:
            name, n = r.get('name'), int(r.get('replicas') or 1)
            if name in res and n > 1:
                count = res.pop(name) * n
                res[name + '.shared' if sh.get('renameByDefault') else name] = count
                if sh.get('renameByDefault'):
                    res.setdefault(name, 0)
                if name == 'nvidia.com/gpu':
                    replicas = n
        self._set_label(node, 'nvidia.com/gpu.replicas', str(replicas))
        self._set_label(node, 'nvidia.com/gpu.sharing-strategy', mode if mode and replicas > 1 else 'none')
        (node['metadata'].get('annotations') or {}).pop(SIM_ANNOTATION, None)
        self._advertise(node, res)
