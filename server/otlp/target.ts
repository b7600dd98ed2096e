/**
 * A cluster runtime as the receiver's target: the live pod behind a peer address (the cluster
 * cache, re-indexed by IP when its pods change), the IpHistory of the runtime's store (the
 * store's one table per interval revision, which Incidents reads too: built again only once
 * committed pod intervals changed), its failure records and its clock.
 */
import { hasProxy } from '../../lib/dataplane/proxy-container';
import type { Pod } from '../../lib/kube/types';
import { normalizeIp } from '../../lib/accesslog/address';
import type { ClusterRuntime } from '../runtime/runtime';
import type { IngestTarget } from './ingest';

export function runtimeTarget(rt: ClusterRuntime): IngestTarget {
  let indexed = -1;
  let byIp = new Map<string, Pod>();
  return {
    podByIp(ip) {
      if (indexed !== rt.cache.version) {
        const next = new Map<string, Pod>();
        for (const p of rt.cache.livePods()) {
          const ips =
            p.status?.podIPs?.map((x) => x.ip) ?? (p.status?.podIP ? [p.status.podIP] : []);
          // a hostNetwork pod shares its node's address: it says nothing about who sent
          if (p.spec?.hostNetwork) continue;
          for (const a of ips) next.set(normalizeIp(a), p);
        }
        byIp = next;
        indexed = rt.cache.version;
      }
      const p = byIp.get(normalizeIp(ip));
      if (!p) return null;
      return {
        namespace: p.metadata.namespace ?? 'default',
        name: p.metadata.name,
        uid: p.metadata.uid ?? null,
        meshed: hasProxy(p),
      };
    },
    // what is committed: an export does not commit the recorder's pending batch early
    history: () => rt.store.committedHistory(),
    failures: rt.store.failures,
    now: () => rt.now().getTime(),
  };
}
