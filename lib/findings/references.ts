/**
 * References of VirtualServices and DestinationRules, as istioctl analyze checks them:
 * IST0101 a route (or mirror) destination whose host is in no Service or ServiceEntry (503 NR /
 * NC), or whose subset no DestinationRule of that host defines (503 NR); IST0173 a
 * DestinationRule subset that selects no pod (503 UH); IST0174 a DestinationRule host that
 * matches nothing.
 */
import type { DestinationRule, Pod, VirtualService } from '../kube/types';
import { CONFIG } from './codes';
import { perObject } from './guard';
import {
  buildRegistry,
  destinationHost,
  indexHosts,
  lookupHost,
  podsOf,
  registryPorts,
  toFqdn,
  type HostIndex,
  type RegistryHost,
} from './hosts';
import { selectablePods, type Screened } from './screen';
import { vsHostInGateways, type ScreenedGateway } from './gateway-hosts';
import type { Finding } from './types';
import { objectKey, scopedHost } from '../refs/object-ref';

export interface RouteDestination {
  /** '' for an entry without host (`- {}`): a reference to nothing, as istioctl reads it. */
  host: string;
  subset: string | null;
  /** destination.port.number, when given. */
  port: number | null;
  /** Where in the spec: `http[0].route[1]`, `http[0].mirror`, `tcp[0].route[0]`. */
  at: string;
  mirror: boolean;
}

type Raw = Record<string, unknown>;
const asList = (v: unknown): Raw[] =>
  Array.isArray(v) ? v.filter((x): x is Raw => x !== null && typeof x === 'object') : [];
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function dest(v: unknown, at: string, mirror: boolean): RouteDestination {
  const d = v !== null && typeof v === 'object' ? (v as Raw) : {};
  const p = d.port !== null && typeof d.port === 'object' ? (d.port as Raw).number : undefined;
  return {
    host: str(d.host) ?? '',
    subset: str(d.subset),
    port: typeof p === 'number' ? p : null,
    at,
    mirror,
  };
}

/** Every destination a VirtualService routes or mirrors to (http, tcp, tls). */
export function routeDestinations(vs: VirtualService): RouteDestination[] {
  const out: RouteDestination[] = [];
  const spec = vs.spec as unknown as Raw;
  for (const section of ['http', 'tcp', 'tls'] as const) {
    asList(spec[section]).forEach((rule, i) => {
      asList(rule.route).forEach((r, j) => {
        out.push(dest(r.destination, `${section}[${i}].route[${j}]`, false));
      });
      if (section !== 'http') return;
      if (rule.mirror !== undefined && rule.mirror !== null) {
        out.push(dest(rule.mirror, `http[${i}].mirror`, true));
      }
      asList(rule.mirrors).forEach((mp, k) => {
        out.push(dest(mp.destination, `http[${i}].mirrors[${k}]`, true));
      });
    });
  }
  return out;
}

/** The key istioctl compares host+subset by: FQDN of a cluster host, else namespace/host. */
function subsetKey(host: string, namespace: string, subset: string): string {
  const fqdn = toFqdn(host, namespace);
  const base = fqdn.endsWith('.svc.cluster.local') ? fqdn : scopedHost(namespace, fqdn);
  return `${base}#${subset}`;
}

function definedSubsets(drs: readonly DestinationRule[]): Set<string> {
  const out = new Set<string>();
  for (const dr of drs) {
    const ns = dr.metadata.namespace ?? 'default';
    for (const s of dr.spec.subsets ?? []) out.add(subsetKey(dr.spec.host, ns, s.name));
  }
  return out;
}

const vsSubject = (vs: VirtualService) => ({
  kind: 'VirtualService',
  namespace: vs.metadata.namespace ?? 'default',
  name: vs.metadata.name,
});

