import type { KubeConfig } from '@kubernetes/client-node';
import type { FleetProgress, FleetSource, FleetView } from '../../../lib/api/proxies';
import type { Pod } from '../../../lib/kube/types';
import { buildFleet } from '../../../lib/proxies/fleet';
import { mapBounded } from '../../../lib/proxies/pool';
import { proxyTargets } from '../../../lib/proxies/target';
import { sampleRange } from '../../../lib/proxies/sample-range';
import type { SyncParse } from '../../../lib/proxies/sync';
import type { SynczNonces } from '../../../lib/proxies/staleness';
import type { ProxyTarget, ScrapeOutcome } from '../../../lib/proxies/types';
import { readSyncStatus, istiodPods } from '../../envoy/istiod';
import { failedRead } from '../../envoy/reason';
import type { EnvoyInitTimes } from '../../envoy/init-times';
import { scrapeProxyStats } from '../../envoy/scrape';
import { CORE, listIstioConfig } from '../../kube/resources';
import { listPaged } from '../../kube/listwatch';
import type { KubeTransport } from '../../kube/transport';
import { scanZtunnels } from './ztunnel';
import { ViewDeadline } from '../deadline';
import { promOutcome, readPromFleet } from '../../prometheus/fleet';
import { promUnusable } from '../../../lib/proxies/prom-fleet';

export interface PrometheusSource {
  url: string;
  timeoutMs: number;
  /** A sample older than this is lagging: its proxy is unknown. */
  maxAgeMs: number;
  fetchImpl?: typeof fetch;
}

export interface ScanDeps {
  transport: KubeTransport;
  kc: KubeConfig;
  /** Where istiod (and ztunnel) run. */
  istioNamespace: string;
  /** Istio's root namespace (the mesh config's); absent, istioNamespace. */
  rootNamespace?: () => Promise<string>;
  concurrency: number;
  timeoutMs: number;
  /** The view answers within this long; proxies not read by then are `late` (default 25 s). */
  deadlineMs?: number;
  /** Where scraped Envoy init times are kept (the runtime's). */
  envoyInit?: EnvoyInitTimes;
  /** The fleet's figures from Prometheus instead of one pods/proxy request per proxy. */
  prometheus?: PrometheusSource;
  /** The pods, from the runtime's watch-fed cache; absent: listed from the API server in pages. */
  pods?: () => Promise<Pod[]>;
  /** How far that source has got, for the answer of a view that could not wait for it. */
  podsDetail?: () => string;
  /** Where a sync state that came in after its view answered is kept for the next view. */
  syncCache?: SyncCache;
  /** How long istiod's sync state is waited for once the figures are in (SYNC_GRACE_MS). */
  syncGraceMs?: number;
  /**
   * When the proxies not read yet are given up as late, if before the deadline: for a caller
   * (a test) that decides the moment by what it has seen, not by the clock.
   */
  proxiesDue?: Promise<void>;
}

type Sync = SyncParse & { istiods: number; nonces?: readonly SynczNonces[] };

export interface SyncCache {
  value: { at: number; sync: Sync } | null;
}

/** Once the figures are in, istiod's sync state is waited for this much longer at most. */
export const SYNC_GRACE_MS = 1_500;
/** A sync state kept from an earlier view is used while younger than this. */
export const SYNC_REUSE_MS = 120_000;

/**
 * istiod's sync state, waited for at most SYNC_GRACE_MS after the figures (and never past the
 * deadline): a slow /debug/syncz (it lists every proxy) must not hold the fleet back. When it
 * is late, the view uses the one an earlier view left (saying how old), else names it missing;
 * the late answer is kept for the next view.
 */
