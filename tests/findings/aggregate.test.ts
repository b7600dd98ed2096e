import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import { FindingsReportSchema, type FindingsReport } from '../../lib/api/findings';
import { findingKey } from '../../lib/findings/types';
import { codeOf } from '../../lib/timeline/codes';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { getWholeFindings } from '../../server/screens/findings/findings';
import { resetRegistry } from '../../server/runtime/registry';

let sim: RunningSimulator;
let dir: string;
let report: FindingsReport;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-findings-'));
  sim = await startSimulator({
    scenario: 'startup-race',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
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

describe('the Findings report gathers every analysis', () => {
  it('is valid and names each analysis as a source that answered', () => {
    expect(FindingsReportSchema.safeParse(report).success).toBe(true);
    for (const name of ['timelines analysis', 'scoping analysis', 'incidents analysis']) {
      expect(report.sources?.find((s) => s.name === name)).toMatchObject({ ok: true });
    }
  });

  it('carries the startup race verdicts of the startup-race scenario as workload findings', () => {
    const codes = new Set(report.findings.map((f) => f.code));
    const raceRestart = codeOf('race-restart');
    expect(codes.has(raceRestart)).toBe(true);
    const f = report.findings.find((x) => x.code === raceRestart);
    expect(f?.subject.kind).toBe('Deployment');
    expect(f?.fix?.yaml).toContain('holdApplicationUntilProxyStarts');
    // every code shown is explained by the catalog
    const catalog = new Set(report.catalog.map((c) => c.code));
    for (const c of codes) expect(catalog.has(c)).toBe(true);
  });

  it('carries the scoping gaps and shows each (code, subject, part) once', () => {
    expect(report.findings.some((f) => f.code === 'MDX0301' && f.subject.name === 'race-lab')).toBe(
      true,
    );
    const keys = report.findings.map(findingKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
