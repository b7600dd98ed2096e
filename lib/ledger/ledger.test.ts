import { describe, it, expect } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { IpLedger } from './ledger';
import { observePod } from './observation';
import { ev, MIN, podJson, T0 } from '../../tests/data/ledger/pods';
import { readFixture } from '../../test-support/fixtures';
import type { PodEvent } from './types';

const IP = '10.8.0.5';

/** Pod a: pending at T0, gets IP at T0+1s, delete requested at T0+10min (grace 30s), gone at +10.5min.
 *  Pod b: pending at +11min, gets the same IP at +11min+1s. */
function reuseStory(): PodEvent[] {
  return [
    ev('ADDED', { name: 'a' }, T0),
    ev('MODIFIED', { name: 'a', ip: IP, start: T0 }, T0 + 1000),
    ev('MODIFIED', { name: 'a', ip: IP, start: T0, deletionAt: T0 + 10 * MIN }, T0 + 10 * MIN),
    ev('DELETED', { name: 'a', ip: IP, start: T0, deletionAt: T0 + 10 * MIN }, T0 + 10.5 * MIN),
    ev('ADDED', { name: 'b' }, T0 + 11 * MIN),
    ev('MODIFIED', { name: 'b', ip: IP, start: T0 + 11 * MIN }, T0 + 11 * MIN + 1000),
  ];
}