/** IST0101 for VirtualService destinations: unknown host, unknown subset. */
export function virtualServiceReferenceFindings(
  virtualServices: readonly VirtualService[],
  destinationRules: readonly DestinationRule[],
  registry: readonly RegistryHost[] | HostIndex,
): Finding[] {
  const hosts = indexHosts(registry);
  const subsets = definedSubsets(destinationRules);
  const sev = CONFIG.byKey.referenceNotFound.severity;
  return perObject('virtualservice-references', virtualServices, (vs) => {
    const ns = vs.metadata.namespace ?? 'default';
    const out: Finding[] = [];
    for (const d of routeDestinations(vs)) {
      const entry = destinationHost(hosts, d.host, ns, vs.spec.exportTo);
      if (entry === undefined) {
        const named = d.host === '' ? 'no host' : `host ${d.host}`;
        out.push({
          code: CONFIG.code.referenceNotFound,
          severity: sev,
          subject: vsSubject(vs),
          part: { kind: 'destination', name: `${d.at} ${named}` },
          evidence: { reftype: d.mirror ? 'mirror host' : 'host', ref: d.host, at: d.at },
          fix: {
            why:
              d.host === ''
                ? 'This destination names no host: requests on this route get 503 (NR). Give it the host of a Service or ServiceEntry, or remove the entry.'
                : `No Service or ServiceEntry named ${d.host} is visible ${vs.spec.exportTo?.length ? `in the namespaces this VirtualService is exported to (${vs.spec.exportTo.join(', ')})` : `in ${ns}`}: requests on this route get 503 (NR/NC). Correct the host, export the Service there, or add a ServiceEntry.`,
          },
        });
      } else out.push(...portFindings(vs, d, entry));
      if (d.subset !== null && !subsets.has(subsetKey(d.host, ns, d.subset))) {
        out.push({
          code: CONFIG.code.referenceNotFound,
          severity: sev,
          subject: vsSubject(vs),
          part: { kind: 'destination', name: `${d.at} subset ${d.host}+${d.subset}` },
          evidence: {
            reftype: d.mirror ? 'mirror+subset' : 'host+subset',
            ref: `${d.host}+${d.subset}`,
            at: d.at,
          },
          fix: {
            why: `No DestinationRule for ${d.host} defines subset ${d.subset}: Envoy has no cluster for it and answers 503 NR. Add the subset to the host's DestinationRule or route to an existing one.`,
            yaml: `# kubectl -n ${ns} edit destinationrule <the DestinationRule of ${d.host}>\nspec:\n  host: ${d.host}\n  subsets:\n  - name: ${d.subset}\n    labels:\n      version: ${d.subset}   # the pod labels of this subset\n`,
          },
        });
      }
    }
    return out;
  });
}

/**
 * A destination's port against the ports of its host, as istioctl checks it: IST0112 when the
 * host has several ports and the destination names none, IST0101 (host:port) when it names one
 * the host does not have.
 */
function portFindings(vs: VirtualService, d: RouteDestination, entry: RegistryHost): Finding[] {
  const ports = registryPorts(entry);
  if (d.port === null) {
    if (ports.length < 2) return [];
    return [
      {
        code: CONFIG.code.destinationPortRequired,
        severity: CONFIG.byKey.destinationPortRequired.severity,
        subject: vsSubject(vs),
        part: { kind: 'destination', name: `${d.at} host ${d.host}` },
        evidence: { host: d.host, ports: ports.join(','), at: d.at },
        fix: {
          why: `${d.host} has ${ports.length} ports (${ports.join(', ')}): the route must say which one with destination.port.number, or istiod rejects the route.`,
        },
      },
    ];
  }
  if (ports.includes(d.port)) return [];
  return [
    {
      code: CONFIG.code.referenceNotFound,
      severity: CONFIG.byKey.referenceNotFound.severity,
      subject: vsSubject(vs),
      part: { kind: 'destination', name: `${d.at} port ${d.host}:${d.port}` },
      evidence: {
        reftype: 'host:port',
        ref: `${d.host}:${d.port}`,
        at: d.at,
        ports: ports.join(','),
      },
      fix: {
        why: `${d.host} has no port ${d.port} (it has ${ports.length ? ports.join(', ') : 'none declared'}): requests on this route get 503 (NR). Route to one of its ports or add the port to the Service.`,
      },
    },
  ];
}

