import { parseSynczNonces, rankStaleness } from '../lib/proxies/staleness';
import { mulberry32 } from '../lib/random';
import { ms, type BenchResult } from './support';

/**
 * Proxy staleness across a fleet of 20,000 proxies from istiod's /debug/syncz alone: one body of
 * 20,000 rows as istiod writes it (cluster/listener/route/endpoint nonces `RFC3339/counter` +
 * UUID; 3% of the proxies with an unacknowledged type, some never acknowledged, a few with nonces
 * of an istiod that names no push time), read and ranked against a 30 s threshold, end to end
 * from the body's text. Target: under 2,000 ms.
 */
const PROXIES = 20_000;
const NOW = Date.parse('2026-11-01T12:00:00Z');

function uuid(r: () => number): string {
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
}

function synczBody(): string {
  const r = mulberry32(20_000);
  const version = (agoS: number, n: number) =>
    `${new Date(NOW - agoS * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')}/${n}`;
  const current = version(2, 9000);
  const rows: Record<string, string>[] = [];
  for (let i = 0; i < PROXIES; i++) {
    const row: Record<string, string> = {
      cluster_id: 'Kubernetes',
      proxy: `app-${(i % 400).toString(36)}-7d9f-${i.toString(36)}.ns-${i % 200}`,
      proxy_type: 'sidecar',
      istio_version: '1.30.1',
    };
    for (const t of ['cluster', 'listener', 'route', 'endpoint']) {
      const sent = current + uuid(r);
      row[`${t}_sent`] = sent;
      row[`${t}_acked`] = sent;
    }
    const roll = r();
    if (roll < 0.03) {
      const ago = Math.floor(r() * 600);
      row.endpoint_sent = version(ago, 8000 + i) + uuid(r);
      if (roll < 0.005) delete row.endpoint_acked;
      else if (roll < 0.007) row.endpoint_sent = uuid(r);
    }
    rows.push(row);
  }
  return JSON.stringify(rows, null, 2);
}

export async function run(): Promise<BenchResult[]> {
  const body = synczBody();
  const start = process.hrtime.bigint();
  const { rows, errors } = parseSynczNonces('istiod-0', body);
  const ranking = rankStaleness(rows, NOW, 30_000);
  const took = ms(start);
  if (errors.length > 0) throw new Error(`syncz rows not read: ${errors.slice(0, 3).join('; ')}`);
  if (rows.length !== PROXIES) throw new Error(`expected ${PROXIES} rows, read ${rows.length}`);
  return [
    {
      name: 'staleness.fleet-20000-proxies',
      value: Math.round(took),
      unit: 'ms',
      target: 2_000,
      note: `${(body.length / 1024 / 1024).toFixed(1)} MiB of syncz; ${ranking.stale} stale, ${ranking.overThreshold} over 30 s, ${ranking.ageUnknown} without a push time`,
    },
  ];
}
