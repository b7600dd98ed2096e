'use client';

import type { PodRow } from '../../lib/api/inventory';
import { Card } from '../ui/Card';
import { StateBadge } from './PodsTable';

/** The live half of an IP lookup: which pod holds the IP now (history is in the tables below). */
export function IpHolders({ ip, pods }: { ip: string; pods: PodRow[] }) {
  const rows = pods.filter((p) => p.podIP === ip);
  return (
    <Card title={`Who holds ${ip} now`}>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-700" data-testid="ip-not-live">
          No live pod holds <span className="font-mono">{ip}</span> now.
        </p>
      ) : (
        <table className="w-full text-left text-sm" data-testid="ip-table">
          <tbody>
            {rows.map((p) => (
              <tr key={`${p.namespace}/${p.name}`}>
                <td className="py-0.5 font-mono text-xs">
                  {p.namespace}/{p.name}
                </td>
                <td className="text-xs">{p.workload}</td>
                <td className="text-xs">{p.node ?? '–'}</td>
                <td>
                  <StateBadge state={p.deleting ? 'terminating' : 'live'} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
