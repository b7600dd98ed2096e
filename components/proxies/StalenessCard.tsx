import type { FleetView } from './api';
import { Card } from '../ui/Card';
import { count } from './format';
import { fmtDuration } from '../../lib/incidents/format';
import { tryParsePodRef } from '../../lib/refs/pod-ref';
import { PodLink } from '../inventory/PodLink';

const TYPES = ['CDS', 'LDS', 'RDS', 'EDS'] as const;

/**
 * The fleet's stale proxies as `istioctl proxy-status` states them per xDS type, from istiod's
 * syncz alone, the longest waiting first, against the view's threshold.
 */
export function StalenessCard({ fleet }: { fleet: FleetView }) {
  const s = fleet.sync.staleness;
  if (s === null || s.stale === 0) return null;
  return (
    <Card title="Proxies waiting on an xDS ACK (istiod syncz)" testId="proxy-staleness">
      <p className="mb-2 text-xs text-slate-600">
        {count(s.stale)} of {count(s.proxies)} proxies have a type sent and not acknowledged;{' '}
        {count(s.overThreshold)} wait longer than {fmtDuration(s.thresholdMs)} or were never
        acknowledged.
        {s.ageUnknown > 0 &&
          ` ${count(s.ageUnknown)} wait on nonces that name no push time (age unknown).`}{' '}
        The age is since the push version the sent nonce carries (an EDS push reuses the last full
        push&apos;s, so it is at most that).
      </p>
      {s.top.length > 0 && (
        <table className="w-full text-left text-xs">
          <thead>
            <tr className="text-slate-600">
              <th className="py-1 pr-2">proxy</th>
              {TYPES.map((t) => (
                <th key={t} className="py-1 pr-2">
                  {t}
                </th>
              ))}
              <th className="py-1 pr-2">istiod</th>
            </tr>
          </thead>
          <tbody>
            {s.top.map((p) => {
              const ref = tryParsePodRef(p.proxy);
              return (
                <tr key={p.proxy} className="border-t" data-testid="stale-proxy">
                  <td className="py-1 pr-2">{ref ? <PodLink pod={ref} /> : p.proxy}</td>
                  {TYPES.map((t) => {
                    const x = p.types[t];
                    return (
                      <td
                        key={t}
                        className={`py-1 pr-2 ${x?.state.startsWith('STALE') ? 'text-amber-700' : ''}`}
                      >
                        {x ? x.state : 'unknown'}
                        {x?.state.startsWith('STALE') &&
                          (x.ageMs !== null ? ` (${fmtDuration(x.ageMs)})` : ' (age unknown)')}
                      </td>
                    );
                  })}
                  <td className="py-1 pr-2">{p.istiod}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </Card>
  );
}
