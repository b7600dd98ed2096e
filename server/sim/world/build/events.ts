import type { KubeEvent } from '../../../../lib/kube/types';
import type { ContainerRun, PodPlan } from './plan';
import { kubeTime } from './time';
import { pullError } from './status';
import { podKey } from '../../../../lib/refs/pod-ref';

/** One thing the kubelet or scheduler reported about a pod, before aggregation into Events. */
export interface EventOccurrence {
  at: number;
  reason: string;
  type: 'Normal' | 'Warning';
  message: string;
  fieldPath?: string;
  component: 'kubelet' | 'default-scheduler';
}

function fieldPath(c: ContainerRun): string {
  return c.kind === 'app' ? `spec.containers{${c.name}}` : `spec.initContainers{${c.name}}`;
}

function startEvents(c: ContainerRun, at: number): EventOccurrence[] {
  const fp = fieldPath(c);
  return [
    {
      at: at - 300,
      reason: 'Pulled',
      type: 'Normal',
      component: 'kubelet',
      fieldPath: fp,
      message: `Container image "${c.image}" already present on machine`,
    },
    {
      at: at - 100,
      reason: 'Created',
      type: 'Normal',
      component: 'kubelet',
      fieldPath: fp,
      message: `Created container ${c.name}`,
    },
    {
      at,
      reason: 'Started',
      type: 'Normal',
      component: 'kubelet',
      fieldPath: fp,
      message: `Started container ${c.name}`,
    },
  ];
}

/** A first pull that failed, the back-off, and the retry that pulled the image. */
function pullEvents(c: ContainerRun, pull: NonNullable<ContainerRun['pull']>): EventOccurrence[] {
  const fp = fieldPath(c);
  const ev = (
    at: number,
    reason: string,
    type: EventOccurrence['type'],
    message: string,
  ): EventOccurrence => ({ at, reason, type, component: 'kubelet', fieldPath: fp, message });
  const took = ((c.startAt - 300 - pull.retryAt) / 1000).toFixed(3);
  return [
    ev(pull.at, 'Pulling', 'Normal', `Pulling image "${c.image}"`),
    ev(
      pull.failedAt,
      'Failed',
      'Warning',
      `Failed to pull image "${c.image}": ${pullError(c.image)}`,
    ),
    ev(pull.failedAt, 'Failed', 'Warning', 'Error: ErrImagePull'),
    ev(pull.backoffAt, 'BackOff', 'Normal', `Back-off pulling image "${c.image}"`),
    ev(pull.backoffAt, 'Failed', 'Warning', 'Error: ImagePullBackOff'),
    ev(pull.retryAt, 'Pulling', 'Normal', `Pulling image "${c.image}"`),
    ev(
      c.startAt - 300,
      'Pulled',
      'Normal',
      `Successfully pulled image "${c.image}" in ${took}s (${took}s including waiting). Image size: 48213412 bytes.`,
    ),
    ...startEvents(c, c.startAt).filter((e) => e.reason !== 'Pulled'),
  ];
}

/** The kubelet retries a failed mount with exponential back-off from 0.5 s up to 2m2s. */
function mountRetries(from: number, horizonMs: number): number[] {
  const out: number[] = [];
  let delay = 500;
  for (let t = from + delay; t <= from + horizonMs; t += delay) {
    out.push(t);
    delay = Math.min(delay * 2, 122_000);
  }
  return out;
}

/** How long a blocked pod keeps reporting FailedMount (bounded, so the clock queue is too). */
const MOUNT_HORIZON_MS = 3_600_000;

