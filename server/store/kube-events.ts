import type { KubeEvent } from '../../lib/kube/types';
import { asObj, time } from '../../lib/ledger/observation';
import { objectKey } from '../../lib/refs/object-ref';

/** A kube_events row: one occurrence count of one Event object. */
export interface KubeEventRow {
  event_key: string;
  count: number;
  involved_uid: string | null;
  involved_kind: string | null;
  namespace: string | null;
  name: string | null;
  reason: string | null;
  message: string | null;
  type: string | null;
  field_path: string | null;
  source: string | null;
  first_ts: number | null;
  last_ts: number | null;
  observed_at: number;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The row of an Event (core/v1, including the series form newer components write: count and
 * last time in `series`, first time in `eventTime`). Null when it is not an Event.
 */
export function kubeEventRow(ev: KubeEvent, observedAt: number): KubeEventRow | null {
  const meta = asObj(ev?.metadata);
  const name = str(meta?.name);
  if (!meta || !name) return null;
  const raw = ev as unknown as Record<string, unknown>;
  const series = asObj(raw.series);
  const involved = asObj(raw.involvedObject) ?? asObj(raw.regarding) ?? {};
  const count =
    typeof ev.count === 'number' ? ev.count : typeof series?.count === 'number' ? series.count : 1;
  const first = time(ev.firstTimestamp) ?? time(ev.eventTime);
  const last = time(ev.lastTimestamp) ?? time(series?.lastObservedTime) ?? first;
  const source = asObj(raw.source);
  return {
    event_key: str(meta.uid) ?? objectKey(str(meta.namespace) ?? '', name),
    count,
    involved_uid: str(involved.uid),
    involved_kind: str(involved.kind),
    namespace: str(involved.namespace) ?? str(meta.namespace),
    name: str(involved.name),
    reason: str(ev.reason),
    message: typeof ev.message === 'string' ? ev.message : null,
    type: str(ev.type),
    field_path: str(involved.fieldPath),
    source: str(source?.component) ?? str(raw.reportingComponent),
    first_ts: first,
    last_ts: last,
    observed_at: observedAt,
  };
}

/** What meshdx returns for a recorded event. */
export interface RecordedKubeEvent {
  involvedUid: string | null;
  involvedKind: string | null;
  namespace: string | null;
  name: string | null;
  reason: string | null;
  message: string | null;
  type: string | null;
  fieldPath: string | null;
  source: string | null;
  count: number;
  firstTimestamp: number | null;
  lastTimestamp: number | null;
  observedAt: number;
}

export function recordedFromRow(r: KubeEventRow): RecordedKubeEvent {
  return {
    involvedUid: r.involved_uid,
    involvedKind: r.involved_kind,
    namespace: r.namespace,
    name: r.name,
    reason: r.reason,
    message: r.message,
    type: r.type,
    fieldPath: r.field_path,
    source: r.source,
    count: r.count,
    firstTimestamp: r.first_ts,
    lastTimestamp: r.last_ts,
    observedAt: r.observed_at,
  };
}
