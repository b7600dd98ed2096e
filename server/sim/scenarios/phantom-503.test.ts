import { describe, it, expect } from 'vitest';
import type { Pod } from '../../../lib/kube/types';
import { parseAccessLog } from '../../../lib/accesslog/parser';
import { phantom503, phantomTruth } from './phantom-503';
import { harness } from './testing/fakes';

/** Replay pod changes: ip -> intervals [from rv-time, to] with the holder's uid. */
function ipHolders(h: ReturnType<typeof harness>) {
  const held: { ip: string; uid: string; name: string; deleting: boolean }[] = [];
  for (const c of h.store.changes) {
    if (c.kind !== 'pods') continue;
    const p = c.object as Pod;
    if (p.status?.podIP !== undefined) {
      held.push({
        ip: p.status.podIP,
        uid: p.metadata.uid ?? '',
        name: p.metadata.name,
        deleting: p.metadata.deletionTimestamp !== undefined,
      });
    }
  }
  return held;
}

describe('phantom-503', () => {
  const h = harness('phantom-503');
  phantom503.start(h.ctx);
  h.clock.advance(120_000);
  const truth = phantomTruth(h.logs);

  it('writes 503 UC, UF and URX lines only to IPs of pods that were terminating at the time', () => {
    expect(truth.length).toBeGreaterThan(10);
    expect(new Set(truth.map((t) => t.flags))).toEqual(new Set(['UC', 'UF', 'URX']));
    const holders = ipHolders(h);
    for (const t of truth) {
      expect(t.line).toContain(`${t.ip}:8080`);
      expect(holders.some((x) => x.uid === t.podUid && x.ip === t.ip && x.deleting)).toBe(true);
    }
    // Both the rollout (payments) and the HPA scale-down (inventory) produced 503s.
    expect(truth.some((t) => t.podName.startsWith('payments-'))).toBe(true);
    expect(truth.some((t) => t.podName.startsWith('inventory-'))).toBe(true);
    // The terminated pods are gone by now.
    const live = new Set(h.store.list<Pod>('pods').map((p) => p.metadata.uid));
    for (const t of truth) expect(live.has(t.podUid)).toBe(false);
  });

  it('reuses the IP of a deleted payments pod for a new pod', () => {
    const payments = h.store.list<Pod>('pods').filter((p) => p.metadata.labels?.app === 'payments');
    expect(payments).toHaveLength(5);
    const truthIps = new Set(truth.map((t) => t.ip));
    const reused = payments.filter((p) => truthIps.has(p.status?.podIP ?? ''));
    expect(reused).toHaveLength(1);
    const [r] = reused;
    expect(truth.every((t) => t.podUid !== r?.metadata.uid)).toBe(true);
  });

  it('scales inventory down to 2', () => {
    expect(
      h.store.list<Pod>('pods').filter((p) => p.metadata.labels?.app === 'inventory'),
    ).toHaveLength(2);
  });

  it("writes client access logs the project's parser reads: TEXT on one pod, JSON on the other", () => {
    const clients = h.store.list<Pod>('pods').filter((p) => p.metadata.labels?.app === 'checkout');
    expect(clients).toHaveLength(2);
    const formats = new Set<string>();
    let records = 0;
    let u503 = 0;
    for (const c of clients) {
      const lines = h.logs.read('shop', c.metadata.name, 'istio-proxy').map((l) => l.line);
      const results = parseAccessLog(lines.join('\n'));
      expect(results.filter((r) => r.kind === 'error')).toEqual([]);
      for (const r of results) {
        if (r.kind !== 'record') continue;
        records += 1;
        formats.add(r.record.format === 'json' ? 'json' : 'text');
        expect(r.record.downstreamRemoteAddress?.startsWith(`${c.status?.podIP}:`)).toBe(true);
        if (r.record.responseCode === 503) u503 += 1;
      }
      expect(results.some((r) => r.kind === 'skipped' && r.reason === 'proxy-log')).toBe(true);
    }
    expect(formats).toEqual(new Set(['json', 'text']));
    expect(u503).toBe(truth.length);
    expect(records).toBeGreaterThan(200);
  });
});
