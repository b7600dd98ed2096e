/**
 * What each candidate client proxy's own numbers say about its failures, gathered before any log
 * is read: one Prometheus query when MESHDX_PROMETHEUS is set; else each proxy's :15090
 * `istio_requests_total` through pods/proxy; and, when no proxy exposes that family, Envoy's
 * per-cluster counters on admin /stats (over port-forward), which also say whom it calls.
 */
import { check, REQUESTS } from '../../../lib/plausible/checks';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  signalFromIstioSamples,
  signalFromAdminStats,
  type ClientSignal,
} from '../../../lib/incidents/clients';
import { parseEnvoyStatsText } from '../../../lib/metrics/admin-stats';
import { parsePrometheusText } from '../../../lib/metrics/prometheus';
import { mapBounded } from '../../../lib/proxies/pool';
import { failureReason } from '../../envoy/reason';
import { ENVOY_PROMETHEUS_PORT } from '../../envoy/scrape';
import { envoyAdminGet, podProxyGet } from '../../kube/podports';
import type { KubeTransport } from '../../kube/transport';
import { promGet } from '../../prometheus/query';
import { failuresQuery, istioRequestLines } from '../../../lib/incidents/signal-query';
import { parsePodKey, podKey } from '../../../lib/refs/pod-ref';

export interface SignalSource {
  /** Where the failures came from, for the page. */
  source: string;
  note: string | null;
}

export interface SignalDeps {
  t: KubeTransport;
  kc?: KubeConfig;
  prometheus?: { baseUrl: string; timeoutMs: number } | null;
  concurrency?: number;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

/** At most this many proxies are asked before their logs are chosen (the rest: churn only). */
export const MAX_PROBED = 400;

const ADMIN_PATH = `/stats?filter=${encodeURIComponent(
  '^cluster\\.outbound.*\\.(upstream_rq_total|upstream_cx_total|upstream_rq_5xx|upstream_cx_destroy_remote_with_active_rq)$',
).replace(/\./g, '%2E')}`;

async function fromPrometheus(
  pods: readonly string[],
  prom: { baseUrl: string; timeoutMs: number },
  window: { fromMs: number; toMs: number },
  fetchImpl: typeof fetch,
): Promise<{ signals: Map<string, ClientSignal>; note: string | null }> {
  const answer = await promGet({ ...prom, fetchImpl }, 'query', {
    query: failuresQuery((window.toMs - window.fromMs) / 1000),
    time: String(window.toMs / 1000),
  });
  const signals = new Map<string, ClientSignal>();
  if (answer.error) return { signals, note: answer.error };
  const wanted = new Set(pods);
  for (const p of pods) signals.set(p, { failures: 0, calls: [] });
  for (const s of answer.series) {
    const key = podKey(s.metric.namespace ?? '', s.metric.pod ?? '');
    const v = s.samples[s.samples.length - 1]?.[1] ?? Number.NaN;
    // a count that cannot be (negative, not finite) is unknown, not a ranking fact
    const c = check('istio_requests_total (failing)', v, REQUESTS);
    if (wanted.has(key))
      signals.set(key, { failures: c.ok ? Math.round(c.value) : null, calls: [] });
  }
  return { signals, note: null };
}

/** Each candidate's signal, and where the signals came from. Never throws. */
export async function clientSignals(
  pods: readonly string[],
  window: { fromMs: number; toMs: number },
  deps: SignalDeps,
): Promise<{ signals: Map<string, ClientSignal>; source: SignalSource }> {
  const probe = pods.slice(0, MAX_PROBED);
  const cap =
    pods.length > probe.length
      ? ` (${pods.length - probe.length} proxies beyond ${MAX_PROBED} not asked)`
      : '';
  const concurrency = deps.concurrency ?? 8;
  const timeoutMs = deps.timeoutMs ?? 3_000;
  let promNote: string | null = null;
  if (deps.prometheus) {
    const r = await fromPrometheus(probe, deps.prometheus, window, deps.fetchImpl ?? fetch);
    if (!r.note)
      return {
        signals: r.signals,
        source: {
          source: 'Prometheus istio_requests_total (reporter="source")',
          note: cap || null,
        },
      };
    promNote = `${r.note}; asked each proxy instead.`;
  }
  const scraped = await mapBounded(
    probe,
    concurrency,
    async (p): Promise<[string, ClientSignal]> => {
      try {
        const { namespace: ns, name } = parsePodKey(p);
        const res = await podProxyGet(
          deps.t,
          ns,
          name,
          ENVOY_PROMETHEUS_PORT,
          '/stats/prometheus',
          {
            timeoutMs,
            maxBytes: 64 * 1024 * 1024,
          },
        );
        const samples = parsePrometheusText(istioRequestLines(res.body)).samples;
        return [p, signalFromIstioSamples(samples)];
      } catch (e) {
        return [p, { failures: null, calls: [], problem: failureReason(e) }];
      }
    },
    {
      onThrow: (e, p): [string, ClientSignal] => [
        p,
        { failures: null, calls: [], problem: String(e) },
      ],
    },
  );
  const signals = new Map(scraped);
  const anyIstio = scraped.some(([, s]) => s.failures !== null);
  const note = [promNote, cap || null].filter(Boolean).join(' ') || null;
  if (anyIstio || !deps.kc)
    return {
      signals,
      source: {
        source: anyIstio
          ? "each proxy's istio_requests_total on :15090"
          : 'none: no proxy exposes istio_requests_total on :15090',
        note,
      },
    };
  const kc = deps.kc;
  const admin = await mapBounded(
    probe,
    concurrency,
    async (p): Promise<[string, ClientSignal]> => {
      try {
        const { namespace: ns, name } = parsePodKey(p);
        const res = await envoyAdminGet(kc, ns, name, ADMIN_PATH, {
          timeoutMs,
          maxBytes: 32 * 1024 * 1024,
        });
        if (res.status !== 200) throw new Error(`Envoy admin /stats answered ${res.status}`);
        return [p, signalFromAdminStats(parseEnvoyStatsText(res.body).stats)];
      } catch (e) {
        return [p, { failures: null, calls: [], problem: failureReason(e) }];
      }
    },
    {
      onThrow: (e, p): [string, ClientSignal] => [
        p,
        { failures: null, calls: [], problem: String(e) },
      ],
    },
  );
  return {
    signals: new Map(admin),
    source: {
      source:
        'Envoy admin /stats per-cluster counters (no proxy exposes istio_requests_total on :15090)',
      note,
    },
  };
}
