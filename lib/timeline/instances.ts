/**
 * The instances of a pod's containers, as the status shows them, and how each one ended. A
 * container status holds at most two instances (`lastState.terminated`, the previous run, and
 * `state`, the current one); `restartCount` says how many came before. An instance ends in one
 * of these ways, told apart by evidence, never by the exit code alone:
 * - `pod-restart`: the app and the proxy ended within seconds of each other and started again (a
 *   node or container-runtime restart: exit 255 reason Unknown; an OOM of the pod; a new
 *   sandbox, which also runs the init containers again);
 * - `shutdown`: it ended after the pod's deletion started (SIGTERM, or SIGKILL at the deadline);
 * - `early-exit`: a failure within the first seconds of the run (what a start race looks like);
 * - `crash`: the app alone failed after its first seconds (or was OOM-killed alone);
 * - `completed`: it exited 0 (and, restarted, ran again).
 * Gaps between an app start and its proxy's readiness are measured inside one instance of the
 * pod: after a pod restart, the runs before it belong to another instance.
 */
import type { ContainerStatus, ContainerStateTerminated, Pod } from '../kube/types';
import { toMs } from './time';

export type InstanceEnd =
  'running' | 'waiting' | 'pod-restart' | 'shutdown' | 'early-exit' | 'crash' | 'completed';

export interface ContainerInstance {
  container: string;
  role: 'init' | 'proxy' | 'app';
  /** Run number, 0 for the first; the current run is `restartCount`. */
  run: number;
  startedAt: number | null;
  finishedAt: number | null;
  exitCode: number | null;
  reason: string | null;
  /** The signal an exit code above 128 stands for, when it is one of the usual two. */
  signal: 'SIGKILL' | 'SIGTERM' | null;
  end: InstanceEnd;
}

/** App and proxy that ended within this of each other ended together (one cause). */
export const TOGETHER_MS = 10_000;

/** A failing run that ended this soon after its start failed at start. */
export const EARLY_EXIT_MS = 30_000;

export type PodRestartCause = 'node-restart' | 'oom' | 'sandbox' | 'eviction';

/** A restart (or end) that took the app and the proxy together. */
export interface PodRestart {
  cause: PodRestartCause;
  /** When the earlier instance ended (the latest finishedAt of the containers), ms. */
  at: number | null;
  containers: string[];
  exitCodes: string;
  reasons: string;
  /** The init containers ran again after it (a new pod sandbox). */
  initReran: boolean;
}

export interface PodLifecycle {
  instances: ContainerInstance[];
  podRestart: PodRestart | null;
  /** When the pod's deletion started (deletionTimestamp minus its grace), ms. */
  deletionStartedAt: number | null;
}

export function signalOf(exitCode: number | null): ContainerInstance['signal'] {
  if (exitCode === 137) return 'SIGKILL';
  if (exitCode === 143) return 'SIGTERM';
  return null;
}

export function deletionStartMs(pod: Pod): number | null {
  const deadline = toMs(pod.metadata.deletionTimestamp);
  if (deadline === null) return null;
  const grace =
    pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
  return deadline - grace * 1000;
}

function durationMs(t: ContainerStateTerminated): number | null {
  const s = toMs(t.startedAt);
  const f = toMs(t.finishedAt);
  return s === null || f === null ? null : f - s;
}

/** How one finished run ended, apart from a pod restart (decided across containers). */
function endOf(
  t: ContainerStateTerminated,
  deletionStartedAt: number | null,
): Exclude<InstanceEnd, 'running' | 'waiting' | 'pod-restart'> {
  const f = toMs(t.finishedAt);
  if (deletionStartedAt !== null && f !== null && f >= deletionStartedAt - 1000) return 'shutdown';
  if (t.exitCode === 0) return 'completed';
  if (t.reason === 'OOMKilled') return 'crash';
  const d = durationMs(t);
  // without both times the run's length is not known: a failure is taken as one at start
  return d === null || (d >= 0 && d <= EARLY_EXIT_MS) ? 'early-exit' : 'crash';
}

function instancesOf(
  cs: ContainerStatus,
  role: ContainerInstance['role'],
  deletionStartedAt: number | null,
): ContainerInstance[] {
  const out: ContainerInstance[] = [];
  const restarts = cs.restartCount ?? 0;
  const of = (t: ContainerStateTerminated, run: number): ContainerInstance => ({
    container: cs.name,
    role,
    run,
    startedAt: toMs(t.startedAt),
    finishedAt: toMs(t.finishedAt),
    exitCode: t.exitCode,
    reason: t.reason ?? null,
    signal: signalOf(t.exitCode),
    end: endOf(t, deletionStartedAt),
  });
  const last = cs.lastState?.terminated;
  if (last && restarts > 0) out.push(of(last, restarts - 1));
  const cur = cs.state;
  if (cur?.terminated) out.push(of(cur.terminated, restarts));
  else if (cur?.running) {
    out.push({
      container: cs.name,
      role,
      run: restarts,
      startedAt: toMs(cur.running.startedAt),
      finishedAt: null,
      exitCode: null,
      reason: null,
      signal: null,
      end: 'running',
    });
  } else if (cur?.waiting) {
    out.push({
      container: cs.name,
      role,
      run: restarts,
      startedAt: null,
      finishedAt: null,
      exitCode: null,
      reason: cur.waiting.reason ?? null,
      signal: null,
      end: 'waiting',
    });
  }
  return out;
}

