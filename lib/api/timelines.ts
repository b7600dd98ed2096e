/**
 * View models of the Timelines screen: the fleet (every meshed pod with its startup mode and
 * verdicts, counts, gap distribution per workload, one fix per workload and verdict) and one
 * pod's Gantt. Times are RFC 3339 strings, durations milliseconds.
 */
import { z } from 'zod';
import { VERDICT_NAMES } from '../timeline/verdicts';
import { FindingGroupSchema } from './findings';
import { LatePartsSchema } from './late';

export const StartupModeSchema = z.enum([
  'classic',
  'hold',
  'native',
  'wrapper',
  'gateway',
  'none',
  'ambient',
]);
/** The verdicts of lib/timeline/verdicts.ts, worst first. */
export const VerdictSchema = z.enum(VERDICT_NAMES);
export const ConfidenceSchema = z.enum(['high', 'medium', 'low']);

export const FixSchema = z.object({ why: z.string(), yaml: z.string().optional() });

export const DrainStartSchema = z.enum([
  'classic-sigterm',
  'native-prestop',
  'native-after-apps',
  'ztunnel',
]);

/** One instant of a pod's shutdown at deletion (lib/timeline/drain-order.ts). */
export const DrainOrderStepSchema = z.object({
  what: z.enum([
    'deletion',
    'app-sigterm',
    'proxy-drain',
    'app-exit',
    'proxy-exit',
    'last-failure',
  ]),
  at: z.string().nullable(),
  afterDeletionMs: z.number().nullable(),
  source: z.string(),
  unknown: z.string().nullable(),
});

export const DrainOrderSchema = z.object({
  drainStart: DrainStartSchema,
  drainStartWhy: z.string(),
  exitOnZero: z.boolean().nullable(),
  drainMs: z.number().nullable(),
  appPreStopSeconds: z.number().nullable(),
  drainWhileAppServesMs: z.number().nullable(),
  steps: z.array(DrainOrderStepSchema),
  failures: z
    .object({
      count: z.number(),
      toTerminating: z.number(),
      toGone: z.number(),
      lastAfterDeletionMs: z.number().nullable(),
    })
    .nullable(),
});

export const FleetRowSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  uid: z.string().nullable(),
  workloadKind: z.string(),
  workload: z.string(),
  mode: StartupModeSchema,
  verdicts: z.array(VerdictSchema),
  codes: z.array(z.string()),
  /** Worst severity of the verdicts (a race whose app restarted is an error). */
  severity: z.enum(['error', 'warning', 'info']),
  /** Harm order, lower is worse: race-restart, race with app restarts, shutdown, benign race, ... */
  harm: z.number(),
  restarts: z.number(),
  proxyRestarts: z.number(),
  /** First app start minus proxy ready (negative: the app raced the proxy). */
  gapMs: z.number().nullable(),
  proxyReadySource: z.string(),
  proxyReadyConfidence: ConfidenceSchema,
  excluded: z.string().nullable(),
  phase: z.string(),
  /** When the pod started (status.startTime, else its creation): the time-window filter. */
  startedAt: z.string().nullable(),
  deleted: z.boolean(),
  deletedAt: z.string().nullable(),
  /** How its proxy starts draining at deletion (the pod page has the whole order); null: none. */
  drainStart: DrainStartSchema.nullable().optional(),
});

export const WorkloadGapsSchema = z.object({
  namespace: z.string(),
  kind: z.string(),
  name: z.string(),
  pods: z.number(),
  measured: z.number(),
  minMs: z.number().nullable(),
  medianMs: z.number().nullable(),
  maxMs: z.number().nullable(),
  verdicts: z.record(z.string(), z.number()),
});

/** The fix of one verdict for one workload (taken from one of its pods). */
export const WorkloadFixSchema = z.object({
  namespace: z.string(),
  kind: z.string(),
  name: z.string(),
  verdict: VerdictSchema,
  code: z.string(),
  pods: z.number(),
  example: z.string(),
  fixes: z.array(FixSchema),
  /**
   * Failing requests recorded against the terminations of these pods (the figure of each
   * pod's drain verdict, summed); null when the failure store was not read.
   */
  failedRequests: z.number().nullable().optional(),
});

