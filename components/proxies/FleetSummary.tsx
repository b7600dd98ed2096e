import type { FleetView, MeasuredSum } from './api';
import { Badge, Card, Stat } from '../ui/Card';
import { bytes, count } from './format';
import { workloadNameKey } from '../../lib/refs/workload-ref';

export function ProxyFleetStats({ fleet }: { fleet: FleetView }) {
  const t = fleet.totals;
  return (
    <div className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-6">
      <Stat label="Proxies" value={count(t.proxies)} testId="stat-proxies" />
      <Stat label="Answered" value={count(t.reachable)} tone="good" testId="stat-reachable" />
      <Stat
        label="Unreachable"
        value={count(t.unreachable)}
        tone={t.unreachable > 0 ? 'bad' : 'neutral'}
        testId="stat-unreachable"
      />
      {t.notRunning > 0 && (
        // pods with a proxy that cannot answer yet or any more (no IP, pending, finished): counted
        // apart, so that the cards add up to the proxies
        <Stat label="Not running" value={count(t.notRunning)} testId="stat-not-running" />
      )}
      {t.unknown + t.late > 0 && (
        <Stat
          label="Unknown / late"
          value={`${count(t.unknown)} / ${count(t.late)}`}
          tone="warn"
          testId="stat-unknown-late"
        />
      )}
      <Stat
        label="Push volume (clusters)"
        value={<MeasuredTotal sum={t.clusters} />}
        testId="stat-clusters"
      />
      <Stat
        label="Service clusters (derived)"
        value={<MeasuredTotal sum={t.serviceClustersEstimate} />}
        testId="stat-service-clusters"
      />
      <Stat
        label="Unscoped proxies"
        value={
          t.sidecarUnknown > 0 ? (
            <span className="text-amber-700">
              {t.unscopedProxies > 0 ? `at least ${count(t.unscopedProxies)}` : 'unknown'}{' '}
              <span className="text-sm font-normal">
                ({count(t.sidecarUnknown)} with the Sidecar unknown: Sidecars not read)
              </span>
            </span>
          ) : (
            count(t.unscopedProxies)
          )
        }
        tone={t.unscopedProxies > 0 || t.sidecarUnknown > 0 ? 'warn' : 'good'}
        testId="stat-unscoped"
      />
      <FleetSourceLine fleet={fleet} />
      <p className="col-span-full text-xs text-slate-500">
        Cluster counts from each proxy&apos;s active-clusters gauge (all clusters). Service clusters
        are derived: active minus the known static/control-plane set (bootstrap clusters,
        BlackHole/Passthrough/InboundPassthrough); open a proxy for the exact split. Envoy memory in
        total:{' '}
        <span data-testid="total-memory">
          {t.memoryBytes.value === null
            ? `unknown (${unknownProxies(t.memoryBytes.unknown)})`
            : bytes(t.memoryBytes.value)}
          {t.memoryBytes.value !== null &&
            t.memoryBytes.unknown > 0 &&
            ` over ${count(t.memoryBytes.known)} proxies (${unknownProxies(t.memoryBytes.unknown)})`}
        </span>
        . Took {count(fleet.durationMs)} ms (deadline {count(fleet.deadlineMs)} ms
        {fleet.source.kind === 'scrape' &&
          `; ${fleet.concurrency} at a time, ${fleet.timeoutMs} ms timeout each`}
        ).
        {fleet.sync.problems.length > 0 && ` Sync state: ${fleet.sync.problems.join('; ')}.`}
      </p>
    </div>
  );
}

const unknownProxies = (n: number) =>
  n === 0 ? 'no proxy measured' : `${count(n)} ${n === 1 ? 'proxy' : 'proxies'} unknown`;

/**
 * A total over what was measured: the sum and how many proxies it leaves out as unknown, or
 * "unknown" when nothing was measured (never 0 for a sum of nothing).
 */
function MeasuredTotal({ sum }: { sum: MeasuredSum }) {
  if (sum.value === null)
    return (
      <span className="text-amber-700" data-known="0" data-unknown={sum.unknown}>
        unknown <span className="text-sm font-normal">({unknownProxies(sum.unknown)})</span>
      </span>
    );
  return (
    <span data-known={sum.known} data-unknown={sum.unknown}>
      {count(sum.value)}
      {sum.unknown > 0 && (
        <span className="block text-xs font-normal text-amber-700">
          over {count(sum.known)}; {unknownProxies(sum.unknown)}
        </span>
      )}
    </span>
  );
}

