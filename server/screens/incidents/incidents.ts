import type { IncidentsView } from '../../../lib/api/incidents';
import { buildIncidentsView, type IncidentsInput } from '../../../lib/incidents/build';
import { newestIstiodVersion } from '../../../lib/findings/istiod';
import type { LogInput } from '../../../lib/incidents/log-input';
import type { ClientSignal } from '../../../lib/incidents/clients';
import {
  chooseClients,
  churnByNamespace,
  clientCandidates,
  filterOf,
  graceMap,
  MAX_CLIENTS,
  type IncidentsQuery,
} from '../../../lib/incidents/choose';
import type { EndpointSlice, Pod } from '../../../lib/kube/types';
import { requireName } from '../../../lib/kube/names';
import { envoyAdminGet } from '../../kube/podports';
import { listEndpointSlices, listIstioConfig, listPods } from '../../kube/resources';
import type { KubeTransport } from '../../kube/transport';
import { runtimeFor } from '../../runtime/registry';
import { defineScreen, type ClusterRuntime } from '../../runtime/runtime';
import { historyWithPrometheus } from './prometheus-history';
import { runtimeIpHistory, type IpHistorySource } from './ip-history';
import { staleEndpointsFor } from './stale';
import { layerInputsFor, layerSamplerScreen } from './layers';
import { refList } from '../../../lib/api/viewstate';
import { clientSignals, type SignalSource } from './client-signals';
import { prometheusSettings } from './prometheus-history';
import { LastReads, lastReads, podListDetail, viewDeadline, type ViewDeadline } from '../deadline';
import type { RequestScope } from '../../auth/identity';
import { podKeyOfObject } from '../../../lib/refs/pod-ref';
import type { FailureStore } from '../../../lib/incidents/failure-store';
import type { IpHistory } from '../../../lib/ledger/ip-history';
import { readFailures } from '../../../lib/incidents/read-failures';
import { answerFromStore, planReads, readAndRecord } from './memory';
import { fetchClientLogs, LOG_LATE } from './client-logs';
import { logAccess, logAccessScreen, visibleFailures, type LogAccess } from './failure-access';

/** What the view keeps of its deadline to build the answer once the logs are in. */
const BUILD_MARGIN_MS = 750;
/** The share of the view's deadline it waits for the pod history's first Events list. */
const HISTORY_SHARE = 0.6;

export interface IncidentsDeps {
  t: KubeTransport;
  history: IpHistorySource;
  /** Envoy /clusters?format=json of a pod (port-forward in production). */
  clustersJson?: (namespace: string, pod: string) => Promise<string>;
  now?: () => number;
  /** Logs to analyse instead of the client pods' logs (an upload). */
  logs?: LogInput[];
  format?: string;
  /** The cluster's pods (the runtime's watch); absent: one list of every pod. */
  pods?: () => Promise<Pod[]>;
  /**
   * The context's recorded failing requests: given, the window is answered from the store first
   * and a client's log is read only for what the store does not cover yet (memory.ts); an
   * upload's failing requests are recorded too.
   */
  failures?: FailureStore;
  /**
   * Whether the requesting identity may read proxy logs in a namespace: given (a user's
   * runtime), the store's recorded requests are shown only where it may (failure-access.ts);
   * absent: meshdx's own identity, which recorded them, sees them all.
   */
  failureAccess?: LogAccess;
  /** Each candidate client's own failure numbers (client-signals.ts); absent: churn only. */
  signals?: (
    pods: readonly string[],
    window: { fromMs: number; toMs: number },
  ) => Promise<{ signals: Map<string, ClientSignal>; source: SignalSource }>;
  /**
   * The view's deadline: lists late by then are taken from their last read (`reads`), logs not
   * read by then are named as such, and the view answers with what it has.
   */
  deadline?: ViewDeadline;
  reads?: LastReads;
  /** Where istiod runs (MESHDX_ISTIO_NAMESPACE), for its version; default istio-system. */
  istioNamespace?: string;
  /** What the layer sampler recorded for the window (layers.ts); absent: not read, said so. */
  layers?: (window: {
    fromMs: number;
    toMs: number;
  }) => Pick<IncidentsInput, 'layers' | 'layersNote'>;
}

/** Skipped clients listed on the page (the rest are counted). */
const MAX_SKIPPED_LISTED = 200;

