/**
 * Sidecar startup/shutdown timeline model: startup modes, verdicts, the proxy-ready estimate,
 * the observed transitions recorded from watches, and the per-pod result. Times are epoch
 * milliseconds inside the analysis and RFC 3339 strings at the edges (Transition, Gantt, JSON).
 */
import type { EvidenceValue, FindingFix } from '../findings/types';

/** How the app container is ordered against the proxy at start. */
/**
 * `ambient`: no sidecar, the pod is in the ambient mesh (ztunnel captures its traffic), so
 * there is nothing to race; `none`: no proxy of any kind.
 */
export type StartupMode =
  'classic' | 'hold' | 'native' | 'wrapper' | 'gateway' | 'none' | 'ambient';

import type { Verdict } from './verdicts';
import type { ContainerInstance, PodRestart } from './instances';
import type { DrainOrder } from './drain-order-types';

export type { Verdict };

export type Confidence = 'high' | 'medium' | 'low';

/**
 * Whose clock set a timestamp. Container states and pod conditions come from the kubelet of the
 * pod's node; events from the component that emitted them; `observer` is meshdx's own clock
 * (the time a watch event was received). Timestamps from different clocks are never compared
 * without noting it.
 */
export type ClockSource = 'kubelet' | 'observer' | 'event';

/**
 * One container or condition change, as the server records it from a watch.
 * `time` is the moment the change happened or was seen (see `timeSource`).
 */
export interface Transition {
  time: string;
  podUid: string;
  /** Container name; '' for a pod-level field (conditions). */
  container: string;
  /** 'ready' | 'started' | 'startedAt' | 'restartCount' | 'terminated' | 'condition:<Type>' ... */
  field: string;
  value: string | number | boolean | null;
  /**
   * observed: receipt time of a live watch event (observer clock);
   * condition: a kubelet condition lastTransitionTime that coincides with the change;
   * state: a kubelet container-state timestamp (startedAt/finishedAt);
   * bounded: offline stream without receipt time, `time` is the latest timestamp in the event
   * and `notBefore` the latest one in the previous event.
   */
  timeSource?: 'observed' | 'condition' | 'state' | 'bounded';
  notBefore?: string;
}

export type ProxyReadySource =
  | 'transition'
  | 'envoy-init'
  | 'unhealthy-events'
  | 'containers-ready'
  /** Only a lower bound: istio-proxy start + its probes' initialDelaySeconds. */
  | 'probe-lower-bound'
  | 'none';

export interface ProxyReadyEstimate {
  /** Best point estimate (ms), null when nothing places it. */
  at: number | null;
  /** Proven lower bound (ms): the proxy cannot have been ready before this. */
  notBefore: number | null;
  /**
   * What sets notBefore, for the evidence ("istio-proxy started", "istio-proxy failed a
   * readiness probe"), and whether it is on the pod node's clock (the app's start clock). Two
   * second-resolution times of one clock keep their order, so an app start strictly before a
   * same-clock notBefore proves the race; across clocks the skew tolerance applies.
   */
  notBeforeWhat?: string;
  notBeforeSameClock?: boolean;
  /**
   * What kind of bound notBefore is: the proxy's own start, its start plus the probes'
   * initialDelaySeconds ('probe-lower-bound'), a failed probe, or the last status before ready.
   */
  notBeforeKind?: 'proxy-start' | 'probe-lower-bound' | 'probe-failure' | 'status';
  /** First start of istio-proxy (ms, pod node's clock), null when not visible. */
  proxyStartedAt?: number | null;
  source: ProxyReadySource;
  confidence: Confidence;
  clock: ClockSource;
  /** True when `at` is only an upper bound (ContainersReady of all containers). */
  upperBoundOnly: boolean;
  notes: string[];
}

export interface AppStart {
  container: string;
  /** Start of the first run (ms), null when unknown. */
  startedAt: number | null;
  /** Where it came from: 'running', 'lastState' (first run of a restarted container), 'transition', 'terminated'. */
  source: string;
  restarts: number;
  /** True when the first run is not visible (restartCount > 1): the first run started before startedAt. */
  upperBound: boolean;
  /** Exit code of the first (or earliest visible) finished run. */
  exitCode: number | null;
  /** True when the first run ended early with a failure (non-zero exit or quick restart). */
  earlyFailure: boolean;
  /** End of the first (or earliest visible) finished run, ms. */
  firstRunEndedAt?: number | null;
  /** True when the app's command polls the proxy before starting (wrapper script). */
  guarded: boolean;
  notes: string[];
}

/** What a verdict's first fix changes on the pod template (merged per object: fix-compose.ts). */
export interface FixNeeds {
  /** Keys of proxy.istio.io/config. */
  proxyConfig: Record<string, unknown>;
  graceSeconds: number | null;
  /** A preStop `sleep` per app container, seconds (the pod serves that long after deletion). */
  preStopSleepSeconds?: Record<string, number>;
}

export interface VerdictResult {
  verdict: Verdict;
  code: string;
  phase: 'startup' | 'shutdown';
  confidence: Confidence;
  evidence: Record<string, EvidenceValue>;
  /** Ordered, best first; empty when nothing to change. */
  fixes: FindingFix[];
  /** What the first fix changes, when it patches the pod template's proxy config or grace. */
  needs?: FixNeeds;
}

export interface Workload {
  kind: string;
  name: string;
  namespace: string;
}

export interface PodTimeline {
  namespace: string;
  name: string;
  uid: string | null;
  workload: Workload;
  mode: StartupMode;
  modeReasons: string[];
  /** Why a pod has no verdicts (gateway, no proxy). */
  excluded: string | null;
  proxyReady: ProxyReadyEstimate;
  apps: AppStart[];
  /** Earliest first-run start of an app container, ms. */
  appStartedAt: number | null;
  /** Smallest appStartedAt - proxyReady.at over the apps (negative = raced), ms; null when
   * there is no proxy ready time (a lower bound alone gives no gap). */
  gapMs: number | null;
  restarts: number;
  proxyRestarts: number;
  /** Every visible instance of the pod's containers, with how each one ended. */
  instances: ContainerInstance[];
  /** The last restart (or eviction) that took the app and the proxy together. */
  podRestart: PodRestart | null;
  /** The order of its shutdown at deletion (null: outside the mesh, or a gateway). */
  drainOrder: DrainOrder | null;
  verdicts: VerdictResult[];
  notes: string[];
}
