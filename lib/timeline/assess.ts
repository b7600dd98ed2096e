/** Places one app container's first start against the proxy ready estimate. */
import { SKEW_TOLERANCE_MS, minConfidence } from './time';
import type { AppStart, Confidence, ProxyReadyEstimate } from './types';

export interface Assessment {
  state: 'raced' | 'ok' | 'simultaneous' | 'unknown';
  gapMs: number | null;
  confidence: Confidence;
  reason: string;
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
  const ref = ready.at ?? ready.notBefore;
  const gap = ref === null ? null : s - ref;
  // Same clock, second resolution: strictly earlier is proven; across clocks allow for skew.
  const tolerance = ready.notBeforeSameClock ? 0 : SKEW_TOLERANCE_MS;
  if (ready.notBefore !== null && s < ready.notBefore - tolerance) {
    const what = ready.notBeforeWhat ?? 'istio-proxy started';
    return {
      state: 'raced',
      gapMs: gap,
      confidence: 'high',
      reason: `${app.container} started before ${what} (${new Date(ready.notBefore).toISOString()}): the proxy was not ready yet`,
    };
  }
  if (ready.at === null) {
    return {
      state: 'unknown',
      gapMs: gap,
      confidence: 'low',
      reason: `proxy ready time unknown (${ready.notes.join('; ') || 'no data'})`,
    };
  }
  const d = s - ready.at;
  const crossClock = ready.clock !== 'kubelet';
  const conf: Confidence = crossClock
    ? minConfidence(ready.confidence, 'medium')
    : ready.confidence;
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
        reason: `${app.container} started after istio-proxy started but before ContainersReady; the proxy ready moment inside that window is unknown`,
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
