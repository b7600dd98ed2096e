import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FailureInput } from '../lib/incidents/failure-store';
import type { Pod } from '../lib/kube/types';
import { asMeshdx } from '../server/auth/identity';
import { getPodDetail } from '../server/screens/overview/pod';
import { openHistoryStore } from '../server/store/history-store';
import { mulberry32 } from '../server/sim/world/build/ids';
import { runtimeOnSimulator } from '../test-support/sim-runtime';
import { ms, peakRssMb, type BenchResult } from './support';

/**
 * A pod's page with 1,000,000 failing requests in the store, every one of them within the pod's
 * life (the worst case: the store's whole window is the page's), 1 in 1,000 sent to that pod and
 * the others to 999 other pods of its namespace, 3 in 10 of those already gone (a phantom-503
 * storm's records, which Timelines' drain figures read). The store file is written first, then a
 * runtime on the demo simulator opens it as a dashboard would; the page's API (getPodDetail: the
 * pod, its events, its IP history and the failures that reached it) is asked once to start the
 * runtime, then five times: the median of those is the figure. Target: under 500 ms.
 * MESHDX_BENCH_POD_RECORDS overrides the count.
 */
const RECORDS = Number(process.env.MESHDX_BENCH_POD_RECORDS ?? 1_000_000);
const BATCH = 10_000;
const ASKS = 5;

function failure(
  i: number,
  pod: Pod,
  fromMs: number,
  spanMs: number,
  rand: () => number,
): FailureInput {
  const time = fromMs + Math.floor(rand() * spanMs);
  const mine = i % 1000 === 0;
  const ns = pod.metadata.namespace ?? 'default';
  const name = mine ? pod.metadata.name : `${pod.metadata.name}-other-${i % 999}`;
  const uid = mine ? (pod.metadata.uid ?? null) : `bench-uid-${i % 999}`;
  const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const proxy = `team-${i % 25}/client-${(i % 400).toString(36)}`;
  return {
    raw: `[${new Date(time).toISOString()}] "GET /x/${i} HTTP/1.1" 503 UC upstream_reset_before_response_started{connection_termination} - "-" 0 95 3 - "-" "curl" "${i.toString(16)}-rid" "svc:8080" "${ip}:8080" outbound|8080||svc.${ns}.svc.cluster.local 10.9.0.1:40000 10.96.0.10:8080 10.9.0.1:39999 - default`,
    source: { read: 'view', proxy, proxyUid: null },
    fields: {
      time,
      code: 503,
      flags: ['UC'],
      method: 'GET',
      authority: 'svc:8080',
      path: `/x/${i}`,
      durationMs: 3,
      upstreamHost: `${ip}:8080`,
      upstreamCluster: `outbound|8080||svc.${ns}.svc.cluster.local`,
      downstreamRemote: '10.9.0.1:39999',
      requestId: `${i.toString(16)}-rid`,
      details: 'upstream_reset_before_response_started{connection_termination}',
    },
    attribution: {
      upstreamIp: ip,
      pod: { namespace: ns, name, uid },
      owner: { kind: 'ReplicaSet', name: 'bench' },
      // 3 in 10 to pods already gone, as a phantom-503 storm records them (the pod itself was
      // running for its own)
      ...(!mine && i % 10 < 3
        ? {
            state: 'gone' as const,
            deletionStartedAt: time - 20_000,
            goneAt: time - 5_000,
            afterTerminationMs: 20_000,
            reason: 'sent 20 s after the pod deletion started',
          }
        : {
            state: 'running' as const,
            deletionStartedAt: null,
            goneAt: null,
            afterTerminationMs: null,
            reason: 'the pod was running',
          }),
    },
  };
}

export async function run(): Promise<BenchResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-bench-pods-'));
  const file = path.join(dir, 'history.sqlite');
  // the store keeps every record: its limits are not what is measured
  const s = await runtimeOnSimulator({
    scenario: 'demo',
    env: { MESHDX_DB: file, MESHDX_FAILURE_MAX_DAYS: '3650', MESHDX_FAILURE_MAX_MB: '8192' },
  });
  try {
    const now = s.sim.clock.now().getTime();
    const pod = s.sim.store
      .list<Pod>('pods')
      .find((p) => p.metadata.namespace === 'shop' && p.status?.phase === 'Running');
    if (!pod?.metadata.uid) throw new Error('no running pod with a uid in shop');
    const created = Date.parse(pod.metadata.creationTimestamp ?? '');
    const span = now - created;
    const limits = { maxAgeDays: 3650, maxBytes: 8 * 1024 * 1024 * 1024 };
    const rand = mulberry32(52);
    const store = openHistoryStore(file, { failureLimits: limits });
    const t = process.hrtime.bigint();
    for (let i = 0; i < RECORDS; i += BATCH) {
      const batch: FailureInput[] = [];
      for (let j = i; j < Math.min(RECORDS, i + BATCH); j++)
        batch.push(failure(j, pod, created, span, rand));
      store.failures.record(batch, now);
    }
    const writeMs = ms(t);
    store.close();
    const expected = Math.ceil(RECORDS / 1000);
    const scope = asMeshdx(null);
    const ask = () => getPodDetail(scope, 'shop', pod.metadata.name, pod.metadata.uid ?? null);
    const c = process.hrtime.bigint();
    const first = await ask();
    const firstMs = ms(c);
    if (first.failures?.count !== expected)
      throw new Error(
        `the page counts ${String(first.failures?.count)} failures, ${expected} expected`,
      );
    const times: number[] = [];
    for (let k = 0; k < ASKS; k++) {
      const q = process.hrtime.bigint();
      const d = await ask();
      times.push(ms(q));
      if (d.failures?.count !== expected) throw new Error('the count moved between asks');
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] ?? 0;
    return [
      {
        name: 'pods.uid-page-1m-failures',
        value: Math.round(median),
        unit: 'ms',
        target: 500,
        note: `median of ${ASKS} asks (${times.map((x) => Math.round(x)).join(', ')} ms) of the page of shop/${pod.metadata.name} with ${RECORDS.toLocaleString('en-US')} records in its life, ${expected} of them its own; the first ask, which starts the runtime, ${Math.round(firstMs)} ms; writing the records took ${Math.round(writeMs)} ms`,
      },
      { name: 'pods.uid-page-peak-rss', value: Math.round(peakRssMb()), unit: 'MB' },
    ];
  } finally {
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