describe('IpLedger', () => {
  it('builds one interval per pod and IP with exact times from a timed watch', () => {
    const ledger = new IpLedger().addAll(reuseStory());
    expect(ledger.history(IP)).toEqual([
      {
        ip: IP,
        namespace: 'shop',
        name: 'a',
        uid: 'uid-a',
        owner: { kind: 'ReplicaSet', name: 'payments-5d9f' },
        node: 'node-1',
        from: T0 + 1000,
        fromSource: 'event',
        deletionStartedAt: T0 + 10 * MIN,
        graceEndsAt: T0 + 10 * MIN + 30_000,
        goneAt: T0 + 10.5 * MIN,
        goneUncertain: false,
        lastSeenAt: T0 + 10.5 * MIN,
      },
      {
        ip: IP,
        namespace: 'shop',
        name: 'b',
        uid: 'uid-b',
        owner: { kind: 'ReplicaSet', name: 'payments-5d9f' },
        node: 'node-1',
        from: T0 + 11 * MIN + 1000,
        fromSource: 'event',
        deletionStartedAt: null,
        graceEndsAt: null,
        goneAt: null,
        goneUncertain: false,
        lastSeenAt: T0 + 11 * MIN + 1000,
      },
    ]);
  });

  it('answers by (ip, time) when an IP is reused', () => {
    const ledger = new IpLedger().addAll(reuseStory());
    expect(ledger.at(IP, T0 + 5 * MIN)).toMatchObject({
      state: 'live',
      holder: { name: 'a' },
      afterTerminationMs: null,
    });
    expect(ledger.at(IP, T0 + 10 * MIN + 12_000)).toMatchObject({
      state: 'terminating',
      holder: { name: 'a' },
      afterTerminationMs: 12_000,
    });
    expect(ledger.at(IP, T0 + 10.75 * MIN)).toMatchObject({
      state: 'terminated',
      holder: { name: 'a' },
      afterTerminationMs: 0.75 * MIN,
    });
    expect(ledger.at(IP, T0 + 12 * MIN)).toMatchObject({ state: 'live', holder: { name: 'b' } });
  });

  it('says unknown before the first holder, for unseen IPs, and for long-free IPs', () => {
    const ledger = new IpLedger().addAll(reuseStory().slice(0, 4));
    expect(ledger.at(IP, T0 - MIN)).toMatchObject({ state: 'unknown', holder: null });
    expect(ledger.at('10.9.9.9', T0)).toMatchObject({
      state: 'unknown',
      holder: null,
      reason: 'no pod known to have held 10.9.9.9',
    });
    const late = ledger.at(IP, T0 + 30 * MIN);
    expect(late).toMatchObject({ state: 'unknown', holder: null });
    expect(late.reason).toContain('shop/a');
    expect(ledger.at(IP, T0 + 30 * MIN, 60 * MIN)).toMatchObject({
      state: 'terminated',
      holder: { name: 'a' },
    });
  });

  it('gives the same intervals whatever the event order', () => {
    const inOrder = new IpLedger().addAll(reuseStory()).intervals();
    const story = reuseStory();
    const shuffled = [story[3], story[5], story[1], story[0], story[4], story[2]] as PodEvent[];
    expect(new IpLedger().addAll(shuffled).intervals()).toEqual(inOrder);
    expect(new IpLedger().addAll([...story].reverse()).intervals()).toEqual(inOrder);
  });

  it('records every IP of a dual-stack pod', () => {
    const ledger = new IpLedger().add(
      ev('ADDED', { name: 'ds', ip: ['10.8.0.7', 'fd00::7'], start: T0 }, T0 + 5000),
    );
    expect(ledger.size).toBe(2);
    expect(ledger.at('fd00::7', T0 + MIN)).toMatchObject({ state: 'live', holder: { name: 'ds' } });
    expect(ledger.at('10.8.0.7', T0 + MIN)).toMatchObject({
      state: 'live',
      holder: { name: 'ds' },
    });
  });

  it('names the pod IPs it cannot place in time, and drops them from the list once placed', () => {
    // untimed events of a pod with an IP and no start, creation or condition time
    const ledger = new IpLedger().addAll([
      ev('ADDED', { name: 'timeless', ip: '10.8.0.7' }, null),
      ev('ADDED', { name: 'a', ip: IP, start: T0 }, null),
    ]);
    const seen: string[] = [];
    ledger.forEachInterval((i) => seen.push(i.name));
    expect(seen).toEqual(['a']);
    expect(ledger.counts.untimed).toBe(1);
    expect(ledger.untimedPodIps()).toEqual({
      count: 1,
      first: [{ namespace: 'shop', name: 'timeless', ip: '10.8.0.7' }],
    });
    expect(ledger.untimedPodIps(0)).toEqual({ count: 1, first: [] });
    // a timed sighting places it
    ledger.add(ev('MODIFIED', { name: 'timeless', ip: '10.8.0.7' }, T0 + MIN));
    expect(ledger.at('10.8.0.7', T0 + 2 * MIN).holder?.name).toBe('timeless');
    expect(ledger.counts.untimed).toBe(0);
    expect(ledger.untimedPodIps()).toEqual({ count: 0, first: [] });
  });

  it('estimates starts and removal for untimed kubectl captures, and says so', () => {
    const ledger = new IpLedger().addAll([
      ev('ADDED', { name: 'a', ip: IP, start: T0 }, null),
      ev('MODIFIED', { name: 'a', ip: IP, start: T0, deletionAt: T0 + 10 * MIN, grace: 45 }, null),
      ev('DELETED', { name: 'a', ip: IP, start: T0, deletionAt: T0 + 10 * MIN, grace: 45 }, null),
    ]);
    const [interval] = ledger.history(IP);
    expect(interval).toMatchObject({
      from: T0,
      fromSource: 'startTime',
      deletionStartedAt: T0 + 10 * MIN,
      graceEndsAt: T0 + 10 * MIN + 45_000,
      goneAt: T0 + 10 * MIN,
      goneUncertain: true,
    });
    const after = ledger.at(IP, T0 + 11 * MIN);
    expect(after).toMatchObject({ state: 'terminated', afterTerminationMs: MIN });
    expect(after.reason).toContain('estimated');
  });

  it('prefers the older holder when a newer start is only a lower bound', () => {
    const ledger = new IpLedger().addAll([
      ev('ADDED', { name: 'old' }, T0),
      ev('MODIFIED', { name: 'old', ip: IP, start: T0 }, T0 + 1000),
      ev('DELETED', { name: 'old', ip: IP, start: T0, deletionAt: T0 + 5 * MIN }, T0 + 6 * MIN),
      ev('ADDED', { name: 'new', ip: IP, start: T0 + 5.5 * MIN }, T0 + 7 * MIN),
    ]);
    expect(ledger.at(IP, T0 + 5.8 * MIN)).toMatchObject({
      state: 'terminating',
      holder: { name: 'old' },
    });
    expect(ledger.at(IP, T0 + 6.5 * MIN)).toMatchObject({ state: 'live', holder: { name: 'new' } });
  });

  it('leaves out hostNetwork pods and counts them', () => {
    const e = ev('ADDED', { name: 'node-agent', ip: '10.128.0.5', start: T0 }, T0);
    const ledger = new IpLedger().add({ ...e, pod: { ...e.pod, hostNetwork: true } });
    expect(ledger.size).toBe(0);
    expect(ledger.counts.hostNetworkSkipped).toBe(1);
  });

  it('reads a real Pod with status (kube-dns fixture)', () => {
    const pod = observePod(parseYaml(readFixture('pods', 'kube-dns_pod_with_status.yaml')));
    if (typeof pod === 'string') throw new Error(pod);
    expect(pod).toMatchObject({
      namespace: 'kube-system',
      name: 'kube-dns-548976df6c-d9kkv',
      uid: 'dd4bbbd4-f71c-11e8-af4f-42010a800072',
      ips: ['10.40.1.4'],
      node: 'gke-istio-test-default-pool-866a0405-ftch',
      owner: { kind: 'ReplicaSet', name: 'kube-dns-548976df6c' },
      startTime: Date.parse('2018-12-03T17:00:00Z'),
    });
    const ledger = new IpLedger().add({ type: 'LISTED', pod, time: null });
    expect(ledger.at('10.40.1.4', Date.parse('2018-12-03T18:00:00Z'))).toMatchObject({
      state: 'live',
      holder: { fromSource: 'startTime' },
    });
  });

  it('stays correct with 50,000 intervals (10 holders per IP over 5,000 IPs)', () => {
    const ledger = new IpLedger();
    for (let n = 0; n < 5000; n++) {
      const ip = `10.${(n >> 8) & 255}.${n & 255}.9`;
      for (let k = 0; k < 10; k++) {
        const start = T0 + k * 10 * MIN;
        ledger.add(ev('ADDED', { name: `p${n}-${k}`, uid: `u${n}-${k}`, ip, start }, start));
        ledger.add(
          ev(
            'DELETED',
            { name: `p${n}-${k}`, uid: `u${n}-${k}`, ip, start, deletionAt: start + 8 * MIN },
            start + 9 * MIN,
          ),
        );
      }
    }
    expect(ledger.size).toBe(50_000);
    let wrong = 0;
    for (let n = 0; n < 5000; n += 7) {
      const ip = `10.${(n >> 8) & 255}.${n & 255}.9`;
      for (let k = 0; k < 10; k++) {
        const r = ledger.at(ip, T0 + k * 10 * MIN + 5 * MIN);
        if (r.holder?.name !== `p${n}-${k}` || r.state !== 'live') wrong++;
      }
    }
    expect(wrong).toBe(0);
  });

  it('dates an untimed DELETED by the last container exit, certain, like the dashboard does', () => {
    const exited = (finishedAt: number | null) => {
      const json = podJson({ name: 'a', ip: IP, start: T0, deletionAt: T0 + 10 * MIN });
      const status = json.status as Record<string, unknown>;
      status.containerStatuses = [
        {
          name: 'app',
          state: {
            terminated: { exitCode: 0, finishedAt: new Date(T0 + 10 * MIN + 4000).toISOString() },
          },
        },
        {
          name: 'istio-proxy',
          state:
            finishedAt === null
              ? { running: { startedAt: new Date(T0).toISOString() } }
              : { terminated: { exitCode: 0, finishedAt: new Date(finishedAt).toISOString() } },
        },
      ];
      const pod = observePod(json);
      if (typeof pod === 'string') throw new Error(pod);
      return pod;
    };
    const capture = (last: number | null) =>
      new IpLedger().addAll([
        ev('ADDED', { name: 'a', ip: IP, start: T0 }, null),
        { type: 'DELETED', pod: exited(last), time: null },
      ]);
    const done = capture(T0 + 10 * MIN + 6000);
    expect(done.history(IP)[0]).toMatchObject({
      goneAt: T0 + 10 * MIN + 6000,
      goneUncertain: false,
    });
    // 2 s after the last exit, well inside the 30 s grace period: already a phantom
    expect(done.at(IP, T0 + 10 * MIN + 8000).state).toBe('terminated');
    expect(done.at(IP, T0 + 10 * MIN + 5000).state).toBe('terminating');
    // a container still running in the final object: removal time unknown, given the grace period
    const forced = capture(null);
    expect(forced.history(IP)[0]?.goneUncertain).toBe(true);
    expect(forced.at(IP, T0 + 10 * MIN + 8000).state).toBe('terminating');
  });
});
