import { describe, expect, it } from 'vitest';
import { parseSyncz } from './sync';
import { synczRowsFromBytes } from './syncz-bytes';

const bytes = (text: string) => new TextEncoder().encode(text);

/** A row as istiod writes it (SyncStatus), versions per type or absent. */
function row(proxy: string, types: Record<string, [string | null, string | null]>) {
  const r: Record<string, unknown> = {
    cluster_id: 'Kubernetes',
    proxy,
    proxy_type: 'sidecar',
    proxy_version: '1.24.2',
    istio_version: '1.24.2',
  };
  for (const [t, [sent, acked]] of Object.entries(types)) {
    if (sent !== null) r[`${t}_sent`] = sent;
    if (acked !== null) r[`${t}_acked`] = acked;
  }
  return r;
}

const rows = [
  row('web-1.shop', {
    cluster: ['a1', 'a1'],
    listener: ['b1', 'b1'],
    route: ['c1', 'c1'],
    endpoint: ['d1', 'd1'],
  }),
  row('web-2.shop', { cluster: ['a2', 'a1'], listener: ['b2', null], endpoint: ['', 'x'] }),
  row('gw-1.istio-system', { cluster: ['a3', 'a3'], route: ['c3', 'c3'] }),
  row('', { cluster: ['n', 'n'] }),
  { ...row('odd-1.shop', { cluster: ['a4', 'a4'] }), extra: { nested: [1, { x: null }] } },
  // istiod's SyncStatus as pilot/pkg/xds writes it: no proxy_type, ECDS versions after the
  // four types read (omitempty drops a type never sent)
  {
    cluster_id: 'Kubernetes',
    proxy: 'reviews-v1-7bb8ffd9b6-cwx5c.default',
    proxy_version: '1.26.0',
    istio_version: '1.26.0',
    cluster_sent: 'f5c0a4b2-3c4d-4e5f-8a6b-7c8d9e0f1a2b',
    cluster_acked: 'f5c0a4b2-3c4d-4e5f-8a6b-7c8d9e0f1a2b',
    listener_sent: '0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e',
    listener_acked: '0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e',
    endpoint_sent: '1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5',
    endpoint_acked: '1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5',
    extensionconfig_sent: '2d3e4f5a-6b7c-4d8e-9f0a-b1c2d3e4f5a6',
    extensionconfig_acked: '2d3e4f5a-6b7c-4d8e-9f0a-b1c2d3e4f5a6',
  },
];

/** Both readers' answers, as plain data. */
function read(body: string | Uint8Array) {
  const r = parseSyncz('istiod-1', body);
  return { errors: r.errors, byProxy: [...r.byProxy] };
}

