import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../lib/kube/types';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { fakeMesh, START, testScenario } from './world';

const KUBECTL = '/usr/bin/kubectl';
const hasKubectl = fs.existsSync(KUBECTL);
if (!hasKubectl)
  console.warn(`SKIPPED: kubectl apply tests of the simulator need ${KUBECTL}, which is absent`);

const run = promisify(execFile);

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

describe.runIf(hasKubectl)('real kubectl apply against the simulator', () => {
  let sim: RunningSimulator;
  let dir: string;
  let kubeconfig: string;
  const kubectl = async (...args: string[]): Promise<string> => {
    try {
      const r = await run(
        KUBECTL,
        ['--kubeconfig', kubeconfig, '--cache-dir', path.join(dir, 'cache'), ...args],
        { timeout: 15_000 },
      );
      return r.stdout;
    } catch (e) {
      const err = e as { stderr?: string; message: string };
      throw new Error(`kubectl ${args.join(' ')} failed: ${err.stderr ?? err.message}`);
    }
  };
  const write = (file: string, text: string): string => {
    const p = path.join(dir, file);
    fs.writeFileSync(p, text);
    return p;
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-sim-apply-'));
    kubeconfig = path.join(dir, 'kubeconfig');
    sim = await startSimulator({
      scenario: 'sim-test',
      scenarioImpl: testScenario,
      meshImpl: fakeMesh,
      clock: { fixed: START },
      kubeconfigPath: kubeconfig,
    });
  });
  afterAll(async () => {
    await sim?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('apply -f creates a Sidecar (with validation on), and get sidecars -A lists it', async () => {
    const file = write('scoped.yaml', sidecarYaml('scoped', ['./*', 'istio-system/*']));
    expect(await kubectl('apply', '-f', file)).toContain(
      'sidecar.networking.istio.io/scoped created',
    );
    const rows = (await kubectl('get', 'sidecars', '-A')).trim().split('\n');
    expect(rows.some((r) => /^shop\s+scoped\s/.test(r))).toBe(true);
    const stored = sim.store.get<KubeObject & { spec: unknown }>('sidecars', 'shop', 'scoped');
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
      sim.store.get<KubeObject & { data: unknown }>('configmaps', 'shop', 'tuning')?.data,
    ).toEqual({ a: '9' });
    const ssa = write('ssa.yaml', sidecarYaml('applied', ['./*']));
    expect(await kubectl('apply', '--server-side', '-f', ssa)).toContain('serverside-applied');
    expect(sim.store.get('sidecars', 'shop', 'applied')).toBeDefined();
  });
});
