import type { KubeEvent } from '../kube/types';
import type { ParseProblem } from '../parse-problem';
import { excerptOf } from '../parse-problem';
import { EVENTS_TABLE_COLUMNS, humanAgeMs } from '../kube/kubectl-events';

/**
 * `kubectl get events -A -o wide` as a bug-report keeps it (`cluster/events`): a table aligned
 * by tabwriter, so each cell starts where its header starts. The columns are read from the
 * header line (their set and order changed across kubectl versions: `LAST SEEN` alone before
 * 1.13-era `-o wide` added `SUBOBJECT`, `SOURCE`, `FIRST SEEN`, `COUNT`, `NAME`). Ages (`5m`,
 * `2m30s`, `3d4h`) are turned into times against `capturedAt`, so they are as precise as the
 * unit kubectl printed; `<unknown>` stays unknown.
 */
export interface EventsTable {
  events: KubeEvent[];
  problems: ParseProblem[];
  /** The columns the header named, in order. */
  columns: string[];
}

const KNOWN = EVENTS_TABLE_COLUMNS;

/** kubectl's resource names (`pod/x`, `replicaset/x`) to kinds. */
const KINDS: Record<string, string> = {
  pod: 'Pod',
  node: 'Node',
  service: 'Service',
  deployment: 'Deployment',
  replicaset: 'ReplicaSet',
  statefulset: 'StatefulSet',
  daemonset: 'DaemonSet',
  job: 'Job',
  cronjob: 'CronJob',
  endpoints: 'Endpoints',
  endpointslice: 'EndpointSlice',
  namespace: 'Namespace',
  persistentvolumeclaim: 'PersistentVolumeClaim',
  horizontalpodautoscaler: 'HorizontalPodAutoscaler',
  poddisruptionbudget: 'PodDisruptionBudget',
  configmap: 'ConfigMap',
  lease: 'Lease',
};

function columnStarts(header: string): { name: string; start: number }[] | null {
  const out: { name: string; start: number }[] = [];
  let at = 0;
  while (at < header.length) {
    while (header[at] === ' ') at++;
    if (at >= header.length) break;
    const name = KNOWN.find(
      (k) =>
        header.startsWith(k, at) && /^(\s|$)/.test(header.slice(at + k.length, at + k.length + 1)),
    );
    if (!name) return null;
    out.push({ name, start: at });
    at += name.length;
  }
  return out;
}

export function parseEventsTable(text: string, capturedAt: Date | null): EventsTable {
  const lines = text.split(/\r?\n/);
  const problems: ParseProblem[] = [];
  const headerAt = lines.findIndex((l) => l.trim() !== '');
  if (headerAt < 0) return { events: [], problems, columns: [] };
  const header = lines[headerAt] ?? '';
  const cols = columnStarts(header);
  if (!cols || !cols.some((c) => c.name === 'REASON')) {
    problems.push({
      line: headerAt + 1,
      reason: 'header',
      message: `not a kubectl events table: the first line should name columns such as NAMESPACE, LAST SEEN, TYPE, REASON, OBJECT, MESSAGE`,
      excerpt: excerptOf(header),
    });
    return { events: [], problems, columns: [] };
  }
  const events: KubeEvent[] = [];
  const at = (age: string | undefined): string | null => {
    if (!age || !capturedAt) return null;
    const ms = humanAgeMs(age);
    return ms === null ? null : new Date(capturedAt.getTime() - ms).toISOString();
  };
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const cell: Record<string, string> = {};
    cols.forEach((c, k) => {
      const end = k + 1 < cols.length ? (cols[k + 1]?.start ?? line.length) : line.length;
      cell[c.name] = line.slice(c.start, end).trim();
    });
    const object = cell.OBJECT ?? '';
    const slash = object.indexOf('/');
    if (slash <= 0 || !cell.REASON) {
      problems.push({
        line: i + 1,
        reason: 'row',
        message: 'an events row needs an OBJECT of the form kind/name and a REASON',
        excerpt: excerptOf(line),
      });
      continue;
    }
    const resource = object.slice(0, slash).toLowerCase().split('.')[0] ?? '';
    const kind = KINDS[resource] ?? resource.charAt(0).toUpperCase() + resource.slice(1);
    const namespace = cell.NAMESPACE || undefined;
    const last = at(cell['LAST SEEN']);
    const first = cell['FIRST SEEN'] !== undefined ? at(cell['FIRST SEEN']) : last;
    const count = cell.COUNT && /^\d+$/.test(cell.COUNT) ? Number(cell.COUNT) : undefined;
    const source = cell.SOURCE ? cell.SOURCE.split(',').map((s) => s.trim()) : [];
    events.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: cell.NAME || `${object.slice(slash + 1)}.row${i + 1}`,
        ...(namespace ? { namespace } : {}),
      },
      involvedObject: {
        kind,
        name: object.slice(slash + 1),
        ...(namespace && kind !== 'Node' && kind !== 'Namespace' ? { namespace } : {}),
        ...(cell.SUBOBJECT ? { fieldPath: cell.SUBOBJECT } : {}),
      },
      reason: cell.REASON,
      message: cell.MESSAGE ?? '',
      type: cell.TYPE || undefined,
      ...(count !== undefined ? { count } : {}),
      firstTimestamp: first,
      lastTimestamp: last,
      eventTime: null,
      ...(source.length > 0
        ? { source: { component: source[0], ...(source[1] ? { host: source[1] } : {}) } }
        : {}),
    });
  }
  return { events, problems, columns: cols.map((c) => c.name) };
}
