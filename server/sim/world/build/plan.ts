import type { PodTemplate } from './podspec';
import type { SimNode } from './nodes';
import type { Ids } from './ids';
import { PROXY_CONTAINER } from './proxy';

/** One container's life in a pod plan; all times are epoch ms of the simulated clock. */
export interface ContainerRun {
  name: string;
  image: string;
  kind: 'init' | 'sidecar' | 'app';
  isProxy: boolean;
  startAt: number;
  /** Run-to-completion init containers. */
  completeAt?: number;
  /** When the kubelet marks the container ready (for the proxy: its first passing probe). */
  readyAt?: number;
  /**
   * istio-proxy only: when Envoy itself is ready (what pilot-agent wait and a wrapper's poll of
   * :15021 see). The kubelet's readiness probe notices at its next tick, `readyAt`.
   */
  envoyReadyAt?: number;
  /**
   * The image's first pull failed at `failedAt` (ErrImagePull, then ImagePullBackOff from
   * `backoffAt`) and was retried at `retryAt`; the container started once that pull finished.
   */
  pull?: { at: number; failedAt: number; backoffAt: number; retryAt: number };
  /** The first run crashed (lastState.terminated) and the container was restarted. */
  crash?: { at: number; restartAt: number; exitCode: number };
  /** Termination: when the container exits and how. */
  exitAt?: number;
  exitCode?: number;
  containerId: string;
  restartedId?: string;
  /** Times the readiness (or startup) probe failed before readyAt, for Unhealthy events. */
  probeFailures: number[];
  probe: 'Readiness' | 'Startup';
}

/** A pod's whole life: start sequence, and (once planned) its termination. */
export interface PodPlan {
  name: string;
  namespace: string;
  uid: string;
  ip: string;
  node: SimNode;
  createdAt: number;
  sandboxAt: number;
  initializedAt: number;
  inits: ContainerRun[];
  containers: ContainerRun[];
  grace: number;
  deleteAt?: number;
  removeAt?: number;
  /** The app's preStop hook did not finish within the grace period. */
  preStopFailed?: string;
  /**
   * A volume the kubelet cannot mount (its ConfigMap does not exist): no sandbox, no container
   * ever starts, the pod stays Pending in ContainerCreating and reports FailedMount.
   */
  blocked?: { volume: string; configMap: string };
}

/** A moment that never comes: when the containers of a blocked pod start. */
export const NEVER = Number.POSITIVE_INFINITY;

/** How long a successful image pull takes in the simulation. */
export const PULL_MS = 900;

export interface StartTiming {
  t0: number;
  proxyReadyMs: number;
  race: boolean;
}

function run(
  ids: Ids,
  name: string,
  image: string | undefined,
  kind: ContainerRun['kind'],
  startAt: number,
): ContainerRun {
  return {
    name,
    image: image ?? '',
    kind,
    isProxy: name === PROXY_CONTAINER,
    startAt,
    containerId: ids.containerId(),
    probeFailures: [],
    probe: 'Readiness',
  };
}

/** Probe failures every `periodMs` from `from` (after `initialMs`) until `readyAt`. */
function failures(from: number, readyAt: number, initialMs: number, periodMs: number): number[] {
  const out: number[] = [];
  for (let t = from + initialMs; t < readyAt; t += periodMs) out.push(t);
  return out;
}

/** The first probe tick (from + initialMs + k * periodMs) at or after `readyAt`. */
function probeTick(from: number, readyAt: number, initialMs: number, periodMs: number): number {
  const first = from + initialMs;
  if (readyAt <= first) return first;
  return first + Math.ceil((readyAt - first) / periodMs) * periodMs;
}

