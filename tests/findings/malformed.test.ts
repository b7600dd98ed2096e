/**
 * One bad object is a finding, never a broken view: the simulator (a real API server) is given
 * a Pod without spec and a VirtualService whose route names no host, and the Findings report
 * still answers, names them (the pod as kept for its labels, MDX0004; the route as a reference to
 * nothing, IST0101) and carries every other analysis.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import type { Pod } from '../../lib/kube/types';
import { FindingsReportSchema, type FindingsReport } from '../../lib/api/findings';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { resetRegistry } from '../../server/runtime/registry';
import { getWholeFindings } from '../../server/screens/findings/findings';

let sim: RunningSimulator;
let dir: string;
let report: FindingsReport;
const created: { path: string; status: number }[] = [];

async function post(p: string, body: unknown): Promise<void> {
  const r = await fetch(`${sim.url}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  created.push({ path: p, status: r.status });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-malformed-'));
  sim = await startSimulator({
    scenario: 'port-naming',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
  });
  const ns = 'default';
  // a real API server refuses a Pod without spec (422): it can only sit in the cluster as an
  // old or corrupted object, so it goes straight into the simulator's store
  const refused = await fetch(`${sim.url}/api/v1/namespaces/${ns}/pods`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'no-spec', namespace: ns },
    }),
  });
  expect(refused.status).toBe(422);
  sim.store.upsert('pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'no-spec', namespace: ns, uid: 'no-spec-uid' },
  } as unknown as Pod);
  await post(`/apis/networking.istio.io/v1/namespaces/${ns}/virtualservices`, {
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name: 'no-host', namespace: ns },
    spec: { hosts: ['x'], http: [{ route: [{ destination: { subset: 'v1' } }] }] },
  });
  fs.writeFileSync(path.join(dir, 'kubeconfig'), sim.kubeconfigYaml);
  process.env.MESHDX_KUBECONFIG = path.join(dir, 'kubeconfig');
  process.env.MESHDX_DB = ':memory:';
  resetRegistry();
  report = await getWholeFindings(asMeshdx(null));
}, 60_000);

afterAll(async () => {
  resetRegistry();
  delete process.env.MESHDX_KUBECONFIG;
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the Findings report with malformed objects in the cluster', () => {
  it('the simulator accepted both objects', () => {
    expect(created.map((c) => c.status)).toEqual([201]);
  });

  it('answers a valid report that names each malformed object and what is wrong', () => {
    expect(FindingsReportSchema.safeParse(report).success).toBe(true);
    // a pod without spec keeps its labels (MDX0004, used for selectors); a route destination
    // without host is a reference to nothing (IST0101), as istioctl reports it
    const noted = report.findings.filter((f) => f.code === 'MDX0002' || f.code === 'MDX0004');
    expect(noted.map((f) => [f.code, f.subject.kind, f.subject.name, f.evidence.problem])).toEqual([
      ['MDX0004', 'Pod', 'no-spec', 'spec is missing'],
    ]);
    const ref = report.findings.find((f) => f.code === 'IST0101' && f.subject.name === 'no-host');
    expect(ref?.evidence).toMatchObject({ reftype: 'host', ref: '' });
  });

  it('still runs the other checks on the rest (port naming of the scenario)', () => {
    expect(report.findings.some((f) => f.code === 'IST0118')).toBe(true);
    const catalog = new Set(report.catalog.map((c) => c.code));
    for (const f of report.findings) expect(catalog.has(f.code)).toBe(true);
  });
});
