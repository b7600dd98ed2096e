/**
 * What a pod's page says of the pod's past, read through the one history interfaces: the IPs
 * it held (IpHistory), its deletion, and the other pods that bore the same namespace and name
 * (a StatefulSet pod recreated, a bare pod deleted and created again), told apart by uid.
 */
import type { IpHistory } from '../ledger/ip-history';
import type { FromSource, PodInterval } from '../ledger/types';
import type { Pod } from '../kube/types';
import type { DeletedPodRecord } from '../timeline/pod-history';

/** One span during which the pod held one IP; times RFC 3339. */
export interface PodIpSpan {
  ip: string;
  from: string;
  /** How the start was found; anything but 'event' is a lower bound read off the object. */
  fromSource: FromSource;
  /** When the deletion was requested (deletionTimestamp minus the grace period). */
  deletionStartedAt: string | null;
  /** When the pod left the API; null while it holds the IP. */
  goneAt: string | null;
  /** goneAt is an estimate. */
  goneUncertain: boolean;
}

/** How a gone pod's deletion is known. */
export interface PodDeletion {
  /** When meshdx saw it go (RFC 3339); when not observed, an upper bound. */
  at: string;
  /** True when the watch saw the deletion; false when the pod vanished while not watched. */
  observed: boolean;
}

/** Another pod of the same namespace and name: deleted, or (deletion null) the live one. */
export interface PodIncarnation {
  uid: string | null;
  createdAt: string | null;
  deletion: PodDeletion | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The pod's own IPs (podIPs, else podIP), in the order the status lists them. */
export function podIpsOf(pod: Pod): string[] {
  const ips = (pod.status?.podIPs ?? []).map((p) => p.ip).filter((ip) => ip !== '');
  const single = pod.status?.podIP;
  if (single && !ips.includes(single)) ips.unshift(single);
  return ips;
}

function isThisPod(i: PodInterval, pod: Pod): boolean {
  const m = pod.metadata;
  if (m.uid && i.uid) return i.uid === m.uid;
  return i.namespace === (m.namespace ?? 'default') && i.name === m.name;
}

/**
 * The spans during which this pod (by uid when both sides know it) held each of its IPs, oldest
 * first. A hostNetwork pod holds the node's IP, never its own: it has none.
 */
export function podIpSpans(pod: Pod, history: IpHistory): PodIpSpan[] {
  if (pod.spec?.hostNetwork) return [];
  const spans: PodIpSpan[] = [];
  for (const ip of podIpsOf(pod)) {
    for (const i of history.history(ip)) {
      if (!isThisPod(i, pod)) continue;
      spans.push({
        ip,
        from: new Date(i.from).toISOString(),
        fromSource: i.fromSource,
        deletionStartedAt: iso(i.deletionStartedAt),
        goneAt: iso(i.goneAt),
        goneUncertain: i.goneUncertain,
      });
    }
  }
  return spans.sort((a, b) => a.from.localeCompare(b.from) || a.ip.localeCompare(b.ip));
}

export function deletionOf(rec: DeletedPodRecord): PodDeletion {
  return { at: rec.deletedAt, observed: !rec.uncertain };
}

/**
 * The pods of `shown`'s namespace and name other than `shown` itself: the live one first (when
 * `shown` is an earlier pod of the name), then the deleted ones, the most recently deleted first.
 */
export function otherIncarnations(
  shown: Pod,
  deleted: readonly DeletedPodRecord[],
  live: Pod | null = null,
): PodIncarnation[] {
  const ns = shown.metadata.namespace ?? 'default';
  const name = shown.metadata.name;
  const uid = shown.metadata.uid ?? null;
  const liveUid = live?.metadata.uid ?? null;
  const now: PodIncarnation[] =
    live && liveUid !== uid
      ? [{ uid: liveUid, createdAt: live.metadata.creationTimestamp ?? null, deletion: null }]
      : [];
  return now.concat(
    deleted
      .filter(
        (d) =>
          (d.pod.metadata.namespace ?? 'default') === ns &&
          d.pod.metadata.name === name &&
          (d.pod.metadata.uid ?? null) !== uid,
      )
      .sort((a, b) => b.deletedAt.localeCompare(a.deletedAt))
      .map((d) => ({
        uid: d.pod.metadata.uid ?? null,
        createdAt: d.pod.metadata.creationTimestamp ?? null,
        deletion: deletionOf(d),
      })),
  );
}