/** Age of a sample relative to when the fleet was put together. */
function age(at: string | null, scannedAt: string): string {
  if (at === null) return 'no samples';
  const s = Math.max(0, Math.round((Date.parse(scannedAt) - Date.parse(at)) / 1000));
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/** Where the figures came from and how old they are, and why not the configured source. */
function FleetSourceLine({ fleet }: { fleet: FleetView }) {
  const src = fleet.source;
  return (
    <p
      className="col-span-full text-xs text-slate-700"
      data-testid="fleet-source"
      data-source={src.kind}
    >
      {src.kind === 'prometheus' ? (
        <>
          Figures from Prometheus at <span className="font-mono">{src.prometheus}</span> (
          {src.queries.length} instant queries, no request to any proxy); samples{' '}
          {age(src.newestSampleAt, fleet.scannedAt)} to {age(src.oldestSampleAt, fleet.scannedAt)}{' '}
          old.
        </>
      ) : (
        <>
          Figures from each proxy&apos;s :15090 scrape through the API server (one pods/proxy
          request per proxy); oldest {age(src.oldestSampleAt, fleet.scannedAt)}.
        </>
      )}
      {src.note && (
        <span className="ml-1 text-amber-800" data-testid="fleet-source-note">
          {src.note}.
        </span>
      )}
    </p>
  );
}

/**
 * Namespaces, unscoped ones first: they receive the whole mesh's config. A scale fleet has
 * hundreds: the list scrolls inside its card, and each name keeps the row's full width (names
 * that differ only at their end, scale-000 and scale-001, must not be cut to the same text).
 */
export function NamespaceList({
  fleet,
  onPick,
}: {
  fleet: FleetView;
  onPick: (ns: string) => void;
}) {
  return (
    <Card
      title={`Namespaces (${count(fleet.namespaces.length)}, unscoped first)`}
      testId="proxies-namespaces"
    >
      <ul className="max-h-[30rem] divide-y divide-slate-100 overflow-y-auto text-sm">
        {fleet.namespaces.map((n) => (
          <li
            key={n.namespace}
            data-namespace={n.namespace}
            data-unscoped={n.unscoped || undefined}
            className={n.unscoped ? 'bg-amber-50' : ''}
          >
            <button
              type="button"
              className="flex w-full items-center justify-between gap-2 px-1 py-1 text-left hover:bg-sky-50"
              title={`Show the proxies of ${n.namespace}`}
              onClick={() => onPick(n.namespace)}
            >
              <span className="min-w-0">
                <span className="block break-all font-medium">{n.namespace}</span>
                <span className="block text-xs tabular-nums text-slate-600">
                  {count(n.proxies)} {n.proxies === 1 ? 'proxy' : 'proxies'} ·{' '}
                  {n.maxClusters === null
                    ? 'clusters unknown (none measured)'
                    : `max ${count(n.maxClusters)} clusters`}
                </span>
              </span>
              <span className="shrink-0 whitespace-nowrap">
                {n.unscoped ? (
                  <Badge tone="warn">no Sidecar: {count(n.unscopedProxies)}</Badge>
                ) : n.sidecarUnknown > 0 ? (
                  <Badge tone="warn">Sidecar unknown</Badge>
                ) : (
                  <Badge tone="good">scoped</Badge>
                )}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function TopWorkloads({ fleet }: { fleet: FleetView }) {
  return (
    <Card title="Top 10 heaviest workloads (sum of clusters)" testId="proxies-top-workloads">
      <table className="w-full text-sm">
        <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-1.5">Workload</th>
            <th className="text-right">Proxies</th>
            <th className="pl-3 text-right">Clusters (sum)</th>
          </tr>
        </thead>
        <tbody>
          {fleet.topWorkloads.map((w) => (
            <tr
              key={workloadNameKey(w.namespace, w.workload)}
              className="border-b border-slate-100"
            >
              <td className="truncate py-1">
                {w.namespace}/{w.workload}
                {w.unscoped && (
                  <span className="ml-1">
                    <Badge tone="warn">unscoped</Badge>
                  </span>
                )}
              </td>
              <td
                className="py-1 text-right tabular-nums"
                title={
                  w.counted < w.proxies
                    ? `the sum counts the ${count(w.counted)} of its ${count(w.proxies)} proxies whose clusters were read; the others are unknown, unreachable or not running`
                    : undefined
                }
              >
                {w.counted < w.proxies
                  ? `${count(w.counted)} of ${count(w.proxies)} read`
                  : count(w.proxies)}
              </td>
              <td className="py-1 text-right tabular-nums font-medium">
                {w.clusters === null ? (
                  <span className="text-amber-700" title="none of its proxies was measured">
                    unknown (none read)
                  </span>
                ) : (
                  count(w.clusters)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
