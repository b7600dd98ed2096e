import { describe, expect, it } from 'vitest';
import { GET as findingsGet } from '../../app/api/findings/route';
import { FindingsReportSchema, type FindingsReport } from '../../lib/api/findings';
import { getWholeFindings } from '../../server/screens/findings/findings';
import { asMeshdx } from '../../server/auth/identity';
import { url, useEdgeCluster } from './support';

/**
 * Findings without the wait: on the demo's 240 pods, the first answer comes with the
 * config findings of the watched objects, naming what is still being read; the report fills in
 * (the computation goes on) and a later answer has every analysis.
 */
useEdgeCluster('findings-first', { scenario: 'demo', env: { MESHDX_FIRST_ANSWER_MS: '1500' } });

describe('the first Findings answer', () => {
  // How soon it comes is the bench's (views.findings-first-answer-demo, 3 s on an idle machine);
  // that it does not wait for a slow proxy, tests/findings/first-answer.test.ts proves with
  // proxies held far past it. Here: what the first answer holds, and that the report fills in.
  it('comes with what is known, naming the analyses still running', async () => {
    const res = await findingsGet(new Request(url('/api/findings')));
    expect(res.status).toBe(200);
    const first: FindingsReport = FindingsReportSchema.parse(await res.json());
    // the watched objects' findings are there from the first answer
    const sources = new Map((first.sources ?? []).map((s) => [s.name, s]));
    expect(sources.get('pods')?.ok).toBe(true);
    expect(first.findings.length).toBeGreaterThan(0);
    for (const l of first.late ?? []) {
      expect(l.detail).toMatch(/still (running|being read)|deadline/);
      // a part still running is said so in the sources too, never as 0 findings
      const s = sources.get(l.part);
      if (s) expect(s.ok, l.part).toBe(false);
    }

    // the computation went on: the whole report has every analysis, and keeps what was shown
    const whole = await getWholeFindings(asMeshdx(null));
    const running = (whole.late ?? []).filter((l) => /still (running|being read)/.test(l.detail));
    expect(running).toEqual([]);
    const key = (f: FindingsReport['findings'][number]) =>
      JSON.stringify([f.code, f.subject.kind, f.subject.namespace ?? null, f.subject.name]);
    const codes = new Set(whole.findings.map(key));
    for (const f of first.findings) expect(codes.has(key(f)), key(f)).toBe(true);
  }, 90_000);
});
