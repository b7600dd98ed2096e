'use client';

import Link from 'next/link';
import type { NamespaceRow } from './api';
import { Badge } from '../ui/Card';
import { withContext } from '../../lib/api/context';
import { useClusterContext } from '../data/useClusterContext';

const injectionTone = {
  enabled: 'good',
  revision: 'good',
  disabled: 'neutral',
  unset: 'neutral',
} as const;

/** Namespaces with their mesh state; each row links into the views scoped to it. */
export function NamespaceTable({
  rows,
  rootNamespace,
  focus,
  testId,
}: {
  rows: NamespaceRow[];
  /** Istio's root namespace: a Sidecar without selector there is the mesh-wide default. */
  rootNamespace: string;
  focus: 'overview' | 'scoping';
  testId?: string;
}) {
  const ctx = useClusterContext();
  // a Sidecar without selector in the root namespace is every namespace's default but its own
  const meshDefault = rows.some((n) => n.name === rootNamespace && n.defaultSidecar);
  // a cluster of hundreds of namespaces scrolls inside the card, its header kept in view
  return (
    <div className="max-h-[48rem] overflow-y-auto">
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="sticky top-0 bg-white text-left text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-1.5">Namespace</th>
            <th>Injection</th>
            {focus === 'overview' && <th>Data plane</th>}
            <th className="text-right">Pods</th>
            <th className="text-right">Meshed</th>
            <th className="text-right">Services</th>
            <th className="pr-4 text-right">Sidecars</th>
            <th>Default Sidecar</th>
            {focus === 'overview' && <th>Open</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((n) => (
            <tr key={n.name} className="border-t border-slate-100" data-namespace={n.name}>
              <td className="py-1.5 font-medium">{n.name}</td>
              <td>
                <Badge tone={injectionTone[n.injection]}>
                  {n.injection === 'revision' ? `rev ${n.revision}` : n.injection}
                </Badge>
              </td>
              {focus === 'overview' && (
                <td data-dataplane={n.dataplane}>
                  {n.dataplane === 'ambient' ? (
                    <Badge tone="info">
                      ambient {n.ambientPods}
                      {n.waypoint ? ` · ${n.waypoint}` : ''}
                    </Badge>
                  ) : n.sidecarPods > 0 ? (
                    'sidecar'
                  ) : n.meshedPods > 0 ? (
                    // a gateway's or waypoint's own proxy: nothing injected into an app
                    'gateways only'
                  ) : (
                    '–'
                  )}
                </td>
              )}
              <td className="text-right tabular-nums">{n.pods}</td>
              <td className="text-right tabular-nums">{n.meshedPods}</td>
              <td className="text-right tabular-nums">{n.services}</td>
              <td className="pr-4 text-right tabular-nums">{n.sidecars}</td>
              <td>
                {n.defaultSidecar ? (
                  <Badge tone="good">{n.name === rootNamespace ? 'yes: mesh-wide' : 'yes'}</Badge>
                ) : n.dataplane === 'ambient' || n.sidecarPods === 0 ? (
                  // ztunnel, waypoints and gateways ignore Sidecar resources
                  '–'
                ) : meshDefault && n.name !== rootNamespace ? (
                  <span title={`the default Sidecar of ${rootNamespace} applies`}>
                    <Badge tone="good">mesh-wide</Badge>
                  </span>
                ) : (
                  <Badge tone="warn">missing</Badge>
                )}
              </td>
              {focus === 'overview' && (
                <td className="space-x-2 text-sky-700">
                  <Link href={withContext(`/timelines?namespace=${n.name}`, ctx)}>timelines</Link>
                  <Link href={withContext(`/proxies?namespace=${n.name}`, ctx)}>proxies</Link>
                  <Link href={withContext(`/scoping?namespace=${n.name}`, ctx)}>scoping</Link>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