export const MeshConfigInfoSchema = z.object({
  /** 'configmap' | 'none' | 'error' ... */
  from: z.string(),
  holdApplicationUntilProxyStarts: z.boolean().nullable(),
  errors: z.array(z.string()),
});

export const CacheInfoSchema = z.object({
  podsWatch: z.string(),
  eventsWatch: z.string(),
  livePods: z.number(),
  deletedPods: z.number(),
  /** Deleted pods left out of the view past its bound (the oldest; the store still has them). */
  evictedPods: z.number(),
  events: z.number(),
  /** Where deleted pods, transitions and events are kept: a SQLite file, or the store's memory. */
  history: z.enum(['memory', 'store']),
  /** Why the history is in memory only (its file could not be opened), or a recorder problem. */
  historyNote: z.string().nullable().optional(),
});

export const NodeVersionSchema = z.object({
  name: z.string(),
  kubeletVersion: z.string().nullable(),
  minor: z.number().nullable(),
});

/** What the injector will do for a pod created now (istiod's setting and the nodes). */
export const InjectionInfoSchema = z.object({
  setting: z.enum(['true', 'false', 'auto']),
  source: z.string(),
  notes: z.array(z.string()),
  nodes: z.array(NodeVersionSchema),
  nodesError: z.string().nullable(),
  nextNative: z.boolean(),
  why: z.string(),
});

/** A workload's sidecar mode now (its live pods) and for its next pod. */
export const WorkloadModeSchema = z.object({
  namespace: z.string(),
  kind: z.string(),
  name: z.string(),
  pods: z.number(),
  nativePods: z.number(),
  classicPods: z.number(),
  now: z.enum(['native', 'classic', 'mixed']),
  next: z.enum(['native', 'classic']),
  why: z.string(),
  /** The template's sidecar.istio.io/nativeSidecar value, when set. */
  pinned: z.string().nullable(),
  flips: z.boolean(),
  code: z.string().nullable(),
  fixes: z.array(FixSchema),
});

export const TimelineFleetSchema = z.object({
  generatedAt: z.string(),
  /** Pods listed: meshed pods, live and deleted. */
  pods: z.number(),
  byVerdict: z.record(z.string(), z.number()),
  byMode: z.record(z.string(), z.number()),
  rows: z.array(FleetRowSchema),
  workloads: z.array(WorkloadGapsSchema),
  fixes: z.array(WorkloadFixSchema),
  mesh: MeshConfigInfoSchema,
  cache: CacheInfoSchema,
  /** Native-sidecar injection for new pods; null when meshdx could not read it. */
  injection: InjectionInfoSchema.nullable(),
  modes: z.array(WorkloadModeSchema),
  /** Parts not read by the view's deadline (the injection inputs...), when any. */
  late: LatePartsSchema,
});

/** What the screen asked of the fleet and what matched: one page of rows, counts of them all. */
export const TimelinePageSchema = z.object({
  offset: z.number(),
  limit: z.number(),
  /** Rows matching every filter (the verdict included): what the pager pages through. */
  matched: z.number(),
  sort: z.string(),
  dir: z.enum(['asc', 'desc']),
  /** The stat cards: pods matching every filter but the verdict, by verdict and mode. */
  counts: z.object({
    pods: z.number(),
    byVerdict: z.record(z.string(), z.number()),
    byMode: z.record(z.string(), z.number()),
    deleted: z.number(),
  }),
  /**
   * Deleted pods of the whole fleet (no filter): the kept deleted pods with a sidecar; those
   * without one (or ambient) are kept in the store but are not in the fleet.
   */
  deletedInFleet: z.number(),
  /** Every namespace of the fleet, and the workloads of the chosen one (the filters' options). */
  namespaces: z.array(z.string()),
  workloads: z.array(z.string()),
  /** Meshed workloads and those already held (hold, native, wrapper), over the whole fleet. */
  hold: z.object({ meshedWorkloads: z.number(), heldWorkloads: z.number() }),
  /** Fixes matching the filters (the page carries the first ones). */
  fixesMatched: z.number(),
  /** Workloads of the modes card matching the namespace (the page carries the flips and a few). */
  modesMatched: z.number(),
  /** What matters first: the fleet's findings grouped as on Findings, narrowed to the namespace. */
  groups: z.array(FindingGroupSchema),
});

