/**
 * The galley.istio.io/analyze-suppress annotation silences a finding in the Findings view as in
 * the CLI: two VirtualServices route to a host that does not exist (simulator, a real API
 * server); the annotated one's IST0101 is left out, the report says how many were suppressed and
 * by what, and the other one's is still there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import { FindingsReportSchema, type FindingsReport } from '../../lib/api/findings';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { resetRegistry } from '../../server/runtime/registry';
import { getWholeFindings } from '../../server/screens/findings/findings';

let sim: RunningSimulator;
let dir: string;
let report: FindingsReport;
const statuses: number[] = [];

function virtualService(name: string, annotations?: Record<string, string>) {
  return {
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name, namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: { hosts: [name], http: [{ route: [{ destination: { host: 'no-such-host' } }] }] },
  };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-suppress-'));
  sim = await startSimulator({
    scenario: 'port-naming',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
  });
  for (const vs of [
    virtualService('silenced', { 'galley.istio.io/analyze-suppress': 'IST0101' }),
    virtualService('shown'),
  ]) {
    const r = await fetch(
      `${sim.url}/apis/networking.istio.io/v1/namespaces/default/virtualservices`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(vs),
      },
    );
    statuses.push(r.status);
  }
  fs.writeFileSync(path.join(dir, 'kubeconfig'), sim.kubeconfigYaml);
  process.env.MESHDX_KUBECONFIG = path.join(dir, 'kubeconfig');
  process.env.MESHDX_DB = ':memory:';
  resetRegistry();
  report = FindingsReportSchema.parse(await getWholeFindings(asMeshdx(null)));
}, 60_000);

afterAll(async () => {
  resetRegistry();
  delete process.env.MESHDX_KUBECONFIG;
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('suppression in the Findings view', () => {
  it('the simulator accepted both VirtualServices', () => {
    expect(statuses).toEqual([201, 201]);
  });

  it("leaves out the annotated object's finding and keeps the other", () => {
    const ist0101 = report.findings.filter((f) => f.code === 'IST0101');
    expect(ist0101.map((f) => f.subject.name)).toContain('shown');
    expect(ist0101.map((f) => f.subject.name)).not.toContain('silenced');
    expect(report.groups?.flatMap((g) => g.objects.map((o) => o.subject.name))).not.toContain(
      'silenced',
    );
  });

  it('says how many were suppressed and by what', () => {
    expect(report.suppressed).toEqual({
      count: 1,
      by: [
        {
          by: 'annotation galley.istio.io/analyze-suppress=IST0101 on VirtualService default/silenced',
          count: 1,
        },
      ],
    });
  });
});
