import { describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { podReadyCell, podStatusCell } from '../../server/sim/api/podstatus';
import { kubectlSim, requireKubectl } from './kubectl-harness';
import { HELLO, proxyLogLines } from './world';
import { podKey, podKeyOfObject } from '../../lib/refs/pod-ref';

requireKubectl('the kubectl tests of the simulator');

describe('real kubectl against the simulator', () => {
  const h = kubectlSim('sim-kubectl');
  const { kubectl } = h;

  it('get pods -A -o json returns every pod', async () => {
    const list = JSON.parse(await kubectl('get', 'pods', '-A', '-o', 'json')) as {
      items: { metadata: { name: string } }[];
    };
    const expected = h.sim.store
      .list('pods')
      .map((p) => p.metadata.name)
      .sort();
    expect(list.items.map((i) => i.metadata.name).sort()).toEqual(expected);
  });

  it('get pods -A prints the server-side Table with READY and STATUS', async () => {
    const lines = (await kubectl('get', 'pods', '-A')).trim().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    const byKey = new Map(h.sim.store.list<Pod>('pods').map((p) => [podKeyOfObject(p), p]));
    for (const l of lines.slice(1)) {
      const [ns, name, ready, status] = l.split(/\s+/);
      const p = byKey.get(podKey(String(ns), String(name)));
      expect(p, l).toBeDefined();
      // READY from the stored statuses: ready / all containers, native sidecars included
      const native = new Set(
        (p?.spec.initContainers ?? [])
          .filter((c) => c.restartPolicy === 'Always')
          .map((c) => c.name),
      );
      const statuses = [
        ...(p?.status?.containerStatuses ?? []),
        ...(p?.status?.initContainerStatuses ?? []).filter((c) => native.has(c.name)),
      ];
      const total = (p?.spec.containers.length ?? 0) + native.size;
      expect(ready).toBe(`${statuses.filter((c) => c.ready).length}/${total}`);
      expect(ready).toBe(podReadyCell(p as Pod));
      expect(status).toBe(podStatusCell(p as Pod));
    }
    expect(lines.some((l) => /\sPending\s/.test(l))).toBe(true);
  });

  it('get pods -o wide adds IP and NODE; get svc and ns print their columns', async () => {
    const wide = (await kubectl('get', 'pods', '-n', 'shop', '-o', 'wide')).trim().split('\n');
    expect(wide[0]).toMatch(
      /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/,
    );
    const svc = (await kubectl('get', 'svc', '-A')).trim().split('\n');
    expect(svc[0]).toMatch(
      /^NAMESPACE\s+NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE$/,
    );
    const ns = (await kubectl('get', 'ns')).trim().split('\n');
    expect(ns[0]).toMatch(/^NAME\s+STATUS\s+AGE$/);
    expect(ns.length - 1).toBe(h.sim.store.list('namespaces').length);
  });

  it('get pods -A without Table still lists every pod', async () => {
    const lines = (await kubectl('get', 'pods', '-A', '--server-print=false')).trim().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+NAME\s/);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(/\s+/).slice(0, 2).join('/'))
        .sort(),
    ).toEqual(
      h.sim.store
        .list('pods')
        .map((p) => podKeyOfObject(p))
        .sort(),
    );
  });

  it('get sidecars.networking.istio.io -A finds the CRD through discovery', async () => {
    const out = await kubectl('get', 'sidecars.networking.istio.io', '-A', '-o', 'name');
    expect(out.trim()).toBe('sidecar.networking.istio.io/default');
    const dr = await kubectl('get', 'dr', '-n', 'shop', '-o', 'jsonpath={.items[*].spec.host}');
    expect(dr).toBe('web.shop.svc.cluster.local');
  });

  it('logs POD -c istio-proxy returns the container log', async () => {
    const out = await kubectl('logs', HELLO, '-c', 'istio-proxy', '-n', 'shop', '--tail', '3');
    expect(out).toBe(
      proxyLogLines()
        .slice(-3)
        .map((l) => `${l.line}\n`)
        .join(''),
    );
  });

  it('get pods with a label selector and a field selector', async () => {
    const out = await kubectl(
      'get',
      'pods',
      '-n',
      'shop',
      '-l',
      'app=web',
      '--field-selector',
      'status.phase=Pending',
      '-o',
      'name',
    );
    expect(out.trim()).toBe('pod/web-2');
  });
});
