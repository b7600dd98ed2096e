import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { fakeMesh, HELLO, proxyLogLines, START, testScenario } from './world';

const KUBECTL = '/usr/bin/kubectl';
const hasKubectl = fs.existsSync(KUBECTL);
if (!hasKubectl)
  console.warn(`SKIPPED: kubectl tests of the simulator need ${KUBECTL}, which is absent`);

const run = promisify(execFile);

describe.runIf(hasKubectl)('real kubectl against the simulator', () => {
  let sim: RunningSimulator;
  let dir: string;
  let kubeconfig: string;
  const kubectl = async (...args: string[]): Promise<string> =>
    (
      await run(
        KUBECTL,
        ['--kubeconfig', kubeconfig, '--cache-dir', path.join(dir, 'cache'), ...args],
        { timeout: 15_000 },
      )
    ).stdout;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-sim-kubectl-'));
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

  it('get pods -A -o json returns every pod', async () => {
    const list = JSON.parse(await kubectl('get', 'pods', '-A', '-o', 'json')) as {
      items: { metadata: { name: string } }[];
    };
    const expected = sim.store
      .list('pods')
      .map((p) => p.metadata.name)
      .sort();
    expect(list.items.map((i) => i.metadata.name).sort()).toEqual(expected);
  });

  it('get pods -A prints a table (after falling back from aggregated discovery and Table)', async () => {
    const lines = (await kubectl('get', 'pods', '-A')).trim().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+NAME\s/);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(/\s+/).slice(0, 2).join('/'))
        .sort(),
    ).toEqual(
      sim.store
        .list('pods')
        .map((p) => `${p.metadata.namespace}/${p.metadata.name}`)
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
