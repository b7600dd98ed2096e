/**
 * The Scoping view's checks, as findings with stable codes (see codes.ts). Pure: everything they
 * need is passed in.
 */
import type { Finding } from '../findings/types';
import type { Pod, Sidecar } from '../kube/types';
import { SCOPING_CODES as C } from './codes';
import { cutOffHosts, type WorkloadFacts } from './facts';
import { dnsMatches, isExportedTo, parseEgressHosts, type EgressHost } from './hosts';
import type { MeshModel } from './scopes';
import { egressHostImportsVs, hostsOverlap, virtualServiceDestinations } from './virtualservices';
import { labelsMatch } from './visibility';
import type { ObservationWindow } from './types';
import { objectKey, scopedHost } from '../refs/object-ref';

const nsOf = (o: { metadata: { namespace?: string } }) => o.metadata.namespace ?? 'default';
const hasSelector = (s: Sidecar) => Object.keys(s.spec?.workloadSelector?.labels ?? {}).length > 0;
const sidecarSubject = (s: Sidecar) => ({
  kind: 'Sidecar',
  namespace: nsOf(s),
  name: s.metadata.name,
});
const selectorText = (s: Sidecar) =>
  Object.entries(s.spec?.workloadSelector?.labels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
const egressHostsOf = (s: Sidecar): unknown[] =>
  (s.spec?.egress ?? []).flatMap((e) => (Array.isArray(e.hosts) ? e.hosts : []));

const inAmbient = (p: Pick<Pod, 'metadata'>) =>
  p.metadata.annotations?.['ambient.istio.io/redirection'] === 'enabled';

/** IST0111, IST0110, IST0101, MDX0302: how Sidecars relate to each other and to pods. */
export function sidecarSelectionFindings(
  sidecars: readonly Sidecar[],
  pods: readonly Pick<Pod, 'metadata'>[],
  rootNamespace: string,
  /** Namespaces in the ambient mesh: no sidecar there, so no conflict among Sidecars (IST0111). */
  ambientNamespaces: ReadonlySet<string> = new Set(),
): Finding[] {
  const out: Finding[] = [];
  const byNs = new Map<string, Sidecar[]>();
  for (const s of sidecars) byNs.set(nsOf(s), [...(byNs.get(nsOf(s)) ?? []), s]);
  const podsByNs = new Map<string, Pick<Pod, 'metadata'>[]>();
  for (const p of pods) podsByNs.set(nsOf(p), [...(podsByNs.get(nsOf(p)) ?? []), p]);
  for (const [ns, list] of [...byNs.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const defaults = list.filter((s) => !hasSelector(s));
    if (defaults.length > 1 && !ambientNamespaces.has(ns)) {
      const names = defaults.map((s) => s.metadata.name).sort();
      for (const s of defaults) {
        out.push({
          code: C.multipleDefaults,
          severity: 'error',
          subject: sidecarSubject(s),
          evidence: { namespace: ns, conflictingSidecars: names.join(', ') },
          fix: {
            why: 'Keep one Sidecar without workloadSelector per namespace; istiod uses the oldest and ignores the rest.',
          },
        });
      }
    }
    const nsPods = podsByNs.get(ns) ?? [];
    const selected = new Map<string, Sidecar[]>();
    for (const s of list.filter(hasSelector)) {
      const matched = nsPods.filter((p) =>
        labelsMatch(s.spec.workloadSelector?.labels, p.metadata.labels),
      );
      if (matched.length === 0) {
        out.push({
          code: C.selectorMatchesNoPod,
          severity: 'error',
          subject: sidecarSubject(s),
          evidence: { reftype: 'selector', selector: selectorText(s) },
        });
      }
      // a pod in the ambient mesh has no sidecar: Sidecars selecting it do not conflict
      for (const p of matched.filter((x) => !inAmbient(x)))
        selected.set(p.metadata.name, [...(selected.get(p.metadata.name) ?? []), s]);
      const rootHasDefault = (byNs.get(rootNamespace) ?? []).some((x) => !hasSelector(x));
      if (ns === rootNamespace && (s.metadata.name === 'default' || !rootHasDefault)) {
        out.push({
          code: C.rootSelector,
          severity: 'warning',
          subject: sidecarSubject(s),
          evidence: { selector: selectorText(s), meshDefaultExists: rootHasDefault },
          fix: {
            why: 'Remove the workloadSelector to make it the mesh-wide default, or move it to the namespace of the pods it is meant for.',
          },
        });
      }
    }
    // as istioctl reports it: once per Sidecar and pod it conflicts on
    for (const [pod, scs] of [...selected.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      if (scs.length < 2) continue;
      const names = scs.map((s) => s.metadata.name).sort();
      for (const s of scs) {
        out.push({
          code: C.conflictingSelectors,
          severity: 'error',
          subject: sidecarSubject(s),
          part: { kind: 'pod', name: pod },
          evidence: { conflictingSidecars: names.join(', '), namespace: ns, workloadPod: pod },
        });
      }
    }
  }
  return out;
}

function hostSelectsSomething(h: EgressHost, s: Sidecar, model: MeshModel, root: boolean): boolean {
  const ns = nsOf(s);
  for (const { entry, exportTo } of model.registry) {
    if (!dnsMatches(h.dns, entry.hostname)) continue;
    const k = h.namespace.kind;
    if (k === 'none') return true; // `~` is meant to select nothing
    if (k === 'named' && h.namespace.name !== entry.namespace) continue;
    if (k === 'own' && !root && entry.namespace !== ns) continue;
    if (!root && !isExportedTo(exportTo, entry.namespace, ns)) continue;
    return true;
  }
  return importsRoutingVs(h, s, model, root);
}

/**
 * An egress host that selects no service can still import a VirtualService (a host that exists
 * only in its spec.hosts), whose destinations then become visible: that host is not useless.
 */
function importsRoutingVs(h: EgressHost, s: Sidecar, model: MeshModel, root: boolean): boolean {
  const ns = nsOf(s);
  return model.virtualServices.some((vs) => {
    if (!vs.mesh || vs.hosts.length === 0) return false;
    if (h.namespace.kind === 'own' && root) {
      // a mesh default's `.` is each client's namespace: any VirtualService namespace
      if (!vs.hosts.some((vh) => vh === h.dns || hostsOverlap(vh, h.dns))) return false;
    } else {
      if (!egressHostImportsVs(h, ns, vs)) return false;
      if (!root && !isExportedTo(vs.exportTo, vs.ref.namespace, ns)) return false;
    }
    const client = root ? vs.ref.namespace : ns;
    return [...virtualServiceDestinations(vs, client).keys()].some((d) => model.hosts.has(d));
  });
}

/** MDX0304 invalid egress hosts, MDX0303 egress hosts that select no registry host. */
export function egressHostFindings(sidecars: readonly Sidecar[], model: MeshModel): Finding[] {
  const out: Finding[] = [];
  for (const s of sidecars) {
    const { hosts, errors } = parseEgressHosts(egressHostsOf(s));
    for (const e of errors) {
      out.push({
        code: C.invalidEgressHost,
        severity: 'error',
        subject: sidecarSubject(s),
        evidence: { host: e.raw, index: e.index, message: e.message },
      });
    }
    const root = nsOf(s) === model.rootNamespace && !hasSelector(s);
    for (const h of hosts) {
      if (h.namespace.kind === 'none') continue;
      if (hostSelectsSomething(h, s, model, root)) continue;
      out.push({
        code: C.egressHostNoService,
        severity: 'warning',
        subject: sidecarSubject(s),
        evidence: { host: h.raw, ...(h.exclude ? { exclusion: true } : {}) },
        fix: {
          why: h.exclude
            ? 'A typo or a removed service: the exclusion matches no host, so it excludes nothing; correct or remove it.'
            : 'A typo or a removed service: the host adds nothing; correct or remove it.',
        },
      });
    }
  }
  return out;
}

export type FixLookup = (f: WorkloadFacts) => string | undefined;

function workloadSubject(f: WorkloadFacts) {
  return { kind: f.workload.kind, namespace: f.workload.namespace, name: f.workload.name };
}

/** MDX0305 `~/*` on a calling workload, MDX0306 observed calls cut off, MDX0308 unobserved. */
export function workloadFindings(facts: readonly WorkloadFacts[], fixYaml: FixLookup): Finding[] {
  const out: Finding[] = [];
  for (const f of facts) {
    const s = f.scope.selection.sidecar;
    const sidecar = s ? objectKey(nsOf(s), s.metadata.name) : null;
    const yaml = fixYaml(f);
    if (
      s &&
      f.callsOut &&
      egressHostsOf(s).some((h) => typeof h === 'string' && h.trim().startsWith('~/'))
    ) {
      out.push({
        code: C.noneOnCallingWorkload,
        severity: 'error',
        subject: workloadSubject(f),
        evidence: { sidecar, destinations: f.traffic.destinations.size },
        fix: {
          why: 'Give the workload its own namespace, the control plane and the namespaces it calls instead of ~/*.',
          ...(yaml ? { yaml } : {}),
        },
      });
    }
    const cut = cutOffHosts(f, f.scope);
    if (cut.length > 0) {
      out.push({
        code: C.observedCutOff,
        severity: 'error',
        subject: workloadSubject(f),
        evidence: { sidecar, hosts: cut.slice(0, 10).join(', '), count: cut.length },
        fix: {
          why: 'Add the namespaces of the called hosts to the Sidecar that applies.',
          ...(yaml ? { yaml } : {}),
        },
      });
    }
    if (!f.observed) {
      out.push({
        code: C.workloadUnobserved,
        severity: 'info',
        subject: workloadSubject(f),
        evidence: {
          replicas: f.workload.pods.length,
          // none: no proxy of it could be asked (not running, no IP yet)
          sourcesTried:
            f.traffic.sources
              .filter((x) => x.observations > 0)
              .map((x) => x.source)
              .join(', ') || 'none',
        },
      });
    }
  }
  return out;
}

/**
 * MDX0301: namespaces whose sidecar workloads get no default Sidecar (own or mesh-root). The
 * fix is the namespace's proposed Sidecar; its egress hosts beyond the namespace and the root
 * are named in the evidence (`callsOut`): a mesh-wide default alone would cut those calls.
 */
export function namespaceDefaultFindings(
  facts: readonly WorkloadFacts[],
  sidecars: readonly Sidecar[],
  model: MeshModel,
  fixOf: (ns: string) => { yaml: string; hosts: readonly string[] } | undefined,
  istioNamespace: string,
): Finding[] {
  const defaults = new Set(sidecars.filter((s) => !hasSelector(s)).map(nsOf));
  if (defaults.has(model.rootNamespace)) return [];
  // the pods of scopable workloads: sidecars (gateways and waypoints are no workloads here)
  const sidecarPods = new Map<string, number>();
  for (const f of facts)
    sidecarPods.set(
      f.workload.namespace,
      (sidecarPods.get(f.workload.namespace) ?? 0) + f.workload.pods.length,
    );
  return [...sidecarPods.entries()]
    .filter(([ns]) => ns !== model.rootNamespace && !defaults.has(ns))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([ns, pods]) => {
      const fix = fixOf(ns);
      // what every proposal holds: its own namespace and the control plane's
      const base = new Set(['./*', scopedHost(ns, '*'), scopedHost(istioNamespace, '*')]);
      const callsOut = fix ? fix.hosts.filter((h) => !base.has(h)).join(', ') : null;
      return {
        code: C.namespaceWithoutDefault,
        severity: 'warning' as const,
        subject: { kind: 'Namespace', name: ns },
        evidence: {
          sidecarPods: pods,
          services: model.servicesByNamespace.get(ns)?.length ?? 0,
          callsOut,
        },
        fix: {
          why: "Limits the namespace's proxies to their own namespace, the control plane and the namespaces they call.",
          ...(fix ? { yaml: fix.yaml } : {}),
        },
      };
    });
}

/** Window length in seconds, or null when a bound does not parse or end < start. */
export function windowSeconds(w: ObservationWindow | null): number | null {
  if (!w) return null;
  const a = Date.parse(w.start);
  const b = Date.parse(w.end);
  if (Number.isNaN(a) || Number.isNaN(b) || b < a) return null;
  return Math.round((b - a) / 1000);
}

/** MDX0307: the observation window is unknown or shorter than `minSeconds`. */
export function windowFindings(w: ObservationWindow | null, minSeconds: number): Finding[] {
  const seconds = windowSeconds(w);
  if (seconds !== null && seconds >= minSeconds) return [];
  return [
    {
      code: C.windowShort,
      severity: 'warning',
      subject: { kind: 'ObservationWindow', name: 'traffic' },
      evidence: {
        start: w?.start ?? null,
        end: w?.end ?? null,
        seconds,
        minimumSeconds: minSeconds,
      },
      fix: {
        why: 'Observe for longer (a full business cycle if possible) before applying generated Sidecars.',
      },
    },
  ];
}
