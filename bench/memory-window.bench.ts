import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FailureInput } from '../lib/incidents/failure-store';
import { openHistoryStore } from '../server/store/history-store';
import { mulberry32 } from '../server/sim/world/build/ids';
import { ms, peakRssMb, type BenchResult } from './support';

/**
 * Incident memory at volume: 1,000,000 failing requests from 400 client proxies over 7 days,
 * recorded through FailureStore.record in batches of 10,000 (one transaction each) into a store
 * file, which is then closed and opened again (nothing cached); then a one-hour window in the
 * middle is asked for, every record with its fields and attribution, as Incidents asks it.
 * Target: under 500 ms for the window query. MESHDX_BENCH_MEMORY_RECORDS overrides the count.
 */
const RECORDS = Number(process.env.MESHDX_BENCH_MEMORY_RECORDS ?? 1_000_000);
const PROXIES = 400;
const SPAN_MS = 7 * 86_400_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const BATCH = 10_000;
const FLAGS = ['UC', 'UF', 'URX', 'UH', 'NR', ''];

function failure(i: number, rand: () => number): FailureInput {
  const time = T0 + Math.floor(rand() * SPAN_MS);
  const proxy = `team-${i % 25}/web-${(i % PROXIES).toString(36)}-7d9f-abcde`;
  const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const flag = FLAGS[i % FLAGS.length] ?? '';
  const gone = rand() < 0.3;
  const raw = `[${new Date(time).toISOString()}] "POST /pay/${i} HTTP/1.1" 503 ${flag || '-'} via_upstream - "-" 0 95 3 - "-" "curl" "${i.toString(16)}-rid" "payments:8080" "${ip}:8080" outbound|8080||payments.shop.svc.cluster.local 10.9.0.1:40000 10.96.0.10:8080 10.9.0.1:39999 - default`;
  return {
    raw,
    source: { read: i % 7 === 0 ? 'otlp' : 'view', proxy, proxyUid: null },
    fields: {
      time,
      code: 503,
      flags: flag ? [flag] : [],
      method: 'POST',
      authority: 'payments:8080',
      path: `/pay/${i}`,
      durationMs: 3,
      upstreamHost: `${ip}:8080`,
      upstreamCluster: 'outbound|8080||payments.shop.svc.cluster.local',
      downstreamRemote: '10.9.0.1:39999',
      requestId: `${i.toString(16)}-rid`,
      details: 'via_upstream',
    },
    attribution: {
      upstreamIp: ip,
      pod: { namespace: 'shop', name: `payments-${i % 997}`, uid: `uid-${i % 997}` },
      owner: { kind: 'ReplicaSet', name: 'payments-7d9f' },
      state: gone ? 'gone' : 'running',
      deletionStartedAt: gone ? time - 20_000 : null,
      goneAt: gone ? time - 5_000 : null,
      afterTerminationMs: gone ? 20_000 : null,
      reason: gone ? 'sent 20 s after the pod deletion started' : 'the pod was running',
    },
  };
}

export async function run(): Promise<BenchResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-bench-memory-'));
  const file = path.join(dir, 'memory.sqlite');
  const limits = { maxAgeDays: 3650, maxBytes: 8 * 1024 * 1024 * 1024 };
  try {
    const rand = mulberry32(33);
    let store = openHistoryStore(file, { failureLimits: limits });
    const t = process.hrtime.bigint();
    let added = 0;
    for (let i = 0; i < RECORDS; i += BATCH) {
      const batch: FailureInput[] = [];
      for (let j = i; j < Math.min(RECORDS, i + BATCH); j++) batch.push(failure(j, rand));
      added += store.failures.record(batch, T0 + SPAN_MS).added;
    }
    const writeMs = ms(t);
    store.close();
    if (added !== RECORDS) throw new Error(`expected ${RECORDS} records, stored ${added}`);

    store = openHistoryStore(file, { failureLimits: limits });
    const from = T0 + SPAN_MS / 2;
    const window = { fromMs: from, toMs: from + 3_600_000 };
    const q = process.hrtime.bigint();
    const rows = store.failures.inWindow(window);
    const counts = store.failures.countsInWindow(window);
    const queryMs = ms(q);
    const expected = Math.round((RECORDS * 3_600_000) / SPAN_MS);
    if (rows.length < expected * 0.8 || rows.length > expected * 1.2)
      throw new Error(`a one-hour window holds ${rows.length} records, about ${expected} expected`);
    if (counts.view + counts.otlp !== rows.length)
      throw new Error(`counts ${JSON.stringify(counts)} do not add up to ${rows.length}`);
    const retention = store.failures.retention();
    store.close();
    return [
      {
        name: 'memory.window-query-1m-records',
        value: Math.round(queryMs),
        unit: 'ms',
        target: 500,
        note: `${rows.length} records in the hour out of ${RECORDS.toLocaleString('en-US')} (${(retention.bytes / 1024 / 1024).toFixed(0)} MiB of records, file ${(fs.statSync(file).size / 1024 / 1024).toFixed(0)} MB), store reopened first; writing them took ${Math.round(writeMs)} ms (${Math.round((RECORDS / writeMs) * 1000)} records/s in batches of ${BATCH})`,
      },
      { name: 'memory.window-peak-rss', value: Math.round(peakRssMb()), unit: 'MB' },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
