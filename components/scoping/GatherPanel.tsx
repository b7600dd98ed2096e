'use client';

import type { ScopingView } from './api';
import { Badge } from '../ui/Card';
import { duration, num, seconds, sourceLabel } from './format';
import { podKey } from '../../lib/refs/pod-ref';
import { PodLink } from '../inventory/PodLink';

/** Proxies not measured that are named one by one (all are counted). */
const LISTED = 5;

/** Where the measured counts came from: Prometheus's fleet series, each proxy's :15090, or both. */
function countsFrom(measured: number, fromPrometheus: number): string {
  if (measured === 0) return '';
  if (fromPrometheus === measured) return ' (from Prometheus)';
  if (fromPrometheus === 0) return " (from each proxy's :15090)";
  return ` (${num(fromPrometheus)} from Prometheus, ${num(measured - fromPrometheus)} from each proxy's :15090)`;
}

/** Which sources answered, which proxies did not, the observation window and istiod push health. */
export function GatherPanel({ view }: { view: ScopingView }) {
  const { gather, push, report } = view;
  return (
    <div className="grid gap-4 text-sm md:grid-cols-2" data-testid="scoping-gather">
      <div className="space-y-1">
        <div className="text-xs font-semibold uppercase text-slate-500">Sources</div>
        {gather.sources.map((s) => (
          <div key={s.source} data-testid={`source-${s.source}`}>
            <span className="font-medium">{sourceLabel(s.source)}</span>:{' '}
            {s.source === 'prometheus' && gather.prometheus === 'off'
              ? 'not configured (MESHDX_PROMETHEUS)'
              : `${num(s.available)} of ${num(s.asked)} available`}
            {s.reasons.map((r) => (
              <div key={r.reason} className="ml-3 text-xs text-slate-500">
                {r.count} × {r.reason}
              </div>
            ))}
          </div>
        ))}
        <div data-testid="counts-source">
          Cluster counts: {num(gather.countsMeasured)} of {num(gather.proxies)} proxies
          {countsFrom(gather.countsMeasured, gather.countsFromPrometheus ?? 0)}
          {gather.countsPrometheusError && (
            <div className="ml-3 text-xs text-amber-800" data-testid="counts-prometheus-error">
              not from Prometheus: {gather.countsPrometheusError}
            </div>
          )}
          {gather.unreachableTotal > 0 && (
            <span className="text-red-700" data-testid="unreachable-count">
              {' '}
              ({num(gather.unreachableTotal)} not measured, shown as unknown, not 0: a pod not
              running or a proxy that did not answer;{' '}
              {gather.unreachableTotal > LISTED ? `the first ${LISTED} named below` : 'named below'}
              )
            </span>
          )}
        </div>
        {gather.unreachable.slice(0, LISTED).map((u) => (
          <div key={podKey(u.namespace, u.pod)} className="ml-3 text-xs text-red-700">
            <PodLink pod={{ namespace: u.namespace, name: u.pod }} />: {u.reason}
          </div>
        ))}
        <div className="text-xs text-slate-500">
          Window:{' '}
          {report.window ? (
            <>
              {duration(report.window.seconds)}{' '}
              {!report.window.trusted && <Badge tone="warn">short: calls may be missing</Badge>}
            </>
          ) : (
            'none (nothing observed)'
          )}{' '}
          · gathered in {num(gather.durationMs)} ms, {gather.concurrency} at a time
        </div>
      </div>
      <div className="space-y-1" data-testid="push-health">
        <div className="text-xs font-semibold uppercase text-slate-500">istiod push health</div>
        {push.error && <div className="text-amber-800">{push.error}</div>}
        {push.istiods.map((i) => (
          <div key={i.pod}>
            <span className="font-mono">{i.pod}</span>:{' '}
            {i.reachable ? (
              <>
                {num(i.connectedProxies)} proxies, {num(i.services)} services, convergence p50{' '}
                {seconds(i.convergence?.p50)} / p99 {seconds(i.convergence?.p99)}, pushes{' '}
                {Object.entries(i.pushes)
                  .map(([k, v]) => `${k} ${num(v)}`)
                  .join(', ') || '–'}
                {i.configSizeMeanBytes !== null && (
                  <>, {num(Math.round(i.configSizeMeanBytes / 1024))} KiB per push</>
                )}
                {i.implausible.length > 0 && (
                  <ul className="text-amber-800" data-testid="push-implausible">
                    {i.implausible.map((x) => (
                      <li key={x.figure}>
                        not believed: {x.figure} read {x.raw} ({x.reason}); shown as unknown
                      </li>
                    ))}
                  </ul>
                )}
              </>
            ) : (
              <span className="text-red-700">not read: {i.error}</span>
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
