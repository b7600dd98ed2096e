import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { createLineParser } from '../accesslog/parser';
import { failureOf } from '../incidents/failure-record';
import type { StoredFailure } from '../incidents/failure-store';
import { IpLedger } from '../ledger/ledger';
import { heldThenDeleted, MIN, T0 } from '../../tests/data/ledger/pods';
import {
  GATHER_FAILURES,
  GATHER_INTERVALS,
  GATHER_MANIFEST,
  gatherExtraLine,
  readGatherExtras,
  type GatherManifest,
} from './extras';

const IP = '10.8.0.5';

function manifest(counts: GatherManifest['counts']): GatherManifest {
  return {
    format: 'meshdx-gather',
    version: 1,
    meshdxVersion: '0.1.0',
    capturedAt: '2026-11-01T12:00:00.000Z',
    window: { from: '2026-11-01T11:30:00.000Z', to: '2026-11-01T12:00:00.000Z', since: '30m' },
    context: 'kind-prod',
    server: 'https://127.0.0.1:6443',
    namespaces: null,
    history: { file: '/data/kind-prod.sqlite', problem: null },
    counts,
    proxies: [{ namespace: 'shop', pod: 'checkout-1', kind: 'envoy' }],
    istiods: [],
    unreachable: [
      { namespace: 'shop', pod: 'cart-2', what: 'envoy admin', reason: 'unreachable: refused' },
    ],
    skipped: [{ part: 'cluster/secrets', reason: 'never read' }],
    requests: { list: 3, portforward: 8 },
    budget: {
      qps: 50,
      burst: 100,
      proxyConcurrency: 32,
      peakQps: 11,
      peakInFlightProxy: 4,
      throttledWaits: 0,
      retries: 0,
    },
  };
}

/**
 * Failures made as the store records them, from the access lines of Istio's docs
 * (../shared/fixtures/access_logs/istio-io-docs_text_multi-version.log, PROVENANCE.md), each
 * attributed against a ledger where one pod held the IP and was then deleted.
 */
function fixtureFailures(): StoredFailure[] {
  const ledger = new IpLedger().addAll([
    ...heldThenDeleted('payments-a', IP, T0 + 10 * MIN, 20_000),
  ]);
  const parser = createLineParser();
  const out: StoredFailure[] = [];
  for (const line of readFixture('access_logs', 'istio-io-docs_text_multi-version.log').split(
    '\n',
  )) {
    const r = parser.push(line);
    if (r.kind !== 'record') continue;
    const f = failureOf(
      line,
      r.record,
      { read: 'view', proxy: 'shop/checkout-1', proxyUid: null },
      ledger,
    );
    out.push({ ...f, id: out.length + 1, recordedAt: T0 + 30 * MIN });
  }
  return out;
}

function archive(files: Record<string, string>) {
  return (entry: string) => files[entry];
}

describe('readGatherExtras', () => {
  it('reads back what gather writes: the manifest, the intervals and the failures', () => {
    const failures = fixtureFailures();
    expect(failures.length).toBeGreaterThan(3);
    const intervals = new IpLedger()
      .addAll([...heldThenDeleted('payments-a', IP, T0 + 10 * MIN, 20_000)])
      .intervals();
    expect(intervals).toHaveLength(1);
    const x = readGatherExtras(
      archive({
        [GATHER_MANIFEST]: JSON.stringify(
          manifest({ podIntervals: intervals.length, failures: failures.length }),
        ),
        [GATHER_INTERVALS]: intervals.map(gatherExtraLine).join(''),
        [GATHER_FAILURES]: failures.map(gatherExtraLine).join(''),
      }),
    );
    expect(x.problems).toEqual([]);
    expect(x.manifest?.unreachable[0]?.pod).toBe('cart-2');
    expect(x.intervals).toEqual(intervals);
    expect(x.failures).toEqual(failures);
  });

  it('an archive istioctl wrote has none of it, and that is no problem', () => {
    expect(readGatherExtras(archive({}))).toEqual({
      manifest: null,
      intervals: [],
      failures: [],
      problems: [],
    });
  });

  it('names each unreadable line by file and number, keeps the rest, and checks the counts', () => {
    const [good] = fixtureFailures();
    const broken = { ...good, attribution: { ...good?.attribution, state: 'vanished' } };
    const x = readGatherExtras(
      archive({
        [GATHER_MANIFEST]: JSON.stringify(manifest({ podIntervals: 0, failures: 3 })),
        [GATHER_FAILURES]: `${JSON.stringify(good)}\n{"id": 2,\n${JSON.stringify(broken)}\n\n`,
      }),
    );
    expect(x.failures).toHaveLength(1);
    expect(x.problems.map((p) => [p.file, p.line])).toEqual([
      [GATHER_FAILURES, 2],
      [GATHER_FAILURES, 3],
      [GATHER_FAILURES, null],
    ]);
    expect(x.problems[0]?.message).toMatch(/^not JSON/);
    expect(x.problems[1]?.message).toMatch(/attribution\.state/);
    expect(x.problems[2]?.message).toBe(
      'the manifest counts 3 failures, the file holds 1 readable ones',
    );
  });

  it('refuses a manifest of a newer format by name, and a manifest that is not one', () => {
    const newer = readGatherExtras(
      archive({
        [GATHER_MANIFEST]: JSON.stringify({
          ...manifest({ podIntervals: 0, failures: 0 }),
          version: 9,
        }),
      }),
    );
    expect(newer.manifest).toBeNull();
    expect(newer.problems[0]?.message).toMatch(/format version 9 is newer .* upgrade meshdx/);
    const wrong = readGatherExtras(archive({ [GATHER_MANIFEST]: '{"format":"kiali"}' }));
    expect(wrong.manifest).toBeNull();
    expect(wrong.problems[0]?.message).toMatch(/format/);
    const text = readGatherExtras(archive({ [GATHER_MANIFEST]: 'apiVersion: v1' }));
    expect(text.problems[0]?.message).toMatch(/^not JSON/);
  });
});
