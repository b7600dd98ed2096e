import { describe, expect, it } from 'vitest';
import type { Pod } from '../kube/types';
import type { ZtunnelConfig } from '../ambient/ztunnel';
import { quantityBytes, ztunnelDetail, ztunnelRow } from './ztunnel';

const pod = (ns: string, name: string, ip: string, node = 'n1'): Pod => ({
  metadata: { namespace: ns, name },
  spec: { nodeName: node, containers: [] },
  status: { podIP: ip, conditions: [{ type: 'Ready', status: 'True' }] },
});
const zt = pod('istio-system', 'ztunnel-abc', '10.0.0.2');
const wl = (name: string, ip: string) => ({
  name,
  namespace: 'shop',
  ips: [ip],
  node: 'n1',
  waypoint: null,
  protocol: 'HBONE',
  uid: `Kubernetes//Pod/shop/${name}`,
  status: 'Healthy',
});
const config: ZtunnelConfig = {
  workloads: [wl('web-1', '10.0.1.1'), wl('api-old', '10.0.1.9')],
  services: [
    {
      name: 'web',
      namespace: 'shop',
      hostname: 'web.shop.svc.cluster.local',
      vips: ['10.96.0.5'],
      endpoints: 1,
    },
  ],
};
const live = [zt, pod('shop', 'web-1', '10.0.1.1')];

describe('ztunnels in Proxies', () => {
  it('counts workloads, services and stale workloads per ztunnel', () => {
    const row = ztunnelRow(zt, { ok: true, read: { config, errors: [] } }, live, 42 * 1024 * 1024);
    expect(row).toMatchObject({
      node: 'n1',
      ready: true,
      workloads: 2,
      services: 1,
      stale: 1,
      problem: null,
    });
    const failed = ztunnelRow(zt, { ok: false, problem: '/config_dump answered 503' }, live, null);
    expect(failed).toMatchObject({
      workloads: null,
      stale: null,
      problem: '/config_dump answered 503',
    });
  });

  it('gives the workload table with the stale rows first and the unreadable entries', () => {
    const noName = {
      line: 0,
      reason: 'bad-entry',
      message: 'workloads./10.0.9.9 has no name',
      path: 'workloads./10.0.9.9',
    };
    const d = ztunnelDetail(
      zt,
      { ok: true, read: { config, errors: [noName] } },
      live,
      new Date(0),
    );
    expect(d.workloads.map((w) => [w.name, w.stale?.reason ?? null])).toEqual([
      ['api-old', 'pod-gone'],
      ['web-1', null],
    ]);
    expect(d.errors).toEqual([noName]);
    expect(d).toMatchObject({ read: true, problem: null });
    const unread = ztunnelDetail(zt, { ok: false, problem: 'timed out' }, live, new Date(0));
    expect(unread).toMatchObject({ read: false, problem: 'timed out', workloads: [], errors: [] });
  });

  it('reads Kubernetes memory quantities', () => {
    expect(quantityBytes('40Mi')).toBe(40 * 1024 * 1024);
    expect(quantityBytes('123456Ki')).toBe(123456 * 1024);
    expect(quantityBytes('1048576')).toBe(1048576);
    expect(quantityBytes('lots')).toBeNull();
  });
});
