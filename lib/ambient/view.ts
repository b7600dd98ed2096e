/**
 * The Ambient readiness view model from what the cluster holds and meshdx's own figures: one
 * readiness per namespace that has pods (system namespaces and istio-system left out).
 */
import type { AmbientGains, AmbientView } from '../api/ambient';
import type { TimelineFleetRow as TimelineRow } from '../api/timelines';
import {
  namespaceDataplane,
  podDataplane,
  USE_WAYPOINT_LABEL,
  waypointOf,
  WAYPOINT_CLASS,
} from '../dataplane/mode';
import type { Pod } from '../kube/types';
import type { IstioConfig } from '../kube/istio-config';
import { podProxy } from '../dataplane/proxy-container';
import { namespaceReadiness } from './readiness';
import { kindName } from '../refs/workload-ref';

const SKIP: ReadonlySet<string> = new Set(['kube-system', 'kube-public', 'kube-node-lease']);

/** A proxy's cluster count as the Proxies scan measured it (null: not reachable). */
export interface MeasuredProxyClusters {
  namespace: string;
  placement: string;
  activeClusters: number | null;
}

export interface AmbientInput extends Pick<
  IstioConfig,
  | 'namespaces'
  | 'services'
  | 'authorizationPolicies'
  | 'peerAuthentications'
  | 'envoyFilters'
  | 'virtualServices'
  | 'destinationRules'
  | 'sidecars'
  | 'gateways'
> {
  pods: readonly Pod[];
  /** Timelines' rows (live pods): races and drain problems per workload. */
  timelineRows: readonly TimelineRow[];
  /** The last Proxies scan's rows, or null when there was none recently. */
  proxies: readonly MeasuredProxyClusters[] | null;
  istioNamespace: string;
  notes: string[];
  now: Date;
}

const RACE: ReadonlySet<string> = new Set(['race', 'race-restart']);
const DRAIN: ReadonlySet<string> = new Set(['drain-too-short', 'grace-exceeded']);

function gainsOf(ns: string, sidecarPods: number, input: AmbientInput): AmbientGains {
  const rows = input.timelineRows.filter((r) => r.namespace === ns && !r.deleted);
  const names = (set: ReadonlySet<string>) =>
    [
      ...new Set(
        rows
          .filter((r) => r.verdicts.some((v) => set.has(v)))
          .map((r) => kindName({ kind: r.workloadKind, name: r.workload })),
      ),
    ].sort();
  const sidecars = (input.proxies ?? []).filter(
    (p) => p.namespace === ns && (p.placement === 'sidecar' || p.placement === 'native-sidecar'),
  );
  const measured = sidecars.filter((p) => p.activeClusters !== null);
  return {
    raceWorkloads: names(RACE),
    drainWorkloads: names(DRAIN),
    sidecarProxies: sidecarPods,
    clustersCarried:
      input.proxies === null ? null : measured.reduce((n, p) => n + (p.activeClusters ?? 0), 0),
    clustersMeasured: measured.length,
  };
}

export function buildAmbientView(input: AmbientInput): AmbientView {
  const nsByName = new Map(input.namespaces.map((n) => [n.metadata.name, n]));
  const inNs = <T extends { metadata: { namespace?: string } }>(list: readonly T[], ns: string) =>
    list.filter((o) => (o.metadata.namespace ?? '') === ns);
  const names = new Set(input.pods.map((p) => p.metadata.namespace ?? ''));
  const out: AmbientView['namespaces'] = [];
  for (const ns of [...names].sort()) {
    if (SKIP.has(ns) || ns === input.istioNamespace || ns === '') continue;
    const nsObj = nsByName.get(ns);
    const pods = { sidecar: 0, ambient: 0, none: 0 };
    for (const p of inNs(input.pods, ns)) {
      // a waypoint or a gateway is the namespace's own Envoy, not a sidecar to migrate
      const placement = podProxy(p)?.placement;
      if (p.metadata.deletionTimestamp || placement === 'waypoint' || placement === 'gateway')
        continue;
      pods[podDataplane(p, nsObj).mode]++;
    }
    const labels = nsObj?.metadata.labels ?? {};
    out.push(
      namespaceReadiness({
        namespace: ns,
        dataplane: namespaceDataplane(nsObj),
        pods,
        waypoint: labels[USE_WAYPOINT_LABEL] ? waypointOf({}, labels, ns) : null,
        waypoints: inNs(input.gateways, ns).filter(
          (g) => g.spec?.gatewayClassName === WAYPOINT_CLASS,
        ),
        services: inNs(input.services, ns),
        authorizationPolicies: inNs(input.authorizationPolicies, ns),
        peerAuthentications: inNs(input.peerAuthentications, ns),
        envoyFilters: inNs(input.envoyFilters, ns),
        virtualServices: inNs(input.virtualServices, ns),
        destinationRules: inNs(input.destinationRules, ns),
        sidecars: inNs(input.sidecars, ns),
        gains: gainsOf(ns, pods.sidecar, input),
      }),
    );
  }
  const order = { 'mid-migration': 0, blocked: 1, 'needs-work': 2, ready: 3, migrated: 4 } as const;
  out.sort((a, b) => order[a.status] - order[b.status] || a.namespace.localeCompare(b.namespace));
  return { generatedAt: input.now.toISOString(), namespaces: out, notes: input.notes };
}
