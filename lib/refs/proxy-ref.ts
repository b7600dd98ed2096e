/**
 * A proxy reference: an Istio proxy is named by the pod it runs in (`ns/name`, proxyKey), and
 * on the wire by its Envoy node id, `TYPE~IP~NAME.NS~NS.svc.cluster.local`
 * (istio/istio pkg/model: `sidecar~10.244.0.12~details-v1-79f774bdb9-6hxw6.default~default.svc.cluster.local`).
 *
 * The type is `sidecar` (classic or native sidecar), `router` (a gateway), `waypoint` (an
 * ambient waypoint) or `ztunnel` (ambient's node proxy: it speaks xDS with this node id, but it
 * is not Envoy and not the proxy of any pod: isEnvoyNode says false for it).
 * Namespaces are DNS labels (no dots), so the pod part splits at its last dot.
 */
import { RefError, nameProblem, namespaceProblem } from './ref-error';
import { podDotted, podKey, type PodRef } from './pod-ref';

export const NODE_TYPES = ['sidecar', 'router', 'waypoint', 'ztunnel'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export interface NodeId {
  readonly type: NodeType;
  readonly ip: string;
  readonly pod: PodRef;
  /** DNS domain, `NS.svc.cluster.local` for a Kubernetes pod. */
  readonly domain: string;
}

const EXPECTED = 'Envoy node id';

/** A proxy is known by its pod: `ns/name`. */
export function proxyKey(ref: PodRef): string {
  return podKey(ref.namespace, ref.name);
}

/** The domain Istio writes for a pod of `namespace` (`ns.svc.cluster.local`). */
export function podDomain(namespace: string, clusterDomain = 'cluster.local'): string {
  return namespace + '.svc.' + clusterDomain;
}

/** `TYPE~IP~NAME.NS~DOMAIN`; the domain defaults to the pod namespace's. */
export function formatNodeId(n: {
  type: NodeType;
  ip: string;
  pod: PodRef;
  domain?: string;
}): string {
  return [n.type, n.ip, podDotted(n.pod), n.domain ?? podDomain(n.pod.namespace)].join('~');
}

function isNodeType(t: string): t is NodeType {
  return (NODE_TYPES as readonly string[]).includes(t);
}

/** Reads an Envoy node id; throws a RefError naming the problem. */
export function parseNodeId(id: string): NodeId {
  const parts = id.split('~');
  if (parts.length !== 4)
    throw new RefError(
      id,
      EXPECTED,
      `expected TYPE~IP~NAME.NAMESPACE~DOMAIN, found ${parts.length} part(s)`,
    );
  const [type = '', ip = '', podPart = '', domain = ''] = parts;
  if (!isNodeType(type))
    throw new RefError(
      id,
      EXPECTED,
      `type ${JSON.stringify(type)} is none of ${NODE_TYPES.join(', ')}`,
    );
  if (ip === '') throw new RefError(id, EXPECTED, 'the IP is empty');
  const dot = podPart.lastIndexOf('.');
  if (dot < 0)
    throw new RefError(id, EXPECTED, `pod part ${JSON.stringify(podPart)} has no ".NAMESPACE"`);
  const namespace = podPart.slice(dot + 1);
  const name = podPart.slice(0, dot);
  const why = namespaceProblem(namespace) ?? nameProblem(name);
  if (why) throw new RefError(id, EXPECTED, why);
  if (domain === '') throw new RefError(id, EXPECTED, 'the domain is empty');
  return { type, ip, pod: { namespace, name }, domain };
}

/** parseNodeId, or null when the text is not a node id. */
export function tryParseNodeId(id: string): NodeId | null {
  try {
    return parseNodeId(id);
  } catch (e) {
    if (e instanceof RefError) return null;
    throw e;
  }
}

/** Whether the node is an Envoy proxy of its pod (a ztunnel is not). */
export function isEnvoyNode(n: NodeId): boolean {
  return n.type !== 'ztunnel';
}
