'use client';

import { useQuery } from '@tanstack/react-query';
import { QueryBoundary } from '../data/QueryBoundary';
import { useClusterContext } from '../data/useClusterContext';
import { Badge, Card } from '../ui/Card';
import { bytes, count } from './format';
import { ztunnelDetailQuery, type ZtunnelDetail, type ZtunnelRow } from './api';
import { podKey, tryParsePodRef } from '../../lib/refs/pod-ref';
import { problemText } from '../../lib/parse-problem';

function WorkloadTable({ d }: { d: ZtunnelDetail }) {
  return (
    <div>
      {d.read && (
        <p className="mb-2 text-sm" data-testid="ztunnel-summary">
          <b className="tabular-nums">{count(d.workloads.length)}</b> workloads,{' '}
          <b className="tabular-nums">{count(d.services)}</b> services
          {d.stale > 0 && (
            <>
              , <Badge tone="warn">{d.stale} stale</Badge> (no live pod backs them)
            </>
          )}
        </p>
      )}
      {d.problem && (
        <p className="mb-1 text-xs text-amber-700" data-testid="ztunnel-error">
          {d.problem}
        </p>
      )}
      {d.errors.map((e, i) => (
        <p key={i} className="mb-1 text-xs text-amber-700" data-testid="ztunnel-error">
          {problemText(e)}
        </p>
      ))}
      {d.workloads.length > 0 && (
        <div className="max-h-[480px] overflow-y-auto">
          <table className="w-full font-mono text-xs" data-testid="ztunnel-workloads">
            <thead className="sticky top-0 bg-white text-left uppercase text-slate-500">
              <tr>
                <th className="py-1">NAMESPACE</th>
                <th>POD NAME</th>
                <th>ADDRESS</th>
                <th>NODE</th>
                <th>WAYPOINT</th>
                <th>PROTOCOL</th>
              </tr>
            </thead>
            <tbody>
              {d.workloads.map((w) => (
                <tr
                  key={`${podKey(w.namespace, w.name)}|${w.ip}`}
                  className={`border-t border-slate-100 ${w.stale ? 'bg-amber-50' : ''}`}
                  data-stale={w.stale ? w.stale.reason : undefined}
                >
                  <td className="py-0.5">{w.namespace}</td>
                  <td>
                    {w.name}
                    {w.stale && (
                      <span className="ml-1 text-amber-800">
                        {w.stale.reason === 'pod-gone'
                          ? '(pod gone)'
                          : `(IP now ${w.stale.holder ?? 'another pod'}'s)`}
                      </span>
                    )}
                  </td>
                  <td>{w.ip}</td>
                  <td>{w.node}</td>
                  <td>{w.waypoint ?? 'None'}</td>
                  <td>{w.protocol}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Detail({ namespace, name }: { namespace: string; name: string }) {
  const ctx = useClusterContext();
  const q = useQuery(ztunnelDetailQuery(ctx, namespace, name));
  return (
    <Card title={`ztunnel ${podKey(namespace, name)}`} testId="ztunnel-detail">
      <QueryBoundary query={q} what="the ztunnel's config">
        {(d) => <WorkloadTable d={d} />}
      </QueryBoundary>
    </Card>
  );
}

/** ztunnels are no Envoy: per node what its config holds, its memory; one opens its table. */
export function ZtunnelCard({
  rows,
  selected,
  onSelect,
}: {
  rows: readonly ZtunnelRow[];
  selected: string | undefined;
  onSelect: (key: string) => void;
}) {
  if (rows.length === 0) return null;
  const sel = selected ? tryParsePodRef(selected) : null;
  return (
    <div className="mb-4 space-y-4">
      <Card title="ztunnels (ambient node proxies)" testId="ztunnels-card">
        <table className="w-full text-sm" data-testid="ztunnels-table">
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="py-1.5">ztunnel</th>
              <th>Node</th>
              <th>Ready</th>
              <th className="text-right">Workloads</th>
              <th className="text-right">Services</th>
              <th className="text-right">Stale</th>
              <th className="text-right">Memory</th>
              <th className="pl-4">Note</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((z) => {
              const key = podKey(z.namespace, z.name);
              return (
                <tr
                  key={key}
                  data-ztunnel-key={key}
                  className={`cursor-pointer border-t border-slate-100 hover:bg-sky-50 ${selected === key ? 'bg-sky-100' : ''}`}
                  onClick={() => onSelect(key)}
                >
                  <td className="py-1.5 font-mono text-xs">{z.name}</td>
                  <td>{z.node ?? '–'}</td>
                  <td>
                    <Badge tone={z.ready ? 'good' : 'bad'}>{z.ready ? 'ready' : 'not ready'}</Badge>
                  </td>
                  <td className="text-right tabular-nums">{count(z.workloads)}</td>
                  <td className="text-right tabular-nums">{count(z.services)}</td>
                  <td className="text-right tabular-nums">
                    {z.stale ? <Badge tone="warn">{z.stale}</Badge> : count(z.stale)}
                  </td>
                  <td className="text-right tabular-nums">{bytes(z.memoryBytes)}</td>
                  <td className="pl-4 text-xs text-slate-600">{z.problem ?? ''}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {rows.every((z) => z.memoryBytes === null) && (
          <p className="mt-2 text-xs text-slate-500">
            Memory: metrics.k8s.io (metrics-server) is not served by this cluster.
          </p>
        )}
      </Card>
      {sel && <Detail namespace={sel.namespace} name={sel.name} />}
    </div>
  );
}
