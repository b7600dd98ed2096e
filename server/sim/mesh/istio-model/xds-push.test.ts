import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Pod } from '../../../../lib/kube/types';
import { createClock } from '../../world/clock';
import { DEFAULT_XDS_TIMING, XdsModel, xdsTimingFrom, type XdsTiming } from './xds-push';

const T0 = new Date('2026-01-01T00:00:00Z');

function slice(ips: { ip: string; ready: boolean }[]): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: 'payments-x',
      namespace: 'shop',
      labels: { 'kubernetes.io/service-name': 'payments' },
    },
    addressType: 'IPv4',
    endpoints: ips.map((e) => ({
      addresses: [e.ip],
      conditions: { ready: e.ready, terminating: !e.ready },
    })),
    ports: [{ name: 'http', port: 8080 }],
  } as EndpointSlice;
}

const pod = (name: string) =>
  ({ metadata: { name, namespace: 'shop' }, spec: { containers: [] } }) as Pod;

function model(t: Partial<XdsTiming> = {}) {
  const clock = createClock({ fixed: T0 });
  const m = new XdsModel(
    { ...DEFAULT_XDS_TIMING, ...t },
    () => clock.now().getTime(),
    (at, fn) => clock.schedule(new Date(at), fn),
  );
  return { clock, m };
}

describe('istiod debounce and push (PILOT_DEBOUNCE_AFTER / PILOT_DEBOUNCE_MAX)', () => {
  it('pushes once 100 ms pass without an event, with a version of its second and counter', () => {
    const { clock, m } = model();
    m.onSlice(slice([{ ip: '10.0.0.1', ready: true }]), false);
    clock.advance(50);
    m.onSlice(slice([{ ip: '10.0.0.1', ready: false }]), false);
    clock.advance(99);
    expect(m.history()).toHaveLength(0);
    clock.advance(1);
    expect(m.history().map((p) => [p.at - T0.getTime(), p.version])).toEqual([
      [150, '2026-01-01T00:00:00Z/1'],
    ]);
  });

  it('a steady stream of events still pushes after PILOT_DEBOUNCE_MAX', () => {
    const { clock, m } = model({ debounceMaxMs: 1000 });
    for (let i = 0; i < 30; i++) {
      m.onSlice(slice([{ ip: `10.0.0.${i}`, ready: true }]), false);
      clock.advance(50);
    }
    expect(m.history().map((p) => p.at - T0.getTime())).toEqual([1000]);
  });

  it('a proxy serves the ready endpoints of the last push it ACKed, its own ACK delay later', () => {
    const { clock, m } = model({ pushQueueMs: 2000, ackMsByPod: { slow: 5000 } });
    m.onSlice(slice([{ ip: '10.0.0.1', ready: true }]), false);
    clock.advance(10_000);
    m.onSlice(slice([{ ip: '10.0.0.1', ready: false }]), false);
    const at = (ms: number) => clock.now().getTime() + ms;
    const ips = (p: Pod, t: number) =>
      m.ackedEndpoints(p, 'shop/payments', t)?.map((e) => e.address);
    // debounce 100 ms + queue 2 s; fast proxy ACKs 50 ms later, the slow one 5 s later
    expect(ips(pod('fast'), at(2149))).toEqual(['10.0.0.1']);
    clock.advance(8000);
    expect(ips(pod('fast'), at(-8000 + 2150))).toEqual([]);
    expect(ips(pod('slow'), at(-8000 + 7099))).toEqual(['10.0.0.1']);
    expect(ips(pod('slow'), at(-8000 + 7100))).toEqual([]);
  });

  it('reads the delays from scenario parameters and names a bad one', () => {
    expect(xdsTimingFrom({ sliceLagMs: '5000' }).sliceLagMs).toBe(5000);
    expect(() => xdsTimingFrom({ ackMs: 'soon' })).toThrow(/ackMs=soon: expected a number/);
  });
});
