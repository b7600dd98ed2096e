import type { FleetProgress } from './api';
import { count } from './format';

/** "412 of 1,200 proxies" while the scan runs. */
export function ScanProgress({ progress }: { progress: FleetProgress | null }) {
  const done = progress?.done ?? 0;
  const total = progress?.total ?? 0;
  const pct = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <div
      className="rounded-md border border-slate-200 bg-white p-4 text-sm text-slate-700"
      data-testid="loading"
      role="status"
    >
      <div data-testid="scan-progress">
        Scanning proxies:{' '}
        {total > 0 ? `${count(done)} of ${count(total)} proxies` : 'listing pods and Sidecars…'}
        {progress && progress.unreachable > 0 && (
          <span className="ml-2 text-red-700">({count(progress.unreachable)} unreachable)</span>
        )}
      </div>
      <div className="mt-2 h-2 overflow-hidden rounded bg-slate-100">
        <div className="h-2 bg-sky-500" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
