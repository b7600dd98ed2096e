import { normalizeIp } from '../accesslog/address';
import type { PodObservation } from './types';
import { asJsonObject, type JsonObject } from '../json-object';
import { parseTime } from '../utc-time';

export const asObj = asJsonObject;

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function time(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = parseTime(value);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Reads the fields meshdx needs from a Pod object of unknown shape. Returns an error string
 * when it is not a usable Pod (no metadata.name).
 */
export function observePod(value: unknown): PodObservation | string {
  const pod = asObj(value);
  if (!pod) return 'not an object';
  const meta = asObj(pod.metadata);
  const name = str(meta?.name);
  if (!meta || !name) return 'pod without metadata.name';
  const spec = asObj(pod.spec) ?? {};
  const status = asObj(pod.status) ?? {};
  const ips = new Set<string>();
  const podIP = str(status.podIP);
  if (podIP) ips.add(normalizeIp(podIP));
  if (Array.isArray(status.podIPs)) {
    for (const entry of status.podIPs) {
      const ip = str(asObj(entry)?.ip);
      if (ip) ips.add(normalizeIp(ip));
    }
  }
  const times = collectStatusTimes(status);
  const conditionTimes = conditionsOf(status)
    .map((c) => time(c.lastTransitionTime))
    .filter((t): t is number => t !== null);
  return {
    namespace: str(meta.namespace) ?? 'default',
    name,
    uid: str(meta.uid),
    ips: [...ips],
    hostNetwork: spec.hostNetwork === true,
    node: str(spec.nodeName),
    owner: ownerOf(meta),
    creationTimestamp: time(meta.creationTimestamp),
    startTime: time(status.startTime),
    firstConditionTime: conditionTimes.length ? Math.min(...conditionTimes) : null,
    latestTime: times.length ? Math.max(...times) : null,
    exitedAt: lastExit(status),
    deletionTimestamp: time(meta.deletionTimestamp),
    deletionGracePeriodSeconds: num(meta.deletionGracePeriodSeconds),
    terminationGracePeriodSeconds: num(spec.terminationGracePeriodSeconds),
  };
}

function ownerOf(meta: JsonObject): { kind: string; name: string } | null {
  if (!Array.isArray(meta.ownerReferences)) return null;
  const refs = meta.ownerReferences.map(asObj).filter((r): r is JsonObject => r !== null);
  const ref = refs.find((r) => r.controller === true) ?? refs[0];
  const kind = str(ref?.kind);
  const name = str(ref?.name);
  return kind && name ? { kind, name } : null;
}

function conditionsOf(status: JsonObject): JsonObject[] {
  return Array.isArray(status.conditions)
    ? status.conditions.map(asObj).filter((c): c is JsonObject => c !== null)
    : [];
}

/**
 * The latest time anywhere in a pod's status (not its deletion), or null: what a watcher
 * cannot have seen the pod before.
 */
export function latestStatusTime(pod: unknown): number | null {
  const times = collectStatusTimes(asObj(asObj(pod)?.status) ?? {});
  return times.length ? Math.max(...times) : null;
}

/** The last finishedAt when every app container is terminated; null while any is not. */
function lastExit(status: JsonObject): number | null {
  const list = status.containerStatuses;
  if (!Array.isArray(list) || list.length === 0) return null;
  let last = -Infinity;
  for (const cs of list) {
    const finished = time(asObj(asObj(asObj(cs)?.state)?.terminated)?.finishedAt);
    if (finished === null) return null;
    last = Math.max(last, finished);
  }
  return last;
}

/** Every timestamp in the status: start, conditions, container states (current and last). */
function collectStatusTimes(status: JsonObject): number[] {
  const out: number[] = [];
  const push = (v: unknown) => {
    const t = time(v);
    if (t !== null) out.push(t);
  };
  push(status.startTime);
  for (const c of conditionsOf(status)) push(c.lastTransitionTime);
  for (const key of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) {
    const list = status[key];
    if (!Array.isArray(list)) continue;
    for (const cs of list) {
      const c = asObj(cs);
      for (const stateKey of ['state', 'lastState']) {
        const state = asObj(c?.[stateKey]);
        push(asObj(state?.running)?.startedAt);
        const term = asObj(state?.terminated);
        push(term?.startedAt);
        push(term?.finishedAt);
      }
    }
  }
  return out;
}
