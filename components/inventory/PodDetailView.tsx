import type { PodDetail } from '../../lib/api/inventory';
import { Badge, Card } from '../ui/Card';
import { shortTime } from './format';

export function PodDetailView({ detail }: { detail: PodDetail }) {
  const p = detail.pod;
  return (
    <div className="space-y-4" data-testid="pod-page">
      <Card title="Containers">
        <table className="w-full text-sm">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th>Container</th>
              <th>Kind</th>
              <th>State</th>
              <th>Ready</th>
              <th>Restarts</th>
              <th>Started</th>
            </tr>
          </thead>
          <tbody>
            {p.containers.map((c) => (
              <tr key={`${c.init}-${c.name}`} className="border-t border-slate-100">
                <td className="py-1 font-mono text-xs">{c.name}</td>
                <td>{c.init ? 'init' : 'main'}</td>
                <td>
                  {c.state}
                  {c.reason ? ` (${c.reason})` : ''}
                </td>
                <td>{c.ready ? 'yes' : 'no'}</td>
                <td>{c.restarts}</td>
                <td className="font-mono text-xs">{shortTime(c.startedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-2 text-sm">
          Proxy:{' '}
          <Badge tone={p.proxy.placement === 'none' ? 'neutral' : 'info'}>
            {p.proxy.placement}
          </Badge>{' '}
          {p.proxy.image && (
            <span className="font-mono text-xs text-slate-500">{p.proxy.image}</span>
          )}
        </p>
      </Card>
      <Card title={`Events (${detail.events.length})`}>
        {detail.events.length === 0 ? (
          <p className="text-sm text-slate-600">
            The cluster keeps no events for this pod (events expire after about an hour).
          </p>
        ) : (
          <table className="w-full text-sm">
            <thead className="text-left text-xs text-slate-500">
              <tr>
                <th>First</th>
                <th>Type</th>
                <th>Reason</th>
                <th>Object</th>
                <th>Message</th>
              </tr>
            </thead>
            <tbody>
              {detail.events.map((e, i) => (
                <tr key={i} className="border-t border-slate-100 align-top">
                  <td className="py-1 font-mono text-xs">{shortTime(e.firstTime)}</td>
                  <td>{e.type === 'Warning' ? <Badge tone="warn">Warning</Badge> : e.type}</td>
                  <td>
                    {e.reason}
                    {e.count > 1 ? ` ×${e.count}` : ''}
                  </td>
                  <td className="font-mono text-xs">{e.fieldPath ?? ''}</td>
                  <td className="break-all text-xs">{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <Card title="Annotations">
        <pre className="overflow-x-auto text-xs" tabIndex={0}>
          {Object.entries(detail.annotations)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n') || '(none)'}
        </pre>
      </Card>
    </div>
  );
}