describe('syncz read from its bytes', () => {
  it('gives what the JSON reader gives for istiod indented answer and a compact one', () => {
    for (const text of [JSON.stringify(rows, null, 2) + '\n', JSON.stringify(rows), '[]']) {
      expect(synczRowsFromBytes(bytes(text))).not.toBeNull();
      expect(read(bytes(text))).toEqual(read(text));
    }
    const r = read(bytes(JSON.stringify(rows, null, 2)));
    expect(r.byProxy.map(([p, s]) => [p, s.state])).toEqual([
      ['web-1.shop', 'SYNCED'],
      // the worst of its types (a type not sent ranks above synced)
      ['web-2.shop', 'STALE (Never Acknowledged)'],
      ['gw-1.istio-system', 'NOT SENT'],
      ['', 'NOT SENT'],
      ['odd-1.shop', 'NOT SENT'],
      // RDS never sent (a sidecar without HTTP routes): that ranks above synced
      ['reviews-v1-7bb8ffd9b6-cwx5c.default', 'NOT SENT'],
    ]);
    expect(r.byProxy[1]?.[1].types).toEqual({
      CDS: 'STALE',
      LDS: 'STALE (Never Acknowledged)',
      RDS: 'NOT SENT',
      EDS: 'NOT SENT',
    });
  });

  it("reads istiod's own answer: base64-prefixed nonces with '/', '+' and '='", () => {
    // the first row as istiod 1.14-dev printed it (istio/istio#38165); the second row, cut
    // short there, completed with a foreign RDS ack and no EDS ack
    const nonce = (uuid: string) => `H/Wuh8XL+DI=${uuid}`;
    const body = JSON.stringify(
      [
        {
          cluster_id: 'Kubernetes',
          proxy: 'sleep-557747455f-ntclb.default',
          istio_version: '1.14-dev',
          cluster_sent: nonce('acda010e-b2f3-4ea3-99d7-3175f5448242'),
          cluster_acked: nonce('acda010e-b2f3-4ea3-99d7-3175f5448242'),
          listener_sent: nonce('799ac99c-1f49-45a0-9d44-b6485483c0a2'),
          listener_acked: nonce('799ac99c-1f49-45a0-9d44-b6485483c0a2'),
          route_sent: nonce('ea566798-bad5-49aa-a434-62465e4fa34d'),
          route_acked: nonce('ea566798-bad5-49aa-a434-62465e4fa34d'),
          endpoint_sent: nonce('ee385484-be99-4b39-8f43-d0b044869c5f'),
          endpoint_acked: nonce('ee385484-be99-4b39-8f43-d0b044869c5f'),
        },
        {
          cluster_id: 'Kubernetes',
          proxy: 'fortio-deploy-687945c6dc-h9gw8.default',
          istio_version: '1.14-dev',
          cluster_sent: nonce('d59571b2-bc7b-43ec-8584-17c20769e01c'),
          cluster_acked: nonce('d59571b2-bc7b-43ec-8584-17c20769e01c'),
          route_sent: nonce('d998b8a5-f1f5-4741-bb0a-fbe849e16c02'),
          route_acked: 'C6JqN6wI4GU=4f54250a-dab6-4ece-a443-751028b55b09',
          endpoint_sent: nonce('ee385484-be99-4b39-8f43-d0b044869c5f'),
        },
      ],
      null,
      4,
    );
    expect(synczRowsFromBytes(new TextEncoder().encode(body))).not.toBeNull();
    const viaBytes = parseSyncz('istiod-a', new TextEncoder().encode(body));
    expect(viaBytes).toEqual(parseSyncz('istiod-a', body));
    expect(viaBytes.byProxy.get('sleep-557747455f-ntclb.default')?.state).toBe('SYNCED');
    expect(viaBytes.byProxy.get('fortio-deploy-687945c6dc-h9gw8.default')?.types).toEqual({
      CDS: 'SYNCED',
      LDS: 'NOT SENT',
      RDS: 'STALE',
      EDS: 'STALE (Never Acknowledged)',
    });
  });

  it('leaves to JSON.parse every answer it does not read plainly, with the same result', () => {
    const good = JSON.stringify(rows, null, 2);
    const cases = [
      // rows the JSON reader names one by one
      JSON.stringify(['web-0.a', ...rows], null, 2),
      JSON.stringify([{ proxy: 'web-2.a', cluster_sent: 7, cluster_acked: 7 }], null, 2),
      JSON.stringify([{ proxy: 'web-2.a', cluster_sent: null }], null, 2),
      JSON.stringify([{ cluster_sent: 'x' }], null, 2),
      // escapes, text that is not ASCII, a key given twice (JSON.parse keeps the last)
      good.replace('"web-1.shop"', '"web-1.sh\\u006fp"'),
      good.replace('"proxy": "web-1.shop"', '"pro\\u0078y": "web-1.shop"'),
      good.replace('"web-1.shop"', '"wéb-1.shop"'),
      good.replace('"cluster_sent": "a1"', '"cluster_sent": "zz", "cluster_sent": "a1"'),
      // not a list, cut, something after it, a byte order mark, a row starting a line
      JSON.stringify({ proxy: 'x' }),
      good.slice(0, -2),
      `${good} x`,
      `\ufeff${good}`,
      JSON.stringify(rows).replace('},{', '},\n{'),
      '<html>',
      '',
    ];
    for (const text of cases) {
      expect(synczRowsFromBytes(bytes(text))).toBeNull();
      expect(read(bytes(text))).toEqual(read(text));
    }
  });
});