/** Everything the pod's plan makes the scheduler and kubelet report, in time order. */
export function eventsOf(plan: PodPlan): EventOccurrence[] {
  const out: EventOccurrence[] = [
    {
      at: plan.createdAt,
      reason: 'Scheduled',
      type: 'Normal',
      component: 'default-scheduler',
      message: `Successfully assigned ${podKey(plan.namespace, plan.name)} to ${plan.node.name}`,
    },
  ];
  if (plan.blocked !== undefined) {
    const { volume, configMap } = plan.blocked;
    const end = plan.deleteAt ?? Number.POSITIVE_INFINITY;
    for (const at of mountRetries(plan.createdAt, MOUNT_HORIZON_MS)) {
      if (at >= end) break;
      out.push({
        at,
        reason: 'FailedMount',
        type: 'Warning',
        component: 'kubelet',
        message: `MountVolume.SetUp failed for volume "${volume}" : configmap "${configMap}" not found`,
      });
    }
    return out;
  }
  for (const c of [...plan.inits, ...plan.containers]) {
    out.push(...(c.pull !== undefined ? pullEvents(c, c.pull) : startEvents(c, c.startAt)));
    for (const at of c.probeFailures) {
      const url = `http://${plan.ip}:15021/healthz/ready`;
      out.push({
        at,
        reason: 'Unhealthy',
        type: 'Warning',
        component: 'kubelet',
        fieldPath: fieldPath(c),
        message: `${c.probe} probe failed: Get "${url}": dial tcp ${plan.ip}:15021: connect: connection refused`,
      });
    }
    if (c.crash !== undefined) {
      out.push({
        at: c.crash.at + 1000,
        reason: 'BackOff',
        type: 'Warning',
        component: 'kubelet',
        fieldPath: fieldPath(c),
        message: `Back-off restarting failed container ${c.name} in pod ${plan.name}_${plan.namespace}(${plan.uid})`,
      });
      out.push(...startEvents(c, c.crash.restartAt));
    }
  }
  if (plan.deleteAt !== undefined) {
    for (const c of [...plan.containers, ...plan.inits.filter((i) => i.kind === 'sidecar')]) {
      out.push({
        at: plan.deleteAt,
        reason: 'Killing',
        type: 'Normal',
        component: 'kubelet',
        fieldPath: fieldPath(c),
        message: `Stopping container ${c.name}`,
      });
    }
    const failed = plan.containers.find((c) => c.name === plan.preStopFailed);
    if (failed !== undefined) {
      out.push({
        at: plan.deleteAt + plan.grace * 1000,
        reason: 'FailedPreStopHook',
        type: 'Warning',
        component: 'kubelet',
        fieldPath: fieldPath(failed),
        message: 'PreStopHook failed',
      });
    }
  }
  return out.sort((a, b) => a.at - b.at);
}

/** Aggregates occurrences into Event objects the way the API shows them (count, first/last). */
export class EventBook {
  private readonly byKey = new Map<string, KubeEvent>();
  constructor(private readonly nameSuffix: () => string) {}

  record(plan: PodPlan, o: EventOccurrence): KubeEvent {
    const key = `${plan.uid}|${o.reason}|${o.fieldPath ?? ''}|${o.message}`;
    const prev = this.byKey.get(key);
    const stamp = kubeTime(o.at);
    const ev: KubeEvent = prev
      ? {
          ...prev,
          metadata: { ...prev.metadata },
          count: (prev.count ?? 1) + 1,
          lastTimestamp: stamp,
        }
      : {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: {
            name: `${plan.name}.${this.nameSuffix()}`,
            namespace: plan.namespace,
            creationTimestamp: stamp,
          },
          involvedObject: {
            kind: 'Pod',
            name: plan.name,
            namespace: plan.namespace,
            uid: plan.uid,
            ...(o.fieldPath !== undefined ? { fieldPath: o.fieldPath } : {}),
          },
          reason: o.reason,
          message: o.message,
          type: o.type,
          count: 1,
          firstTimestamp: stamp,
          lastTimestamp: stamp,
          eventTime: null,
          source:
            o.component === 'kubelet'
              ? { component: 'kubelet', host: plan.node.name }
              : { component: o.component },
        };
    this.byKey.set(key, ev);
    return ev;
  }
}
