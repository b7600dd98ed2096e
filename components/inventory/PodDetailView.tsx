import type { PodDetail } from './api';
import { Badge, Card } from '../ui/Card';
import { DrainOrderTable } from '../timeline/DrainOrderTable';
import { shortTime } from './format';
import { PodLink } from './PodLink';
import { tryParsePodRef } from '../../lib/refs/pod-ref';

export function PodDetailView({ detail }: { detail: PodDetail }) {
  const p = detail.pod;
  return (
    <div className="space-y-4" data-testid="pod-page" data-gone={detail.gone}>
      {detail.deletion && <GoneNotice deletion={detail.deletion} />}
      <Card title={detail.gone ? 'Containers (as last seen)' : 'Containers'}>
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
            {detail.gone
              ? 'meshdx recorded no events for this pod.'
              : 'The cluster keeps no events for this pod (events expire after about an hour).'}
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
      <IpSpans detail={detail} />
      <Failures detail={detail} />
      {detail.drainOrder ? (
        <Card title="Drain order at deletion">
          <DrainOrderTable order={detail.drainOrder} />
        </Card>
      ) : (
        detail.drainOrderProblem && (
          <p className="text-xs text-slate-500" data-testid="drain-order-problem">
            Drain order: {detail.drainOrderProblem}
          </p>
        )
      )}
      <Transitions detail={detail} />
      <OtherIncarnations detail={detail} />
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

type Deletion = NonNullable<PodDetail['deletion']>;

/** When meshdx saw it go, or (not watching then) the latest it can have gone. */
function deletionText(d: Deletion): string {
  return d.observed
    ? `deleted at ${shortTime(d.at)} (observed)`
    : `deleted by ${shortTime(d.at)} (inferred: it vanished while meshdx was not watching)`;
}

function GoneNotice({ deletion }: { deletion: Deletion }) {
  return (
    <div
      className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
      role="status"
      data-testid="pod-gone"
    >
      <Badge tone="warn">gone</Badge> This pod no longer exists: it was {deletionText(deletion)}.
      What follows is what meshdx&apos;s history kept of it.
    </div>
  );
}

function IpSpans({ detail }: { detail: PodDetail }) {
  return (
    <Card title={`IP addresses (${detail.ips.length})`}>
      {detail.ips.length === 0 ? (
        <p className="text-sm text-slate-600">
          The IP history holds no address for this pod (none assigned, or host network).
        </p>
      ) : (
        <table className="w-full text-sm" data-testid="pod-ips">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th>IP</th>
              <th>Held from</th>
              <th>Deletion started</th>
              <th>Released</th>
            </tr>
          </thead>
          <tbody>
            {detail.ips.map((s) => (
              <tr key={`${s.ip}@${s.from}`} className="border-t border-slate-100">
                <td className="py-1 font-mono text-xs">{s.ip}</td>
                <td className="font-mono text-xs">
                  {shortTime(s.from)}
                  {s.fromSource === 'event' ? '' : ` (from ${s.fromSource}, or earlier)`}
                </td>
                <td className="font-mono text-xs">{shortTime(s.deletionStartedAt)}</td>
                <td className="font-mono text-xs">
                  {s.goneAt === null
                    ? 'still held'
                    : `${shortTime(s.goneAt)}${s.goneUncertain ? ' (estimate)' : ''}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function Transitions({ detail }: { detail: PodDetail }) {
  return (
    <Card title={`Recorded changes (${detail.transitions.length})`}>
      {detail.transitions.length === 0 ? (
        <p className="text-sm text-slate-600">meshdx recorded no change of this pod.</p>
      ) : (
        <table className="w-full text-sm" data-testid="pod-transitions">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th>Time</th>
              <th>Container</th>
              <th>Field</th>
              <th>Value</th>
            </tr>
          </thead>
          <tbody>
            {detail.transitions.map((t, i) => (
              <tr key={i} className="border-t border-slate-100">
                <td className="py-1 font-mono text-xs">{shortTime(t.time)}</td>
                <td className="font-mono text-xs">{t.container || '(pod)'}</td>
                <td className="font-mono text-xs">{t.field}</td>
                <td className="font-mono text-xs">{t.value === null ? '–' : String(t.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function OtherIncarnations({ detail }: { detail: PodDetail }) {
  const others = detail.otherIncarnations;
  if (others.length === 0) return null;
  const { namespace, name, uid } = detail.pod;
  const liveOther = others.some((o) => o.deletion === null);
  return (
    <Card title={`Other pods of this name (${others.length})`}>
      <p className="mb-2 text-sm text-slate-600">
        Other pods bore the same namespace and name
        {liveOther ? ', one of them now' : ', now deleted'}; this page shows the{' '}
        {detail.gone ? 'deleted' : 'live'} one{uid ? ` with uid ${uid}` : ''}. A uid opens that
        pod&apos;s own page.
      </p>
      <table className="w-full text-sm" data-testid="pod-incarnations">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th>UID</th>
            <th>Created</th>
            <th>Deletion</th>
          </tr>
        </thead>
        <tbody>
          {others.map((o, i) => (
            <tr key={o.uid ?? i} className="border-t border-slate-100">
              <td className="py-1 font-mono text-xs">
                {o.uid ? (
                  <PodLink pod={{ namespace, name, uid: o.uid }}>{o.uid}</PodLink>
                ) : (
                  '(no uid recorded)'
                )}
              </td>
              <td className="font-mono text-xs">{shortTime(o.createdAt)}</td>
              <td className="text-xs">
                {o.deletion ? deletionText(o.deletion) : <Badge tone="good">live now</Badge>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

/** The recorded failing requests that reached this pod, by its state when each was sent. */
function Failures({ detail }: { detail: PodDetail }) {
  const f = detail.failures;
  return (
    <Card title={`Failing requests that reached it (${f === null ? 'unknown' : f.count})`}>
      <div data-testid="pod-failures" data-count={f?.count}>
        {f && f.hiddenNamespaces.length > 0 && (
          <p className="mb-1 text-xs text-amber-800" data-testid="pod-failures-hidden">
            Not shown: the requests of clients in {f.hiddenNamespaces.join(', ')}, whose proxy logs
            you may not read.
          </p>
        )}
        {f === null ? (
          <p className="text-sm text-amber-800">
            The history store could not be read: the failing requests sent to this pod are not
            known.
          </p>
        ) : f.count === 0 ? (
          <p className="text-sm text-slate-600">
            None recorded from {shortTime(f.window.from)} to {shortTime(f.window.to)} (the requests
            meshdx read or received from its clients&apos; proxies).
          </p>
        ) : (
          <div className="space-y-1 text-sm text-slate-700">
            <p>
              {f.count.toLocaleString('en')} from {shortTime(f.firstAt)} to {shortTime(f.lastAt)}:{' '}
              {Object.entries(f.byState)
                .sort((a, b) => b[1] - a[1])
                .map(([state, n]) => `${n.toLocaleString('en')} while ${state}`)
                .join(', ')}
              .
            </p>
            <p className="text-xs">
              Sent by{' '}
              {f.clients.map((c, i) => {
                const ref = tryParsePodRef(c);
                return (
                  <span key={c}>
                    {i > 0 && ', '}
                    {ref ? <PodLink pod={ref} /> : c}
                  </span>
                );
              })}
              {f.clientsTotal > f.clients.length
                ? ` and ${f.clientsTotal - f.clients.length} more`
                : ''}
              .
            </p>
          </div>
        )}
      </div>
    </Card>
  );
}
