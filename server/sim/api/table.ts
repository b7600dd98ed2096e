import type { KubeObject, Namespace, Pod, Service } from '../../../lib/kube/types';
import { podSpec } from '../store/podshape';
import { ageCell } from './duration';
import { AGE, col, NAME, WORKLOAD_PRINTERS, type Printer } from './printers';
import { MESH_PRINTERS } from './printers-mesh';
import { podReadyCell, podRestartsCell, podStatusCell } from './podstatus';

/** The response form a request asks for through its Accept header. */
export type ResponseForm = 'json' | 'table' | 'unsupported';

/**
 * Reads an Accept header the way the API server negotiates: the first acceptable media type
 * wins; `application/json;as=Table;v=v1;g=meta.k8s.io` asks for a Table.
 */
export function responseForm(accept: string | undefined): ResponseForm {
  if (accept === undefined || accept.trim() === '') return 'json';
  let askedAs = false;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    const p = new Map(
      params.map((kv) => {
        const i = kv.indexOf('=');
        return [kv.slice(0, i).toLowerCase(), kv.slice(i + 1)] as const;
      }),
    );
    const json = type === 'application/json' || type === '*/*' || type === 'application/*';
    if (!json) continue;
    const as = p.get('as');
    if (as === undefined) return 'json';
    if (as === 'Table' && p.get('g') === 'meta.k8s.io' && p.get('v') === 'v1') return 'table';
    askedAs = true;
  }
  // Only other forms (PartialObjectMetadata, Table v1beta1) asked for: refuse like the server.
  // Media types the simulator does not speak at all (protobuf, yaml) fall back to JSON.
  return askedAs ? 'unsupported' : 'json';
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function includeObjectOf(v: string | null): IncludeObject | null {
  if (v === null || v === '') return 'Metadata';
  return v === 'None' || v === 'Metadata' || v === 'Object' ? v : null;
}

const printers: Record<string, Printer> = {
  ...WORKLOAD_PRINTERS,
  ...MESH_PRINTERS,
  pods: {
    columns: [
      NAME,
      col('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
      col('Status', 'The aggregate status of the containers in this pod.'),
      col(
        'Restarts',
        'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
      ),
      AGE,
      col('IP', 'IP address allocated to the pod. Routable at least within the cluster.', 1),
      col('Node', 'NodeName is a request to schedule this pod onto a specific node.', 1),
      col(
        'Nominated Node',
        'nominatedNodeName is set when this pod preempts other pods on the node.',
        1,
      ),
      col(
        'Readiness Gates',
        'If specified, all readiness gates will be evaluated for pod readiness.',
        1,
      ),
    ],
    cells: (o, now) => {
      const p = o as Pod;
      return [
        p.metadata.name,
        podReadyCell(p),
        podStatusCell(p),
        podRestartsCell(p, now),
        ageCell(p.metadata.creationTimestamp, now),
        p.status?.podIP ?? '<none>',
        podSpec(p).nodeName ?? '<none>',
        '<none>',
        '<none>',
      ];
    },
  },
  services: {
    columns: [
      NAME,
      col('Type', 'type determines how the Service is exposed.'),
      col('Cluster-IP', 'clusterIP is the IP address of the service.'),
      col(
        'External-IP',
        'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.',
      ),
      col('Port(s)', 'The list of ports that are exposed by this service.'),
      AGE,
      col(
        'Selector',
        'Route service traffic to pods with label keys and values matching this selector.',
        1,
      ),
    ],
    cells: (o, now) => {
      const s = o as Service;
      const type = s.spec.type ?? 'ClusterIP';
      const ports = (s.spec.ports ?? []).map((p) => {
        const node = (p as { nodePort?: number }).nodePort;
        return `${p.port}${node ? `:${node}` : ''}/${p.protocol ?? 'TCP'}`;
      });
      const external =
        type === 'ExternalName'
          ? (s.spec.externalName ?? '<none>')
          : type === 'LoadBalancer'
            ? '<pending>'
            : '<none>';
      const sel = Object.entries(s.spec.selector ?? {}).map(([k, v]) => `${k}=${v}`);
      return [
        s.metadata.name,
        type,
        s.spec.clusterIP ?? (type === 'ExternalName' ? '<none>' : ''),
        external,
        ports.length > 0 ? ports.join(',') : '<none>',
        ageCell(s.metadata.creationTimestamp, now),
        sel.length > 0 ? sel.join(',') : '<none>',
      ];
    },
  },
  namespaces: {
    columns: [NAME, col('Status', 'The status of the namespace'), AGE],
    cells: (o, now) => [
      o.metadata.name,
      (o as Namespace).status?.phase ?? 'Active',
      ageCell(o.metadata.creationTimestamp, now),
    ],
  },
};

const generic: Printer = {
  columns: [NAME, AGE],
  cells: (o, now) => [o.metadata.name, ageCell(o.metadata.creationTimestamp, now)],
};

function rowObject(obj: KubeObject, apiVersion: string, kind: string, mode: IncludeObject) {
  if (mode === 'Object') return { ...obj, apiVersion, kind };
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

/** A meta.k8s.io/v1 Table of objects of one resource, as the API server prints it. */
export function renderTable(
  resource: string,
  objects: readonly KubeObject[],
  opts: {
    now: Date;
    resourceVersion: string;
    /** Paging: the continue token and how many objects remain after this page. */
    continue?: string;
    remainingItemCount?: number;
    includeObject: IncludeObject;
    apiVersion: string;
    kind: string;
  },
): string {
  const printer = printers[resource] ?? generic;
  const rows = objects.map((o) => {
    const row: { cells: (string | number)[]; object?: unknown } = {
      cells: printer.cells(o, opts.now),
    };
    if (opts.includeObject !== 'None') {
      row.object = rowObject(o, opts.apiVersion, opts.kind, opts.includeObject);
    }
    return row;
  });
  return JSON.stringify({
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: {
      resourceVersion: opts.resourceVersion,
      ...(opts.continue !== undefined
        ? { continue: opts.continue, remainingItemCount: opts.remainingItemCount }
        : {}),
    },
    columnDefinitions: printer.columns,
    rows,
  });
}
