import { describe, it, expect } from 'vitest';
import type { EndpointSlice, Pod } from '../../../lib/kube/types';
import { describeScenarios, getScenario, scenarioNames } from './index';
import { OPS_NAMESPACE } from './ops';
import { harness } from './testing/fakes';
import { replayProblems } from './testing/invariants';

const small = (name: string): Record<string, string> =>
  name === 'scale' ? { pods: '300', services: '40' } : {};

describe('scenario registry', () => {
  it('lists every scenario with a description and finds each by name', () => {
    expect(scenarioNames().sort()).toEqual([
      'ambient',
      'demo',
      'native-sidecar',
      'phantom-503',
      'phantom-503-otlp',
      'phantom-503-slow-ack',
      'phantom-503-slow-push',
      'phantom-503-slow-slices',
      'phantom-503-slow-ztunnel',
      'phantom-cross-ns',
      'port-naming',
      'scale',
      'startup-race',
      'unscoped-mesh',
    ]);
    for (const d of describeScenarios()) {
      expect(d.description.length).toBeGreaterThan(20);
      expect(getScenario(d.name)?.name).toBe(d.name);
    }
    expect(getScenario('nope')).toBeUndefined();
  });
});

describe.each(scenarioNames())('scenario %s', (name) => {
  const run = () => {
    const h = harness(name, small(name));
    getScenario(name)?.start(h.ctx);
    h.clock.advance(150_000);
    return h;
  };

  it('builds, keeps pod IPs unique and EndpointSlices on live pods at every moment', () => {
    const h = run();
    const problems = replayProblems(h.store);
    if (name === 'phantom-503-slow-slices') {
      // its EndpointSlice controller is slow on purpose: a slice names a gone pod until it
      // catches up, and nothing else is wrong (the final slices are checked below)
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.filter((p) => !/ names gone pod /.test(p))).toEqual([]);
    } else expect(problems).toEqual([]);
    const pods = h.store.list<Pod>('pods');
    expect(pods.length).toBeGreaterThan(3);
    // The final slices name exactly the live pods the service selects.
    const live = new Set(pods.map((p) => p.metadata.uid));
    for (const s of h.store.list<EndpointSlice>('endpointslices')) {
      // (an endpoint without targetRef is an address outside the cluster: phantom-503-otlp's receiver)
      for (const e of s.endpoints ?? [])
        if (e.targetRef !== undefined) expect(live.has(e.targetRef.uid)).toBe(true);
    }
    const cm = h.store.get<{ metadata: { name: string }; data?: Record<string, string> }>(
      'configmaps',
      'istio-system',
      'istio',
    );
    expect(cm?.data?.mesh).toContain('discoveryAddress: istiod.istio-system.svc:15012');
    expect(
      pods.some(
        (p) => p.metadata.namespace === 'istio-system' && p.metadata.labels?.app === 'istiod',
      ),
    ).toBe(true);
  });

  it('owns every workload pod by a ReplicaSet named <deploy>-<pod-template-hash>', () => {
    const h = run();
    const byUid = (kind: 'replicasets' | 'deployments', uid: string | undefined) =>
      h.store.list(kind).find((o) => o.metadata.uid === uid);
    for (const p of h.store.list<Pod>('pods')) {
      if (p.metadata.namespace === OPS_NAMESPACE) continue; // a Job's pod, and one without spec
      const owner = p.metadata.ownerReferences?.[0];
      const rs = byUid('replicasets', owner?.uid);
      expect(rs?.metadata.name).toBe(owner?.name);
      const dep = byUid('deployments', rs?.metadata.ownerReferences?.[0]?.uid);
      expect(dep?.metadata.name).toBe(p.metadata.labels?.app);
      expect(owner?.kind).toBe('ReplicaSet');
      expect(owner?.name).toBe(
        `${p.metadata.labels?.app}-${p.metadata.labels?.['pod-template-hash']}`,
      );
      expect(p.metadata.name.startsWith(`${owner?.name}-`)).toBe(true);
    }
  });

  it('is deterministic: two builds on the same fixed clock give identical objects and logs', () => {
    const a = run();
    const b = run();
    const dump = (h: ReturnType<typeof run>) => JSON.stringify([...h.store.objects.entries()]);
    expect(dump(a)).toBe(dump(b));
    expect(JSON.stringify(a.logs.lines)).toBe(JSON.stringify(b.logs.lines));
  });
});
