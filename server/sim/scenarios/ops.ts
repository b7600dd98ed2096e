import { createHash } from 'node:crypto';
import type { KubeObject, Pod } from '../../../lib/kube/types';
import { controllerRef, stableUid } from '../world/build/controllers';
import { NODES } from '../world/build/nodes';
import { kubeTime } from '../world/build/time';
import type { World } from '../world/build/world';
import { objectKey } from '../../../lib/refs/object-ref';
import { podKey } from '../../../lib/refs/pod-ref';

/**
 * The `ops` namespace of the demo: what a real cluster also holds besides meshed Deployments.
 * - a CronJob whose last run left a completed Job and its Succeeded pod (CronJob -> Job -> Pod);
 * - a DaemonSet (a node exporter on the host network): one pod per node, not meshed;
 * - a pod stored without a spec, as an object written before validation or damaged in etcd
 *   would be: seeded through the store directly (the HTTP API refuses it), so that every
 *   reader of pods (kubectl get pods -A, meshdx's views) is shown to survive one.
 * Nothing here draws from the scenario's seeded ids: the rest of the demo keeps its names.
 */
export const OPS_NAMESPACE = 'ops';
export const CRONJOB = 'nightly-report';
export const SPECLESS_POD = 'imported-without-spec';
export const DAEMONSET = 'node-exporter';

const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

/** A 5-character generated-name suffix derived from a seed. */
function suffixOf(seed: string): string {
  const h = createHash('sha1').update(seed).digest();
  let s = '';
  for (let i = 0; i < 5; i++) s += SAFE[(h[i] ?? 0) % SAFE.length] ?? 'b';
  return s;
}

export function buildOps(world: World): void {
  world.namespace(OPS_NAMESPACE, {}, stableUid(`namespace/${OPS_NAMESPACE}`, world.ctx.uidSalt));
  const store = world.ctx.store;
  const container = { name: 'report', image: 'registry.example.com/ops/report:1.4' };
  const podSpec = { containers: [container], restartPolicy: 'OnFailure' };

  // the last run: scheduled on the half hour before now, ran for 42 s
  const scheduled = Math.floor(world.now() / 1_800_000) * 1_800_000;
  const finished = scheduled + 45_000;
  const cronUid = stableUid(`cronjob/${objectKey(OPS_NAMESPACE, CRONJOB)}`, world.ctx.uidSalt);
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
  const jobUid = stableUid(`job/${objectKey(OPS_NAMESPACE, jobName)}`, world.ctx.uidSalt);
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
      uid: stableUid(`pod/${podKey(OPS_NAMESPACE, podName)}`, world.ctx.uidSalt),
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

  buildNodeAgent(world);

  // The store's own seeding path: no validation, as for an object already in etcd.
  const specless = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: SPECLESS_POD,
      namespace: OPS_NAMESPACE,
      uid: stableUid(`pod/${podKey(OPS_NAMESPACE, SPECLESS_POD)}`, world.ctx.uidSalt),
      creationTimestamp: kubeTime(world.t0 - 30 * 86_400_000),
      labels: { app: 'legacy-import' },
    },
  };
  store.upsert('pods', specless as KubeObject as Pod);
}

/** A DaemonSet with one running pod per node, on the host network (its pod IP is the node's). */
function buildNodeAgent(world: World): void {
  const store = world.ctx.store;
  const uid = stableUid(`daemonset/${objectKey(OPS_NAMESPACE, DAEMONSET)}`, world.ctx.uidSalt);
  const revision = suffixOf(`${DAEMONSET}/revision`).repeat(2);
  const container = {
    name: DAEMONSET,
    image: 'quay.io/prometheus/node-exporter:v1.8.2',
    ports: [{ name: 'metrics', containerPort: 9100 }],
  };
  const podSpec = { containers: [container], hostNetwork: true, restartPolicy: 'Always' };
  const created = world.t0 - 20 * 86_400_000;
  const n = NODES.length;
  store.upsert('daemonsets', {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: DAEMONSET,
      namespace: OPS_NAMESPACE,
      uid,
      generation: 1,
      creationTimestamp: kubeTime(created),
      labels: { app: DAEMONSET },
    },
    spec: {
      selector: { matchLabels: { app: DAEMONSET } },
      template: { metadata: { labels: { app: DAEMONSET } }, spec: podSpec },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
    },
    status: {
      desiredNumberScheduled: n,
      currentNumberScheduled: n,
      numberReady: n,
      updatedNumberScheduled: n,
      numberAvailable: n,
      numberMisscheduled: 0,
      observedGeneration: 1,
    },
  } as KubeObject);
  for (const node of NODES) {
    const name = `${DAEMONSET}-${suffixOf(`${DAEMONSET}/${node.name}`)}`;
    const started = kubeTime(created + 5000);
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        generateName: `${DAEMONSET}-`,
        namespace: OPS_NAMESPACE,
        uid: stableUid(`pod/${podKey(OPS_NAMESPACE, name)}`, world.ctx.uidSalt),
        creationTimestamp: kubeTime(created),
        labels: {
          app: DAEMONSET,
          'controller-revision-hash': revision,
          'pod-template-generation': '1',
        },
        ownerReferences: [controllerRef('DaemonSet', DAEMONSET, uid)],
      },
      spec: { ...podSpec, nodeName: node.name },
      status: {
        phase: 'Running',
        hostIP: node.hostIP,
        podIP: node.hostIP,
        podIPs: [{ ip: node.hostIP }],
        startTime: kubeTime(created + 1000),
        conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
          type,
          status: 'True',
          lastTransitionTime: started,
        })),
        containerStatuses: [
          {
            name: container.name,
            image: container.image,
            ready: true,
            started: true,
            restartCount: 0,
            state: { running: { startedAt: started } },
          },
        ],
      },
    };
    store.upsert('pods', pod);
  }
}
