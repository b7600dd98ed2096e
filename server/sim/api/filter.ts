import type { KubeObject } from '../../../lib/kube/types';
import type { KindInfo } from '../store/kinds';
import { matchesFields, parseFieldSelector } from './fields';
import { matchesLabels, parseLabelSelector } from './labels';
import { badRequest, type StatusObject } from './status';

export type ObjectFilter = (obj: KubeObject) => boolean;

/** The namespace, labelSelector and fieldSelector of a list or watch, as one predicate. */
export function requestFilter(
  info: KindInfo,
  namespace: string | undefined,
  query: URLSearchParams,
): { ok: true; filter: ObjectFilter } | { ok: false; status: StatusObject } {
  const labels = parseLabelSelector(query.get('labelSelector'));
  if (!labels.ok) return { ok: false, status: badRequest(labels.error) };
  const fields = parseFieldSelector(info.resource, query.get('fieldSelector'));
  if (!fields.ok) return { ok: false, status: badRequest(fields.error) };
  const l = labels.value;
  const f = fields.value;
  return {
    ok: true,
    filter: (obj) =>
      (namespace === undefined || obj.metadata.namespace === namespace) &&
      (l.length === 0 || matchesLabels(l, obj.metadata.labels)) &&
      (f.length === 0 || matchesFields(f, obj)),
  };
}
