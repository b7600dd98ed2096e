/**
 * Endpoints (EDS) of outbound clusters: the pod IPs behind a Service, from its EndpointSlices when
 * there are any, else from the running pods its selector picks; ServiceEntry endpoints as written.
 * Plus the stale IPs a client pod is told to keep (see annotations.ts).
 */
import type { EndpointSlice, Pod } from '../../../lib/kube/types';
import { parseStaleEndpoints } from './annotations';
import type { SimCluster } from './clusters';
import { findPort, labelsSubsetOf, selectorMatches } from './istio-model/service-targets';
import { podIp, podNamespace, versionKey, type MeshView } from './world';
import { objectKey } from '../../../lib/refs/object-ref';
import type { ShardEndpoint, XdsModel } from './istio-model/xds-push';
import { podKey } from '../../../lib/refs/pod-ref';

export interface SimEndpoint {
  address: string;
  port: number;
  healthy: boolean;
  labels?: Record<string, string>;
  pod?: { namespace: string; name: string };
  /** Kept only because of the client's stale-endpoints hook: in no EndpointSlice. */
  stale?: boolean;
}

export interface EndpointIndex {
  forCluster(cluster: SimCluster, client?: Pod): SimEndpoint[];
}

function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** The layer-delay model and the simulated time, when the scenario turned the model on. */
export type XdsNow = () => { model: XdsModel; now: number } | undefined;

function fromShard(
  eps: readonly ShardEndpoint[],
  cluster: SimCluster,
  pods: Map<string, Pod>,
): SimEndpoint[] {
  const sp = cluster.servicePort;
  return eps.map((e) => {
    const pod = e.pod ? pods.get(podKey(e.pod.namespace, e.pod.name)) : undefined;
    const port =
      e.ports[sp?.name ?? ''] ?? (sp ? findPort(pod, sp) : undefined) ?? cluster.port ?? 0;
    return { address: e.address, port, healthy: e.ready, labels: pod?.metadata.labels, pod: e.pod };
  });
}

