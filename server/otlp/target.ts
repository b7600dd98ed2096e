/**
 * A cluster runtime as the receiver's target: the live pod behind a peer address (the cluster
 * cache, re-indexed by IP when its pods change), the IpHistory of the runtime's store (loaded
 * again only once its pod intervals changed, and then at most once a second, as the live tail
 * does: a reload of every interval a second cost a receiver under load more in collections than
 * in the load itself), its failure records and its clock.
 */
import { hasProxy } from '../../lib/dataplane/proxy-container';
import type { Pod } from '../../lib/kube/types';
import type { IpHistory } from '../../lib/ledger/ip-history';
import { normalizeIp } from '../../lib/accesslog/address';
import type { ClusterRuntime } from '../runtime/runtime';
import type { IngestTarget } from './ingest';

const HISTORY_TTL_MS = 1000;

export function runtimeTarget(rt: ClusterRuntime): IngestTarget {
  let indexed = -1;
  let byIp = new Map<string, Pod>();
  let history: { at: number; revision: number; h: IpHistory } | null = null;
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
    history() {
      const now = Date.now();
      if (
        !history ||
        (history.revision !== rt.store.intervalRevision && now - history.at > HISTORY_TTL_MS)
      ) {
        const h = rt.store.loadHistory();
        history = { at: now, revision: rt.store.intervalRevision, h };
      }
      return history.h;
    },
    failures: rt.store.failures,
    now: () => rt.now().getTime(),
  };
}
