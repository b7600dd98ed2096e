/**
 * The per-pod Gantt model: pure data for a chart (recharts). One row per container (init,
 * proxy, apps) with run segments, plus markers for conditions, Created events, each
 * container's ready moment (watched transitions), the proxy-ready estimate, postStart and
 * preStop hooks from the spec, probe and hook failures, kills and deletion. Times are RFC 3339.
 */
import type { ContainerStatus, KubeEvent, Pod } from '../kube/types';
import { PROXY_NAME, preStopSeconds } from './containers';
import { eventContainer, eventLastMs, eventsForPod, sameNodeKubelet } from './events';
import { toIso, toMs } from './time';
import type { Confidence, PodTimeline, Transition } from './types';
import { transitionsFor } from './status';
import { endText } from './instances';

export type SegmentKind = 'waiting' | 'running' | 'terminated' | 'restart';
export type MarkerKind =
  | 'scheduled'
  | 'initialized'
  | 'containers-ready'
  | 'ready'
  | 'proxy-ready'
  | 'created'
  | 'container-ready'
  | 'post-start'
  | 'pre-stop'
  | 'probe-failed'
  | 'hook-failed'
  | 'deletion'
  | 'grace-end'
  | 'killing';

export interface GanttSegment {
  kind: SegmentKind;
  from: string;
  /** null = still going at the time of the snapshot. */
  to: string | null;
  label: string;
}

export interface GanttRow {
  container: string;
  role: 'init' | 'proxy' | 'app';
  segments: GanttSegment[];
}

export interface GanttMarker {
  time: string;
  kind: MarkerKind;
  source: string;
  confidence: Confidence;
  container?: string;
  label?: string;
}

export interface PodGantt {
  namespace: string;
  name: string;
  rows: GanttRow[];
  markers: GanttMarker[];
  /** Earliest and latest time on the chart. */
  start: string | null;
  end: string | null;
}

function seg(
  kind: SegmentKind,
  from: string | undefined,
  to: string | null | undefined,
  label: string,
): GanttSegment[] {
  return from && toMs(from) !== null ? [{ kind, from, to: to ?? null, label }] : [];
}

/** "run 2: ran, then exit 255 Unknown: node or container runtime restart (...)" */
type RunLabel = (
  container: string,
  t: { exitCode: number; reason?: string; finishedAt?: string },
) => string;

function runLabel(timeline: PodTimeline): RunLabel {
  return (container, t) => {
    const at = toMs(t.finishedAt);
    const i = timeline.instances.find((x) => x.container === container && x.finishedAt === at);
    return i
      ? `run ${i.run + 1}: ran, then ${endText(i, timeline.podRestart)}`
      : `ran, then ${exitText(t)}`;
  };
}

function segments(
  pod: Pod,
  cs: ContainerStatus | undefined,
  transitions: readonly Transition[],
  label: RunLabel,
): GanttSegment[] {
  if (!cs) return [];
  const out: GanttSegment[] = [];
  const last = cs.lastState?.terminated;
  const starts = transitionsFor(transitions, pod.metadata.uid ?? null, cs.name, 'startedAt')
    .map((t) => String(t.value))
    .sort();
  const firstStart =
    starts[0] ?? last?.startedAt ?? cs.state?.running?.startedAt ?? cs.state?.terminated?.startedAt;
  out.push(...seg('waiting', pod.status?.startTime, firstStart, 'waiting to start'));
  if (last) {
    if (starts.length > 2 || cs.restartCount > 1) {
      out.push(
        ...seg(
          'restart',
          starts[0] ?? last.startedAt,
          last.startedAt,
          `${Math.max(cs.restartCount - 1, 0)} earlier run(s)`,
        ),
      );
    }
    // the earlier run was running until it exited: the colour is the state at that time
    out.push(...seg('running', last.startedAt, last.finishedAt, label(cs.name, last)));
    const next = cs.state?.running?.startedAt ?? cs.state?.terminated?.startedAt ?? null;
    out.push(
      ...seg(
        'restart',
        last.finishedAt,
        next,
        cs.state?.waiting?.reason ?? `restart #${cs.restartCount}`,
      ),
    );
  }
  const run = cs.state?.running;
  if (run)
    out.push(...seg('running', run.startedAt, null, cs.ready ? 'running, ready' : 'running'));
  const term = cs.state?.terminated;
  if (term) {
    // running from its start until it exited; terminated only from then on: a container that
    // exited before its pod's deletion was asked for (a crash, a job done) is red until the
    // deletion's deadline; one that exited because of the deletion has no red bar at all
    out.push(...seg('running', term.startedAt, term.finishedAt, label(cs.name, term)));
    const deadline = pod.metadata.deletionTimestamp;
    const grace =
      pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
    const finished = toMs(term.finishedAt);
    const deadlineMs = toMs(deadline);
    if (finished !== null && deadlineMs !== null && finished < deadlineMs - grace * 1000)
      out.push(...seg('terminated', term.finishedAt, deadline, exitText(term)));
  }
  return out;
}

