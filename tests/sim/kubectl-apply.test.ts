import type { KubeObject } from '../../lib/kube/types';
import { describe, expect, it } from 'vitest';
import { kubectlSim, requireKubectl } from './kubectl-harness';

requireKubectl('the kubectl apply tests of the simulator');

const sidecarYaml = (name: string, hosts: string[]) => `apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: ${name}
  namespace: shop
spec:
  egress:
  - hosts:
${hosts.map((h) => `    - "${h}"`).join('\n')}
`;

describe('real kubectl apply against the simulator', () => {
  const h = kubectlSim('sim-apply');
  const { kubectl, write } = h;

  it('apply -f creates a Sidecar (with validation on), and get sidecars -A lists it', async () => {
    const file = write('scoped.yaml', sidecarYaml('scoped', ['./*', 'istio-system/*']));
    expect(await kubectl('apply', '-f', file)).toContain(
      'sidecar.networking.istio.io/scoped created',
    );
    const rows = (await kubectl('get', 'sidecars', '-A')).trim().split('\n');
    expect(rows.some((r) => /^shop\s+scoped\s/.test(r))).toBe(true);
    const stored = h.sim.store.get<KubeObject & { spec: unknown }>('sidecars', 'shop', 'scoped');
    expect(stored?.spec).toEqual({ egress: [{ hosts: ['./*', 'istio-system/*'] }] });
    expect(
      stored?.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'],
    ).toContain('"scoped"');
    expect(await kubectl('apply', '-f', file)).toContain('scoped unchanged');
  });

  it('apply -f of a changed Sidecar patches it (merge patch, as for any custom resource)', async () => {
    const file = write('scoped2.yaml', sidecarYaml('scoped', ['./*', 'istio-system/*', 'db/*']));
    expect(await kubectl('apply', '-f', file)).toContain('scoped configured');
    const out = JSON.parse(
      await kubectl('get', 'sidecar', '-n', 'shop', 'scoped', '-o', 'json'),
    ) as { spec: { egress: { hosts: string[] }[] } };
    expect(out.spec.egress[0]?.hosts).toEqual(['./*', 'istio-system/*', 'db/*']);
  });

  it('apply -f of a built-in kind patches it strategically; apply --server-side creates', async () => {
    const cm = (data: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tuning\n  namespace: shop\ndata:\n${data}`;
    await kubectl('apply', '-f', write('cm.yaml', cm('  a: "1"\n  b: "2"\n')));
    expect(await kubectl('apply', '-f', write('cm.yaml', cm('  a: "9"\n')))).toContain(
      'configured',
    );
    expect(
      h.sim.store.get<KubeObject & { data: unknown }>('configmaps', 'shop', 'tuning')?.data,
    ).toEqual({ a: '9' });
    const ssa = write('ssa.yaml', sidecarYaml('applied', ['./*']));
    expect(await kubectl('apply', '--server-side', '-f', ssa)).toContain('serverside-applied');
    expect(h.sim.store.get('sidecars', 'shop', 'applied')).toBeDefined();
  });
});
