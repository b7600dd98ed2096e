/**
 * Which container of a pod is its Istio proxy and what kind of proxy it runs, as the simulated
 * istiod and Envoy read the pods the simulator's own injector wrote (world/build/proxy.ts): the
 * `istio-proxy` container, its pilot-agent arguments `proxy <type>` (istio/istio
 * pilot/cmd/pilot-agent: the proxy type is the first argument after `proxy`, `sidecar` when none
 * is given; `router` for gateways, `waypoint` for ambient waypoints, `ztunnel` for ztunnel), in
 * `initContainers` with `restartPolicy: Always` when the injector made it a native sidecar.
 *
 * ztunnel also names its container `istio-proxy` but is not an Envoy: the simulator serves no
 * Envoy admin for it (./ztunnel.ts answers its own admin port).
 */
import type { Container, ContainerStatus, Pod } from '../../../../lib/kube/types';
import { PROXY_CONTAINER } from './wire';

/** pilot-agent's proxy types (model.NodeType, plus ztunnel's own). */
export type SimProxyType = 'sidecar' | 'router' | 'waypoint' | 'ztunnel';

export interface SimProxy {
  container: Container;
  type: SimProxyType;
  /** In initContainers with restartPolicy Always (a Kubernetes sidecar container). */
  native: boolean;
  status: ContainerStatus | undefined;
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(['sidecar', 'router', 'waypoint', 'ztunnel']);

function wordsOf(c: Container): string[] {
  const list = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return [...list(c.command), ...list(c.args)];
}

/** The type pilot-agent (or ztunnel) runs as: the word after `proxy`, else `sidecar`. */
export function proxyTypeOf(c: Container): SimProxyType {
  const words = wordsOf(c);
  const at = words.indexOf('proxy');
  const next = at >= 0 ? words[at + 1] : undefined;
  if (next !== undefined && KNOWN_TYPES.has(next)) return next as SimProxyType;
  // ztunnel's own binary, whatever its arguments
  if (words.some((w) => w === 'ztunnel' || w.endsWith('/ztunnel'))) return 'ztunnel';
  return 'sidecar';
}

function containersIn(v: unknown): Container[] {
  return Array.isArray(v) ? v.filter((c): c is Container => !!c && typeof c === 'object') : [];
}

/** The pod's istio-proxy container and the proxy it runs, or undefined when it has none. */
export function simProxyOf(pod: Pod): SimProxy | undefined {
  const spec: unknown = (pod as { spec?: unknown }).spec;
  if (!spec || typeof spec !== 'object') return undefined;
  const { containers, initContainers } = spec as { containers?: unknown; initContainers?: unknown };
  const native = containersIn(initContainers).find(
    (c) => c.name === PROXY_CONTAINER && c.restartPolicy === 'Always',
  );
  const container = native ?? containersIn(containers).find((c) => c.name === PROXY_CONTAINER);
  if (!container) return undefined;
  const statuses = native ? pod.status?.initContainerStatuses : pod.status?.containerStatuses;
  return {
    container,
    type: proxyTypeOf(container),
    native: native !== undefined,
    status: (Array.isArray(statuses) ? statuses : []).find((s) => s?.name === PROXY_CONTAINER),
  };
}

/** The pod runs an Envoy the simulator answers for (sidecar, gateway or waypoint; not ztunnel). */
export function simEnvoyOf(pod: Pod): SimProxy | undefined {
  const p = simProxyOf(pod);
  return p && p.type !== 'ztunnel' ? p : undefined;
}