function causeOf(ended: readonly ContainerInstance[]): PodRestartCause {
  if (ended.some((i) => i.reason === 'OOMKilled')) return 'oom';
  if (ended.some((i) => i.exitCode === 255 || i.reason === 'Unknown')) return 'node-restart';
  return 'sandbox';
}

/**
 * The last restart that took the app and the proxy together: both restarted and their earlier
 * runs ended within TOGETHER_MS of each other (or an app restarted and the init containers ran
 * after its earlier run ended: a new sandbox).
 */
function podRestartOf(
  instances: readonly ContainerInstance[],
  initStarts: readonly number[],
): PodRestart | null {
  const earlier = instances.filter((i) => i.end !== 'running' && i.end !== 'waiting');
  const apps = earlier.filter((i) => i.role === 'app' && i.finishedAt !== null);
  const proxies = earlier.filter((i) => i.role === 'proxy' && i.finishedAt !== null);
  const restartedApps = apps.filter((a) =>
    instances.some((n) => n.container === a.container && n.run > a.run),
  );
  for (const a of restartedApps) {
    const end = a.finishedAt as number;
    const proxy = proxies.find(
      (p) =>
        Math.abs((p.finishedAt as number) - end) <= TOGETHER_MS &&
        instances.some((n) => n.container === p.container && n.run > p.run),
    );
    // an init container runs before the apps of its sandbox: one that started after the
    // app's run ended started a new sandbox
    const initReran = initStarts.some((s) => s > end);
    if (!proxy && !initReran) continue;
    const ended = [
      a,
      ...(proxy ? [proxy] : []),
      ...restartedApps.filter(
        (o) => o !== a && Math.abs((o.finishedAt as number) - end) <= TOGETHER_MS,
      ),
    ];
    return {
      cause: causeOf(ended),
      at: Math.max(...ended.map((i) => i.finishedAt as number)),
      containers: ended.map((i) => i.container),
      exitCodes: ended.map((i) => `${i.container}=${i.exitCode ?? '?'}`).join(' '),
      reasons: ended.map((i) => `${i.container}=${i.reason ?? '-'}`).join(' '),
      initReran,
    };
  }
  return null;
}

/** Every visible instance of the pod's containers, and a restart that took them together. */
export function podLifecycle(pod: Pod, proxyName: string | null): PodLifecycle {
  const deletionStartedAt = deletionStartMs(pod);
  const status = pod.status;
  const initNames = new Set((pod.spec.initContainers ?? []).map((c) => c.name));
  const instances: ContainerInstance[] = [];
  for (const cs of status?.initContainerStatuses ?? []) {
    const role = cs.name === proxyName ? 'proxy' : 'init';
    instances.push(...instancesOf(cs, role, deletionStartedAt));
  }
  for (const cs of status?.containerStatuses ?? []) {
    if (initNames.has(cs.name)) continue;
    const role = cs.name === proxyName ? 'proxy' : 'app';
    instances.push(...instancesOf(cs, role, deletionStartedAt));
  }
  // init containers that are not the proxy run once per sandbox: a start after an app's
  // earlier run ended means the pod's sandbox was made anew
  const initStarts = instances
    .filter((i) => i.role === 'init' && i.startedAt !== null)
    .map((i) => i.startedAt as number);
  const restart = podRestartOf(instances, initStarts);
  if (restart) {
    for (const i of instances) {
      if (
        i.finishedAt !== null &&
        restart.containers.includes(i.container) &&
        Math.abs(i.finishedAt - (restart.at as number)) <= TOGETHER_MS &&
        i.end !== 'running'
      )
        i.end = 'pod-restart';
    }
  }
  const evicted = status?.reason === 'Evicted';
  return {
    instances,
    podRestart:
      restart ??
      (evicted
        ? {
            cause: 'eviction',
            at: null,
            containers: instances.filter((i) => i.role !== 'init').map((i) => i.container),
            exitCodes: '',
            reasons: `pod=${status?.message ?? 'Evicted'}`,
            initReran: false,
          }
        : null),
    deletionStartedAt,
  };
}

/** A short text for how an instance ended, for a chart's label. */
export function endText(i: ContainerInstance, restart: PodRestart | null): string {
  const code = i.exitCode === null ? '' : `exit ${i.exitCode}${i.reason ? ` ${i.reason}` : ''}`;
  switch (i.end) {
    case 'pod-restart':
      return `${code}: ${restart ? RESTART_TEXT[restart.cause] : 'restarted with the pod'}`;
    case 'shutdown':
      return `${code}: at shutdown${i.signal ? ` (${i.signal})` : ''}`;
    case 'early-exit':
      return `${code}: failed at start`;
    case 'crash':
      return `${code}: crashed`;
    case 'completed':
      return code;
    default:
      return i.end;
  }
}

export const RESTART_TEXT: Readonly<Record<PodRestartCause, string>> = {
  'node-restart': 'node or container runtime restart (app and proxy together)',
  oom: 'out of memory (app and proxy together)',
  sandbox: 'pod sandbox re-created (app and proxy together)',
  eviction: 'pod evicted',
};
