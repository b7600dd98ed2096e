import { cluster, env, onClusterChange } from '../wiring';
import { historyStore } from '../history';
import {
  storeIntervalSource,
  WatchedIntervalSource,
  type IntervalSource,
} from './incidents-history';

interface Holder {
  source?: IntervalSource;
  /** Drops an in-memory watch when the kubeconfig points elsewhere (it is rebuilt on demand). */
  following?: () => void;
}
// One history source per process (Next may load this module more than once).
const holder = globalThis as typeof globalThis & { __meshdxIncidents?: Holder };

/**
 * The pod IP history the Incidents view uses. On a real cluster: the SQLite store the recorder
 * fills (instrumentation.ts), so pods that were gone before meshdx restarted are still found.
 * On the simulator, which the demo and the e2e tests may run on a frozen clock (observation
 * times would all be the same instant): an in-memory watch that uses only the times written in
 * the pod objects, with the same ledger rules the offline `meshdx attribute` uses.
 */
export function incidentHistory(): IntervalSource {
  const h = (holder.__meshdxIncidents ??= {});
  h.following ??= onClusterChange(() => {
    if (h.source instanceof WatchedIntervalSource) {
      h.source.stop();
      h.source = undefined;
    }
  });
  if (!h.source) {
    const c = cluster();
    if (env().MESHDX_SIMULATED) {
      h.source = new WatchedIntervalSource(c.transport, c.kc, { clock: null });
    } else {
      try {
        h.source = storeIntervalSource(historyStore());
      } catch (e) {
        console.error(
          'meshdx: history store unavailable, keeping IP history in memory:',
          e instanceof Error ? e.message : e,
        );
        h.source = new WatchedIntervalSource(c.transport, c.kc, {
          clock: () => c.transport.clusterNow().getTime(),
        });
      }
    }
  }
  return h.source;
}

/** Plug another history (e.g. the SQLite store) in; replaces the in-memory watch. */
export function setIncidentHistory(source: IntervalSource): void {
  const h = (holder.__meshdxIncidents ??= {});
  const old = h.source;
  if (old instanceof WatchedIntervalSource) old.stop();
  h.source = source;
}

/** Starts the history watch at server start (instrumentation.ts register()); errors are logged. */
export function startIncidentHistory(): void {
  try {
    incidentHistory();
  } catch (e) {
    console.error('meshdx: incident history not started:', e instanceof Error ? e.message : e);
  }
}
