import type { ApiBudget } from '../../lib/api/budget';

const n = (v: number) => v.toLocaleString('en-US');

/**
 * The line at the foot of a view: what meshdx itself has asked of this cluster's API server
 * (requests by kind, rate, throttled waits, 429s, retries) against its request budget.
 */
export function ApiFooter({ api }: { api: ApiBudget }) {
  const r = api.requests;
  const total = r.list + r.get + r.proxy + r.portforward + r.log + r.other;
  return (
    <p
      className="mt-6 border-t border-slate-200 pt-2 text-xs text-slate-500"
      data-testid="api-footer"
    >
      meshdx → API server since {api.since.replace('T', ' ').slice(0, 19)}Z: {n(total)} requests
      (list {n(r.list)} · get {n(r.get)} · pods/proxy {n(r.proxy)} · port-forward {n(r.portforward)}{' '}
      · logs {n(r.log)} · other {n(r.other)}) + {n(r.watch)} watches (not rate-limited) ·{' '}
      {api.recentQps}/s over 10 s, peak {n(api.peakQps)}/s (budget {api.qps} QPS, burst {api.burst})
      · {n(api.throttledWaits)} throttled waits ({(api.throttledMs / 1000).toFixed(1)} s) ·{' '}
      {n(api.tooManyRequests)} × 429 ({(api.retryAfterMs / 1000).toFixed(1)} s Retry-After) ·{' '}
      {n(api.retries)} retries · pods/proxy + port-forward in flight {api.inFlightProxy}/
      {api.proxyConcurrency} (peak {api.peakInFlightProxy})
    </p>
  );
}
