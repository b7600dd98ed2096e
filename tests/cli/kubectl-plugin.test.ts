import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/cli-io';
import { CHILD_PROCESS_GUARD_MS } from '../../test-support/deadlines';
import { startSimulator } from '../../server/sim/index';
import { KUBECTL, requireKubectl } from '../sim/kubectl-harness';
import { objectKey } from '../../lib/refs/object-ref';

/**
 * `kubectl meshdx ...` through real kubectl: kubectl finds the plugin on the PATH as
 * kubectl-meshdx (the package's bin), hands it kubectl's own flags, and the plugin reads the
 * simulated cluster through kubectl itself.
 */
const START = new Date('2026-11-01T12:00:00Z');
const dir = tempDir('kubectl-plugin');
const binDir = path.join(dir, 'bin');
const kubeconfig = path.join(dir, 'kubeconfig');
const exec = promisify(execFile);
let sim: Awaited<ReturnType<typeof startSimulator>> | undefined;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function kubectl(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  try {
    const r = await exec(KUBECTL, args, {
      env: { ...process.env, PATH: `${binDir}:${process.env.PATH ?? ''}`, ...env },
      maxBuffer: 64 << 20,
      timeout: CHILD_PROCESS_GUARD_MS,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: x.code ?? -1, stdout: x.stdout ?? '', stderr: x.stderr ?? '' };
  }
}

/** A VirtualService bound to a Gateway, applied to the simulator. */
const vs = (ns: string, name: string, gateway: string) => `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: ${name}, namespace: ${ns}}
spec:
  hosts: [${name}.example.com]
  gateways: [${gateway}]
  http: [{route: [{destination: {host: checkout.shop.svc.cluster.local}}]}]
`;

interface FindingsJson {
  findings: {
    code: string;
    subject: { kind: string; namespace?: string; name: string };
    part?: { kind: string; name: string };
  }[];
  summary: { objects: number };
}

beforeAll(async () => {
  requireKubectl('kubectl meshdx');
  sim = await startSimulator({ scenario: 'demo', port: 0, clock: { fixed: START } });
  fs.writeFileSync(kubeconfig, sim.kubeconfigYaml);
  fs.mkdirSync(binDir, { recursive: true });
  fs.symlinkSync(
    path.resolve(import.meta.dirname, '../../bin/kubectl-meshdx.mjs'),
    path.join(binDir, 'kubectl-meshdx'),
  );
  const manifest = path.join(dir, 'routes.yaml');
  fs.writeFileSync(
    manifest,
    [
      `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: public, namespace: istio-system}
spec:
  selector: {istio: ingressgateway}
  servers: [{port: {number: 80, name: http, protocol: HTTP}, hosts: ['*']}]
`,
      // bound to a Gateway of another namespace that exists: no finding, when that
      // namespace was read too
      vs('shop', 'storefront', 'istio-system/public'),
      vs('shop', 'lost', 'istio-system/missing'),
      vs('ops', 'elsewhere', 'istio-system/missing'),
    ].join('---\n'),
  );
  const applied = await kubectl(['--kubeconfig', kubeconfig, 'apply', '-f', manifest]);
  expect(applied.stderr).toBe('');
}, CHILD_PROCESS_GUARD_MS);

afterAll(async () => {
  await sim?.close();
});

const routeFindings = (r: Ran) =>
  (JSON.parse(r.stdout) as FindingsJson).findings
    .filter(
      (f) =>
        f.code === 'IST0101' &&
        f.subject.kind === 'VirtualService' &&
        f.part?.name.startsWith('gateways'),
    )
    .map((f) => objectKey(f.subject.namespace ?? '', f.subject.name))
    .sort();

describe('kubectl meshdx', () => {
  it('is found by kubectl on the PATH and prints its usage', async () => {
    const list = await kubectl(['plugin', 'list']);
    expect(list.stdout).toContain(path.join(binDir, 'kubectl-meshdx'));
    const help = await kubectl(['meshdx', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: kubectl meshdx COMMAND/);
  });

  it('findings -n reports that namespace, judged on the whole cluster', async () => {
    const r = await kubectl([
      'meshdx',
      'findings',
      '-n',
      'shop',
      '--kubeconfig',
      kubeconfig,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as FindingsJson;
    // the Gateway of istio-system was read: the storefront route is bound, the lost one not
    expect(routeFindings(r)).toEqual(['shop/lost']);
    for (const f of report.findings)
      if (f.subject.namespace) expect(f.subject.namespace).toBe('shop');
    const all = await kubectl(['meshdx', 'findings', '-A', '--kubeconfig', kubeconfig, '--json']);
    expect(routeFindings(all)).toEqual(['ops/elsewhere', 'shop/lost']);
    expect((JSON.parse(all.stdout) as FindingsJson).summary.objects).toBe(report.summary.objects);
  });

  it('takes the kubeconfig from KUBECONFIG and the namespace from the context, as kubectl does', async () => {
    const withNs = path.join(dir, 'kubeconfig-ops');
    fs.writeFileSync(withNs, fs.readFileSync(kubeconfig, 'utf8'));
    const set = await kubectl([
      '--kubeconfig',
      withNs,
      'config',
      'set-context',
      '--current',
      '--namespace',
      'ops',
    ]);
    expect(set.code).toBe(0);
    const r = await kubectl(['meshdx', 'findings', '--json'], { KUBECONFIG: withNs });
    expect(routeFindings(r)).toEqual(['ops/elsewhere']);
  });

  it('timeline judges the pods of the namespace with their events and the mesh config', async () => {
    const pods = await kubectl([
      '--kubeconfig',
      kubeconfig,
      'get',
      'pods',
      '-n',
      'race-lab',
      '-o',
      'name',
    ]);
    const names = pods.stdout
      .trim()
      .split('\n')
      .map((l) => l.replace(/^pod\//, ''));
    const r = await kubectl([
      'meshdx',
      'timeline',
      '-n',
      'race-lab',
      '--kubeconfig',
      kubeconfig,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const rows = (JSON.parse(r.stdout) as { pods: { namespace: string; name: string }[] }).pods;
    expect(rows.map((p) => p.name).sort()).toEqual(names.sort());
    expect(new Set(rows.map((p) => p.namespace))).toEqual(new Set(['race-lab']));
    // the events were read: no pod is left without them
    expect(r.stderr).not.toContain('capture events too');
    const one = await kubectl([
      'meshdx',
      'timeline',
      names[0] as string,
      '-n',
      'race-lab',
      '--kubeconfig',
      kubeconfig,
      '--json',
    ]);
    expect(
      (JSON.parse(one.stdout) as { pods: { name: string }[] }).pods.map((p) => p.name),
    ).toEqual([names[0]]);
  });

  it("names what kubectl refused, and refuses kubectl's flags where a command reads files", async () => {
    const r = await kubectl([
      'meshdx',
      'findings',
      '--context',
      'nope',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^kubectl meshdx findings: kubectl .*context nope/);
    const c = await kubectl(['meshdx', 'clusters', '-n', 'shop', 'dump.json']);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('--namespace not taken: clusters reads files');
    const both = await kubectl(['meshdx', 'findings', '-n', 'shop', '-A']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give one');
  });
});
