import type { ApiBudget } from '../api/budget';
import type { LatePart } from '../api/late';
import type { ProxyFleetRow, FleetSource, FleetView, ZtunnelRow } from '../api/proxies';
import { fleetTotals, namespaceSummaries, topWorkloads } from './aggregate';
import { distribution } from './distribution';
import { fleetRow, istiodProxyId } from './rows';
import type { SyncParse } from './sync';
import { rankStaleness, STALE_AFTER_MS, type SynczNonces } from './staleness';
import type { ProxyTarget, ScrapeOutcome } from './types';

export interface FleetInput {
  targets: readonly ProxyTarget[];
  /** Same order as targets; null for targets that were not scraped (not running). */
  outcomes: readonly (ScrapeOutcome | null)[];
  sync: (SyncParse & { istiods: number; nonces?: readonly SynczNonces[] }) | null;
  scannedAt: Date;
  durationMs: number;
  concurrency: number;
  timeoutMs: number;
  /** The ztunnels' rows (lib/proxies/ztunnel.ts), none in a cluster without ambient. */
  ztunnels?: readonly ZtunnelRow[];
  deadlineMs: number;
  source: FleetSource;
  api: ApiBudget;
  /** What the view could not read by its deadline, when anything. */
  late?: readonly LatePart[];
}

const STATUS_RANK: Record<ProxyFleetRow['status'], number> = {
  ok: 0,
  unknown: 1,
  late: 2,
  unreachable: 3,
  'not-running': 4,
};

/**
 * Ranking: unscoped proxies first, then by active clusters (heaviest first); unknown, late,
 * unreachable and not-running proxies after the ones with numbers, so nothing looks like a proxy
 * with 0 clusters.
 */
export function compareFleetRows(a: ProxyFleetRow, b: ProxyFleetRow): number {
  const rank = (r: ProxyFleetRow) => STATUS_RANK[r.status];
  return (
    rank(a) - rank(b) ||
    Number(a.sidecar !== null) - Number(b.sidecar !== null) ||
    (b.activeClusters ?? -1) - (a.activeClusters ?? -1) ||
    a.key.localeCompare(b.key)
  );
}

/** The finished fleet view model from the scan's outcomes. */
export function buildFleet(input: FleetInput): FleetView {
  const rows = input.targets.map((t, i) =>
    fleetRow(t, input.outcomes[i] ?? null, input.sync?.byProxy.get(istiodProxyId(t)) ?? null),
  );
  rows.sort(compareFleetRows);
  const values = rows.flatMap((r) =>
    r.status === 'ok' && r.activeClusters !== null ? [r.activeClusters] : [],
  );
  return {
    scannedAt: input.scannedAt.toISOString(),
    durationMs: Math.round(input.durationMs),
    concurrency: input.concurrency,
    timeoutMs: input.timeoutMs,
    deadlineMs: input.deadlineMs,
    source: input.source,
    api: input.api,
    rows,
    ztunnels: [...(input.ztunnels ?? [])],
    page: {
      offset: 0,
      limit: rows.length,
      matched: rows.length,
      namespace: null,
      workload: null,
      q: null,
      sort: 'rank',
      dir: 'asc',
      namespaces: [],
      workloads: [],
    },
    namespaces: namespaceSummaries(rows),
    topWorkloads: topWorkloads(rows),
    distribution: distribution(values),
    totals: fleetTotals(rows),
    sync: {
      available: (input.sync?.byProxy.size ?? 0) > 0,
      istiods: input.sync?.istiods ?? 0,
      problems: input.sync?.errors ?? ['no istiod pod found: sync state unavailable'],
      staleness: input.sync?.nonces
        ? rankStaleness(input.sync.nonces, input.scannedAt.getTime(), STALE_AFTER_MS, 50)
        : null,
    },
    ...(input.late && input.late.length > 0 ? { late: [...input.late] } : {}),
  };
}
