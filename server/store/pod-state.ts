import type { JsonObject } from '../../lib/json-object';
import { asObj, time } from '../../lib/ledger/observation';

/** One watched value of a pod: a pod-level field (container null) or a container's. */
export interface StateEntry {
  container: string | null;
  field: string;
  value: string;
  /** A time the object itself gives for this value (lastTransitionTime, startedAt...). */
  reportedAt: number | null;
}

/** The watched values of one pod version, keyed by container and field. */
export type PodState = Map<string, StateEntry>;

/** One change between two versions of a pod. */
export interface StateChange {
  container: string | null;
  field: string;
  oldValue: string | null;
  newValue: string | null;
  reportedAt: number | null;
}

const CONTAINER_LISTS = [
  'initContainerStatuses',
  'containerStatuses',
  'ephemeralContainerStatuses',
];

/**
 * The values whose changes meshdx records: phase, each condition's status, the deletion
 * timestamp, and per container ready, started, state and restartCount.
 */
export function podState(pod: unknown): PodState {
  const out: PodState = new Map();
  const put = (container: string | null, field: string, value: string, at: number | null) =>
    out.set(stateKey(container, field), { container, field, value, reportedAt: at });
  const obj = asObj(pod);
  const meta = asObj(obj?.metadata);
  const status = asObj(obj?.status) ?? {};
  if (typeof status.phase === 'string') put(null, 'phase', status.phase, null);
  if (typeof meta?.deletionTimestamp === 'string')
    put(null, 'deletionTimestamp', meta.deletionTimestamp, time(meta.deletionTimestamp));
  if (Array.isArray(status.conditions)) {
    for (const c of status.conditions.map(asObj)) {
      if (c && typeof c.type === 'string' && typeof c.status === 'string')
        put(null, `condition:${c.type}`, c.status, time(c.lastTransitionTime));
    }
  }
  for (const list of CONTAINER_LISTS) {
    const statuses = status[list];
    if (!Array.isArray(statuses)) continue;
    for (const cs of statuses.map(asObj)) {
      if (!cs || typeof cs.name !== 'string') continue;
      if (typeof cs.ready === 'boolean') put(cs.name, 'ready', String(cs.ready), null);
      if (typeof cs.started === 'boolean') put(cs.name, 'started', String(cs.started), null);
      if (typeof cs.restartCount === 'number') {
        const last = asObj(asObj(cs.lastState)?.terminated);
        put(cs.name, 'restartCount', String(cs.restartCount), time(last?.finishedAt));
      }
      const state = describeState(asObj(cs.state));
      if (state) put(cs.name, 'state', state.value, state.at);
    }
  }
  return out;
}

/** running | waiting:REASON | terminated:REASON:EXITCODE, with the time the state gives. */
export function describeState(
  state: JsonObject | null,
): { value: string; at: number | null } | null {
  if (!state) return null;
  const running = asObj(state.running);
  if (running) return { value: 'running', at: time(running.startedAt) };
  const terminated = asObj(state.terminated);
  if (terminated) {
    const reason = typeof terminated.reason === 'string' ? terminated.reason : '';
    const code = typeof terminated.exitCode === 'number' ? terminated.exitCode : '';
    return { value: `terminated:${reason}:${code}`, at: time(terminated.finishedAt) };
  }
  const waiting = asObj(state.waiting);
  if (waiting) {
    const reason = typeof waiting.reason === 'string' ? waiting.reason : '';
    return { value: `waiting:${reason}`, at: null };
  }
  return null;
}

/** What changed from `prev` to `next`; with no `prev` (first sighting) every value is new. */
export function diffStates(prev: PodState | null, next: PodState): StateChange[] {
  const out: StateChange[] = [];
  for (const [key, e] of next) {
    const old = prev?.get(key);
    if (old?.value === e.value) continue;
    out.push({
      container: e.container,
      field: e.field,
      oldValue: old?.value ?? null,
      newValue: e.value,
      reportedAt: e.reportedAt,
    });
  }
  if (prev) {
    for (const [key, e] of prev) {
      if (next.has(key)) continue;
      out.push({
        container: e.container,
        field: e.field,
        oldValue: e.value,
        newValue: null,
        reportedAt: null,
      });
    }
  }
  return out;
}

function stateKey(container: string | null, field: string): string {
  return `${container ?? ''}|${field}`;
}
