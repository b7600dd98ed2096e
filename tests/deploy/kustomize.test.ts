import { parse, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../server/env';
import { loadOtlpConfig, OTLP_SETTINGS } from '../../server/otlp/config';
import { ALLOWED_HOSTS_SETTING, loadSecurityConfig } from '../../server/security/config';
import { kubectlSim, requireKubectl } from '../sim/kubectl-harness';
import {
  one,
  OVERLAYS,
  render,
  type ManifestDeployment,
  type K8sObject,
  type NetworkPolicy,
  type Rule,
} from './render';
import { kindName } from '../../lib/refs/workload-ref';

requireKubectl('the kustomize rendering tests of deploy/');

/** The container's environment as the image sets it, plus the ConfigMap. */
const asEnv = (data: Record<string, string>) => ({ NODE_ENV: 'production' as const, ...data });

const configMap = (objects: K8sObject[]) =>
  one<K8sObject & { data: Record<string, string> }>(
    objects.filter((o) => o.metadata.name.startsWith('meshdx-config-')),
    'ConfigMap',
  );

describe('deploy/: every overlay renders a locked-down meshdx', () => {
  for (const overlay of OVERLAYS) {
    describe(overlay, () => {
      it('the options ConfigMap reaches the container, and holds only settings the server reads', async () => {
        const { objects } = await render(overlay);
        const cm = configMap(objects);
        const dep = one<ManifestDeployment>(objects, 'Deployment', 'meshdx');
        const c = dep.spec.template.spec.containers[0];
        expect(c?.envFrom?.flatMap((e) => e.configMapRef?.name ?? [])).toEqual([cm.metadata.name]);
        // a Secret, if any, only ever optional (the session sealing key of token-auth)
        for (const e of c?.envFrom ?? []) if (e.secretRef) expect(e.secretRef.optional).toBe(true);
        expect(cm.metadata.namespace).toBe(dep.metadata.namespace);
        // the server accepts every value (zod, as at start-up) and knows every key
        const parsed = loadEnv(asEnv(cm.data));
        expect(() => loadSecurityConfig(cm.data)).not.toThrow();
        expect(() => loadOtlpConfig(asEnv(cm.data))).not.toThrow();
        const known = new Set([...Object.keys(parsed), ALLOWED_HOSTS_SETTING, ...OTLP_SETTINGS]);
        expect(Object.keys(cm.data).filter((k) => !known.has(k))).toEqual([]);
        expect(parsed.MESHDX_DB).toBe('/data/meshdx.sqlite');
      });

      it('runs non-root, read-only, no capabilities, seccomp RuntimeDefault, store and /tmp on volumes', async () => {
        const dep = one<ManifestDeployment>(
          (await render(overlay)).objects,
          'Deployment',
          'meshdx',
        );
        const pod = dep.spec.template.spec;
        expect(dep.spec.replicas).toBe(1);
        expect(pod.serviceAccountName).toBe('meshdx');
        expect(pod.securityContext).toMatchObject({
          runAsNonRoot: true,
          runAsUser: 65532,
          seccompProfile: { type: 'RuntimeDefault' },
        });
        const c = pod.containers[0];
        expect(c?.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        const mounts = new Map(c?.volumeMounts?.map((m) => [m.mountPath, m.name]));
        const volumes = new Map(pod.volumes.map((v) => [v.name, v]));
        expect(volumes.get(mounts.get('/data') ?? '')?.persistentVolumeClaim?.claimName).toBe(
          'meshdx-history',
        );
        expect(volumes.get(mounts.get('/tmp') ?? '')?.emptyDir).toBeDefined();
        expect(
          one((await render(overlay)).objects, 'PersistentVolumeClaim', 'meshdx-history'),
        ).toBeDefined();
      });

      it('the readiness probe names an allowed Host (the kubelet would send the pod IP)', async () => {
        const dep = one<ManifestDeployment>(
          (await render(overlay)).objects,
          'Deployment',
          'meshdx',
        );
        const get = dep.spec.template.spec.containers[0]?.readinessProbe?.httpGet;
        expect(get?.path).toBe('/api/health');
        const host = get?.httpHeaders?.find((h) => h.name.toLowerCase() === 'host')?.value;
        expect(host).toBe('localhost');
      });

      it('RBAC reads only, besides create on pods/portforward (and impersonate in header-auth)', async () => {
        const { objects } = await render(overlay);
        const rules = objects
          .filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role')
          .flatMap((o) => (o as K8sObject & { rules: Rule[] }).rules);
        expect(rules.length).toBeGreaterThan(0);
        for (const r of rules) {
          const writes = r.verbs.filter((v) => !['get', 'list', 'watch'].includes(v));
          if (writes.includes('impersonate')) {
            expect(overlay).toBe('header-auth');
            expect(r).toMatchObject({ apiGroups: [''], verbs: ['impersonate'] });
            expect([...r.resources].sort()).toEqual(['groups', 'users']);
          } else if (writes.length > 0) {
            expect(r.resources).toEqual(['pods/portforward']);
            expect(writes).toEqual(['create']);
          }
        }
        expect(rules.some((r) => r.resources.includes('secrets'))).toBe(false);
      });
    });
  }

  it('with-prometheus sets the Prometheus URL and step, keeping the base options', async () => {
    const cm = configMap((await render('with-prometheus')).objects);
    expect(loadEnv(asEnv(cm.data))).toMatchObject({
      MESHDX_PROMETHEUS: 'http://prometheus-server.monitoring.svc:80',
      MESHDX_PROMETHEUS_STEP: 15,
      MESHDX_PROXY_CONCURRENCY: 32,
    });
    expect(configMap((await render('base')).objects).data.MESHDX_PROMETHEUS).toBeUndefined();
  });

  it('network-policy admits only the ingress namespace on the meshdx port, only meshed namespaces on the OTLP receiver ports, and allows its host', async () => {
    const { objects } = await render('network-policy');
    const np = one<NetworkPolicy>(objects, 'NetworkPolicy');
    const dep = one<ManifestDeployment>(objects, 'Deployment', 'meshdx');
    const labels = dep.spec.template.metadata.labels;
    for (const [k, v] of Object.entries(np.spec.podSelector.matchLabels)) expect(labels[k]).toBe(v);
    expect(np.metadata.namespace).toBe(dep.metadata.namespace);
    expect(np.spec.policyTypes).toEqual(['Ingress']);
    expect(np.spec.ingress).toHaveLength(2);
    const rule = np.spec.ingress?.[0];
    const otlp = np.spec.ingress?.[1];
    expect(otlp?.from).toEqual([
      { namespaceSelector: { matchLabels: { 'istio-injection': 'enabled' } } },
      { namespaceSelector: { matchExpressions: [{ key: 'istio.io/rev', operator: 'Exists' }] } },
    ]);
    expect(otlp?.ports?.map((p) => p.port)).toEqual(['otlp-grpc', 'otlp-http']);
    expect(rule?.from).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } },
    ]);
    const portNames = dep.spec.template.spec.containers[0]?.ports?.map((p) => p.name);
    expect(rule?.ports?.map((p) => p.port)).toEqual(['http-web']);
    expect(portNames).toContain('http-web');
    const cm = configMap(objects);
    expect([...loadSecurityConfig(cm.data).allowlist.hosts]).toContain('meshdx.example.com');
  });

  it('token-auth turns token sign-in on through the ConfigMap, with an optional sealing-key Secret and the viewer role', async () => {
    const { objects } = await render('token-auth');
    const env = loadEnv(asEnv(configMap(objects).data));
    expect(env.MESHDX_AUTH).toBe('token');
    expect(env.MESHDX_SESSION_SECRET).toBeUndefined();
    const c = one<ManifestDeployment>(objects, 'Deployment', 'meshdx').spec.template.spec
      .containers[0];
    expect(c?.envFrom?.find((e) => e.secretRef)?.secretRef).toEqual({
      name: 'meshdx-session',
      optional: true,
    });
    const viewer = one<K8sObject & { rules: Rule[] }>(objects, 'ClusterRole', 'meshdx-viewer');
    expect(
      viewer.rules.some((r) => r.resources.includes('pods') && r.verbs.includes('watch')),
    ).toBe(true);
    // the base is unchanged: no auth, no impersonation
    expect(loadEnv(asEnv(configMap((await render('base')).objects).data)).MESHDX_AUTH).toBe('none');
  });

  it('header-auth impersonates with a grant to meshdx alone, behind the network policy', async () => {
    const { objects } = await render('header-auth');
    const env = loadEnv(asEnv(configMap(objects).data));
    expect(env).toMatchObject({
      MESHDX_AUTH: 'header',
      MESHDX_AUTH_USER_HEADER: 'X-Forwarded-User',
      MESHDX_AUTH_GROUPS_HEADER: 'X-Forwarded-Groups',
    });
    expect(one<NetworkPolicy>(objects, 'NetworkPolicy').spec.policyTypes).toEqual(['Ingress']);
    const binding = one<K8sObject & { subjects: unknown[]; roleRef: { name: string } }>(
      objects,
      'ClusterRoleBinding',
      'meshdx-impersonator',
    );
    expect(binding.roleRef.name).toBe('meshdx-impersonator');
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'meshdx', namespace: 'meshdx' },
    ]);
  });

  it('with-access-log opens the OTLP receiver ports, declares the envoyOtelAls provider at them and turns it on for 5xx', async () => {
    const { objects } = await render('with-access-log');
    const otlp = loadOtlpConfig(asEnv(configMap(objects).data));
    expect([otlp.grpcPort, otlp.httpPort]).toEqual([4317, 4318]);
    const dep = one<ManifestDeployment>(objects, 'Deployment', 'meshdx');
    expect(dep.spec.template.spec.containers[0]?.ports).toEqual([
      { name: 'http-web', containerPort: 3000 },
      { name: 'otlp-grpc', containerPort: 4317 },
      { name: 'otlp-http', containerPort: 4318 },
    ]);
    const svc = one<
      K8sObject & { spec: { ports: { name: string; port: number; targetPort: string }[] } }
    >(objects, 'Service', 'meshdx');
    const grpcPort = svc.spec.ports.find((p) => p.targetPort === 'otlp-grpc');
    expect(grpcPort).toMatchObject({ name: 'grpc-otlp', port: 4317 });
    const mesh = parse(
      one<K8sObject & { data: { mesh: string } }>(objects, 'ConfigMap', 'istio').data.mesh,
    ) as {
      extensionProviders: { name: string; envoyOtelAls: { service: string; port: number } }[];
    };
    const provider = mesh.extensionProviders.find((p) => p.name === 'meshdx');
    expect(provider?.envoyOtelAls).toMatchObject({
      service: `${svc.metadata.name}.${svc.metadata.namespace}.svc.cluster.local`,
      port: grpcPort?.port,
    });
    const tel = one<K8sObject & { spec: unknown }>(objects, 'Telemetry');
    expect(tel.metadata.namespace).toBe('istio-system');
    expect(tel.spec).toEqual({
      accessLogging: [
        { providers: [{ name: 'meshdx' }], filter: { expression: 'response.code >= 500' } },
      ],
    });
    // built on network-policy: the receiver ports are closed to namespaces outside the mesh
    expect(one<NetworkPolicy>(objects, 'NetworkPolicy').spec.ingress?.[1]?.ports).toEqual([
      { protocol: 'TCP', port: 'otlp-grpc' },
      { protocol: 'TCP', port: 'otlp-http' },
    ]);
  });

  it('port-forward-only denies all ingress to meshdx (port-forward does not pass NetworkPolicy)', async () => {
    const { objects } = await render('port-forward-only');
    const np = one<NetworkPolicy>(objects, 'NetworkPolicy');
    const labels = one<ManifestDeployment>(objects, 'Deployment', 'meshdx').spec.template.metadata
      .labels;
    for (const [k, v] of Object.entries(np.spec.podSelector.matchLabels)) expect(labels[k]).toBe(v);
    expect(np.spec.policyTypes).toEqual(['Ingress']);
    expect(np.spec.ingress ?? []).toEqual([]);
  });
});

