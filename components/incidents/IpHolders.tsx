'use client';

import { useQuery } from '@tanstack/react-query';
import type { PodRow } from './api';
import { isIpAddress } from '../../lib/inventory/pod-list';
import { podListQuery } from '../inventory/api';
import { QueryBoundary } from '../data/QueryBoundary';
import { Card } from '../ui/Card';
import { PodLink } from '../inventory/PodLink';
import { StateBadge } from './PodsTable';
import { podKeyOf } from '../../lib/refs/pod-ref';

/**
 * The live half of an IP lookup: which pod holds the IP now, asked of the server for that one
 * address (history is in the tables below).
 */
export function IpHolders({ ip, context }: { ip: string; context: string | null }) {
  const valid = isIpAddress(ip);
  const query = useQuery({ ...podListQuery(context, { ip }), enabled: valid });
  return (
    <Card title={`Who holds ${ip} now`}>
      {!valid ? (
        <p className="text-sm text-slate-700" data-testid="ip-not-address">
          <span className="font-mono">{ip}</span> is not an IPv4 or IPv6 address.
        </p>
      ) : (
        <QueryBoundary query={query} what="the pods holding this address">
          {(list) => <Holders ip={ip} rows={list.pods} />}
        </QueryBoundary>
      )}
    </Card>
  );
}

function Holders({ ip, rows }: { ip: string; rows: PodRow[] }) {
  return (
    <>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-700" data-testid="ip-not-live">
          No live pod holds <span className="font-mono">{ip}</span> now.
        </p>
      ) : (
        <table className="w-full text-left text-sm" data-testid="ip-table">
          <tbody>
            {rows.map((p) => (
              <tr key={podKeyOf(p)}>
                <td className="py-0.5 font-mono text-xs">
                  <PodLink pod={p} />
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
    </>
  );
}
