/**
 * The findings benchmark's cluster (bench/findings.bench.ts), generated deterministically
 * (seeded): 2,000 Namespaces (istio-system and 1,999 application namespaces), 50,000 Pods,
 * 6,000 VirtualServices, 6,000 DestinationRules, 4,000 ServiceEntries, 2,000 Sidecars and
 * 2,000 AuthorizationPolicies, with the Services of the pods (5 per application namespace) and
 * istio-system's objects (./findings-workloads.ts), as `kubectl get -o json` gives them (each
 * object with its kind).
 *
 * The configuration is that of a real mesh: VirtualServices route http by prefix to their
 * host's subsets with weights and retries, to a Service of another namespace and to
 * ServiceEntry hosts, a quarter of them bound to the ingress gateway; DestinationRules define
 * the subsets by version with a traffic policy; ServiceEntries hold external (DNS) and internal
 * (static, with addresses) hosts; Sidecars select one workload and list egress hosts;
 * AuthorizationPolicies select workloads and name principals, namespaces and operations. A few
 * of each are wrong as real clusters are (a host or subset that does not exist, a subset that
 * selects no pod, a DestinationRule for a removed Service, a gateway host the Gateway does not
 * serve, a selector that matches no workload, a namespace that does not exist), so the rules
 * have findings to make.
 */
import { mulberry32 } from '../lib/random';
import {
  BENCH_MESH,
  benchObjectMeta as meta,
  FINDINGS_BENCH_COUNTS,
  findingsBenchWorkloads,
  type BenchObject as Obj,
} from './findings-workloads';

const SEED = 20_260_049;
const ROOT = BENCH_MESH.root;
const APP_NAMESPACES = BENCH_MESH.appNamespaces;
const SERVICES_PER_NS = BENCH_MESH.servicesPerNamespace;
const nsName = BENCH_MESH.namespace;
const svcName = BENCH_MESH.service;