/** The Incidents use case: logs, pod IP history and mesh config in one fan-out, then the view. */
export async function buildIncidents(
  q: IncidentsQuery,
  deps: IncidentsDeps,
): Promise<IncidentsView> {
  if (q.namespace) requireName('namespace', q.namespace);
  const { t, history, deadline } = deps;
  const lastRead = deps.reads ?? new LastReads();
  const [podItems, istio, slices] = await Promise.all([
    deps.pods ? deps.pods() : listPods(t).then((l) => l.items),
    deadline
      ? deadline.needOrLast('Istio config', lastRead, 'istio-config', listIstioConfig(t))
      : listIstioConfig(t),
    deadline
      ? deadline.needOrLast('EndpointSlices', lastRead, 'endpointslices', listEndpointSlices(t))
      : listEndpointSlices(t),
    deadline
      ? deadline.withinShare(
          'pod history',
          history.ready.catch(() => undefined),
          HISTORY_SHARE,
          () =>
            'the first Events list is still running: pod deletions it would date may be missing from the attribution',
        )
      : history.ready.catch(() => undefined),
  ]);
  const nowMs = deps.now?.() ?? t.clusterNow().getTime();
  const window = {
    fromMs: q.from ? Date.parse(q.from) : nowMs - 60 * 60_000,
    toMs: q.to ? Date.parse(q.to) : nowMs,
  };
  // the history as it is now chooses the clients; the one read once their logs are in
  // attributes them (pods the watch recorded meanwhile included)
  const before = history.load();
  const churn = churnByNamespace(before.intervals(), window.fromMs, window.toMs);
  const candidates = deps.logs ? [] : clientCandidates(podItems, q);
  const probe = !q.client && candidates.length > MAX_CLIENTS ? deps.signals : undefined;
  const sig = probe
    ? await probe(candidates.map(podKeyOfObject), window)
    : {
        signals: new Map<string, ClientSignal>(),
        source: {
          source: q.client
            ? 'the Client filter'
            : `every meshed pod${q.namespace ? ` in ${q.namespace}` : ''} (${candidates.length}, within the limit)`,
          note: null,
        },
      };
  const choice = deps.logs
    ? { chosen: [], choices: [], skipped: [] }
    : chooseClients(podItems, q, churn, sig.signals);
  const { chosen } = choice;
  const skipped = choice.skipped.length;
  const asked = refList(q.client);
  const staleClient = asked.length === 1 ? asked[0] : undefined;
  const staleP =
    staleClient && deps.clustersJson
      ? staleEndpointsFor(staleClient, deps.clustersJson, slices.items as EndpointSlice[], before)
      : Promise.resolve(null);
  const store = deps.failures;
  let loaded: IpHistory | null = null;
  const loadOnce = () => (loaded ??= history.load());
  const plan = store && !deps.logs ? planReads(chosen, store, q, window) : null;
  const until = deadline
    ? new Promise<void>((r) =>
        setTimeout(r, Math.max(0, deadline.remaining() - BUILD_MARGIN_MS)).unref(),
      )
    : undefined;
  const logsP = deps.logs
    ? Promise.resolve(deps.logs)
    : plan
      ? Promise.resolve([])
      : fetchClientLogs(t, chosen, q, until);
  const readsP =
    store && plan
      ? readAndRecord(t, plan.reads, store, loadOnce, nowMs, deps.format, window, until)
      : Promise.resolve([]);
  const [logs, stale, logReads] = await Promise.all([logsP, staleP, readsP]);
  if (deadline) {
    const asked = logs.length + logReads.length;
    const late =
      logs.filter((l) => l.problem === LOG_LATE).length +
      logReads.filter((r) => r.source.problem?.startsWith("not read by the view's deadline"))
        .length;
    if (late > 0)
      deadline.late.push({
        part: 'proxy logs',
        detail: `${asked - late} of ${asked} client proxies' logs read by the ${deadline.deadlineMs} ms deadline; the rest are still being read and counted in the next answer`,
      });
  }
  const ips = loadOnce();
  if (store && deps.logs) {
    for (const input of deps.logs)
      store.record(
        readFailures(input, 'upload', null, ips, { format: deps.format }).failures,
        nowMs,
      );
  }
  const intervals = ips.intervals();
  const visible =
    store && plan && deps.failureAccess
      ? await visibleFailures(store, window, deps.failureAccess)
      : null;
  const answer =
    store && plan
      ? answerFromStore(
          visible?.store ?? store,
          q,
          window,
          filterOf(q),
          logReads,
          plan.covered,
          intervals,
          visible?.hidden,
        )
      : null;
  const view = buildIncidentsView({
    ...(answer ? { collected: answer.collected, memory: answer.memory, lags: answer.lags } : {}),
    now: nowMs,
    filter: { ...filterOf(q), format: deps.format },
    logs,
    sourcesSkipped: skipped,
    clients: deps.logs
      ? undefined
      : {
          ...sig.source,
          limit: MAX_CLIENTS,
          chosen: choice.choices,
          skipped: choice.skipped.slice(0, MAX_SKIPPED_LISTED),
          // one figure for the card's heading and the memory sentence
          read: answer ? answer.memory.readNow : choice.chosen.length,
          fromStore: plan ? plan.covered.length : 0,
        },
    history: ips,
    intervals,
    historyInfo: history.info(),
    destinationRules: istio.destinationRules,
    virtualServices: istio.virtualServices,
    endpointSlices: slices.items,
    graceSeconds: graceMap(podItems),
    stale,
    ...(deps.layers ? deps.layers(window) : { layersNote: 'the layers were not read' }),
    istiodVersion: deps.logs ? null : newestIstiodVersion(podItems),
  });
  return deadline && deadline.late.length > 0 ? { ...view, late: [...deadline.late] } : view;
}

