import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { IpLedger } from '../../lib/ledger/ledger';
import { observePod } from '../../lib/ledger/observation';
import type { PodObservation } from '../../lib/ledger/types';
import { PodIntervalTracker, type TrackedPodEvent } from './tracker';
import { podKey } from '../../lib/refs/pod-ref';

const PODS = path.resolve(__dirname, '../../../shared/fixtures/pods');
/** The real pods of the fixtures (sidecar, native sidecar, kube-dns on the host network...). */
const real: PodObservation[] = fs
  .readdirSync(PODS)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(PODS, f), 'utf8')))
  .map((d) => (Array.isArray(d) ? null : (d.toJS() as Record<string, unknown> | null)))
  .filter((d) => d?.kind === 'Pod')
  .map((d) => observePod(d))
  .filter((o): o is PodObservation => typeof o !== 'string');

const T0 = Date.parse('2026-11-01T12:00:00Z');

/** A pod's life as the watch sees it: no IP yet, its IP(s), deletion started, gone. */
function life(p: PodObservation, i: number): TrackedPodEvent[] {
  const at = T0 + i * 60_000;
  return [
    { type: 'ADDED', pod: { ...p, ips: [] }, at, uncertain: false },
    { type: 'MODIFIED', pod: p, at: at + 2_000, uncertain: false },
    {
      type: 'MODIFIED',
      pod: { ...p, deletionTimestamp: at + 40_000 },
      at: at + 10_000,
      uncertain: false,
    },
    {
      type: 'DELETED',
      pod: { ...p, deletionTimestamp: at + 40_000 },
      at: at + 12_000,
      uncertain: i % 2 === 1,
    },
  ];
}

/** The intervals a ledger of that one pod gives (the rules the tracker must keep). */
function ledgerOf(events: TrackedPodEvent[]) {
  const l = new IpLedger();
  for (const e of events)
    l.add({ type: e.type, pod: e.pod, time: e.uncertain && e.type === 'DELETED' ? null : e.at });
  return l.intervals();
}

describe('PodIntervalTracker', () => {
  it('has real pods to follow', () => {
    expect(real.length).toBeGreaterThanOrEqual(4);
    expect(real.some((p) => !p.hostNetwork && p.ips.length > 0)).toBe(true);
  });

  it("gives after each event what a ledger of the pod's events so far gives", () => {
    // and one of them moved to the host network (its IP is the node's: no pod interval)
    const hostNet = { ...real[0]!, name: 'on-host-network', uid: 'host-net', hostNetwork: true };
    [...real, hostNet].forEach((p, i) => {
      const tracker = new PodIntervalTracker();
      const key = p.uid ?? podKey(p.namespace, p.name);
      const events = life(p, i);
      events.forEach((e, k) => {
        const got = tracker.apply(key, e);
        const want = ledgerOf(events.slice(0, k + 1));
        const gone = e.type === 'DELETED' && e.uncertain;
        expect(got).toEqual(
          gone ? want.map((w) => ({ ...w, goneAt: e.at, goneUncertain: true })) : want,
        );
        if (p.hostNetwork) expect(got).toEqual([]);
      });
      if (!p.hostNetwork && p.ips.length > 0) {
        const last = tracker.apply(key, events.at(-1)!);
        // seen without an IP first: the interval starts when the watch saw it get one
        expect(last[0]).toMatchObject({ from: events[1]!.at, fromSource: 'event' });
      }
    });
  });

  it('orders a dual-stack pod by IP and keeps a start found in the store before a restart', () => {
    const p = real.find((x) => !x.hostNetwork && x.ips.length > 0)!;
    const dual = { ...p, ips: ['fd00::7', '10.244.1.7'] };
    const tracker = new PodIntervalTracker((_k, ip) =>
      ip === '10.244.1.7' ? { from: T0 - 3_600_000, fromSource: 'startTime' } : undefined,
    );
    const got = tracker.apply('k', { type: 'ADDED', pod: dual, at: T0, uncertain: true });
    expect(got.map((g) => g.ip)).toEqual(['10.244.1.7', 'fd00::7']);
    expect(got[0]).toMatchObject({ from: T0 - 3_600_000, fromSource: 'startTime' });
    expect(tracker.size).toBe(1);
    tracker.forget('k');
    expect(tracker.size).toBe(0);
    // forgotten: a pod of that key seen again starts over
    expect(
      tracker.apply('k', { type: 'MODIFIED', pod: { ...dual, ips: [] }, at: T0, uncertain: false }),
    ).toEqual([]);
  });

  it('marks every interval gone at the relist time when the deletion was only seen on a relist', () => {
    const p = real.find((x) => !x.hostNetwork && x.ips.length > 0)!;
    const tracker = new PodIntervalTracker();
    tracker.apply('k', { type: 'ADDED', pod: p, at: T0, uncertain: false });
    const gone = tracker.apply('k', { type: 'DELETED', pod: p, at: T0 + 90_000, uncertain: true });
    expect(gone.length).toBe(p.ips.length);
    for (const g of gone) expect(g).toMatchObject({ goneAt: T0 + 90_000, goneUncertain: true });
  });
});
