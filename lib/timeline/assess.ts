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
  if (ready.notBefore !== null && s < ready.notBefore - SKEW_TOLERANCE_MS) {
    return {
      state: 'raced',
      gapMs: gap,
      confidence: 'high',
      reason: `${app.container} started before istio-proxy itself started`,
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