type Signals = Awaited<ReturnType<typeof clientSignals>>;
/** How long one round of asking every candidate proxy serves the views of a cluster. */
const SIGNALS_TTL_MS = 30_000;

/** The last round of asking the candidates, kept in the runtime's Incidents state. */
interface SignalsState {
  last: { key: string; at: number; value: Promise<Signals> } | null;
}

const signalsScreen = defineScreen<SignalsState>('incidents-signals', () => ({ last: null }));

/**
 * Asking every candidate proxy costs one request each: a reload, a zoom or a second user within
 * SIGNALS_TTL_MS of the same candidates and window reuse the answer (per cluster runtime).
 */
function recentSignals(
  rt: ClusterRuntime,
  pods: readonly string[],
  window: { fromMs: number; toMs: number },
  ask: () => Promise<Signals>,
): Promise<Signals> {
  const key = `${pods.join(',')}|${Math.round((window.toMs - window.fromMs) / 60_000)}`;
  const now = Date.now();
  const state = rt.screen(signalsScreen);
  const hit = state.last;
  if (hit && hit.key === key && now - hit.at < SIGNALS_TTL_MS) return hit.value;
  const value = ask();
  state.last = { key, at: now, value };
  return value;
}

/** The share of the view's deadline the candidates' own failure counts may take. */
const SIGNALS_SHARE = 0.5;

/**
 * The candidates' signals, or none by `withinMs`: asking hundreds of proxies through a busy
 * request budget (a Proxies scan of 20,000 sidecars shares it) must not cost the incident its
 * deadline. Without them the clients are chosen by pod churn alone, and the page says so; the
 * answers still come in and serve the next view (recentSignals).
 */
async function signalsInTime(
  work: Promise<Signals>,
  asked: number,
  withinMs: number,
): Promise<Signals> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), withinMs);
  });
  try {
    const r = await Promise.race([work, late]);
    if (r !== null) return r;
  } finally {
    clearTimeout(timer);
  }
  work.catch(() => undefined);
  return {
    signals: new Map(),
    source: {
      source: 'pod churn only',
      note: `asking ${asked} client proxies for their own failure counts took longer than ${withinMs} ms (half of what was left of the view's deadline): clients were chosen by pod churn alone; the answers still coming in serve the next view`,
    },
  };
}

/** The view for the URL's state on a runtime's cluster. */
export async function incidentsOf(
  rt: ClusterRuntime,
  q: IncidentsQuery,
  deadline: ViewDeadline = viewDeadline(rt, 'Incidents'),
): Promise<IncidentsView> {
  const history = await historyWithPrometheus(
    runtimeIpHistory(rt),
    rt.settings,
    q,
    rt.now().getTime(),
  );
  const prom = prometheusSettings(rt.settings);
  return buildIncidents(q, {
    t: rt.transport,
    history,
    failures: rt.store.failures,
    // a user's runtime sees the shared store's records where its own RBAC reads the logs
    failureAccess: rt.ownsHistory ? undefined : logAccess(rt.transport, rt.screen(logAccessScreen)),
    // the pods the runtime's watch holds: no list of every pod per view
    pods: () =>
      deadline
        .need('pods', rt.pods.whenListed(), () => podListDetail(rt))
        .then(() => rt.cache.livePods()),
    deadline,
    reads: lastReads(rt),
    layers: (window) => layerInputsFor(rt, rt.screen(layerSamplerScreen), window),
    istioNamespace: rt.settings.MESHDX_ISTIO_NAMESPACE,
    signals: (pods, window) =>
      signalsInTime(
        recentSignals(rt, pods, window, () =>
          clientSignals(pods, window, {
            t: rt.transport,
            kc: rt.kc,
            prometheus: prom,
            concurrency: Math.min(8, rt.settings.MESHDX_PROXY_CONCURRENCY),
            timeoutMs: rt.settings.MESHDX_PROXY_TIMEOUT_MS,
          }),
        ),
        pods.length,
        Math.round(deadline.remaining() * SIGNALS_SHARE),
      ),
    clustersJson: async (ns, pod) => {
      const res = await envoyAdminGet(rt.kc, ns, pod, '/clusters?format=json', {
        timeoutMs: 10_000,
      });
      if (res.status !== 200) throw new Error(`Envoy admin /clusters answered ${res.status}`);
      return res.body;
    },
  });
}

/** GET /api/incidents: the view for the URL's state, on the context's cluster. */
export function getIncidents(scope: RequestScope, q: IncidentsQuery): Promise<IncidentsView> {
  return incidentsByDeadline(runtimeFor(scope), q);
}

/** The view of a request on a runtime's cluster, by the request's one deadline. */
export function incidentsByDeadline(rt: ClusterRuntime, q: IncidentsQuery): Promise<IncidentsView> {
  // by the view's deadline with what was read (the logs still out named), or a 503 naming what
  // the view cannot do without (the pod list); never an empty incident. One deadline for the
  // whole request: the 503 names every part that was late, the analysis' own ones too
  const deadline = viewDeadline(rt, 'Incidents');
  return deadline.need('the incident analysis', incidentsOf(rt, q, deadline), () =>
    podListDetail(rt),
  );
}
