import { describe, expect, it } from 'vitest';
import { inventoryOf } from '../../server/screens/overview/inventory';
import { ambientOf } from '../../server/screens/overview/ambient';
import { readZtunnel } from '../../server/screens/proxies/ztunnel';
import { NO_READER, readZtunnelConfig } from '../../lib/ambient/ztunnel-reader';
import { simClient } from '../../test-support/simulator';

const c = simClient('ambient');

describe('ambient against the simulator over HTTP', () => {
  it('counts ambient namespaces and pods, a ztunnel per node and the waypoint', async () => {
    const inv = await inventoryOf(c.runtime);
    expect(inv.totals).toMatchObject({ ambientNamespaces: 2, ztunnels: 3, waypoints: 1 });
    // mesh-ambient: web 3, api 3 (after the rollout), worker 2; mesh-migrating: ratings 2, details 1
    expect(inv.totals.ambientPods).toBe(11);
    expect(inv.ambient.waypoints[0]).toMatchObject({
      namespace: 'mesh-ambient',
      name: 'waypoint',
      pods: 1,
      usedBy: 8,
    });
    // the Gateway API is served (no Gateway of class istio-waypoint here): nothing to note
    expect(inv.ambient.gatewaysNote).toBeNull();
  });

  it('judges the namespaces for ambient, every kind it needs read', async () => {
    const view = await ambientOf(c.runtime);
    const mid = view.namespaces.find((n) => n.namespace === 'mesh-migrating');
    expect(mid?.status).toBe('mid-migration');
    expect(mid?.findings.map((f) => f.code).sort()).toEqual([
      'MDX0602',
      'MDX0605',
      'MDX0606',
      'MDX0607',
    ]);
    expect(mid?.pods).toEqual({ sidecar: 2, ambient: 3, none: 0 });
    expect(view.namespaces.find((n) => n.namespace === 'mesh-ambient')?.status).toBe('migrated');
    // the cluster serves AuthorizationPolicies, EnvoyFilters, PeerAuthentications: none unread
    expect(view.notes.filter((n) => /authorizationpolicies|envoyfilters|peerauth/.test(n))).toEqual(
      [],
    );
  });

  it("reads a ztunnel's admin /config_dump over port-forward", async () => {
    const zt = c.cache.livePods().find((p) => p.metadata.labels?.app === 'ztunnel');
    expect(zt).toBeDefined();
    const read = await readZtunnel(c.kc, 'istio-system', zt!.metadata.name, 5_000);
    // the dump arrived over port-forward and is JSON; all that can be missing is the reader
    // (ztunnel-reader.ts), which then says so and nothing else
    expect(read.ok ? 'read' : read.problem).toBe(readZtunnelConfig ? 'read' : NO_READER);
  });
});