/** The fleet as /api/timelines answers it: one page of rows. */
export const TimelinePagedFleetSchema = TimelineFleetSchema.extend({ page: TimelinePageSchema });

export const GanttSegmentSchema = z.object({
  kind: z.enum(['waiting', 'running', 'terminated', 'restart']),
  from: z.string(),
  to: z.string().nullable(),
  label: z.string(),
});

export const GanttRowSchema = z.object({
  container: z.string(),
  role: z.enum(['init', 'proxy', 'app']),
  segments: z.array(GanttSegmentSchema),
});

export const GanttMarkerSchema = z.object({
  time: z.string(),
  kind: z.string(),
  source: z.string(),
  confidence: ConfidenceSchema,
  container: z.string().optional(),
  label: z.string().optional(),
});

export const PodGanttSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  rows: z.array(GanttRowSchema),
  markers: z.array(GanttMarkerSchema),
  start: z.string().nullable(),
  end: z.string().nullable(),
});

const evidenceValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const VerdictViewSchema = z.object({
  verdict: VerdictSchema,
  code: z.string(),
  phase: z.enum(['startup', 'shutdown']),
  confidence: ConfidenceSchema,
  evidence: z.record(z.string(), evidenceValue),
  fixes: z.array(FixSchema),
});

export const PodTimelineViewSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  uid: z.string().nullable(),
  workloadKind: z.string(),
  workload: z.string(),
  mode: StartupModeSchema,
  modeReasons: z.array(z.string()),
  excluded: z.string().nullable(),
  deleted: z.boolean(),
  deletedAt: z.string().nullable(),
  deletedUncertain: z.boolean(),
  proxyReady: z.object({
    at: z.string().nullable(),
    notBefore: z.string().nullable(),
    source: z.string(),
    confidence: ConfidenceSchema,
    clock: z.string(),
    upperBoundOnly: z.boolean(),
    notes: z.array(z.string()),
  }),
  appStartedAt: z.string().nullable(),
  gapMs: z.number().nullable(),
  restarts: z.number(),
  verdicts: z.array(VerdictViewSchema),
  /** The order of its shutdown at deletion; null: outside the mesh, or a gateway. */
  drainOrder: DrainOrderSchema.nullable(),
  gantt: PodGanttSchema,
  notes: z.array(z.string()),
  /** What the timeline was built from. */
  inputs: z.object({ events: z.number(), transitions: z.number() }),
});

export type TimelineFleetRow = z.infer<typeof FleetRowSchema>;
export type WorkloadFix = z.infer<typeof WorkloadFixSchema>;
export type TimelineFleet = z.infer<typeof TimelineFleetSchema>;
export type TimelinePage = z.infer<typeof TimelinePageSchema>;
export type TimelinePagedFleet = z.infer<typeof TimelinePagedFleetSchema>;
export type PodTimelineView = z.infer<typeof PodTimelineViewSchema>;
export type DrainOrderView = z.infer<typeof DrainOrderSchema>;
export type GanttRowView = z.infer<typeof GanttRowSchema>;
export type GanttMarkerView = z.infer<typeof GanttMarkerSchema>;
export type PodGanttView = z.infer<typeof PodGanttSchema>;
export type MeshConfigInfo = z.infer<typeof MeshConfigInfoSchema>;
export type CacheInfo = z.infer<typeof CacheInfoSchema>;

/** Query keys of the Timelines screen (server prefetch and client use the same). */
export const timelineKeys = {
  fleet: () => ['timelines'] as const,
  pod: (namespace: string, name: string, uid: string | null) =>
    ['timelines', namespace, name, uid ?? ''] as const,
};

export type InjectionInfo = z.infer<typeof InjectionInfoSchema>;
export type WorkloadMode = z.infer<typeof WorkloadModeSchema>;