function buildIndex(view: MeshView, xds: XdsNow): EndpointIndex {
  const slicesBySvc = new Map<string, EndpointSlice[]>();
  for (const s of view.endpointSlices) {
    const svc = s.metadata.labels?.['kubernetes.io/service-name'];
    if (!svc) continue;
    const k = objectKey(s.metadata.namespace ?? 'default', svc);
    const list = slicesBySvc.get(k) ?? [];
    list.push(s);
    slicesBySvc.set(k, list);
  }
  const podsByName = new Map<string, Pod>();
  const podsByNs = new Map<string, Pod[]>();
  for (const p of view.pods) {
    const ns = podNamespace(p);
    podsByName.set(podKey(ns, p.metadata.name), p);
    const list = podsByNs.get(ns) ?? [];
    list.push(p);
    podsByNs.set(ns, list);
  }

  function fromSlices(slices: EndpointSlice[], cluster: SimCluster): SimEndpoint[] {
    const sp = cluster.servicePort;
    const out: SimEndpoint[] = [];
    for (const slice of slices) {
      const port = slice.ports?.find((p) => (p.name ?? '') === (sp?.name ?? ''))?.port;
      for (const ep of slice.endpoints ?? []) {
        const ref = ep.targetRef;
        const pod = ref?.name
          ? podsByName.get(podKey(ref.namespace ?? slice.metadata.namespace ?? '', ref.name))
          : undefined;
        const target = port ?? (sp ? findPort(pod, sp) : undefined) ?? cluster.port ?? 0;
        for (const address of ep.addresses ?? []) {
          out.push({
            address,
            port: target,
            healthy: ep.conditions?.ready !== false,
            labels: pod?.metadata.labels,
            pod: ref?.name
              ? { namespace: ref.namespace ?? slice.metadata.namespace ?? '', name: ref.name }
              : undefined,
          });
        }
      }
    }
    return out;
  }

  function fromPods(cluster: SimCluster): SimEndpoint[] {
    const svc = cluster.service;
    if (!svc?.selector) return [];
    const out: SimEndpoint[] = [];
    for (const pod of podsByNs.get(svc.namespace) ?? []) {
      const ip = podIp(pod);
      if (
        !ip ||
        pod.metadata.deletionTimestamp ||
        !selectorMatches(svc.selector, pod.metadata.labels)
      )
        continue;
      const target = cluster.servicePort ? findPort(pod, cluster.servicePort) : cluster.port;
      if (target === undefined) continue;
      out.push({
        address: ip,
        port: target,
        healthy: isReady(pod),
        labels: pod.metadata.labels,
        pod: { namespace: svc.namespace, name: pod.metadata.name },
      });
    }
    return out;
  }

  function fromServiceEntry(cluster: SimCluster): SimEndpoint[] {
    const svc = cluster.service;
    if (!svc || cluster.port === undefined) return [];
    const se = view.serviceEntries.find(
      (s) => s.metadata.name === svc.name && (s.metadata.namespace ?? 'default') === svc.namespace,
    );
    const raw: unknown = (se?.spec as { endpoints?: unknown } | undefined)?.endpoints;
    const eps = Array.isArray(raw) ? raw : [];
    if (eps.length === 0 && cluster.type === 'STRICT_DNS')
      return [{ address: svc.hostname, port: cluster.port, healthy: true }];
    const out: SimEndpoint[] = [];
    for (const e of eps) {
      if (!e || typeof e !== 'object') continue;
      const ep = e as { address?: unknown; ports?: unknown; labels?: unknown };
      if (typeof ep.address !== 'string') continue;
      const ports =
        ep.ports && typeof ep.ports === 'object' ? (ep.ports as Record<string, unknown>) : {};
      const mapped = cluster.servicePort?.name ? ports[cluster.servicePort.name] : undefined;
      const port =
        typeof mapped === 'number'
          ? mapped
          : ((cluster.servicePort?.targetPort as number | undefined) ?? cluster.port);
      out.push({
        address: ep.address,
        port: typeof port === 'number' ? port : cluster.port,
        healthy: true,
        labels:
          ep.labels && typeof ep.labels === 'object'
            ? (ep.labels as Record<string, string>)
            : undefined,
      });
    }
    return out;
  }

  return {
    forCluster(cluster, client) {
      if (cluster.direction !== 'outbound' || !cluster.service || cluster.type === 'ORIGINAL_DST')
        return [];
      const svc = cluster.service;
      let eps: SimEndpoint[];
      if (svc.registry === 'External') eps = fromServiceEntry(cluster);
      else {
        const key = objectKey(svc.namespace, svc.name);
        const slices = slicesBySvc.get(key);
        const timed = xds();
        // the client's Envoy holds what it ACKed last, not what the EndpointSlice says now
        const acked =
          timed && client ? timed.model.ackedEndpoints(client, key, timed.now) : undefined;
        eps =
          acked !== undefined
            ? fromShard(acked, cluster, podsByName)
            : slices && slices.length > 0
              ? fromSlices(slices, cluster)
              : fromPods(cluster);
      }
      if (cluster.subsetLabels) {
        const sel = cluster.subsetLabels;
        eps = eps.filter((e) => labelsSubsetOf(sel, e.labels));
      }
      if (client) {
        const known = new Set(eps.map((e) => e.address));
        for (const s of parseStaleEndpoints(client).stale) {
          if (
            s.host !== svc.hostname ||
            (s.port !== undefined && s.port !== cluster.port) ||
            known.has(s.ip)
          )
            continue;
          known.add(s.ip);
          eps.push({
            address: s.ip,
            port: eps[0]?.port ?? cluster.port ?? 0,
            healthy: true,
            stale: true,
          });
        }
      }
      return eps;
    },
  };
}

/** Rebuilds the index only when pods, endpoint slices or service entries changed. */
export function createEndpointIndexCache(xds: XdsNow = () => undefined): {
  get(view: MeshView): EndpointIndex;
} {
  let key = '';
  let index: EndpointIndex | undefined;
  return {
    get(view) {
      const k = versionKey([view.pods, view.endpointSlices, view.serviceEntries]);
      if (!index || k !== key) {
        index = buildIndex(view, xds);
        key = k;
      }
      return index;
    },
  };
}
