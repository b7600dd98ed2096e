import { describe, expect, it } from 'vitest';
import { GET as incidentsGet } from '../../app/api/incidents/route';
import { IncidentsViewSchema } from '../../lib/api/incidents';
import { url, useEdgeCluster } from './support';

/**
 * The namespace filter of Incidents through its route, on the demo cluster (sidecar namespaces
 * beside ambient ones, a ztunnel per node): shop has no ambient pod, so no ztunnel is among its
 * clients; mesh-ambient's ambient pods bring the ztunnels of their nodes.
 */
useEdgeCluster('ztunnel-clients', { scenario: 'demo' });

async function chosen(namespace: string): Promise<string[]> {
  const res = await incidentsGet(new Request(url(`/api/incidents?namespace=${namespace}`)));
  expect(res.status, await res.clone().text()).toBe(200);
  return IncidentsViewSchema.parse(await res.json()).clients.chosen.map((c) => c.pod);
}

describe('ztunnels among the clients of a namespace filter', () => {
  it('shop (no ambient pod) chooses no ztunnel; mesh-ambient chooses some', async () => {
    const shop = await chosen('shop');
    expect(shop.length).toBeGreaterThan(0);
    expect(shop.filter((p) => p.startsWith('istio-system/ztunnel'))).toEqual([]);
    expect(shop.every((p) => p.startsWith('shop/'))).toBe(true);
    const ambient = await chosen('mesh-ambient');
    expect(ambient.filter((p) => p.startsWith('istio-system/ztunnel')).length).toBeGreaterThan(0);
  }, 60_000);
});