/** `kubectl api-resources` rows: KIND is the last column, APIVERSION the third from last. */
function servedKinds(table: string): Set<string> {
  const served = new Set<string>();
  for (const line of table.trim().split('\n')) {
    const cols = line.trim().split(/\s+/);
    const kind = cols[cols.length - 1];
    const apiVersion = cols[cols.length - 3];
    if (kind && apiVersion) served.add(`${apiVersion}/${kind}`);
  }
  return served;
}

describe('deploy/ applied with real kubectl to the simulator', () => {
  const h = kubectlSim('deploy');

  for (const overlay of OVERLAYS) {
    it(`${overlay}: the kinds the simulator serves apply (dry run, then for real) and read back`, async () => {
      const { objects } = await render(overlay);
      const served = servedKinds(await h.kubectl('api-resources', '--no-headers'));
      const key = (o: K8sObject) => `${o.apiVersion}/${o.kind}`;
      const applicable = objects.filter((o) => served.has(key(o)));
      const skipped = [...new Set(objects.filter((o) => !served.has(key(o))).map(key))].sort();
      if (skipped.length > 0)
        console.warn(
          `deploy/${overlay}: the simulator does not serve ${skipped.join(', ')}; not applied`,
        );
      // what meshdx's manifests need from any API server, the simulator included
      expect(applicable.map((o) => o.kind)).toEqual(
        expect.arrayContaining(['Namespace', 'ConfigMap', 'Service']),
      );

      const namespaces = applicable.filter((o) => o.kind === 'Namespace');
      const rest = applicable.filter((o) => o.kind !== 'Namespace');
      const file = (name: string, objs: K8sObject[]) =>
        h.write(`${overlay}-${name}.yaml`, objs.map((o) => stringify(o)).join('---\n'));
      await h.kubectl('apply', '-f', file('ns', namespaces));

      const cm = configMap(rest);
      const before = h.sim.store.get('configmaps', 'meshdx', cm.metadata.name);
      const restFile = file('rest', rest);
      const dry = await h.kubectl('apply', '--dry-run=server', '-f', restFile);
      expect(dry).toContain('(server dry run)');
      expect(h.sim.store.get('configmaps', 'meshdx', cm.metadata.name)).toEqual(before);

      const applied = await h.kubectl('apply', '-f', restFile);
      expect(applied.trim().split('\n')).toHaveLength(rest.length);
      const got = JSON.parse(await h.kubectl('get', '-f', restFile, '-o', 'json')) as {
        items: K8sObject[];
      };
      expect(
        got.items.map((o) => kindName({ kind: o.kind, name: o.metadata.name })).sort(),
      ).toEqual(rest.map((o) => kindName({ kind: o.kind, name: o.metadata.name })).sort());
      const stored = got.items.find(
        (o) => o.kind === 'ConfigMap' && o.metadata.name === cm.metadata.name,
      ) as K8sObject & {
        data: Record<string, string>;
      };
      expect(stored.data).toEqual(cm.data);
      // once the simulator serves Deployments, the stored one must name the same ConfigMap
      const dep = got.items.find((o) => o.kind === 'Deployment') as ManifestDeployment | undefined;
      if (dep)
        expect(dep.spec.template.spec.containers[0]?.envFrom?.[0]?.configMapRef?.name).toBe(
          cm.metadata.name,
        );
    });
  }
});
