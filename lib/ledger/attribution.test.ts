import { describe, it, expect } from 'vitest';
import { IpLedger } from './ledger';
import { attributeRecord } from './attribution';
import { countByService, groupByUpstreamPod } from './aggregate';
import { ev, heldThenDeleted, MIN, T0 } from '../../tests/data/ledger/pods';
import { createLineParser } from '../accesslog/parser';
import type { AccessLogRecord } from '../accesslog/types';

const IP = '10.8.0.5';
const CLIENT_IP = '10.8.0.99';

function ledger(): IpLedger {
  return new IpLedger().addAll([
    ...heldThenDeleted('payments-a', IP, T0 + 10 * MIN, 20_000),
    ev('ADDED', { name: 'frontend', ip: CLIENT_IP, start: T0 - MIN }, T0 - MIN),
  ]);
}

function line(at: number, code: number, flags: string, upstream: string): AccessLogRecord {
  const text = `[${new Date(at).toISOString()}] "POST /pay HTTP/1.1" ${code} ${flags} via_upstream - "-" 0 95 3 - "-" "curl" "rid" "payments:8080" "${upstream}" outbound|8080|v1|payments.shop.svc.cluster.local 10.8.0.99:40000 10.96.0.10:8080 ${CLIENT_IP}:39999 - default`;
  const r = createLineParser().push(text);
  if (r.kind !== 'record') throw new Error('test line did not parse');
  return r.record;
}

describe('attributeRecord', () => {
  it('finds the phantom pod of a 503 UC sent after the pod was gone', () => {
    const a = attributeRecord(line(T0 + 11 * MIN, 503, 'UC', `${IP}:8080`), ledger());
    expect(a).toMatchObject({
      code: 503,
      flags: ['UC'],
      upstream: `${IP}:8080`,
      upstreamIp: IP,
      pod: { namespace: 'shop', name: 'payments-a', uid: 'uid-payments-a' },
      owner: { kind: 'ReplicaSet', name: 'payments-5d9f' },
      state: 'terminated',
      afterTerminationMs: MIN,
      client: { address: `${CLIENT_IP}:39999`, pod: { name: 'frontend' }, state: 'live' },
      service: {
        direction: 'outbound',
        port: 8080,
        subset: 'v1',
        fqdn: 'payments.shop.svc.cluster.local',
      },
    });
  });

  it('marks requests during the grace period as terminating', () => {
    const a = attributeRecord(line(T0 + 10 * MIN + 5000, 503, 'UC', `${IP}:8080`), ledger());
    expect(a).toMatchObject({ state: 'terminating', afterTerminationMs: 5000 });
  });

  it('explains why a request cannot be attributed', () => {
    const noUpstream = attributeRecord(line(T0 + MIN, 503, 'UH', '-'), ledger());
    expect(noUpstream).toMatchObject({ state: 'unknown', pod: null, upstream: null });
    expect(noUpstream.reason).toContain('no upstream host');
    const stranger = attributeRecord(line(T0 + MIN, 503, 'UF', '10.77.0.1:8080'), ledger());
    expect(stranger).toMatchObject({ state: 'unknown', pod: null });
  });

  it('groups failing requests by upstream pod and by service', () => {
    const l = ledger();
    const atts = [
      attributeRecord(line(T0 + 11 * MIN, 503, 'UC', `${IP}:8080`), l),
      attributeRecord(line(T0 + 11 * MIN + 1000, 503, 'UC,URX', `${IP}:8080`), l),
      attributeRecord(line(T0 + 2 * MIN, 500, '-', `${IP}:8080`), l),
      attributeRecord(line(T0 + 2 * MIN, 503, 'UF', '10.77.0.1:8080'), l),
    ];
    const groups = groupByUpstreamPod(atts);
    expect(groups.map((g) => [g.pod?.name ?? null, g.state, g.count, g.byFlag])).toEqual([
      ['payments-a', 'terminated', 3, { UC: 2, URX: 1, '-': 1 }],
      [null, 'unknown', 1, { UF: 1 }],
    ]);
    expect(groups[0]?.byState).toEqual({ terminated: 2, live: 1 });
    expect(groups[0]?.maxAfterTerminationMs).toBe(MIN + 1000);
    expect(countByService(atts)).toEqual([
      {
        service: 'payments.shop.svc.cluster.local',
        port: 8080,
        subset: 'v1',
        count: 4,
        byState: { terminated: 2, live: 1, unknown: 1 },
      },
    ]);
  });
});
