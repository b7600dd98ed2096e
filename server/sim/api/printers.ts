import type { KubeObject } from '../../../lib/kube/types';
import { ageCell, humanDuration } from './duration';

/**
 * Table columns for the kinds beyond pods, services and namespaces, after kubectl's internal
 * printers (pkg/printers/internalversion) for built-in kinds and the CRDs'
 * additionalPrinterColumns for Istio and the Gateway API. Objects are read defensively: a
 * stored object may lack any field.
 */
export interface TableColumnDefinition {
  name: string;
  type: 'string' | 'integer' | 'date';
  format: string;
  description: string;
  priority: number;
}

export type Cell = string | number;
export type Cells = (obj: KubeObject, now: Date) => Cell[];

export interface Printer {
  columns: TableColumnDefinition[];
  cells: Cells;
}

export const col = (
  name: string,
  description: string,
  priority = 0,
  type: TableColumnDefinition['type'] = 'string',
): TableColumnDefinition => ({
  name,
  type,
  format: name === 'Name' ? 'name' : '',
  description,
  priority,
});

export const NAME = col('Name', 'Name must be unique within a namespace.');
export const AGE = col(
  'Age',
  'CreationTimestamp is a timestamp representing the server time when this object was created.',
);

/** The value at a dotted path, or undefined. */
export function at(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export const int = (obj: unknown, path: string, dflt = 0): number => {
  const v = at(obj, path);
  return typeof v === 'number' && Number.isFinite(v) ? v : dflt;
};
export const str = (obj: unknown, path: string, dflt = '<none>'): string => {
  const v = at(obj, path);
  return typeof v === 'string' && v !== '' ? v : dflt;
};
export const list = (obj: unknown, path: string): unknown[] => {
  const v = at(obj, path);
  return Array.isArray(v) ? v : [];
};
const joined = (items: string[]): string => (items.length > 0 ? items.join(',') : '<none>');

function templateContainers(o: KubeObject, prefix: string): { names: string; images: string } {
  const cs = list(o, `${prefix}.containers`);
  return {
    names: joined(cs.map((c) => str(c, 'name', ''))),
    images: joined(cs.map((c) => str(c, 'image', ''))),
  };
}

function selectorCell(o: KubeObject): string {
  const m = at(o, 'spec.selector.matchLabels');
  if (m === null || typeof m !== 'object') return '<none>';
  return joined(Object.entries(m as Record<string, unknown>).map(([k, v]) => `${k}=${String(v)}`));
}

const WIDE_WORKLOAD = [
  col('Containers', 'Names of each container in the template.', 1),
  col('Images', 'Images referenced by each container in the template.', 1),
  col('Selector', 'Label selector for pods.', 1),
];
const wide = (o: KubeObject, prefix = 'spec.template.spec'): Cell[] => {
  const c = templateContainers(o, prefix);
  return [c.names, c.images, selectorCell(o)];
};
export const age = (o: KubeObject, now: Date): string => ageCell(o.metadata.creationTimestamp, now);

function jobStatus(o: KubeObject): string {
  const conds = list(o, 'status.conditions');
  const has = (t: string) =>
    conds.some((c) => str(c, 'type', '') === t && str(c, 'status', '') === 'True');
  if (has('Complete')) return 'Complete';
  if (has('Failed')) return 'Failed';
  if (has('FailureTarget')) return 'FailureTarget';
  if (has('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  if (at(o, 'spec.suspend') === true || has('Suspended')) return 'Suspended';
  return 'Running';
}

function jobDuration(o: KubeObject, now: Date): string {
  const start = Date.parse(str(o, 'status.startTime', ''));
  if (Number.isNaN(start)) return '';
  const end = Date.parse(str(o, 'status.completionTime', ''));
  return humanDuration((Number.isNaN(end) ? now.getTime() : end) - start);
}

function nodeStatus(o: KubeObject): string {
  const ready = list(o, 'status.conditions').find((c) => str(c, 'type', '') === 'Ready');
  const s =
    ready === undefined ? 'Unknown' : str(ready, 'status', '') === 'True' ? 'Ready' : 'NotReady';
  return at(o, 'spec.unschedulable') === true ? `${s},SchedulingDisabled` : s;
}

function nodeRoles(o: KubeObject): string {
  const roles = Object.keys(o.metadata.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
    .filter((r) => r !== '');
  return joined(roles.sort());
}

export function conditionStatus(o: KubeObject, type: string): string {
  const c = list(o, 'status.conditions').find((x) => str(x, 'type', '') === type);
  return c === undefined ? 'Unknown' : str(c, 'status', 'Unknown');
}

export const WORKLOAD_PRINTERS: Record<string, Printer> = {
  deployments: {
    columns: [
      NAME,
      col('Ready', 'Number of the pod with ready state'),
      col(
        'Up-to-date',
        'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
        0,
        'integer',
      ),
      col(
        'Available',
        'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
        0,
        'integer',
      ),
      AGE,
      ...WIDE_WORKLOAD,
    ],
    cells: (o, now) => [
      o.metadata.name,
      `${int(o, 'status.readyReplicas')}/${int(o, 'spec.replicas', 1)}`,
      int(o, 'status.updatedReplicas'),
      int(o, 'status.availableReplicas'),
      age(o, now),
      ...wide(o),
    ],
  },
  replicasets: {
    columns: [
      NAME,
      col('Desired', 'Number of desired pods.', 0, 'integer'),
      col('Current', 'Number of actual replicas.', 0, 'integer'),
      col('Ready', 'The number of ready replicas for this replica set.', 0, 'integer'),
      AGE,
      ...WIDE_WORKLOAD,
    ],
    cells: (o, now) => [
      o.metadata.name,
      int(o, 'spec.replicas', 1),
      int(o, 'status.replicas'),
      int(o, 'status.readyReplicas'),
      age(o, now),
      ...wide(o),
    ],
  },
  statefulsets: {
    columns: [
      NAME,
      col('Ready', 'Number of the pod with ready state'),
      AGE,
      col('Containers', 'Names of each container in the template.', 1),
      col('Images', 'Images referenced by each container in the template.', 1),
    ],
    cells: (o, now) => {
      const c = templateContainers(o, 'spec.template.spec');
      return [
        o.metadata.name,
        `${int(o, 'status.readyReplicas')}/${int(o, 'spec.replicas', 1)}`,
        age(o, now),
        c.names,
        c.images,
      ];
    },
  },
  daemonsets: {
    columns: [
      NAME,
      col(
        'Desired',
        'The total number of nodes that should be running the daemon pod.',
        0,
        'integer',
      ),
      col('Current', 'The number of nodes running at least one daemon pod.', 0, 'integer'),
      col(
        'Ready',
        'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.',
        0,
        'integer',
      ),
      col(
        'Up-to-date',
        'The total number of nodes that are running updated daemon pod',
        0,
        'integer',
      ),
      col('Available', 'The number of nodes running the daemon pod and available.', 0, 'integer'),
      col(
        'Node Selector',
        'NodeSelector is a selector which must be true for the pod to fit on a node.',
      ),
      AGE,
      ...WIDE_WORKLOAD,
    ],
    cells: (o, now) => {
      const sel = at(o, 'spec.template.spec.nodeSelector');
      const nodeSel =
        sel !== null && typeof sel === 'object'
          ? joined(
              Object.entries(sel as Record<string, unknown>).map(([k, v]) => `${k}=${String(v)}`),
            )
          : '<none>';
      return [
        o.metadata.name,
        int(o, 'status.desiredNumberScheduled'),
        int(o, 'status.currentNumberScheduled'),
        int(o, 'status.numberReady'),
        int(o, 'status.updatedNumberScheduled'),
        int(o, 'status.numberAvailable'),
        nodeSel,
        age(o, now),
        ...wide(o),
      ];
    },
  },
  jobs: {
    columns: [
      NAME,
      col('Status', 'Status of the job.'),
      col(
        'Completions',
        'The desired number of successfully finished pods the job should be run with.',
      ),
      col('Duration', 'Time required to complete the job.'),
      AGE,
      col('Containers', 'Names of each container in the template.', 1),
      col('Images', 'Images referenced by each container in the template.', 1),
      col('Selector', 'Label selector for pods.', 1),
    ],
    cells: (o, now) => {
      const completions = at(o, 'spec.completions');
      const succeeded = int(o, 'status.succeeded');
      const c = templateContainers(o, 'spec.template.spec');
      return [
        o.metadata.name,
        jobStatus(o),
        typeof completions === 'number'
          ? `${succeeded}/${completions}`
          : `${succeeded}/1 of ${int(o, 'spec.parallelism', 1)}`,
        jobDuration(o, now),
        age(o, now),
        c.names,
        c.images,
        selectorCell(o),
      ];
    },
  },
  cronjobs: {
    columns: [
      NAME,
      col('Schedule', 'The schedule in Cron format.'),
      col('Timezone', 'The time zone name for the given schedule.'),
      col('Suspend', 'Whether to suspend subsequent executions.'),
      col('Active', 'Number of currently running jobs.', 0, 'integer'),
      col(
        'Last Schedule',
        'Information when was the last time the job was successfully scheduled.',
      ),
      AGE,
      col('Containers', 'Names of each container in the template.', 1),
      col('Images', 'Images referenced by each container in the template.', 1),
      col('Selector', 'Label selector for pods.', 1),
    ],
    cells: (o, now) => {
      const last = str(o, 'status.lastScheduleTime', '');
      const c = templateContainers(o, 'spec.jobTemplate.spec.template.spec');
      return [
        o.metadata.name,
        str(o, 'spec.schedule', ''),
        str(o, 'spec.timeZone'),
        String(at(o, 'spec.suspend') === true),
        list(o, 'status.active').length,
        last === '' ? '<none>' : ageCell(last, now),
        age(o, now),
        c.names,
        c.images,
        '<none>',
      ];
    },
  },
  secrets: {
    columns: [
      NAME,
      col('Type', 'The type of the secret'),
      col('Data', 'The number of data entries in the secret', 0, 'integer'),
      AGE,
    ],
    cells: (o, now) => {
      const data = at(o, 'data');
      const n = data !== null && typeof data === 'object' ? Object.keys(data).length : 0;
      return [o.metadata.name, str(o, 'type', 'Opaque'), n, age(o, now)];
    },
  },
  nodes: {
    columns: [
      NAME,
      col('Status', 'The status of the node'),
      col('Roles', 'The roles of the node'),
      AGE,
      col('Version', 'Kubelet Version reported by the node.'),
    ],
    cells: (o, now) => [
      o.metadata.name,
      nodeStatus(o),
      nodeRoles(o),
      age(o, now),
      str(o, 'status.nodeInfo.kubeletVersion', ''),
    ],
  },
};