/** Every object of the benchmark's cluster, in the order a `kubectl get` of each kind lists them. */
export function findingsBenchObjects(): Obj[] {
  const rand = mulberry32(SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const C = FINDINGS_BENCH_COUNTS;
  const out = findingsBenchWorkloads();

  // ServiceEntries: external APIs (DNS) and internal hosts (static, with addresses)
  const seHosts: string[][] = Array.from({ length: APP_NAMESPACES }, () => []);
  for (let e = 0; e < C.serviceEntries; e++) {
    const a = e % APP_NAMESPACES;
    const internal = e % 5 === 4;
    const host = internal
      ? `db-${e}.internal.example.net`
      : `api-${e}.partner-${e % 97}.example.com`;
    seHosts[a]?.push(host);
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'ServiceEntry',
      metadata: meta(`se-${Math.floor(e / APP_NAMESPACES)}`, nsName(a)),
      spec: internal
        ? {
            hosts: [host],
            addresses: [`240.${(e >> 16) & 255}.${(e >> 8) & 255}.${e & 255}`],
            ports: [{ number: 5432, name: 'tcp-postgres', protocol: 'TCP' }],
            location: 'MESH_INTERNAL',
            resolution: 'STATIC',
            endpoints: [{ address: `192.168.${(e >> 8) & 255}.${e & 255}` }],
            exportTo: ['.'],
          }
        : {
            hosts: [host],
            ports: [
              { number: 443, name: 'https', protocol: 'HTTPS' },
              ...(e % 3 === 0 ? [{ number: 80, name: 'http', protocol: 'HTTP' }] : []),
            ],
            location: 'MESH_EXTERNAL',
            resolution: 'DNS',
          },
    });
  }

  // DestinationRules: subsets by version; 1 in 60 defines a subset no pod has (v3)
  for (let d = 0; d < C.destinationRules; d++) {
    const a = d % APP_NAMESPACES;
    const k = (Math.floor(d / APP_NAMESPACES) * 2 + a) % SERVICES_PER_NS;
    const fqdn = rand() < 0.5;
    const subsets = [
      { name: 'v1', labels: { version: 'v1' } },
      {
        name: 'v2',
        labels: { version: 'v2' },
        trafficPolicy: { loadBalancer: { simple: 'LEAST_REQUEST' } },
      },
      ...(d % 60 === 7 ? [{ name: 'v3', labels: { version: 'v3' } }] : []),
    ];
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'DestinationRule',
      metadata: meta(`${svcName(k)}-dr-${Math.floor(d / APP_NAMESPACES)}`, nsName(a)),
      spec: {
        // 1 in 100 is for a Service since removed
        host:
          d % 100 === 42
            ? `${svcName(k)}-old`
            : fqdn
              ? `${svcName(k)}.${nsName(a)}.svc.cluster.local`
              : svcName(k),
        trafficPolicy: {
          tls: { mode: 'ISTIO_MUTUAL' },
          connectionPool: {
            tcp: { maxConnections: pick([100, 200, 1000]) },
            http: { http2MaxRequests: 1000 },
          },
          outlierDetection: {
            consecutive5xxErrors: pick([5, 7, 10]),
            interval: '30s',
            baseEjectionTime: '30s',
          },
        },
        subsets,
      },
    });
  }

  // VirtualServices: http routes by prefix over the host's subsets, some bound to the gateway;
  // 1 in 50 routes to a host that does not exist, 1 in 40 to a subset that is not defined
  for (let v = 0; v < C.virtualServices; v++) {
    const a = v % APP_NAMESPACES;
    const round = Math.floor(v / APP_NAMESPACES);
    const k = (round * 2 + a) % SERVICES_PER_NS;
    const ns = nsName(a);
    const edge = v % 4 === 1;
    const other = nsName((a + 1 + Math.floor(rand() * 50)) % APP_NAMESPACES);
    const host = v % 50 === 11 ? `${svcName(k)}-old` : svcName(k);
    const subset2 = v % 40 === 13 ? 'canary' : 'v2';
    const http: Obj[] = [
      {
        name: 'api',
        match: [{ uri: { prefix: `/api/v${1 + (v % 3)}` } }],
        route: [
          { destination: { host, subset: 'v1', port: { number: 8080 } }, weight: 90 },
          { destination: { host, subset: subset2, port: { number: 8080 } }, weight: 10 },
        ],
        retries: {
          attempts: pick([2, 3]),
          perTryTimeout: '2s',
          retryOn: 'gateway-error,connect-failure',
        },
        timeout: pick(['5s', '10s', '15s']),
      },
      {
        name: 'calls',
        match: [{ uri: { prefix: '/calls' }, headers: { 'x-team': { exact: `t${a % 40}` } } }],
        route: [
          {
            destination: {
              host: `${svcName((k + 1) % SERVICES_PER_NS)}.${other}.svc.cluster.local`,
              port: { number: 8080 },
            },
          },
        ],
      },
    ];
    const se = seHosts[a]?.[round % Math.max(1, seHosts[a]?.length ?? 1)];
    if (se !== undefined && !se.includes('.internal.') && v % 3 === 0)
      http.push({
        name: 'partner',
        match: [{ uri: { prefix: '/partner' } }],
        route: [{ destination: { host: se, port: { number: 443 } } }],
      });
    http.push({
      name: 'default',
      route: [{ destination: { host, subset: 'v1', port: { number: 8080 } } }],
    });
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: meta(`${svcName(k)}-routes-${round}`, ns),
      spec: edge
        ? {
            // 1 in 25 of those bound to the gateway names a domain it does not serve
            hosts: [`${svcName(k)}-${ns}.apps.example.${v % 100 === 1 ? 'org' : 'com'}`],
            gateways: [`${ROOT}/public`],
            http,
          }
        : { hosts: [svcName(k)], http },
    });
  }

  // Sidecars: istio-system's mesh-wide default, then one per namespace selecting one workload
  out.push({
    apiVersion: 'networking.istio.io/v1',
    kind: 'Sidecar',
    metadata: meta('default', ROOT),
    spec: {
      egress: [{ hosts: ['./*', `${ROOT}/*`] }],
      outboundTrafficPolicy: { mode: 'ALLOW_ANY' },
    },
  });
  for (let s = 1; s < C.sidecars; s++) {
    const a = (s - 1) % APP_NAMESPACES;
    const k = (a + 2) % SERVICES_PER_NS;
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'Sidecar',
      metadata: meta(`${svcName(k)}-scope`, nsName(a)),
      spec: {
        workloadSelector: { labels: { app: svcName(k) } },
        egress: [
          {
            hosts: [
              './*',
              `${ROOT}/*`,
              `${nsName((a + 1) % APP_NAMESPACES)}/*`,
              `${nsName((a + 7) % APP_NAMESPACES)}/${svcName(0)}.${nsName((a + 7) % APP_NAMESPACES)}.svc.cluster.local`,
            ],
          },
        ],
      },
    });
  }

  // AuthorizationPolicies: istio-system's mesh-wide deny of an unknown header, then one per
  // namespace allowing its callers; 1 in 25 selects no workload, 1 in 30 names a missing namespace
  out.push({
    apiVersion: 'security.istio.io/v1',
    kind: 'AuthorizationPolicy',
    metadata: meta('deny-debug', ROOT),
    spec: { action: 'DENY', rules: [{ to: [{ operation: { paths: ['/debug/*'] } }] }] },
  });
  for (let p = 1; p < C.authorizationPolicies; p++) {
    const a = (p - 1) % APP_NAMESPACES;
    const k = (a + 1) % SERVICES_PER_NS;
    const caller = nsName((a + 1) % APP_NAMESPACES);
    const from = p % 30 === 17 ? `${caller}-retired` : caller;
    out.push({
      apiVersion: 'security.istio.io/v1',
      kind: 'AuthorizationPolicy',
      metadata: meta(`allow-${svcName(k)}`, nsName(a)),
      spec: {
        selector: { matchLabels: { app: p % 25 === 9 ? `${svcName(k)}-legacy` : svcName(k) } },
        action: 'ALLOW',
        rules: [
          {
            from: [
              { source: { principals: [`cluster.local/ns/${caller}/sa/${svcName(0)}`] } },
              { source: { namespaces: [from, `${ROOT}`] } },
            ],
            to: [{ operation: { methods: pick([['GET'], ['GET', 'POST']]), paths: ['/api/*'] } }],
          },
        ],
      },
    });
  }
  return out;
}
