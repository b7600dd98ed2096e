/**
 * Which client proxies' logs an Incidents view reads, and the figures it chooses them by: the
 * URL's filter, the candidates, terminations per namespace, grace periods by pod and workload.
 * Pure: the screen (server/screens/incidents) gathers the pods and the history.
 */
import type { ViewState } from '../api/viewstate';
import { refList } from '../api/viewstate';
import { AMBIENT_REDIRECTION_ANNOTATION, isZtunnelPod, podDataplane } from '../dataplane/mode';
import { hasProxy } from '../dataplane/proxy-container';
import type { Pod } from '../kube/types';
import type { PodInterval } from '../ledger/types';
import { rankClients, type ClientChoice, type ClientSignal } from './clients';
import type { RequestFilter } from './collect';
import { podKeyOfObject } from '../refs/pod-ref';
import { controllerOf, workloadNameKey, workloadOfOwner } from '../refs/workload-ref';

export type IncidentsQuery = ViewState<'incidents'>;

/** At most this many client proxies' logs are read per request (the rest are counted). */
export const MAX_CLIENTS = 40;

export function filterOf(q: IncidentsQuery): RequestFilter {
  return {
    fromMs: q.from ? Date.parse(q.from) : null,
    toMs: q.to ? Date.parse(q.to) : null,
    service: q.service ?? null,
    ip: q.ip ?? null,
  };
}

/**
 * Pods whose logs may hold the failures: meshed pods (their istio-proxy writes Envoy's access
 * log) of the namespace filter or the ones asked for, and the ztunnels (ambient: the node's
 * ztunnel logs each connection of the ambient pods on its node, in its container named
 * istio-proxy, whatever their namespace; lib/accesslog/ztunnel.ts reads those lines): every
 * one without a namespace filter, with one those of the nodes where it has ambient pods.
 */
export function clientCandidates(pods: readonly Pod[], q: IncidentsQuery): Pod[] {
  const asked = new Set(refList(q.client));
  const ambientNodes = q.namespace ? ambientNodesOf(pods, q.namespace) : null;
  return pods
    .filter((p) => hasProxy(p) || isZtunnelPod(p))
    .filter(
      (p) =>
        ambientNodes === null ||
        p.metadata.namespace === q.namespace ||
        (isZtunnelPod(p) && ambientNodes.has(p.spec.nodeName ?? '')) ||
        asked.has(podKeyOfObject(p)),
    )
    .filter((p) => asked.size === 0 || asked.has(podKeyOfObject(p)))
    .sort((a, b) => podKeyOfObject(a).localeCompare(podKeyOfObject(b)));
}

/**
 * The nodes where `namespace` has ambient pods (captured by the ambient CNI, or labelled
 * ambient): a node's ztunnel logs only its own node's ambient pods, so only these ztunnels
 * are the namespace's clients.
 */
function ambientNodesOf(pods: readonly Pod[], namespace: string): Set<string> {
  const out = new Set<string>();
  for (const p of pods) {
    if (p.metadata.namespace !== namespace || !p.spec.nodeName || hasProxy(p)) continue;
    const captured = p.metadata.annotations?.[AMBIENT_REDIRECTION_ANNOTATION] === 'enabled';
    if (captured || podDataplane(p, undefined).mode === 'ambient') out.add(p.spec.nodeName);
  }
  return out;
}

/**
 * Client proxies whose logs to read: the ones asked for (the Client filter), else all meshed
 * candidates when they fit in MAX_CLIENTS, else the best MAX_CLIENTS by what their own numbers
 * say (lib/incidents/clients.ts). Every skipped client comes back with its reason.
 */
export function chooseClients(
  pods: readonly Pod[],
  q: IncidentsQuery,
  churn: ReadonlyMap<string, number> = new Map(),
  signals: ReadonlyMap<string, ClientSignal> = new Map(),
): { chosen: Pod[]; choices: ClientChoice[]; skipped: ClientChoice[] } {
  const candidates = clientCandidates(pods, q);
  const byKey = new Map(candidates.map((p) => [podKeyOfObject(p), p]));
  const asked = refList(q.client).filter((k) => byKey.has(k));
  const r = rankClients({
    candidates: [...byKey.keys()],
    asked,
    signals,
    churn,
    max: MAX_CLIENTS,
  });
  return {
    chosen: r.chosen.map((c) => byKey.get(c.pod)).filter((p): p is Pod => p !== undefined),
    choices: r.chosen,
    skipped: r.skipped,
  };
}

/** Terminations per namespace in the last `sinceMs` (or the window), from the IP history. */
export function churnByNamespace(
  intervals: readonly PodInterval[],
  fromMs: number,
  toMs: number,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const iv of intervals) {
    const t = iv.deletionStartedAt ?? iv.goneAt;
    if (t !== null && t >= fromMs && t <= toMs)
      out.set(iv.namespace, (out.get(iv.namespace) ?? 0) + 1);
  }
  return out;
}

/** terminationGracePeriodSeconds by pod uid and by "namespace/workload", from live pods. */
export function graceMap(pods: readonly Pod[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of pods) {
    const g = p.spec.terminationGracePeriodSeconds ?? 30;
    const ns = p.metadata.namespace ?? 'default';
    if (p.metadata.uid) out.set(p.metadata.uid, g);
    const ref = controllerOf(p);
    if (!ref) continue;
    const key = workloadNameKey(
      ns,
      workloadOfOwner(ref, { namespace: ns, name: p.metadata.name }).name,
    );
    out.set(key, Math.max(out.get(key) ?? 0, g));
  }
  return out;
}
