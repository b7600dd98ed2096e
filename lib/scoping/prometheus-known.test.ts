import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import type { Pod } from '../kube/types';
import type { EnvoyProxyStats } from '../metrics/envoy-stats';
import type { ScrapeOutcome } from '../proxies/types';
import {
  shareSampledSplit,
  silentWorkloads,
  workloadKeys,
  workloadsKnownFromPrometheus,
  type ProxyAnswer,
} from './prometheus-known';
import type { ScopingTarget } from './targets';

/** The real kube-dns Pod of the fixtures (owned by ReplicaSet kube-dns-548976df6c). */
function dnsPod(name = 'kube-dns-548976df6c-d9kkv'): Pod {
  const p = parseAllDocuments(readFixture('pods', 'kube-dns_pod_with_status.yaml'))
    .map((d) => d.toJS() as (Pod & { kind?: unknown }) | null)
    .find((d): d is Pod => d?.kind === 'Pod');
  if (!p) throw new Error('no Pod in the kube-dns fixture');
  return { ...p, metadata: { ...p.metadata, name } };
}

const stats = (istioVersion: string | null): EnvoyProxyStats => ({
  activeClusters: 40,
  warmingClusters: 0,
  listenersActive: 10,
  memoryAllocatedBytes: null,
  serverState: null,
  initializationTimeMs: null,
  istioVersion,
  implausible: [],
});

const target = (pod: string, notRunning: string | null = null): ScopingTarget => ({
  namespace: 'kube-system',
  pod,
  notRunning,
  startedMs: null,
});

describe('what Prometheus tells Scoping', () => {
  it('keys each pod by its workload, through the ReplicaSet to the Deployment', () => {
    const keys = workloadKeys([dnsPod(), dnsPod('kube-dns-548976df6c-x2x2x')]);
    expect(Object.fromEntries(keys)).toEqual({
      'kube-system/kube-dns-548976df6c-d9kkv': 'kube-system/Deployment/kube-dns',
      'kube-system/kube-dns-548976df6c-x2x2x': 'kube-system/Deployment/kube-dns',
    });
  });

  it('knows a workload only when every running proxy has a fresh count and its version', () => {
    const keys = workloadKeys([dnsPod('a'), dnsPod('b')]);
    const all: ScrapeOutcome = { ok: true, stats: stats('1.24.2'), errors: 0 };
    const noVersion: ScrapeOutcome = { ok: true, stats: stats(null), errors: 0 };
    const targets = [target('a'), target('b'), target('c', 'Pending')];
    expect([
      ...workloadsKnownFromPrometheus(targets, keys, (tg) => (tg.pod === 'c' ? noVersion : all)),
    ]).toEqual(['kube-system/Deployment/kube-dns']);
    expect(
      workloadsKnownFromPrometheus(targets, keys, (tg) => (tg.pod === 'b' ? noVersion : all)).size,
    ).toBe(0);
    const stale: ScrapeOutcome = { ok: false, status: 'unknown', reason: 'lagging scrape' };
    expect(workloadsKnownFromPrometheus([target('a')], keys, () => stale).size).toBe(0);
  });

  it('gives a known workload that called nothing as an observation without hits', () => {
    const known = new Set(['kube-system/Deployment/kube-dns', 'shop/Deployment/cart']);
    const seen = [
      {
        source: 'prometheus' as const,
        namespace: 'shop',
        workload: 'cart',
        available: true,
        hits: [],
      },
    ];
    expect(silentWorkloads(known, seen)).toEqual([
      {
        source: 'prometheus',
        namespace: 'kube-system',
        workload: 'kube-dns',
        available: true,
        hits: [],
      },
    ]);
  });

  it("lends a sampled replica's split only to replicas with the same active count", () => {
    const keys = workloadKeys([dnsPod('a'), dnsPod('b'), dnsPod('c')]);
    const answer = (pod: string, active: number, sampled: boolean, service: number | null) =>
      ({
        count: { namespace: 'kube-system', pod, active, service, inbound: sampled ? 2 : null },
        countFrom: sampled ? 'scrape' : 'prometheus',
        sampled,
        observations: [],
        startMs: null,
        unreachable: null,
      }) satisfies ProxyAnswer;
    const answers: ProxyAnswer[] = [
      answer('a', 40, true, 31),
      answer('b', 40, false, null),
      answer('c', 55, false, null),
    ];
    shareSampledSplit(answers, [target('a'), target('b'), target('c')], keys);
    expect(answers.map((a) => [a.count.service, a.count.inbound])).toEqual([
      [31, 2],
      [31, 2],
      [null, null],
    ]);
  });
});
