'use client';

import type { TimelineFleetRow } from './api';
import { Badge } from '../ui/Card';
import type { Column } from '../ui/VirtualTable';
import { PodLink } from '../inventory/PodLink';
import { ElidedName } from '../ui/ElidedName';
import { gapText, VERDICT_TONE } from './format';

const MODE_TONE = {
  classic: 'warn',
  hold: 'good',
  native: 'good',
  wrapper: 'info',
  gateway: 'neutral',
  none: 'neutral',
  ambient: 'neutral',
} as const;

/** Verdict chips a row shows before it counts the rest. */
const SHOWN = 2;

const verdictText = (r: TimelineFleetRow, v: string) =>
  v === 'race' && r.restarts > 0 ? `${v} (app restarted)` : v;

/** Harm first (computed server-side), then the gap: the worst races lead. */
function verdictRank(r: TimelineFleetRow): number {
  return r.harm * 1e9 + Math.max(-5e8, Math.min(5e8, r.gapMs ?? 0));
}

export const FLEET_COLUMNS: Column<TimelineFleetRow>[] = [
  {
    key: 'namespace',
    header: 'Namespace',
    width: '1fr',
    // cut in its middle when it does not fit (its title has it whole): namespaces told apart by
    // their ends (shop-eu-1, shop-eu-2) stay told apart
    render: (r) => <ElidedName name={r.namespace} />,
    sortValue: (r) => r.namespace,
  },
  {
    key: 'name',
    header: 'Pod',
    width: '2.2fr',
    // a long name gives way to the badge: the name is cut in its middle (its title has it
    // whole; its generated suffixes stay), never the word that says the pod is gone
    render: (r) => (
      <span className="flex min-w-0 items-center gap-1">
        <span className="flex min-w-0 font-mono text-xs">
          <PodLink pod={r}>
            <ElidedName name={r.name} />
          </PodLink>
        </span>
        {r.deleted && (
          <span className="shrink-0">
            <Badge tone="warn">deleted</Badge>
          </span>
        )}
      </span>
    ),
    sortValue: (r) => r.name,
  },
  {
    key: 'workload',
    header: 'Workload',
    width: '1.2fr',
    render: (r) => r.workload,
    sortValue: (r) => r.workload,
  },
  {
    key: 'mode',
    header: 'Startup mode',
    width: '110px',
    render: (r) => <Badge tone={MODE_TONE[r.mode]}>{r.mode}</Badge>,
    sortValue: (r) => r.mode,
  },
  {
    key: 'verdict',
    header: 'Verdict',
    width: '1.6fr',
    render: (r) =>
      r.verdicts.length === 0 ? (
        <span className="text-xs text-slate-500">{r.excluded ? 'excluded' : '–'}</span>
      ) : (
        // a row is one line high: past SHOWN verdicts a count stands for the rest, and the
        // cell's title names them all
        <span className="flex gap-1" title={r.verdicts.map((v) => verdictText(r, v)).join(', ')}>
          {r.verdicts.slice(0, SHOWN).map((v) => (
            <Badge
              key={v}
              tone={v === 'race' && r.severity === 'error' ? 'bad' : (VERDICT_TONE[v] ?? 'neutral')}
            >
              {verdictText(r, v)}
            </Badge>
          ))}
          {r.verdicts.length > SHOWN && (
            <Badge>
              <span data-testid="more-verdicts">+{r.verdicts.length - SHOWN}</span>
            </Badge>
          )}
        </span>
      ),
    sortValue: verdictRank,
  },
  {
    key: 'gap',
    header: 'App start − proxy ready',
    width: '180px',
    align: 'right',
    render: (r) => (
      <span
        className={
          r.gapMs === null || r.gapMs >= 0
            ? ''
            : r.severity === 'error'
              ? 'font-semibold text-red-700'
              : 'text-amber-700'
        }
      >
        {gapText(r.gapMs)}
      </span>
    ),
    sortValue: (r) => r.gapMs ?? Number.MAX_SAFE_INTEGER,
  },
  {
    key: 'ready',
    header: 'Proxy ready from',
    width: '1.3fr',
    render: (r) =>
      r.proxyReadySource === 'none' ? (
        '–'
      ) : (
        <span className="text-xs">
          {r.proxyReadySource} ({r.proxyReadyConfidence})
        </span>
      ),
    sortValue: (r) => r.proxyReadySource,
  },
  {
    key: 'restarts',
    header: 'Restarts',
    width: '80px',
    align: 'right',
    render: (r) => r.restarts + r.proxyRestarts,
    sortValue: (r) => r.restarts + r.proxyRestarts,
  },
  {
    key: 'phase',
    header: 'Phase',
    width: '100px',
    render: (r) => (r.phase === 'Running' ? r.phase : <Badge tone="warn">{r.phase}</Badge>),
    sortValue: (r) => r.phase,
  },
];