function exitText(t: { exitCode: number; reason?: string }): string {
  return `exit ${t.exitCode}${t.reason ? ` ${t.reason}` : ''}`;
}

const CONDITION_MARKERS: [string, MarkerKind][] = [
  ['PodScheduled', 'scheduled'],
  ['Initialized', 'initialized'],
  ['ContainersReady', 'containers-ready'],
  ['Ready', 'ready'],
];

function eventMarker(e: KubeEvent, pod: Pod): GanttMarker[] {
  const kind: MarkerKind | null =
    e.reason === 'Unhealthy'
      ? 'probe-failed'
      : e.reason === 'FailedPostStartHook' || e.reason === 'FailedPreStopHook'
        ? 'hook-failed'
        : e.reason === 'Killing'
          ? 'killing'
          : e.reason === 'Created'
            ? 'created'
            : null;
  const time = toIso(eventLastMs(e));
  if (!kind || !time) return [];
  const container = eventContainer(e);
  const count = e.count && e.count > 1 ? ` (x${e.count})` : '';
  return [
    {
      time,
      kind,
      source: `event:${e.source?.component ?? 'unknown'}`,
      confidence: sameNodeKubelet(e, pod) ? 'medium' : 'low',
      ...(container ? { container } : {}),
      label: `${e.message ?? e.reason}${count}`.slice(0, 200),
    },
  ];
}

function hookText(h: {
  exec?: { command?: string[] };
  sleep?: { seconds: number };
  httpGet?: { path?: string };
}): string {
  if (h.exec?.command) return h.exec.command.join(' ').slice(0, 120);
  if (h.sleep) return `sleep ${h.sleep.seconds}s`;
  if (h.httpGet) return `GET ${h.httpGet.path ?? '/'}`;
  return 'hook';
}

/** Each container's ready moments, from watched transitions (Kubernetes keeps no timestamp). */
function containerReadyMarkers(pod: Pod, transitions: readonly Transition[]): GanttMarker[] {
  const uid = pod.metadata.uid ?? null;
  const names = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].map((c) => c.name);
  return names.flatMap((name) =>
    transitionsFor(transitions, uid, name, 'ready')
      .filter((t) => t.value === true && toMs(t.time) !== null)
      .map((t) => ({
        time: toIso(toMs(t.time)) as string,
        kind: 'container-ready' as const,
        source: `transition:${t.timeSource ?? 'observed'}`,
        confidence: (t.timeSource === 'bounded' ? 'low' : 'high') as Confidence,
        container: name,
        label: `${name} ready`,
      })),
  );
}

