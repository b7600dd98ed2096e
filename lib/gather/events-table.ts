/**
 * `kubectl get events -A -o wide` as text, the way a bug-report's `cluster/events` holds it
 * (istio/istio tools/bug-report pkg/content GetEvents runs that command).
 *
 * FIELD NOTES (kubernetes/kubernetes pkg/printers/internalversion printEvent and its columns;
 * apimachinery pkg/util/duration HumanDuration; kubectl's tab writer, padding 3):
 * - Columns, with `-A` and `-o wide`: NAMESPACE, LAST SEEN, TYPE, REASON, OBJECT, SUBOBJECT,
 *   SOURCE, MESSAGE, FIRST SEEN, COUNT, NAME. OBJECT is `kind/name` with the kind in lower case;
 *   SOURCE is `component, host` (or the component alone); times are ages before the print.
 * - An event without lastTimestamp (events.k8s.io writers) is dated by its eventTime; FIRST SEEN
 *   by firstTimestamp, else eventTime. A missing time prints `<unknown>`.
 * - A column is as wide as its widest cell plus three spaces; the last one is not padded.
 */
import type { KubeEvent } from '../kube/types';
import { kubectlRef } from '../refs/workload-ref';
import { EVENTS_TABLE_COLUMNS, humanDuration } from '../kube/kubectl-events';

const HEADERS: readonly string[] = EVENTS_TABLE_COLUMNS;

function ageOf(time: string | null | undefined, nowMs: number): string {
  const t = time ? Date.parse(time) : NaN;
  return Number.isFinite(t) ? humanDuration(nowMs - t) : '<unknown>';
}

function cellOf(v: string | undefined | null): string {
  return (v ?? '').replace(/\s+/g, ' ').trim();
}

/** One event's cells, in HEADERS' order. */
function rowOf(e: KubeEvent, nowMs: number): string[] {
  const io = e.involvedObject ?? {};
  const last = e.lastTimestamp ?? e.eventTime ?? null;
  const first = e.firstTimestamp ?? e.eventTime ?? null;
  const source = [e.source?.component, e.source?.host].filter((x) => !!x).join(', ');
  return [
    e.metadata.namespace ?? '',
    ageOf(last, nowMs),
    cellOf(e.type),
    cellOf(e.reason),
    io.kind && io.name ? kubectlRef({ kind: io.kind, name: io.name }) : cellOf(io.name),
    cellOf(io.fieldPath),
    source,
    cellOf(e.message),
    ageOf(first, nowMs),
    String(e.count ?? 1),
    e.metadata.name,
  ];
}

function createdAt(e: KubeEvent): number {
  const t = Date.parse(e.metadata.creationTimestamp ?? e.lastTimestamp ?? e.eventTime ?? '');
  return Number.isFinite(t) ? t : 0;
}

/**
 * The events as `kubectl get events -A -o wide --sort-by=.metadata.creationTimestamp` prints
 * them at `nowMs` (istioctl's command). No events: nothing, as kubectl prints nothing on stdout
 * (its `No resources found` goes to stderr) and istioctl then writes no file.
 */
export function eventsTable(events: readonly KubeEvent[], nowMs: number): string {
  if (events.length === 0) return '';
  const rows = [...events].sort((a, b) => createdAt(a) - createdAt(b)).map((e) => rowOf(e, nowMs));
  const all = [HEADERS, ...rows];
  const widths = HEADERS.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return (
    all
      .map((r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd((widths[i] ?? 0) + 3)))
          .join('')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