/** Plan the start of one pod of `tpl` (times from t0); the pod gets `ip` on `node`. */
export function planStart(
  tpl: PodTemplate,
  name: string,
  namespace: string,
  node: SimNode,
  ip: string,
  ids: Ids,
  timing: StartTiming,
): PodPlan {
  const { t0, proxyReadyMs } = timing;
  if (tpl.missingMount !== undefined) {
    const never = (c: { name: string; image?: string }, kind: ContainerRun['kind']) =>
      run(ids, c.name, c.image, kind, NEVER);
    return {
      name,
      namespace,
      uid: ids.uid(),
      ip,
      node,
      createdAt: t0,
      sandboxAt: NEVER,
      initializedAt: NEVER,
      inits: (tpl.spec.initContainers ?? []).map((c) =>
        never(c, c.restartPolicy === 'Always' ? 'sidecar' : 'init'),
      ),
      containers: tpl.spec.containers.map((c) => never(c, 'app')),
      grace: tpl.spec.terminationGracePeriodSeconds ?? 30,
      blocked: tpl.missingMount,
    };
  }
  const sandboxAt = t0 + 800;
  const inits: ContainerRun[] = [];
  const containers: ContainerRun[] = [];
  let cursor = sandboxAt + 300;
  const proxyRun = (at: number, kind: ContainerRun['kind'], native: boolean): ContainerRun => {
    const c = run(ids, PROXY_CONTAINER, tpl.spec.containers[0]?.image ?? '', kind, at);
    c.image = 'docker.io/istio/proxyv2:1.24.2';
    const envoyReadyAt = at + proxyReadyMs;
    const initialMs = 1000;
    const periodMs = native ? 1000 : 2000;
    c.envoyReadyAt = envoyReadyAt;
    c.probe = native ? 'Startup' : 'Readiness';
    c.probeFailures = failures(at, envoyReadyAt, initialMs, periodMs);
    // the kubelet marks it ready at the first probe tick after Envoy is ready
    c.readyAt = probeTick(at, envoyReadyAt, initialMs, periodMs);
    return c;
  };
  for (const ic of tpl.spec.initContainers ?? []) {
    if (ic.restartPolicy === 'Always') {
      const p = proxyRun(cursor, 'sidecar', true);
      inits.push(p);
      cursor = (p.readyAt ?? cursor) + 100;
    } else {
      const c = run(ids, ic.name, ic.image, 'init', cursor);
      c.completeAt = cursor + 500;
      inits.push(c);
      cursor = c.completeAt + 100;
    }
  }
  const initializedAt = inits.length > 0 ? cursor : sandboxAt;
  cursor = initializedAt + 200;
  for (const spec of tpl.spec.containers) {
    if (spec.name === PROXY_CONTAINER) {
      const p = proxyRun(cursor, 'app', false);
      containers.push(p);
      // A postStart hook (pilot-agent wait) blocks the next container until Envoy is ready
      // (pilot-agent checks it itself: the kubelet's probe may mark it ready only later).
      cursor =
        spec.lifecycle?.postStart !== undefined ? (p.envoyReadyAt ?? cursor) + 200 : cursor + 200;
      continue;
    }
    const c = run(ids, spec.name, spec.image, 'app', cursor);
    const retryMs = tpl.appPullRetryMs;
    if (retryMs !== undefined) {
      // The failed pull returns at once; the kubelet goes on with the next container meanwhile.
      const failedAt = cursor + 150;
      c.pull = { at: cursor, failedAt, backoffAt: failedAt + 1000, retryAt: failedAt + retryMs };
      c.startAt = c.pull.retryAt + PULL_MS + 300;
    }
    c.readyAt = c.startAt + 1500;
    containers.push(c);
    cursor += 200;
  }
  const proxy = containers.find((c) => c.isProxy);
  const envoyReady = proxy?.envoyReadyAt ?? proxy?.readyAt;
  for (const c of containers) {
    if (c.isProxy || envoyReady === undefined) continue;
    if (timing.race && c.startAt < envoyReady) {
      const at = c.startAt + 600;
      c.crash = { at, restartAt: at + 10_000, exitCode: 1 };
      c.restartedId = ids.containerId();
      c.readyAt = at + 11_000;
    } else if (tpl.mode === 'wrapper') {
      c.readyAt = Math.max(c.readyAt ?? 0, envoyReady + 1000);
    }
  }
  return {
    name,
    namespace,
    uid: ids.uid(),
    ip,
    node,
    createdAt: t0,
    sandboxAt,
    initializedAt,
    inits,
    containers,
    grace: tpl.spec.terminationGracePeriodSeconds ?? 30,
  };
}

/** Parse a Go duration like "5s", "1m30s", "500ms" into ms; undefined when unreadable. */
export function parseDuration(s: unknown): number | undefined {
  if (typeof s !== 'string') return undefined;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  for (const m of s.matchAll(re)) {
    const n = Number(m[1]);
    const unit = m[2];
    total +=
      unit === 'ms' ? n : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n * 3_600_000;
    consumed += m[0].length;
  }
  return consumed === s.length && consumed > 0 ? total : undefined;
}

export interface StopBehaviour {
  /** The proxy's terminationDrainDuration (default 5 s). */
  drainMs: number;
  /** App preStop sleep. */
  preStopMs?: number;
  exitOnZeroConnections: boolean;
}

/** Plan termination starting at `at`: who exits when, within the grace period. */
export function planStop(plan: PodPlan, at: number, b: StopBehaviour): PodPlan {
  // Nothing runs in a pod that never got its volumes: it goes as soon as it is deleted.
  if (plan.blocked !== undefined) return { ...plan, deleteAt: at, removeAt: at + 500 };
  const graceEnd = at + plan.grace * 1000;
  const cap = (t: number) => Math.min(t, graceEnd);
  let appExit = at + 400;
  let preStopFailed: string | undefined;
  const containers = plan.containers.map((c) => ({ ...c }));
  for (const c of containers) {
    if (c.isProxy) continue;
    const want = at + (b.preStopMs ?? 0) + 400;
    if (want > graceEnd) preStopFailed = c.name;
    c.exitAt = cap(want);
    c.exitCode = want > graceEnd ? 137 : 0;
    appExit = Math.max(appExit, c.exitAt);
  }
  for (const c of containers) {
    if (!c.isProxy) continue;
    const app = containers.some((x) => !x.isProxy);
    const want = !app
      ? at + b.drainMs
      : b.exitOnZeroConnections
        ? Math.max(at + 5000, appExit + 1000)
        : at + b.drainMs;
    c.exitAt = cap(want);
    c.exitCode = want > graceEnd ? 137 : 0;
  }
  const inits = plan.inits.map((c) => {
    if (c.kind !== 'sidecar') return c;
    // Native sidecars are stopped after the app containers have exited.
    const want = appExit + 1000;
    return { ...c, exitAt: cap(want), exitCode: want > graceEnd ? 137 : 0 };
  });
  const lastExit = Math.max(...[...containers, ...inits].map((c) => c.exitAt ?? at));
  const out: PodPlan = { ...plan, containers, inits, deleteAt: at, removeAt: lastExit + 500 };
  if (preStopFailed !== undefined) out.preStopFailed = preStopFailed;
  return out;
}