/** postStart hooks run right after their container starts (the kubelet waits for them). */
function hookMarkers(
  pod: Pod,
  statusOf: (name: string) => ContainerStatus | undefined,
): GanttMarker[] {
  const out: GanttMarker[] = [];
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    const post = c.lifecycle?.postStart;
    const cs = statusOf(c.name);
    const start = cs?.state?.running?.startedAt ?? cs?.state?.terminated?.startedAt;
    if (!post || !start || toMs(start) === null) continue;
    out.push({
      time: start,
      kind: 'post-start',
      source: 'spec.lifecycle.postStart',
      confidence: 'medium',
      container: c.name,
      label: `postStart ${hookText(post)}`,
    });
  }
  return out;
}

export function buildGantt(
  pod: Pod,
  timeline: PodTimeline,
  events: readonly KubeEvent[] = [],
  transitions: readonly Transition[] = [],
): PodGantt {
  const label = runLabel(timeline);
  const statusOf = (name: string) =>
    pod.status?.initContainerStatuses?.find((c) => c.name === name) ??
    pod.status?.containerStatuses?.find((c) => c.name === name);
  const rows: GanttRow[] = [
    ...(pod.spec.initContainers ?? []).map((c) => ({ c, init: true })),
    ...pod.spec.containers.map((c) => ({ c, init: false })),
  ].map(({ c, init }) => ({
    container: c.name,
    role: c.name === PROXY_NAME ? 'proxy' : init ? 'init' : 'app',
    segments: segments(pod, statusOf(c.name), transitions, label),
  }));
  const markers: GanttMarker[] = [];
  for (const [type, kind] of CONDITION_MARKERS) {
    const c = pod.status?.conditions?.find((x) => x.type === type && x.status === 'True');
    if (c?.lastTransitionTime && toMs(c.lastTransitionTime) !== null) {
      markers.push({
        time: c.lastTransitionTime,
        kind,
        source: `condition:${type}`,
        confidence: 'high',
      });
    }
  }
  const ready = timeline.proxyReady;
  if (ready.at !== null) {
    markers.push({
      time: toIso(ready.at) as string,
      kind: 'proxy-ready',
      source: ready.source,
      confidence: ready.confidence,
      container: PROXY_NAME,
      label: ready.notes.join('; '),
    });
  }
  for (const e of eventsForPod(pod, events)) markers.push(...eventMarker(e, pod));
  markers.push(...containerReadyMarkers(pod, transitions));
  markers.push(...hookMarkers(pod, statusOf));
  const del = toMs(pod.metadata.deletionTimestamp);
  if (del !== null) {
    const grace =
      pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
    // deletionTimestamp is set to request time + grace period.
    const requested = del - grace * 1000;
    markers.push({
      time: toIso(requested) as string,
      kind: 'deletion',
      source: 'metadata.deletionTimestamp',
      confidence: 'medium',
    });
    // preStop hooks run from the deletion request, before each container's SIGTERM.
    for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
      const pre = c.lifecycle?.preStop;
      if (!pre) continue;
      const secs = preStopSeconds(c);
      markers.push({
        time: toIso(requested) as string,
        kind: 'pre-stop',
        source: 'spec.lifecycle.preStop',
        confidence: 'medium',
        container: c.name,
        label: `preStop ${hookText(pre)}${secs !== null ? ` (${secs}s before SIGTERM)` : ''}`,
      });
    }
    markers.push({
      time: toIso(del) as string,
      kind: 'grace-end',
      source: 'metadata.deletionTimestamp',
      confidence: 'high',
    });
  }
  markers.sort((a, b) => a.time.localeCompare(b.time));
  const times = [
    ...rows.flatMap((r) => r.segments.flatMap((s) => [s.from, s.to])),
    ...markers.map((m) => m.time),
  ]
    .map((t) => toMs(t))
    .filter((v): v is number => v !== null);
  return {
    namespace: timeline.namespace,
    name: timeline.name,
    rows,
    markers,
    start: times.length ? toIso(Math.min(...times)) : null,
    end: times.length ? toIso(Math.max(...times)) : null,
  };
}
