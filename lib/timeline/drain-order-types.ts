/** The shape of a pod's drain order at deletion (drain-order.ts computes it). */
import type { TerminationFailures } from '../incidents/pod-failures';

/** How the proxy starts draining at deletion. */
export type DrainStart =
  /** SIGTERM with the apps, after istio-proxy's own preStop. */
  | 'classic-sigterm'
  /** The injector's preStop `pilot-agent request POST drain`, run when the deletion starts. */
  | 'native-prestop'
  /** A native sidecar without a drain preStop: SIGTERM once every app has exited. */
  | 'native-after-apps'
  /** No sidecar: the node's ztunnel holds the workload until it removes it. */
  | 'ztunnel';

export interface DrainOrderStep {
  what: 'deletion' | 'app-sigterm' | 'proxy-drain' | 'app-exit' | 'proxy-exit' | 'last-failure';
  /** RFC 3339; null when unknown (then `unknown` says why). */
  at: string | null;
  /** Milliseconds after the deletion started, when both are known. */
  afterDeletionMs: number | null;
  /** Where the instant comes from. */
  source: string;
  unknown: string | null;
}

export interface DrainOrder {
  drainStart: DrainStart;
  /** Why the drain starts where it does (the spec that says so). */
  drainStartWhy: string;
  /** EXIT_ON_ZERO_ACTIVE_CONNECTIONS in the proxy's settings; null without a sidecar. */
  exitOnZero: boolean | null;
  /** The proxy's drain once started (terminationDrainDuration); null without a sidecar. */
  drainMs: number | null;
  /** The longest app preStop (s): the apps serve that long after the deletion started. */
  appPreStopSeconds: number | null;
  /** The proxy drains while an app still serves: ms of that overlap, null when unknown. */
  drainWhileAppServesMs: number | null;
  steps: DrainOrderStep[];
  /** The failing requests recorded against the termination; null: not read. */
  failures: TerminationFailures | null;
}
