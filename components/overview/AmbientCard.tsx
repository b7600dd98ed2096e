'use client';

import type { Inventory } from './api';
import { Badge, Card } from '../ui/Card';
import { objectKey } from '../../lib/refs/object-ref';

/** ztunnel per node (with the ambient pods it captures) and the waypoints with their users. */
export function AmbientCard({ ambient }: { ambient: Inventory['ambient'] }) {
  return (
    <Card title="Ambient data plane: ztunnels and waypoints" testId="ambient-card">
      <div className="grid gap-6 md:grid-cols-2">
        <table className="w-full text-sm" data-testid="ztunnel-nodes">
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="py-1.5">Node</th>
              <th>ztunnel</th>
              <th>Ready</th>
              <th className="text-right">Ambient pods</th>
            </tr>
          </thead>
          <tbody>
            {ambient.ztunnels.map((z) => (
              <tr key={z.name} className="border-t border-slate-100" data-ztunnel={z.name}>
                <td className="py-1.5">{z.node ?? '–'}</td>
                <td className="font-mono text-xs">{z.name}</td>
                <td>
                  <Badge tone={z.ready ? 'good' : 'bad'}>{z.ready ? 'ready' : 'not ready'}</Badge>
                </td>
                <td className="text-right tabular-nums">{z.ambientPods}</td>
              </tr>
            ))}
            {ambient.ztunnels.length === 0 && (
              <tr>
                <td colSpan={4} className="py-1.5 text-slate-500">
                  No ztunnel pods (app=ztunnel in the Istio namespace).
                </td>
              </tr>
            )}
          </tbody>
        </table>
        <div>
          <table className="w-full text-sm" data-testid="waypoints">
            <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="py-1.5">Waypoint</th>
                <th>Gateway</th>
                <th className="text-right">Pods ready</th>
                <th className="text-right">Used by pods</th>
              </tr>
            </thead>
            <tbody>
              {ambient.waypoints.map((w) => (
                <tr
                  key={objectKey(w.namespace, w.name)}
                  className="border-t border-slate-100"
                  data-waypoint={objectKey(w.namespace, w.name)}
                >
                  <td className="py-1.5 font-mono text-xs">
                    {w.namespace}/{w.name}
                  </td>
                  <td>{w.gateway ? <Badge tone="good">istio-waypoint</Badge> : '–'}</td>
                  <td className="text-right tabular-nums">
                    {w.readyPods}/{w.pods}
                  </td>
                  <td className="text-right tabular-nums">{w.usedBy}</td>
                </tr>
              ))}
              {ambient.waypoints.length === 0 && (
                <tr>
                  <td colSpan={4} className="py-1.5 text-slate-500">
                    No waypoints.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
          {ambient.gatewaysNote && (
            <p className="mt-2 text-xs text-slate-500" data-testid="gateways-note">
              Gateways: {ambient.gatewaysNote}; waypoints found by their pods only.
            </p>
          )}
        </div>
      </div>
    </Card>
  );
}
