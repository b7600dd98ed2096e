import { createHash } from 'node:crypto';
import type { ContainerStatus, PodCondition, PodStatus } from '../../../../lib/kube/types';
import type { ContainerRun, PodPlan } from './plan';
import { kubeTime } from './time';

/** Is container `c` ready at `t` (started, passed readiness, not exited, pod not terminating)? */
function readyAt(c: ContainerRun, plan: PodPlan, t: number): boolean {
  if (c.readyAt === undefined || t < c.readyAt) return false;
  if (plan.deleteAt !== undefined && t >= plan.deleteAt) return false;
  if (c.exitAt !== undefined && t >= c.exitAt) return false;
  return true;
}

function exitReason(code: number): string {
  return code === 0 ? 'Completed' : 'Error';
}

/** What the kubelet says of an image pull that failed (ErrImagePull, then ImagePullBackOff). */
function pullWaiting(c: ContainerRun, t: number): { reason: string; message: string } {
  if (c.pull !== undefined && t < c.pull.backoffAt) {
    return { reason: 'ErrImagePull', message: pullError(c.image) };
  }
  return { reason: 'ImagePullBackOff', message: `Back-off pulling image "${c.image}"` };
}

/** containerd's error for a pull the registry refused (e.g. while the registry restarts). */
export function pullError(image: string): string {
  const [repo = image, tag = 'latest'] = image.split(':');
  const host = repo.split('/')[0] ?? repo;
  const path = repo.split('/').slice(1).join('/');
  return `rpc error: code = Unknown desc = failed to pull and unpack image "${image}": failed to resolve reference "${image}": failed to do request: Head "https://${host}/v2/${path}/manifests/${tag}": dial tcp 203.0.113.10:443: connect: connection refused`;
}

const imageIds = new Map<string, string>();

/**
 * The image's digest reference as the runtime reports it: one digest per image, the same for
 * every pod that runs it (the digest is made from the image reference here).
 */
export function imageIdOf(image: string): string {
  let id = imageIds.get(image);
  if (id === undefined) {
    // a reference by digest is its own ID; else the repository (a registry's port kept, the
    // tag dropped) at a digest made from the reference
    const slash = image.lastIndexOf('/');
    const colon = image.lastIndexOf(':');
    const repo = colon > slash ? image.slice(0, colon) : image;
    const digest = createHash('sha256').update(image).digest('hex');
    id = image.includes('@') ? image : `${repo}@sha256:${digest}`;
    imageIds.set(image, id);
  }
  return id;
}

