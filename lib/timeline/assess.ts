/** Places one app container's first start against the proxy ready estimate. */
import { SKEW_TOLERANCE_MS, minConfidence } from './time';
import type { AppStart, Confidence, ProxyReadyEstimate } from './types';

/** Clock skew between two nodes that NTP-synced clusters still show: a margin under it proves little. */
export const PLAUSIBLE_SKEW_MS = 2000;
/** "Within its first seconds": a first run that failed this soon after starting. */
export const EARLY_FAILURE_MS = 10_000;

export interface Assessment {
  state: 'raced' | 'ok' | 'simultaneous' | 'unknown';
  /** App start minus the proxy ready estimate; null without an estimate (a bound is no gap). */
  gapMs: number | null;
  confidence: Confidence;
  reason: string;
  /** What decided a race: 'proxy-start', 'probe-lower-bound', 'probe-failure', 'status', 'ready-estimate', 'early-exit'. */
  basis?: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Proven order from a lower bound of the proxy ready moment, or null when it proves nothing. */
function fromLowerBound(s: number, ready: ProxyReadyEstimate, app: string): Assessment | null {
  const nb = ready.notBefore;
  if (nb === null) return null;
  const gap = ready.at === null ? null : s - ready.at;
  const what = ready.notBeforeWhat ?? 'istio-proxy started';
  const kind = ready.notBeforeKind ?? 'proxy-start';
  const start = ready.proxyStartedAt ?? null;
  const margin = nb - s;
  if (ready.notBeforeSameClock !== false) {
    // startedAt has whole-second precision: only an app start a full second before the bound,
    // or strictly before the proxy container's own start, is proven to be before it.
    if (start !== null && s < start) {
      return {
        state: 'raced',
        gapMs: gap,
        confidence: 'high',
        basis: 'proxy-start',
        reason: `${app} started before istio-proxy started (${iso(start)}): the proxy was not ready yet`,
      };
    }
    if (margin < 1000) return null;
    return {
      state: 'raced',
      gapMs: gap,
      confidence: kind === 'probe-lower-bound' ? 'medium' : 'high',
      basis: kind,
      reason: `${app} started before ${what} (${iso(nb)}): the proxy was not ready yet`,
    };
  }
  // Two clocks (an event from another kubelet vs this node's startedAt).
  if (margin <= SKEW_TOLERANCE_MS) return null;
  const skewy = margin <= SKEW_TOLERANCE_MS + PLAUSIBLE_SKEW_MS;
  return {
    state: 'raced',
    gapMs: gap,
    confidence: skewy ? 'medium' : 'high',
    basis: kind,
    reason:
      `${app} started before ${what} (${iso(nb)}): the proxy was not ready yet` +
      (skewy
        ? `; decided across two clocks with a ${margin / 1000}s margin, within plausible node clock skew`
        : ''),
  };
}

/**
 * An app whose first run failed (non-zero exit) within its first seconds and ended before the
 * proxy was ready (or, lacking that, before ContainersReady) raced it and died of it.
 */
function earlyExit(app: AppStart, ready: ProxyReadyEstimate): Assessment | null {
  const s = app.startedAt;
  const end = app.firstRunEndedAt ?? null;
  if (s === null || end === null || app.upperBound || !app.earlyFailure) return null;
  if (app.exitCode === null || app.exitCode === 0 || end - s > EARLY_FAILURE_MS) return null;
  if (ready.at === null || end >= ready.at) return null;
  const upper = ready.upperBoundOnly;
  return {
    state: 'raced',
    gapMs: s - ready.at,
    confidence: upper ? 'low' : 'medium',
    basis: 'early-exit',
    reason: `${app.container}'s first run exited ${app.exitCode} after ${(end - s) / 1000}s, before ${
      upper ? 'ContainersReady (the proxy ready moment itself is not known)' : 'the proxy was ready'
    } (${iso(ready.at)}): it started before the proxy was ready`,
  };
}

export function assessApp(app: AppStart, ready: ProxyReadyEstimate): Assessment {
  const s = app.startedAt;
  if (s === null) {
    return {
      state: 'unknown',
      gapMs: null,
      confidence: 'low',
      reason: `no start time for ${app.container}`,
    };
  }
  const proven = fromLowerBound(s, ready, app.container);
  if (proven) return proven;
  if (ready.at === null) {
    return {
      state: 'unknown',
      gapMs: null,
      confidence: 'low',
      reason: `proxy ready time unknown: no ready transition (watch stream), Unhealthy events, Envoy init time or ContainersReady condition${
        ready.notes.length ? ` (${ready.notes.join('; ')})` : ''
      }`,
    };
  }
  const d = s - ready.at;
  const crossClock = ready.clock !== 'kubelet';
  const conf: Confidence = crossClock
    ? minConfidence(ready.confidence, 'medium')
    : ready.confidence;
  const exited = d < 0 || Math.abs(d) <= SKEW_TOLERANCE_MS ? earlyExit(app, ready) : null;
  if (
    exited &&
    (ready.upperBoundOnly || ready.source === 'unhealthy-events' || d >= -SKEW_TOLERANCE_MS)
  ) {
    return exited;
  }
  if (Math.abs(d) <= SKEW_TOLERANCE_MS) {
    return {
      state: 'simultaneous',
      gapMs: d,
      confidence: 'low',
      reason: `${app.container} started within ${SKEW_TOLERANCE_MS} ms of proxy ready: treated as simultaneous`,
    };
  }
  if (d < 0) {
    if (ready.source === 'unhealthy-events' && ready.notBefore !== null && s >= ready.notBefore) {
      // The proxy became ready somewhere between its last failed probe and the next probe: an
      // app start inside that window is not proven to be before it (pilot-agent wait, for one,
      // checks readiness itself and lets the app start before the kubelet's next probe).
      return {
        state: 'unknown',
        gapMs: d,
        confidence: 'low',
        reason: `${app.container} started after istio-proxy's last failed probe and before the next one: which came first is not known`,
      };
    }
    if (ready.upperBoundOnly) {
      return {
        state: 'unknown',
        gapMs: d,
        confidence: 'low',
        reason: `${app.container} started after istio-proxy started but before ContainersReady; the proxy ready moment inside that window is unknown (missing: a ready transition from a watch stream, or istio-proxy's Unhealthy events)`,
      };
    }
    return {
      state: 'raced',
      gapMs: d,
      confidence: conf,
      reason: `${app.container} started ${-d} ms before proxy ready`,
    };
  }
  if (app.upperBound) {
    return {
      state: 'unknown',
      gapMs: d,
      confidence: 'low',
      reason: `${app.container} restarted ${app.restarts}x and its first run is not visible`,
    };
  }
  return {
    state: 'ok',
    gapMs: d,
    confidence: conf,
    reason: `${app.container} started ${d} ms after proxy ready`,
  };
}
