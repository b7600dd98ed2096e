import { shortTime } from '../inventory/format';
import type { DrainOrderView } from './api';

const STEP_LABEL: Record<DrainOrderView['steps'][number]['what'], string> = {
  deletion: 'deletion started',
  'app-sigterm': 'app SIGTERM',
  'proxy-drain': 'proxy drain starts',
  'app-exit': 'app exited',
  'proxy-exit': 'proxy exited',
  'last-failure': 'last failing request',
};

const START_LABEL: Record<DrainOrderView['drainStart'], string> = {
  'classic-sigterm': 'classic sidecar: SIGTERM with the app',
  'native-prestop': 'native sidecar: drains at the deletion',
  'native-after-apps': 'native sidecar: stopped after the app',
  ztunnel: 'ambient: the ztunnels hold the workload',
};

function offset(ms: number | null): string {
  if (ms === null) return '';
  return `+${(ms / 1000).toFixed(1)} s`;
}

/** The pod's shutdown at deletion, in order, as the analysis computed it (drain-order.ts). */
export function DrainOrderTable({ order }: { order: DrainOrderView }) {
  const f = order.failures;
  return (
    <div className="mt-3" data-testid="drain-order" data-drain-start={order.drainStart}>
      <h4 className="mb-1 text-xs font-semibold text-slate-600">
        Drain order at deletion: {START_LABEL[order.drainStart]}
      </h4>
      <p className="mb-1 text-[11px] text-slate-500">
        {order.drainStartWhy}
        {order.exitOnZero !== null &&
          ` EXIT_ON_ZERO_ACTIVE_CONNECTIONS ${order.exitOnZero ? 'on' : 'off'}; drain ${
            order.drainMs === null ? 'unknown' : `${order.drainMs / 1000} s`
          }.`}
        {order.drainWhileAppServesMs !== null &&
          ` The proxy drained ${(order.drainWhileAppServesMs / 1000).toFixed(1)} s while the app still served.`}
        {f !== null &&
          ` Failing requests recorded against the termination: ${f.count} (${f.toTerminating} while terminating, ${f.toGone} after it was gone).`}
      </p>
      <table className="w-full text-xs">
        <tbody>
          {order.steps.map((s) => (
            <tr key={s.what} className="border-t border-slate-100" data-testid={`drain-${s.what}`}>
              <td className="py-0.5 pr-2">{STEP_LABEL[s.what]}</td>
              <td className="whitespace-nowrap pr-2 font-mono">
                {s.at === null ? 'unknown' : shortTime(s.at)}
              </td>
              <td className="whitespace-nowrap pr-2 font-mono">{offset(s.afterDeletionMs)}</td>
              <td className="text-slate-500">{s.unknown ?? s.source}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