/** One container's status as the kubelet reports it at `t`. */
export function containerStatusAt(c: ContainerRun, plan: PodPlan, t: number): ContainerStatus {
  const s: ContainerStatus = {
    name: c.name,
    image: c.image,
    imageID: imageIdOf(c.image),
    ready: false,
    started: false,
    restartCount: 0,
    state: {
      waiting: { reason: t < plan.initializedAt ? 'PodInitializing' : 'ContainerCreating' },
    },
    lastState: {},
  };
  if (t < c.startAt) {
    if (c.pull !== undefined && t >= c.pull.failedAt) s.state = { waiting: pullWaiting(c, t) };
    return s;
  }
  s.containerID = c.containerId;
  let runningSince = c.startAt;
  if (c.crash !== undefined && t >= c.crash.at) {
    const term = {
      exitCode: c.crash.exitCode,
      reason: exitReason(c.crash.exitCode),
      startedAt: kubeTime(c.startAt),
      finishedAt: kubeTime(c.crash.at),
    };
    s.restartCount = 1;
    s.lastState = { terminated: term };
    if (t < c.crash.restartAt) {
      s.state = {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off 10s restarting failed container=${c.name} pod=${plan.name}_${plan.namespace}(${plan.uid})`,
        },
      };
      return s;
    }
    runningSince = c.crash.restartAt;
    s.containerID = c.restartedId ?? c.containerId;
  }
  if (c.completeAt !== undefined && t >= c.completeAt) {
    s.state = {
      terminated: {
        exitCode: 0,
        reason: 'Completed',
        startedAt: kubeTime(c.startAt),
        finishedAt: kubeTime(c.completeAt),
      },
    };
    return s;
  }
  if (c.exitAt !== undefined && t >= c.exitAt) {
    const code = c.exitCode ?? 0;
    s.state = {
      terminated: {
        exitCode: code,
        reason: exitReason(code),
        startedAt: kubeTime(runningSince),
        finishedAt: kubeTime(c.exitAt),
      },
    };
    return s;
  }
  s.state = { running: { startedAt: kubeTime(runningSince) } };
  s.started = true;
  s.ready = readyAt(c, plan, t);
  return s;
}

/** The instant (<= t) at which the boolean `f` took its current value, scanning the plan's instants. */
function since(times: number[], t: number, f: (x: number) => boolean): number {
  let prev: boolean | undefined;
  let last = times[0] ?? t;
  for (const x of times) {
    if (x > t) break;
    const v = f(x);
    if (v !== prev) {
      last = x;
      prev = v;
    }
  }
  return last;
}

/** Every instant at which something in the pod's status changes, ascending. */
export function planInstants(plan: PodPlan): number[] {
  const set = new Set<number>(
    [plan.createdAt, plan.sandboxAt, plan.initializedAt].filter((x) => Number.isFinite(x)),
  );
  for (const c of [...plan.inits, ...plan.containers]) {
    for (const x of [
      c.startAt,
      c.pull?.failedAt,
      c.pull?.backoffAt,
      c.completeAt,
      c.readyAt,
      c.crash?.at,
      c.crash?.restartAt,
      c.exitAt,
    ]) {
      if (x !== undefined && Number.isFinite(x)) set.add(x);
    }
  }
  if (plan.deleteAt !== undefined) set.add(plan.deleteAt);
  return [...set].sort((a, b) => a - b);
}

/** The pod's status at instant t. */
export function podStatusAt(plan: PodPlan, t: number): PodStatus {
  const instants = planInstants(plan);
  const all = (x: number) => plan.containers.every((c) => readyAt(c, plan, x));
  const running = plan.containers.some((c) => t >= c.startAt);
  const cond = (
    type: string,
    ok: boolean,
    at: number,
    reason?: string,
    message?: string,
  ): PodCondition => {
    const c: PodCondition = {
      type,
      status: ok ? 'True' : 'False',
      lastProbeTime: null,
      lastTransitionTime: kubeTime(at),
    };
    if (!ok && reason !== undefined) c.reason = reason;
    if (!ok && message !== undefined) c.message = message;
    return c;
  };
  const conditions: PodCondition[] = [];
  const sandbox = t >= plan.sandboxAt;
  conditions.push(
    cond('PodReadyToStartContainers', sandbox, sandbox ? plan.sandboxAt : plan.createdAt),
  );
  const initialized = t >= plan.initializedAt;
  conditions.push(
    cond(
      'Initialized',
      initialized,
      initialized ? plan.initializedAt : plan.createdAt,
      'ContainersNotInitialized',
      `containers with incomplete status: [${plan.inits.map((c) => c.name).join(' ')}]`,
    ),
  );
  const ready = all(t);
  const changed = since(instants, t, all);
  const unready = plan.containers.filter((c) => !readyAt(c, plan, t)).map((c) => c.name);
  const msg = `containers with unready status: [${unready.join(' ')}]`;
  conditions.push(cond('ContainersReady', ready, changed, 'ContainersNotReady', msg));
  conditions.push(cond('Ready', ready, changed, 'ContainersNotReady', msg));
  conditions.push(cond('PodScheduled', true, plan.createdAt));
  const status: PodStatus = {
    phase: running ? 'Running' : 'Pending',
    hostIP: plan.node.hostIP,
    startTime: kubeTime(plan.createdAt),
    conditions,
    containerStatuses: plan.containers.map((c) => containerStatusAt(c, plan, t)),
  };
  if (sandbox) {
    status.podIP = plan.ip;
    status.podIPs = [{ ip: plan.ip }];
  }
  if (plan.inits.length > 0)
    status.initContainerStatuses = plan.inits.map((c) => containerStatusAt(c, plan, t));
  return status;
}