async function syncWithin(
  syncPromise: Promise<Sync>,
  deadline: Promise<void>,
  deadlineMs: number,
  cache: SyncCache | undefined,
  graceMs: number,
): Promise<Sync> {
  // a failed read is the caller's to show (it awaits syncPromise); here it only is not cached
  void syncPromise.then(
    (sync) => {
      if (cache) cache.value = { at: Date.now(), sync };
    },
    () => undefined,
  );
  const grace = timer(graceMs);
  try {
    const late = Symbol('late');
    const first = await Promise.race([
      syncPromise,
      grace.done.then(() => late),
      deadline.then(() => late),
    ]);
    if (first !== late) return first as Sync;
  } finally {
    grace.cancel();
  }
  const kept = cache?.value;
  if (kept && Date.now() - kept.at < SYNC_REUSE_MS) {
    const age = Math.round((Date.now() - kept.at) / 1000);
    return {
      ...kept.sync,
      errors: [
        ...kept.sync.errors,
        `istiod sync state is ${age} s old: the current one was not in within ${graceMs} ms of the figures`,
      ],
    };
  }
  return {
    byProxy: new Map(),
    errors: [
      `istiod sync state late: not in within ${graceMs} ms of the figures (deadline ${deadlineMs} ms); the next view uses it`,
    ],
    istiods: 0,
  };
}

export const DEFAULT_DEADLINE_MS = 25_000;

/** Resolves after `ms` without keeping the process alive; `cancel` clears it. */
function timer(ms: number): { done: Promise<void>; cancel: () => void } {
  let t: NodeJS.Timeout | undefined;
  const done = new Promise<void>((r) => {
    t = setTimeout(r, Math.max(0, ms));
    t.unref();
  });
  return { done, cancel: () => clearTimeout(t) };
}

/**
 * The fleet: pods (the runtime's cache, else a list) and Sidecars, then every running proxy's
 * figures, from Prometheus in a few instant queries when it is configured and answers, else from
 * each proxy's :15090 scrape through pods/proxy (bounded concurrency, a per-proxy timeout, the
 * runtime's request budget). Either way the view answers by `deadlineMs` with what it has:
 * proxies not read by then are `late`, never 0. istiod's sync state is read in parallel.
 */
