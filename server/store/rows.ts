import type { Pod } from '../../lib/kube/types';
import type { FromSource, PodInterval } from '../../lib/ledger/types';
import { podIdKey } from '../../lib/refs/pod-ref';

/** A pod_intervals row as SQLite returns it. */
export interface IntervalRow {
  pod_key: string;
  ip: string;
  namespace: string;
  name: string;
  uid: string | null;
  owner_kind: string | null;
  owner_name: string | null;
  node: string | null;
  from: number;
  from_source: string;
  deletion_started_at: number | null;
  grace_ends_at: number | null;
  gone_at: number | null;
  gone_uncertain: number;
  last_seen_at: number | null;
}

const FROM_SOURCES: readonly FromSource[] = [
  'event',
  'startTime',
  'condition',
  'creationTimestamp',
];

export function toFromSource(s: string): FromSource {
  return (FROM_SOURCES as readonly string[]).includes(s) ? (s as FromSource) : 'creationTimestamp';
}

export function intervalFromRow(r: IntervalRow): PodInterval {
  return {
    ip: r.ip,
    namespace: r.namespace,
    name: r.name,
    uid: r.uid,
    owner: r.owner_kind && r.owner_name ? { kind: r.owner_kind, name: r.owner_name } : null,
    node: r.node,
    from: r.from,
    fromSource: toFromSource(r.from_source),
    deletionStartedAt: r.deletion_started_at,
    graceEndsAt: r.grace_ends_at,
    goneAt: r.gone_at,
    goneUncertain: r.gone_uncertain !== 0,
    lastSeenAt: r.last_seen_at,
  };
}

export function intervalToRow(podKey: string, i: PodInterval): IntervalRow {
  return {
    pod_key: podKey,
    ip: i.ip,
    namespace: i.namespace,
    name: i.name,
    uid: i.uid,
    owner_kind: i.owner?.kind ?? null,
    owner_name: i.owner?.name ?? null,
    node: i.node,
    from: i.from,
    from_source: i.fromSource,
    deletion_started_at: i.deletionStartedAt,
    grace_ends_at: i.graceEndsAt,
    gone_at: i.goneAt,
    gone_uncertain: i.goneUncertain ? 1 : 0,
    last_seen_at: i.lastSeenAt,
  };
}

/** The store's key of a pod: its uid, or namespace/name for objects without one. */
export function storePodKey(
  uid: string | null | undefined,
  namespace: string,
  name: string,
): string {
  return podIdKey({ uid, namespace, name });
}

/** The pod without metadata.managedFields (large, and of no use to meshdx). */
/**
 * A pod as the store keeps it: the object's JSON without managedFields and without its spec, and
 * the spec apart (stored once per distinct spec, by hash).
 */
export function splitPod(pod: Pod): { object: string; spec: Pod['spec'] | null } {
  const { spec, ...rest } = withoutManagedFields(pod);
  return { object: JSON.stringify(rest), spec: spec ?? null };
}

/**
 * The parts of a pod spec that an update of the same pod may change, serialised: the API server
 * refuses any other change to a pod's spec (ValidatePodUpdate: images, activeDeadlineSeconds,
 * added tolerations, terminationGracePeriodSeconds, scheduling gates removed; nodeName by the
 * binding, ephemeralContainers and container resources by their subresources). Equal values mean
 * an equal spec for the same pod uid, so the whole spec need not be serialised again.
 */
export function mutableSpecFields(spec: NonNullable<Pod['spec']>): string {
  const s = spec as NonNullable<Pod['spec']> & Record<string, unknown>;
  const containers = (list: unknown) =>
    Array.isArray(list)
      ? list.map((c: { image?: unknown; resources?: unknown }) => [c.image, c.resources])
      : null;
  return JSON.stringify([
    s.nodeName,
    containers(s.containers),
    containers(s.initContainers),
    s.ephemeralContainers,
    s.activeDeadlineSeconds,
    s.tolerations,
    s.terminationGracePeriodSeconds,
    s.schedulingGates,
  ]);
}

/** The stored pod again: the object with its spec put back in its usual place (before status). */
export function joinPodJson(object: string, spec: string | null): unknown {
  const obj = JSON.parse(object) as unknown;
  if (spec === null || typeof obj !== 'object' || obj === null || Array.isArray(obj)) return obj;
  const { status, ...rest } = obj as Record<string, unknown>;
  const joined: Record<string, unknown> = { ...rest, spec: JSON.parse(spec) as unknown };
  if (status !== undefined) joined.status = status;
  return joined;
}

export function withoutManagedFields(pod: Pod): Pod {
  if (!pod.metadata || !('managedFields' in pod.metadata)) return pod;
  const { managedFields: _drop, ...metadata } = pod.metadata as Pod['metadata'] & {
    managedFields?: unknown;
  };
  return { ...pod, metadata };
}
