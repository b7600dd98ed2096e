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
import { buildRegistry, lookupHost, podsOf, toFqdn, type RegistryHost } from './hosts';
import type { Screened } from './screen';
import type { Finding } from './types';
import { scopedHost } from '../refs/object-ref';

export interface RouteDestination {
  host: string;
  subset: string | null;
  /** Where in the spec: `http[0].route[1]`, `http[0].mirror`, `tcp[0].route[0]`. */
  at: string;
  mirror: boolean;
}

type Raw = Record<string, unknown>;
const asList = (v: unknown): Raw[] =>
  Array.isArray(v) ? v.filter((x): x is Raw => x !== null && typeof x === 'object') : [];
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function dest(v: unknown, at: string, mirror: boolean): RouteDestination | null {
  if (v === null || typeof v !== 'object') return null;
  const d = v as Raw;
  const host = str(d.host);
  if (host === null) return null;
  return { host, subset: str(d.subset), at, mirror };
}

/** Every destination a VirtualService routes or mirrors to (http, tcp, tls). */
export function routeDestinations(vs: VirtualService): RouteDestination[] {
  const out: RouteDestination[] = [];
  const spec = vs.spec as unknown as Raw;
  for (const section of ['http', 'tcp', 'tls'] as const) {
    asList(spec[section]).forEach((rule, i) => {
      asList(rule.route).forEach((r, j) => {
        const d = dest(r.destination, `${section}[${i}].route[${j}]`, false);
        if (d !== null) out.push(d);
      });
      if (section !== 'http') return;
      const m = dest(rule.mirror, `http[${i}].mirror`, true);
      if (m !== null) out.push(m);
      asList(rule.mirrors).forEach((mp, k) => {
        const d = dest(mp.destination, `http[${i}].mirrors[${k}]`, true);
        if (d !== null) out.push(d);
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
  registry: readonly RegistryHost[],
): Finding[] {
  const subsets = definedSubsets(destinationRules);
  const sev = CONFIG.byKey.referenceNotFound.severity;
  return perObject('virtualservice-references', virtualServices, (vs) => {
    const ns = vs.metadata.namespace ?? 'default';
    const out: Finding[] = [];
    for (const d of routeDestinations(vs)) {
      if (lookupHost(registry, d.host, ns) === undefined) {
        out.push({
          code: CONFIG.code.referenceNotFound,
          severity: sev,
          subject: vsSubject(vs),
          part: { kind: 'destination', name: `${d.at} host ${d.host}` },
          evidence: { reftype: d.mirror ? 'mirror host' : 'host', ref: d.host, at: d.at },
          fix: {
            why: `No Service or ServiceEntry is named ${d.host} here: requests on this route get 503 (NR/NC). Correct the host, or add the Service or a ServiceEntry for it.`,
          },
        });
      }
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

/** Node topology labels Istio adds to an endpoint's labels (only those the node sets). */
const TOPOLOGY = [
  'topology.kubernetes.io/region',
  'topology.kubernetes.io/zone',
  'topology.istio.io/subzone',
];

function endpointLabels(pod: Pod, nodes: ReadonlyMap<string, Record<string, string>>) {
  const labels: Record<string, string> = { ...(pod.metadata.labels ?? {}) };
  const node = pod.spec.nodeName;
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

function subsetMatches(sel: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(sel).every(([k, v]) => k in labels && labels[k] === v);
}

/** IST0174 DestinationRule host unknown, IST0173 subset that selects no pod. */
export function destinationRuleFindings(
  destinationRules: readonly DestinationRule[],
  registry: readonly RegistryHost[],
  pods: readonly Pod[],
  nodes: ReadonlyMap<string, Record<string, string>>,
): Finding[] {
  return perObject('destinationrule-references', destinationRules, (dr) => {
    const ns = dr.metadata.namespace ?? 'default';
    const subject = { kind: 'DestinationRule', namespace: ns, name: dr.metadata.name };
    const entry = lookupHost(registry, dr.spec.host, ns);
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
    const backing = podsOf(entry, pods);
    if (backing === null) return [];
    const out: Finding[] = [];
    for (const s of dr.spec.subsets ?? []) {
      const sel = s.labels ?? {};
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

/** Every reference check on screened objects. */
export function referenceFindings(s: Screened): Finding[] {
  const registry = buildRegistry(s.services, s.serviceEntries);
  const nodes = new Map(s.nodes.map((n) => [n.name, n.labels]));
  return [
    ...virtualServiceReferenceFindings(s.virtualServices, s.destinationRules, registry),
    ...destinationRuleFindings(s.destinationRules, registry, [...s.pods, ...s.templates], nodes),
  ];
}
