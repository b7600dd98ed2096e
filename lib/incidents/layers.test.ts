import { describe, expect, it } from 'vitest';
import type { LayerEvent } from './layer-events';
import { layerTimelines, type LayerFailure, type LayerInputs } from './layers';

const T = Date.parse('2026-11-01T12:00:00Z');
const IP = '10.40.0.4';
const CLIENT = 'shop/checkout-7f9';
const holder = { pod: 'shop/payments-abc', deletionStartedAt: T, goneAt: T + 9_000 };
const ev = (kind: LayerEvent['kind'], at: number, extra: Partial<LayerEvent> = {}): LayerEvent => ({
  kind,
  at: T + at,
  since: T + at - 500,
  ip: '',
  proxy: '',
  detail: '',
  ...extra,
});
const fail = (at: number, client = CLIENT): LayerFailure => ({
  time: T + at,
  client,
  ip: IP,
  holder,
});

function inputs(
  events: LayerEvent[],
  failures: LayerFailure[],
  p: Partial<LayerInputs> = {},
): LayerInputs {
  return { events, failures, problems: {}, firstSampleAt: T - 60_000, samplingMs: 500, ...p };
}

describe('layerTimelines', () => {
  it('names the client Envoy that kept the host 71 s after the push, and where the failures fell', () => {
    const events = [
      ev('slice-not-ready', 500, { ip: IP }),
      ev('shard-unhealthy', 500, { ip: IP }),
      ev('eds-sent', 1000, { proxy: CLIENT, detail: 'v2' }),
      // a later push, then the ACK that carried the change, when the Envoy let go
      ev('eds-sent', 30_000, { proxy: CLIENT, detail: 'v3' }),
      ev('eds-acked', 72_000, { proxy: CLIENT, detail: 'v2' }),
      ev('envoy-dropped', 72_000, { ip: IP, proxy: CLIENT, detail: '/failed_outlier_check' }),
    ];
    const failures = [
      fail(200),
      fail(800),
      ...Array.from({ length: 10 }, (_, i) => fail(2000 + i * 7000)),
    ];
    const [t] = layerTimelines(inputs(events, failures));
    expect(t?.steps.map((s) => [s.layer, s.delayMs, s.failures, s.unknown])).toEqual([
      ['endpointslice', 500, 1, null],
      ['istiod', 500, 1, null],
      ['envoy', 71_000, 10, null],
    ]);
    expect(t?.held).toBe('envoy');
    expect(t?.sentence).toBe(
      "payments-abc (10.40.0.4): the EndpointSlice marked it not ready 0.5 s after its deletion started; istiod pushed 0.5 s after the EndpointSlice; checkout-7f9 ACKed 71.0 s later: its Envoy kept the host, health /failed_outlier_check. Held longest by the client's Envoy (71.0 s): 10 of 12 failures fell there. Layers read every 0.5 s.",
    );
  });

  it('takes the push that the client had ACKed when its Envoy let go, not the first one after the slice', () => {
    const events = [
      ev('slice-not-ready', 0, { ip: IP }),
      // a push already queued before the change goes out 2 s later, the one with it 8 s later
      ev('eds-sent', 2000, { proxy: CLIENT, detail: 'old' }),
      ev('eds-acked', 2000, { proxy: CLIENT, detail: 'old' }),
      ev('eds-acked', 8500, { proxy: CLIENT, detail: 'new' }),
      ev('envoy-dropped', 8500, { ip: IP, proxy: CLIENT, detail: 'healthy' }),
    ];
    const [t] = layerTimelines(inputs(events, [fail(1000), fail(5000)]));
    expect(t?.held).toBe('istiod');
    expect(t?.heldMs).toBe(8500);
  });

  it('takes the first ACK after the Envoy last showed the host, when its Envoy is read late', () => {
    const events = [
      ev('slice-not-ready', 0, { ip: IP }),
      ev('eds-sent', 500, { proxy: CLIENT, detail: 'v2' }),
      ev('eds-sent', 15_000, { proxy: CLIENT, detail: 'v3' }),
      ev('eds-acked', 20_500, { proxy: CLIENT, detail: 'v2' }),
      ev('eds-acked', 35_000, { proxy: CLIENT, detail: 'v3' }),
      // last read with the host at 20 s, next read only at 40 s
      {
        ...ev('envoy-dropped', 40_000, { ip: IP, proxy: CLIENT, detail: 'healthy' }),
        since: T + 20_000,
      },
    ];
    const [t] = layerTimelines(inputs(events, [fail(1000)]));
    // the ACK of v2 at 20.5 s removed it: a closer date than the Envoy's read at 40 s
    expect(t?.steps.map((s) => s.delayMs)).toEqual([0, 500, 20_000]);
    expect(t?.steps[2]?.at).toBe(T + 20_500);
  });

  it('says what it could not measure, never 0', () => {
    const [t] = layerTimelines(
      inputs([], [fail(1000)], { problems: { endpointslice: 'EndpointSlices not listed: 403' } }),
    );
    expect(t?.steps.map((s) => [s.delayMs, s.unknown])).toEqual([
      [null, 'not read: EndpointSlices not listed: 403'],
      [null, 'the EndpointSlice change was not seen'],
      [null, 'no change seen for this IP'],
    ]);
    expect(t?.held).toBeNull();
    expect(t?.sentence).toMatch(
      /^payments-abc \(10\.40\.0\.4\): the EndpointSlice: unknown \(not read: EndpointSlices not listed: 403\);/,
    );
    const late = layerTimelines(inputs([], [fail(1000)], { firstSampleAt: T + 5000 }))[0];
    expect(late?.steps[0]?.unknown).toBe('the layers were first read after the deletion started');
    const never = layerTimelines(inputs([], [fail(1000)], { firstSampleAt: null }))[0];
    expect(never?.steps[0]?.unknown).toBe('the layers were never read');
  });

  it("without a read of the client's Envoy, dates it by its ACK in syncz and says so", () => {
    const events = [
      ev('slice-not-ready', 500, { ip: IP }),
      ev('eds-sent', 1000, { proxy: CLIENT, detail: 'v2' }),
      ev('eds-acked', 21_000, { proxy: CLIENT, detail: 'v2' }),
    ];
    const [t] = layerTimelines(inputs(events, [fail(5000)]));
    expect(t?.steps[2]?.delayMs).toBe(20_000);
    expect(t?.steps[1]?.note).toMatch(/first push after the EndpointSlice changed/);
    expect(t?.sentence).toContain('checkout-7f9 ACKed 20.0 s later (its Envoy not read)');
  });

  it('a client that is a ztunnel: its own drop of the workload is the last layer, after the push any proxy saw', () => {
    const ZT = 'istio-system/ztunnel-7xk2p';
    const OTHER = 'istio-system/ztunnel-q9d4m';
    const events = [
      ev('slice-not-ready', 500, { ip: IP }),
      // a push before the EndpointSlice changed carried nothing about it
      ev('eds-sent', 200, { proxy: 'istio-system/istio-ingressgateway-5c4', detail: 'v1' }),
      ev('eds-sent', 1000, { proxy: 'istio-system/istio-ingressgateway-5c4', detail: 'v2' }),
      ev('ztunnel-dropped', 1500, { ip: IP, proxy: OTHER, detail: 'removed' }),
      ev('ztunnel-dropped', 13_000, { ip: IP, proxy: ZT, detail: 'Unhealthy' }),
    ];
    const failures = [
      fail(200, ZT),
      ...Array.from({ length: 12 }, (_, i) => fail(1200 + i * 1000, ZT)),
    ];
    const [t] = layerTimelines(inputs(events, failures, { ztunnels: [ZT, OTHER] }));
    expect(t?.steps.map((s) => [s.layer, s.delayMs, s.failures])).toEqual([
      ['endpointslice', 500, 1],
      ['istiod', 500, 0],
      ['ztunnel', 12_000, 12],
    ]);
    expect(t?.held).toBe('ztunnel');
    expect(t?.heldMs).toBe(12_000);
    expect(t?.health).toBeNull();
    expect(t?.ztunnels).toEqual([
      { ztunnel: OTHER, at: T + 1500, delayMs: 500, status: 'removed' },
      { ztunnel: ZT, at: T + 13_000, delayMs: 12_000, status: 'Unhealthy' },
    ]);
    expect(t?.steps[1]?.note).toMatch(/one push goes to every proxy/);
    expect(t?.sentence).toBe(
      "payments-abc (10.40.0.4): the EndpointSlice marked it not ready 0.5 s after its deletion started; istiod pushed 0.5 s after the EndpointSlice; ztunnel-7xk2p dropped the workload 12.0 s after the push (Unhealthy). ztunnels that dropped the workload: ztunnel-q9d4m 0.5 s after the push. Held longest by the client's ztunnel (12.0 s): 12 of 13 failures fell there. Layers read every 0.5 s.",
    );
  });

  it('a ztunnel client whose table was not read is unknown with the reason, not an Envoy', () => {
    const ZT = 'istio-system/ztunnel-7xk2p';
    const events = [
      ev('slice-not-ready', 500, { ip: IP }),
      ev('eds-sent', 1000, { proxy: 'a/b', detail: 'v2' }),
    ];
    const [t] = layerTimelines(
      inputs(events, [fail(900, ZT)], {
        ztunnels: [ZT],
        problems: { [`ztunnel ${ZT}`]: '/config_dump not read: connection refused' },
      }),
    );
    expect(t?.steps[2]).toMatchObject({
      layer: 'ztunnel',
      delayMs: null,
      unknown: 'not read: /config_dump not read: connection refused',
    });
    expect(t?.held).toBe('endpointslice');
    expect(t?.sentence).toContain(
      "ztunnel-7xk2p's workload table: unknown (not read: /config_dump not read: connection refused)",
    );
  });

  it('says how often the layers were read around these changes, not the slowest gap of the sampler', () => {
    const events = [
      ev('slice-not-ready', 500, { ip: IP }),
      ev('eds-sent', 1000, { proxy: CLIENT, detail: 'v2' }),
      // the Envoy read 2 s apart around its drop
      {
        ...ev('envoy-dropped', 21_000, { ip: IP, proxy: CLIENT, detail: 'healthy' }),
        since: T + 19_000,
      },
    ];
    const [t] = layerTimelines(inputs(events, [fail(5000)], { samplingMs: 35_700 }));
    expect(t?.readGapMs).toBe(2000);
    expect(t?.sentence).toMatch(/Layers read every 2\.0 s\.$/);
    // nothing dated: the sampler's own figure
    const [none] = layerTimelines(inputs([], [fail(5000)], { samplingMs: 35_700 }));
    expect(none?.readGapMs).toBeNull();
    expect(none?.sentence).toMatch(/Layers read every 35\.7 s\.$/);
  });

  it('dates a push no read saw sent by the time its nonce names, not by its ACK', () => {
    // pushes every 3 s, reads every 4 s: the sent nonce of the push that removed the host was
    // replaced before a read saw it; istiod's PushVersion names its second
    const nonce = '2026-11-01T12:00:00Z/41' + 'a3f0c2d4-9b1e-4c7a-8f55-0e2d6b7c9a11';
    const events = [
      ev('slice-not-ready', 500, { ip: IP }),
      ev('eds-sent', 4000, { proxy: CLIENT, detail: '2026-11-01T12:00:03Z/42' + 'b' }),
      ev('eds-acked', 20_500, { proxy: CLIENT, detail: nonce }),
      ev('envoy-dropped', 20_500, { ip: IP, proxy: CLIENT, detail: 'healthy' }),
    ];
    const [t] = layerTimelines(inputs(events, [fail(5000)]));
    // pushed at 12:00:00 by its nonce, not before the read that saw the EndpointSlice change
    expect(t?.steps.map((s) => [s.layer, s.delayMs])).toEqual([
      ['endpointslice', 500],
      ['istiod', 0],
      ['envoy', 20_000],
    ]);
    expect(t?.held).toBe('envoy');
  });
});
