/**
 * The workloads of the findings benchmark's cluster (bench/findings-data.ts holds its Istio
 * configuration): istio-system (istiod, the ingress gateway's Deployment, Service, pods and the
 * Gateway the edge VirtualServices name, the `istio` ConfigMap), 1,999 application namespaces
 * of 5 Services each, and the 50,000 pods: istiod's 2, the gateway's 3, and each Service's
 * two Deployments (`svc-N-v1`, `svc-N-v2`), half its pods each. Services select their
 * pods by `app`; in 1 namespace of 10 nothing is injected, elsewhere every app pod has its
 * sidecar (its readiness probe rewritten onto the agent's port, as the injector does).
 */

export const FINDINGS_BENCH_COUNTS = {
  namespaces: 2_000,
  pods: 50_000,
  virtualServices: 6_000,
  destinationRules: 6_000,
  serviceEntries: 4_000,
  sidecars: 2_000,
  authorizationPolicies: 2_000,
} as const;

export type BenchObject = Record<string, unknown>;

/** The names the benchmark's objects share. */
export const BENCH_MESH = {
  root: 'istio-system',
  appNamespaces: FINDINGS_BENCH_COUNTS.namespaces - 1,
  servicesPerNamespace: 5,
  namespace: (a: number) => `team-${String(a).padStart(4, '0')}`,
  service: (k: number) => `svc-${k}`,
} as const;

const ROOT = BENCH_MESH.root;
const PROXY_IMAGE = 'docker.io/istio/proxyv2:1.26.0';
const CREATED = '2026-10-01T08:00:00Z';
const STARTED = '2026-10-31T10:00:00Z';
/** Every 10th application namespace is outside the mesh (no injection, no proxies). */
const injected = (a: number) => a % 10 !== 9;

export function benchObjectMeta(
  name: string,
  namespace: string | undefined,
  extra: BenchObject = {},
): BenchObject {
  return {
    name,
    ...(namespace === undefined ? {} : { namespace }),
    uid: `uid-${namespace ?? '_'}-${name}`,
    resourceVersion: '1',
    creationTimestamp: CREATED,
    ...extra,
  };
}
const meta = benchObjectMeta;

function container(name: string, image: string, ports: number[]): BenchObject {
  return {
    name,
    image,
    ports: ports.map((p) => ({ containerPort: p, protocol: 'TCP' })),
    resources: { requests: { cpu: '100m', memory: '128Mi' } },
  };
}

interface PodOf {
  ns: string;
  app: string;
  /** The Deployment's name (its ReplicaSet is `deployment-hash`). */
  deployment: string;
  version: string;
  /** The ReplicaSet's pod-template-hash. */
  hash: string;
  labels?: Record<string, string>;
  containers: BenchObject[];
  meshed: boolean;
}

