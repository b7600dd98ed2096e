'use client';

import type { UpstreamPodRow } from './api';
import { afterGone, clock, fmtDuration } from '../../lib/incidents/format';
import { Badge } from '../ui/Card';
import { VirtualTable, type Column } from '../ui/VirtualTable';
import { ElidedName } from '../ui/ElidedName';
import { PodLink } from '../inventory/PodLink';
import { podIdKey, tryParsePodRef } from '../../lib/refs/pod-ref';

const TONE = { live: 'good', terminating: 'warn', terminated: 'bad', unknown: 'neutral' } as const;

export function StateBadge({ state }: { state: keyof typeof TONE }) {
  return <Badge tone={TONE[state]}>{state}</Badge>;
}

const counts = (m: Record<string, number>) =>
  Object.entries(m)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');

/** The states a request can find its pod in, worst first, as the cards above name them. */
const STATES = [
  ['terminated', 'gone', 'text-red-700'],
  ['terminating', 'terminating', 'text-amber-700'],
  ['live', 'live', 'text-emerald-700'],
  ['unknown', 'unknown', 'text-slate-500'],
] as const;

/** How many of a pod's failing requests found it in each state when they were sent. */
function StateSplit({ byState }: { byState: Record<string, number> }) {
  const parts = STATES.filter(([k]) => (byState[k] ?? 0) > 0);
  return (
    <span className="whitespace-nowrap text-xs">
      {parts.map(([k, word, tone], i) => (
        <span key={k} className={tone} data-state={k} data-count={byState[k]}>
          {i > 0 && <span className="text-slate-400"> · </span>}
          {word} {byState[k]}
        </span>
      ))}
    </span>
  );
}

const COLUMNS: Column<UpstreamPodRow>[] = [
  {
    key: 'pod',
    header: 'Upstream pod',
    width: '2.2fr',
    render: (p) => (
      <span className="font-mono text-xs">
        {p.pod ? <PodLink pod={p.pod} /> : '(no pod known)'}
      </span>
    ),
    sortValue: (p) => (p.pod ? p.pod.name : ''),
  },
  {
    // each request counted by the pod's state when it was sent, as the cards above count
    // them: a pod now gone may have taken most of its failures while still terminating
    key: 'state',
    header: 'Pod when sent',
    width: '170px',
    render: (p) => <StateSplit byState={p.byState} />,
    sortValue: (p) => STATES.length - STATES.findIndex(([k]) => k === p.state),
  },
  {
    key: 'count',
    header: 'Failed',
    width: '70px',
    align: 'right',
    render: (p) => p.count,
    sortValue: (p) => p.count,
  },
  {
    key: 'flags',
    header: 'Flags',
    width: '1.2fr',
    render: (p) => <span className="text-xs">{counts(p.byFlag)}</span>,
  },
  {
    key: 'deleted',
    header: 'Deletion started',
    width: '110px',
    render: (p) => clock(p.deletionStartedAt),
    sortValue: (p) => p.deletionStartedAt ?? '',
  },
  {
    key: 'gone',
    header: 'Gone',
    width: '90px',
    render: (p) => clock(p.goneAt),
    sortValue: (p) => p.goneAt ?? '',
  },
  {
    key: 'after',
    header: 'Last failure',
    width: '1.4fr',
    render: (p) => {
      const gone = afterGone(p.lastTime, p.goneAt);
      if (gone !== null)
        return <span className="text-red-700">{fmtDuration(gone)} after it was gone</span>;
      if (p.maxAfterTerminationMs !== null)
        return <span>{fmtDuration(p.maxAfterTerminationMs)} into its termination</span>;
      return clock(p.lastTime);
    },
    sortValue: (p) => p.maxAfterTerminationMs ?? -1,
  },
  {
    key: 'ips',
    header: 'IP',
    width: '110px',
    render: (p) => <span className="font-mono text-xs">{p.upstreamIps.join(', ')}</span>,
  },
  {
    key: 'clients',
    header: 'Clients',
    width: '1.4fr',
    // a row is one line high: the first client (cut in its middle, its generated suffixes kept)
    // and a count for the others; the cell's title names them all, the Clients card links each
    render: (p) => {
      const [first, ...others] = p.clients;
      if (first === undefined) return '–';
      const ref = tryParsePodRef(first);
      return (
        <span
          className="flex min-w-0 items-center gap-1 font-mono text-xs"
          title={p.clients.join(', ')}
        >
          <span className="flex min-w-0 overflow-hidden whitespace-pre">
            {ref ? (
              <PodLink pod={ref}>
                <ElidedName name={ref.name} />
              </PodLink>
            ) : (
              first
            )}
          </span>
          {others.length > 0 && (
            <span className="shrink-0">
              <Badge>
                <span data-testid="more-clients">+{others.length}</span>
              </Badge>
            </span>
          )}
        </span>
      );
    },
  },
];

/** Failing requests grouped by the pod that held the upstream IP when each was sent. */
export function PodsTable({ pods }: { pods: UpstreamPodRow[] }) {
  let failed = 0;
  let toGone = 0;
  for (const p of pods) {
    failed += p.count;
    toGone += p.byState.terminated ?? 0;
  }
  return (
    <>
      <VirtualTable
        testId="incident-pods"
        label="Upstream pods of the failing requests"
        rows={pods}
        columns={COLUMNS}
        rowKey={(p) => (p.pod ? podIdKey(p.pod) : '-')}
        sort="count"
        dir="desc"
        height={Math.min(420, 44 + pods.length * 34)}
        empty="No failing requests in this window."
      />
      {pods.length > 0 && (
        <p
          className="mt-1 text-xs text-slate-600"
          data-testid="incident-pods-total"
          data-failed={failed}
          data-to-gone={toGone}
          data-rows={pods.length}
        >
          In all: {failed.toLocaleString('en')} failing requests to{' '}
          {pods.length.toLocaleString('en')} {pods.length === 1 ? 'row' : 'rows'} (a pod each, or an
          IP no pod held), {toGone.toLocaleString('en')} of them to pods already gone.
        </p>
      )}
    </>
  );
}