/** Node topology labels Istio adds to an endpoint's labels (only those the node sets). */
const TOPOLOGY = [
  'topology.kubernetes.io/region',
  'topology.kubernetes.io/zone',
  'topology.istio.io/subzone',
];

/** A pod as selectors see it: its metadata, and its spec when known (for its node). */
export type SelectablePod = Pick<Pod, 'metadata'> & { spec?: Pod['spec'] };

function endpointLabels(pod: SelectablePod, nodes: ReadonlyMap<string, Record<string, string>>) {
  const labels: Record<string, string> = { ...(pod.metadata.labels ?? {}) };
  const node = pod.spec?.nodeName;
  const nl = node === undefined ? undefined : nodes.get(node);
  if (node !== undefined && nl !== undefined) {
    for (const k of TOPOLOGY) {
      const v = nl[k];
      if (v !== undefined && v !== '') labels[k] = v;
    }
    labels['kubernetes.io/hostname'] = node;
  }
  return labels;
}

/** Labels an endpoint takes from its node: a subset selecting by them needs the Nodes. */
const NODE_LABELS: ReadonlySet<string> = new Set([...TOPOLOGY, 'kubernetes.io/hostname']);

function subsetMatches(sel: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(sel).every(([k, v]) => k in labels && labels[k] === v);
}

/**
 * IST0174 DestinationRule host unknown, IST0173 subset that selects no pod. `nodesUnknown`: the
 * Nodes could not be read, so a subset selecting by a label endpoints take from their node
 * (topology, hostname) is not judged.
 */
export function destinationRuleFindings(
  destinationRules: readonly DestinationRule[],
  registry: readonly RegistryHost[] | HostIndex,
  pods: readonly SelectablePod[],
  nodes: ReadonlyMap<string, Record<string, string>>,
  nodesUnknown: string | null = null,
): Finding[] {
  const hosts = indexHosts(registry);
  // podsOf takes the pods of its host's namespace: each DestinationRule looks at those only
  const podsByNamespace = new Map<string, SelectablePod[]>();
  for (const p of pods) {
    const pns = p.metadata.namespace ?? 'default';
    const l = podsByNamespace.get(pns);
    if (l === undefined) podsByNamespace.set(pns, [p]);
    else l.push(p);
  }
  return perObject('destinationrule-references', destinationRules, (dr) => {
    const ns = dr.metadata.namespace ?? 'default';
    const subject = { kind: 'DestinationRule', namespace: ns, name: dr.metadata.name };
    const entry = lookupHost(hosts, dr.spec.host, ns);
    if (entry === undefined) {
      return [
        {
          code: CONFIG.code.unknownDestinationRuleHost,
          severity: CONFIG.byKey.unknownDestinationRuleHost.severity,
          subject,
          part: { kind: 'host', name: dr.spec.host },
          evidence: { host: dr.spec.host },
          fix: {
            why: 'The traffic policy applies to nothing: correct the host (short names are relative to the DestinationRule namespace) or delete the DestinationRule.',
          },
        },
      ];
    }
    const backing = podsOf(entry, podsByNamespace.get(entry.namespace) ?? []);
    if (backing === null) return [];
    const out: Finding[] = [];
    for (const s of dr.spec.subsets ?? []) {
      const sel = s.labels ?? {};
      if (nodesUnknown !== null && Object.keys(sel).some((k) => NODE_LABELS.has(k))) continue;
      const n = backing.filter((p) => subsetMatches(sel, endpointLabels(p, nodes))).length;
      if (n > 0) continue;
      out.push({
        code: CONFIG.code.subsetSelectsNoPods,
        severity: CONFIG.byKey.subsetSelectsNoPods.severity,
        subject,
        part: { kind: 'subset', name: s.name },
        evidence: {
          host: entry.host,
          subset: s.name,
          labels: Object.entries(sel)
            .map(([k, v]) => `${k}=${v}`)
            .join(','),
          podsOfHost: backing.length,
        },
        fix: {
          why: `No pod of ${entry.host} carries these labels: requests routed to subset ${s.name} get 503 UH. Fix the subset labels to match the pods' (kubectl get pods --show-labels), or deploy that version.`,
        },
      });
    }
    return out;
  });
}