function pod(p: PodOf, i: number): BenchObject {
  const ip = `10.${64 + Math.floor(i / 65_025)}.${Math.floor(i / 255) % 255}.${(i % 255) + 1}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(`${p.deployment}-${p.hash}-${i.toString(36).padStart(5, '0')}`, p.ns, {
      labels: {
        app: p.app,
        version: p.version,
        'pod-template-hash': p.hash,
        ...(p.meshed
          ? { 'security.istio.io/tlsMode': 'istio', 'service.istio.io/canonical-name': p.app }
          : {}),
        ...p.labels,
      },
      annotations: p.meshed ? { 'sidecar.istio.io/status': '{"containers":["istio-proxy"]}' } : {},
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `${p.deployment}-${p.hash}`,
          controller: true,
        },
      ],
    }),
    spec: {
      nodeName: `node-${i % 200}`,
      serviceAccountName: p.app,
      containers: p.containers,
    },
    status: {
      phase: 'Running',
      podIP: ip,
      podIPs: [{ ip }],
      hostIP: `10.128.${Math.floor(i / 250) % 256}.${i % 200}`,
      startTime: STARTED,
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: STARTED }],
      containerStatuses: p.containers.map((c) => ({
        name: c.name,
        ready: true,
        restartCount: 0,
        image: c.image,
        imageID: '',
        state: { running: { startedAt: STARTED } },
      })),
    },
  };
}

/** An application pod's containers: the app, and when meshed its sidecar. */
function appContainers(ns: string, app: string, i: number, meshed: boolean): BenchObject[] {
  const main = container(app, `registry.example.com/${app}:1.${i % 7}`, [8080, 9090]);
  const probe = { path: '/healthz', port: 8080 };
  main.readinessProbe = {
    httpGet: meshed ? { path: `/app-health/${app}/readyz`, port: 15020 } : probe,
    periodSeconds: 10,
  };
  if (!meshed) return [main];
  const proxy = container('istio-proxy', PROXY_IMAGE, [15090]);
  proxy.args = ['proxy', 'sidecar', '--domain', `${ns}.svc.cluster.local`];
  proxy.env = [
    { name: 'ISTIO_META_WORKLOAD_NAME', value: app },
    {
      name: 'ISTIO_KUBE_APP_PROBERS',
      value: JSON.stringify({ [`/app-health/${app}/readyz`]: { httpGet: probe } }),
    },
  ];
  return [main, proxy];
}

const GATEWAY_LABELS = { app: 'istio-ingressgateway', istio: 'ingressgateway' };

/** istio-system's objects and pods. */
function rootObjects(): BenchObject[] {
  const out: BenchObject[] = [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: meta(ROOT, undefined, { labels: { 'kubernetes.io/metadata.name': ROOT } }),
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta('istio', ROOT, { labels: { 'istio.io/rev': 'default' } }),
      data: {
        mesh: 'rootNamespace: istio-system\ntrustDomain: cluster.local\ndefaultConfig:\n  discoveryAddress: istiod.istio-system.svc:15012\nenablePrometheusMerge: true\n',
        meshNetworks: 'networks: {}',
      },
    },
  ];
  const services = [
    { name: 'istiod', labels: { app: 'istiod', istio: 'pilot' }, type: 'ClusterIP' },
    { name: 'istio-ingressgateway', labels: GATEWAY_LABELS, type: 'LoadBalancer' },
  ];
  const ports = [
    [
      { name: 'grpc-xds', port: 15010 },
      { name: 'https-dns', port: 15012 },
      { name: 'https-webhook', port: 443, targetPort: 15017 },
    ],
    [
      { name: 'status-port', port: 15021 },
      { name: 'http2', port: 80, targetPort: 8080 },
      { name: 'https', port: 443, targetPort: 8443 },
    ],
  ];
  services.forEach((s, i) =>
    out.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(s.name, ROOT, { labels: s.labels }),
      spec: {
        type: s.type,
        clusterIP: `10.96.0.${10 + i}`,
        selector: s.labels,
        ports: (ports[i] ?? []).map((p) => ({ protocol: 'TCP', ...p })),
      },
    }),
  );
  out.push({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('istio-ingressgateway', ROOT, { labels: GATEWAY_LABELS }),
    spec: {
      replicas: 3,
      selector: { matchLabels: GATEWAY_LABELS },
      template: {
        metadata: {
          labels: GATEWAY_LABELS,
          annotations: { 'inject.istio.io/templates': 'gateway' },
        },
        spec: { containers: [{ name: 'istio-proxy', image: 'auto' }] },
      },
    },
  });
  out.push({
    apiVersion: 'networking.istio.io/v1',
    kind: 'Gateway',
    metadata: meta('public', ROOT),
    spec: {
      selector: { istio: 'ingressgateway' },
      servers: [
        { port: { number: 80, name: 'http', protocol: 'HTTP' }, hosts: ['*.apps.example.com'] },
        {
          port: { number: 443, name: 'https', protocol: 'HTTPS' },
          hosts: ['*.apps.example.com'],
          tls: { mode: 'SIMPLE', credentialName: 'apps-example-com' },
        },
      ],
    },
  });
  for (let i = 0; i < 2; i++) {
    const c = container('discovery', 'docker.io/istio/pilot:1.26.0', [15010, 15012, 15017]);
    const p = { ns: ROOT, app: 'istiod', deployment: 'istiod', version: 'v1', hash: '7b9c6d5f4' };
    out.push(pod({ ...p, labels: { istio: 'pilot' }, containers: [c], meshed: false }, i));
  }
  for (let i = 2; i < 5; i++) {
    const proxy = container('istio-proxy', PROXY_IMAGE, [8080, 8443, 15090]);
    proxy.args = ['proxy', 'router', '--domain', `${ROOT}.svc.cluster.local`];
    const p = {
      ns: ROOT,
      app: 'istio-ingressgateway',
      deployment: 'istio-ingressgateway',
      version: 'v1',
      hash: '5f6d8c9b7',
    };
    out.push(pod({ ...p, labels: GATEWAY_LABELS, containers: [proxy], meshed: false }, i));
  }
  return out;
}

/** istio-system, the application Namespaces, their Services and every pod. */
export function findingsBenchWorkloads(): BenchObject[] {
  const { appNamespaces, servicesPerNamespace: perNs } = BENCH_MESH;
  const out = rootObjects();
  const rootPods = out.filter((o) => o.kind === 'Pod').length;
  for (let a = 0; a < appNamespaces; a++) {
    const ns = BENCH_MESH.namespace(a);
    out.push({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: meta(ns, undefined, {
        labels: {
          'kubernetes.io/metadata.name': ns,
          team: `t${a % 40}`,
          ...(injected(a) ? { 'istio-injection': 'enabled' } : {}),
        },
      }),
      status: { phase: 'Active' },
    });
  }
  for (let a = 0; a < appNamespaces; a++) {
    for (let k = 0; k < perNs; k++) {
      const app = BENCH_MESH.service(k);
      // one Service in 8 leaves its second port unnamed (protocol selection has something to say)
      const grpc =
        (a * perNs + k) % 8 === 3
          ? { port: 9090, protocol: 'TCP' }
          : { name: 'grpc', port: 9090, protocol: 'TCP' };
      out.push({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta(app, BENCH_MESH.namespace(a), { labels: { app } }),
        spec: {
          type: 'ClusterIP',
          clusterIP: `10.100.${Math.floor(a / 50)}.${(a % 50) * 5 + k}`,
          selector: { app },
          ports: [{ name: 'http', port: 8080, targetPort: 8080, protocol: 'TCP' }, grpc],
        },
      });
    }
  }
  // every workload gets appPods / workloads of them (the first ones one more)
  const appPods = FINDINGS_BENCH_COUNTS.pods - rootPods;
  const workloads = appNamespaces * perNs;
  let n = rootPods;
  for (let w = 0; w < workloads; w++) {
    const a = Math.floor(w / perNs);
    const ns = BENCH_MESH.namespace(a);
    const app = BENCH_MESH.service(w % perNs);
    const replicas = Math.floor(appPods / workloads) + (w < appPods % workloads ? 1 : 0);
    for (let r = 0; r < replicas; r++, n++) {
      const version = r % 2 === 0 ? 'v1' : 'v2';
      const hash = (0x5a0000 + w * 2 + (r % 2)).toString(16);
      const containers = appContainers(ns, app, n, injected(a));
      const deployment = `${app}-${version}`;
      out.push(pod({ ns, app, deployment, version, hash, containers, meshed: injected(a) }, n));
    }
  }
  return out;
}
