import { createHash } from 'node:crypto';
import type { KubeObject, Pod } from '../../../lib/kube/types';
import { controllerRef, stableUid } from '../world/build/controllers';
import { NODES } from '../world/build/nodes';
import { kubeTime } from '../world/build/time';
import type { World } from '../world/build/world';

/**
 * The `ops` namespace of the demo: what a real cluster also holds besides meshed Deployments.
 * - a CronJob whose last run left a completed Job and its Succeeded pod (CronJob -> Job -> Pod);
 * - a pod stored without a spec, as an object written before validation or damaged in etcd
 *   would be: seeded through the store directly (the HTTP API refuses it), so that every
 *   reader of pods (kubectl get pods -A, meshdx's views) is shown to survive one.
 * Nothing here draws from the scenario's seeded ids: the rest of the demo keeps its names.
 */
export const OPS_NAMESPACE = 'ops';
export const CRONJOB = 'nightly-report';
export const SPECLESS_POD = 'imported-without-spec';

const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

/** A 5-character generated-name suffix derived from a seed. */
function suffixOf(seed: string): string {
  const h = createHash('sha1').update(seed).digest();
  let s = '';
  for (let i = 0; i < 5; i++) s += SAFE[(h[i] ?? 0) % SAFE.length] ?? 'b';
  return s;
}

export function buildOps(world: World): void {
  world.namespace(OPS_NAMESPACE, {}, stableUid(`namespace/${OPS_NAMESPACE}`));
  const store = world.ctx.store;
  const container = { name: 'report', image: 'registry.example.com/ops/report:1.4' };
  const podSpec = { containers: [container], restartPolicy: 'OnFailure' };

  // the last run: scheduled on the half hour before now, ran for 42 s
  const scheduled = Math.floor(world.now() / 1_800_000) * 1_800_000;
  const finished = scheduled + 45_000;
  const cronUid = stableUid(`cronjob/${OPS_NAMESPACE}/${CRONJOB}`);
  const cronjob: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: {
      name: CRONJOB,
      namespace: OPS_NAMESPACE,
      uid: cronUid,
      creationTimestamp: kubeTime(world.t0 - 7 * 86_400_000),
    },
  };
  const jobName = `${CRONJOB}-${Math.floor(scheduled / 60_000)}`;
  const jobUid = stableUid(`job/${OPS_NAMESPACE}/${jobName}`);
  const jobLabels = {
    'batch.kubernetes.io/controller-uid': jobUid,
    'batch.kubernetes.io/job-name': jobName,
    'controller-uid': jobUid,
    'job-name': jobName,
  };
  store.upsert('cronjobs', {
    ...cronjob,
    spec: {
      schedule: '*/30 * * * *',
      concurrencyPolicy: 'Forbid',
      successfulJobsHistoryLimit: 3,
      jobTemplate: { spec: { backoffLimit: 2, template: { spec: podSpec } } },
    },
    status: { lastScheduleTime: kubeTime(scheduled), lastSuccessfulTime: kubeTime(finished) },
  } as KubeObject);
  store.upsert('jobs', {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName,
      namespace: OPS_NAMESPACE,
      uid: jobUid,
      creationTimestamp: kubeTime(scheduled),
      labels: jobLabels,
      ownerReferences: [{ ...controllerRef('CronJob', CRONJOB, cronUid), apiVersion: 'batch/v1' }],
    },
    spec: {
      completions: 1,
      parallelism: 1,
      backoffLimit: 2,
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': jobUid } },
      template: { metadata: { labels: jobLabels }, spec: podSpec },
    },
    status: {
      startTime: kubeTime(scheduled),
      completionTime: kubeTime(finished),
      succeeded: 1,
      conditions: [
        { type: 'SuccessCriteriaMet', status: 'True' },
        { type: 'Complete', status: 'True' },
      ],
    },
  } as KubeObject);
  const podName = `${jobName}-${suffixOf(jobName)}`;
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName,
      generateName: `${jobName}-`,
      namespace: OPS_NAMESPACE,
      uid: stableUid(`pod/${OPS_NAMESPACE}/${podName}`),
      creationTimestamp: kubeTime(scheduled),
      labels: jobLabels,
      ownerReferences: [{ ...controllerRef('Job', jobName, jobUid), apiVersion: 'batch/v1' }],
    },
    spec: { ...podSpec, nodeName: NODES[0]?.name ?? 'node-1' },
    status: {
      phase: 'Succeeded',
      startTime: kubeTime(scheduled + 1000),
      conditions: [
        { type: 'Initialized', status: 'True', lastTransitionTime: kubeTime(scheduled + 1000) },
        { type: 'Ready', status: 'False', lastTransitionTime: kubeTime(finished) },
      ],
      containerStatuses: [
        {
          name: container.name,
          image: container.image,
          ready: false,
          started: false,
          restartCount: 0,
          state: {
            terminated: {
              exitCode: 0,
              reason: 'Completed',
              startedAt: kubeTime(scheduled + 3000),
              finishedAt: kubeTime(finished),
            },
          },
        },
      ],
    },
  };
  store.upsert('pods', pod);

  // The store's own seeding path: no validation, as for an object already in etcd.
  const specless = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: SPECLESS_POD,
      namespace: OPS_NAMESPACE,
      uid: stableUid(`pod/${OPS_NAMESPACE}/${SPECLESS_POD}`),
      creationTimestamp: kubeTime(world.t0 - 30 * 86_400_000),
      labels: { app: 'legacy-import' },
    },
  };
  store.upsert('pods', specless as KubeObject as Pod);
}