export async function scanFleet(
  deps: ScanDeps,
  onProgress?: (p: FleetProgress) => void,
): Promise<FleetView> {
  const started = Date.now();
  const deadlineMs = deps.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const deadline = timer(deadlineMs);
  const proxiesDue = deps.proxiesDue
    ? Promise.race([deps.proxiesDue, deadline.done])
    : deadline.done;
  try {
    const promPromise = deps.prometheus
      ? readPromFleet({
          baseUrl: deps.prometheus.url,
          timeoutMs: deps.prometheus.timeoutMs,
          fetchImpl: deps.prometheus.fetchImpl ?? fetch,
        })
      : null;
    // the fleet cannot be drawn without the pods: past the deadline the view answers 503 naming
    // them (the list goes on and fills the cache for the next view). The Sidecars and the mesh
    // config are read meanwhile, while the proxies are asked: when they are late, the view
    // answers without them, each proxy's Sidecar unknown (never "none").
    const view = new ViewDeadline('Proxies', deadlineMs);
    const istioPart = 'Istio configuration (Sidecars)';
    const istioRead = view.within(istioPart, listIstioConfig(deps.transport));
    const rootRead = deps.rootNamespace
      ? view.within('mesh config', deps.rootNamespace())
      : Promise.resolve({ ok: true as const, value: deps.istioNamespace });
    // awaited once the pods are in: a failure before then is the answer's then, never an
    // unhandled rejection meanwhile (a slow API server's /apis timing out while the pods were
    // still being read was one)
    istioRead.catch(() => undefined);
    rootRead.catch(() => undefined);
    const pods = await view.need(
      'pods',
      deps.pods ? deps.pods() : listPaged<Pod>(deps.transport, CORE.pods).then((l) => l.items),
      deps.podsDetail,
    );
    // who to ask does not depend on the Sidecars: the scrapes start now
    const { targets: asked } = proxyTargets(pods, [], deps.istioNamespace);
    const syncPromise = readSyncStatus(
      deps.kc,
      istiodPods(pods, deps.istioNamespace),
      deps.timeoutMs,
    );
    const progress: FleetProgress = {
      type: 'progress',
      done: 0,
      total: asked.length,
      unreachable: 0,
    };
    onProgress?.({ ...progress });

    const prom = promPromise ? await promPromise : null;
    const promNote = prom && deps.prometheus ? promUnusable(prom, deps.prometheus.url) : null;
    let outcomes: (ScrapeOutcome | null)[];
    let source: FleetSource;
    if (prom && deps.prometheus && promNote === null) {
      const maxAge = deps.prometheus.maxAgeMs;
      outcomes = asked.map((t) =>
        t.notRunning === null ? promOutcome(prom, t.namespace, t.name, maxAge) : null,
      );
      progress.done = asked.length;
      progress.unreachable = outcomes.filter((o) => o && !o.ok).length;
      onProgress?.({ ...progress });
      const unknown = progress.unreachable;
      source = {
        kind: 'prometheus',
        prometheus: deps.prometheus.url,
        queries: prom.queries,
        ...sampleRange(outcomes),
        note:
          unknown > 0
            ? `${unknown} running ${unknown === 1 ? 'proxy has' : 'proxies have'} no usable series in Prometheus: shown as unknown (open one to read it directly)`
            : null,
      };
    } else {
      outcomes = await scrapeAll({ ...deps, deadlineMs }, asked, progress, proxiesDue, onProgress);
      const late = outcomes.filter((o) => o && !o.ok && o.status === 'late').length;
      const notes = [
        promNote,
        late > 0
          ? `${late} ${late === 1 ? 'proxy' : 'proxies'} not read within the ${deadlineMs} ms deadline: shown as late`
          : null,
      ].filter((n): n is string => n !== null);
      source = {
        kind: 'scrape',
        prometheus: deps.prometheus?.url ?? null,
        queries: [],
        ...sampleRange(outcomes),
        note: notes.length > 0 ? notes.join('; ') : null,
      };
    }
    const [sync, ztunnels, istio, root] = await Promise.all([
      syncWithin(
        syncPromise,
        deadline.done,
        deadlineMs,
        deps.syncCache,
        deps.syncGraceMs ?? SYNC_GRACE_MS,
      ),
      view
        .within('ztunnels', scanZtunnels(deps, pods, deps.istioNamespace))
        .then((z) => (z.ok ? z.value : [])),
      istioRead,
      rootRead,
    ]);
    // the same pods in the same order, now with the Sidecar that selects each (when known)
    const { targets } = proxyTargets(
      pods,
      istio.ok ? istio.value.sidecars : [],
      root.ok ? root.value : deps.istioNamespace,
    );
    const sidecarsLate = istio.ok
      ? null
      : `the Sidecar resources were not read within the ${deadlineMs} ms deadline`;
    return buildFleet({
      targets: sidecarsLate
        ? targets.map((t) => ({ ...t, sidecarUnknown: sidecarsLate }))
        : targets,
      outcomes,
      late: view.late,
      sync,
      scannedAt: deps.transport.clusterNow(),
      durationMs: Date.now() - started,
      concurrency: deps.concurrency,
      timeoutMs: deps.timeoutMs,
      deadlineMs,
      source,
      api: deps.transport.budgetStats(),
      ztunnels,
    });
  } finally {
    deadline.cancel();
  }
}

/** Every running proxy's :15090 scrape through pods/proxy, until the deadline. */
function scrapeAll(
  deps: ScanDeps & { deadlineMs: number },
  targets: readonly ProxyTarget[],
  progress: FleetProgress,
  deadline: Promise<void>,
  onProgress?: (p: FleetProgress) => void,
): Promise<(ScrapeOutcome | null)[]> {
  return mapBounded<ProxyTarget, ScrapeOutcome | null>(
    targets,
    deps.concurrency,
    async (t) => {
      if (t.notRunning !== null) return null;
      const o = await scrapeProxyStats(
        deps.transport,
        t.namespace,
        t.name,
        deps.timeoutMs,
        deps.envoyInit,
      );
      return o.ok
        ? { ...o, source: 'scrape', sampledAt: deps.transport.clusterNow().toISOString() }
        : o;
    },
    {
      onThrow: (e) => failedRead(e),
      onDone: (r) => {
        progress.done++;
        if (r && !r.ok) progress.unreachable++;
        onProgress?.({ ...progress });
      },
      deadline,
      late: (t) =>
        t.notRunning !== null
          ? null
          : {
              ok: false,
              status: 'late',
              reason: `not read within the view's ${deps.deadlineMs} ms deadline (request budget: ${deps.transport.budget.settings.qps} QPS, ${deps.transport.budget.settings.proxyConcurrency} at a time)`,
            },
    },
  );
}
