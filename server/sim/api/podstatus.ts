import type { ContainerStatus, Pod } from '../../../lib/kube/types';
import { podSpec } from '../store/podshape';
import { humanDuration } from './duration';

function exitReason(prefix: string, t: { reason?: string; signal?: number; exitCode: number }) {
  if (t.reason !== undefined && t.reason !== '') return `${prefix}${t.reason}`;
  if (t.signal !== undefined && t.signal !== 0) return `${prefix}Signal:${t.signal}`;
  return `${prefix}ExitCode:${t.exitCode}`;
}

/** The STATUS column as kubectl's pod printer derives it. */
export function podStatusCell(pod: Pod): string {
  const st = pod.status ?? {};
  let reason = st.reason ?? st.phase ?? '';
  const restartable = new Set(
    (podSpec(pod).initContainers ?? [])
      .filter((c) => c.restartPolicy === 'Always')
      .map((c) => c.name),
  );
  const inits = st.initContainerStatuses ?? [];
  let initializing = false;
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i] as ContainerStatus;
    const term = c.state?.terminated;
    if (term !== undefined && term.exitCode === 0) continue;
    if (restartable.has(c.name) && c.started === true) continue;
    if (term !== undefined) reason = exitReason('Init:', term);
    else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') {
      reason = `Init:${c.state.waiting.reason}`;
    } else reason = `Init:${i}/${podSpec(pod).initContainers?.length ?? inits.length}`;
    initializing = true;
    break;
  }
  if (!initializing) {
    let hasRunning = false;
    const statuses = [...(st.containerStatuses ?? [])].reverse();
    for (const c of statuses) {
      const w = c.state?.waiting;
      const t = c.state?.terminated;
      if (w?.reason) reason = w.reason;
      else if (t !== undefined) reason = t.reason ? t.reason : exitReason('', t);
      else if (c.ready && c.state?.running !== undefined) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) {
      const ready = st.conditions?.find((x) => x.type === 'Ready')?.status === 'True';
      reason = ready ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata.deletionTimestamp !== undefined) {
    reason = st.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  }
  return reason;
}

/** READY "ready/total", counting native sidecars (restartable init containers) as kubectl does. */
export function podReadyCell(pod: Pod): string {
  const restartable = new Set(
    (podSpec(pod).initContainers ?? [])
      .filter((c) => c.restartPolicy === 'Always')
      .map((c) => c.name),
  );
  const total = podSpec(pod).containers.length + restartable.size;
  const statuses = [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []).filter((c) => restartable.has(c.name)),
  ];
  return `${statuses.filter((c) => c.ready).length}/${total}`;
}

/** RESTARTS, with "(5m ago)" after the most recent container termination. */
export function podRestartsCell(pod: Pod, now: Date): string {
  const statuses = [
    ...(pod.status?.initContainerStatuses ?? []),
    ...(pod.status?.containerStatuses ?? []),
  ];
  let restarts = 0;
  let last = Number.NaN;
  for (const c of statuses) {
    restarts += c.restartCount;
    const f = Date.parse(c.lastState?.terminated?.finishedAt ?? '');
    if (c.restartCount > 0 && !Number.isNaN(f) && !(f <= last)) last = f;
  }
  return Number.isNaN(last)
    ? String(restarts)
    : `${restarts} (${humanDuration(now.getTime() - last)} ago)`;
}
