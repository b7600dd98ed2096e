import type { KubeObject } from '../../../lib/kube/types';
import type { SimKind } from '../mesh/types';
import type { Parsed } from './labels';

/** A field selector requirement (`?fieldSelector=status.phase=Running,spec.nodeName!=n1`). */
export interface FieldRequirement {
  field: string;
  op: 'eq' | 'neq';
  value: string;
}

const COMMON = ['metadata.name', 'metadata.namespace'];

/** Fields the real API server accepts per resource (the subset meshdx and kubectl use). */
const SUPPORTED: Partial<Record<SimKind, readonly string[]>> = {
  pods: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  events: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  namespaces: ['status.phase'],
  services: ['spec.clusterIP', 'spec.type'],
  endpointslices: ['addressType'],
};

export function supportedFields(kind: SimKind): readonly string[] {
  return [...COMMON, ...(SUPPORTED[kind] ?? [])];
}

export function parseFieldSelector(
  kind: SimKind,
  s: string | null | undefined,
): Parsed<FieldRequirement[]> {
  if (s === null || s === undefined || s.trim() === '') return { ok: true, value: [] };
  const allowed = supportedFields(kind);
  const out: FieldRequirement[] = [];
  for (const term of s.split(',')) {
    const m = /^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(term);
    if (m === null)
      return { ok: false, error: `invalid selector: '${s}'; can't understand '${term}'` };
    const [, field = '', op, value = ''] = m;
    if (!allowed.includes(field)) {
      return { ok: false, error: `field label not supported: ${field}` };
    }
    out.push({ field, op: op === '!=' ? 'neq' : 'eq', value });
  }
  return { ok: true, value: out };
}

/** The string value of a dotted field path ("" when absent, as the API server compares). */
export function fieldValue(obj: KubeObject, field: string): string {
  if (field === 'source') {
    const src = (obj as { source?: { component?: unknown } }).source;
    return typeof src?.component === 'string' ? src.component : '';
  }
  let cur: unknown = obj;
  for (const part of field.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  return typeof cur === 'string' || typeof cur === 'number' || typeof cur === 'boolean'
    ? String(cur)
    : '';
}

export function matchesFields(reqs: readonly FieldRequirement[], obj: KubeObject): boolean {
  for (const r of reqs) {
    const v = fieldValue(obj, r.field);
    if (r.op === 'eq' ? v !== r.value : v === r.value) return false;
  }
  return true;
}