/** Gateway API's Gateways appear to VirtualServices under this internal name (never to check). */
const INTERNAL_GATEWAY = '~istio-autogenerated-k8s-gateway~';

/**
 * The gateway references of VirtualServices as istioctl's GatewayAnalyzer checks them: IST0101
 * for a Gateway that does not exist (an Istio Gateway or a Gateway API Gateway of that
 * namespace/name), IST0132 when the Gateway serves none of the VirtualService's hosts (also for
 * a Gateway that does not exist, as istioctl reports both). `unknown`: the Gateways could not
 * all be read, so neither can be said (nothing is reported).
 */
export function virtualServiceGatewayFindings(
  virtualServices: readonly VirtualService[],
  gateways: readonly ScreenedGateway[],
  unknown: string | null = null,
): Finding[] {
  if (unknown !== null) return [];
  const byKey = new Map<string, ScreenedGateway[]>();
  for (const g of gateways) byKey.set(g.key, [...(byKey.get(g.key) ?? []), g]);
  return perObject('virtualservice-gateways', virtualServices, (vs) => {
    const ns = vs.metadata.namespace ?? 'default';
    const hosts = (vs.spec.hosts ?? []).filter((h): h is string => typeof h === 'string');
    const out: Finding[] = [];
    (vs.spec.gateways ?? []).forEach((gw, i) => {
      if (gw === 'mesh') return;
      const slash = gw.indexOf('/');
      const name = slash < 0 ? gw : gw.slice(slash + 1);
      if (name.includes(INTERNAL_GATEWAY)) return;
      const key = slash < 0 ? objectKey(ns, gw) : gw;
      const named = byKey.get(key) ?? [];
      const part = { kind: 'field' as const, name: `gateways[${i}] ${gw}` };
      if (named.length === 0)
        out.push({
          code: CONFIG.code.referenceNotFound,
          severity: CONFIG.byKey.referenceNotFound.severity,
          subject: vsSubject(vs),
          part,
          evidence: { reftype: 'gateway', ref: gw, at: `gateways[${i}]` },
          fix: {
            why: `No Gateway ${key} exists: the routes of this VirtualService are bound to nothing on that gateway. Correct the name (namespace/name for a Gateway of another namespace) or create the Gateway.`,
          },
        });
      // a Gateway whose hosts cannot be read says nothing of them
      if (named.some((g) => g.unreadable !== null)) return;
      if (vsHostInGateways(named, hosts, ns)) return;
      const served = named.flatMap((g) => g.hosts.flat());
      out.push({
        code: CONFIG.code.hostNotInGateway,
        severity: CONFIG.byKey.hostNotInGateway.severity,
        subject: vsSubject(vs),
        part,
        evidence: {
          gateway: key,
          hosts: hosts.join(', '),
          gatewayHosts: named.length === 0 ? '(no such Gateway)' : served.join(', ') || '(none)',
          at: `gateways[${i}]`,
        },
        fix: {
          why:
            named.length === 0
              ? `No Gateway ${key} exists to serve ${hosts.join(', ') || 'the hosts of this VirtualService'}.`
              : `Gateway ${key} serves ${served.join(', ') || 'no host'}; none of them is ${hosts.join(', ') || 'a host of this VirtualService'}: these routes are not applied at that gateway. Add the host to a server of the Gateway (or a namespace/host it lets this namespace bind), or correct spec.hosts.`,
        },
      });
    });
    return out;
  });
}

/** Every reference check on screened objects. */
export function referenceFindings(s: Screened): Finding[] {
  const registry = indexHosts(buildRegistry(s.services, s.serviceEntries));
  const nodes = new Map(s.nodes.map((n) => [n.name, n.labels]));
  return [
    ...virtualServiceReferenceFindings(s.virtualServices, s.destinationRules, registry),
    ...virtualServiceGatewayFindings(s.virtualServices, s.gateways, s.gatewaysUnknown),
    ...destinationRuleFindings(
      s.destinationRules,
      registry,
      selectablePods(s),
      nodes,
      s.nodesUnknown,
    ),
  ];
}
