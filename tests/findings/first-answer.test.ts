import { afterEach, describe, expect, it } from 'vitest';
import { GET as findingsGet } from '../../app/api/findings/route';
import { FindingsReportSchema, type FindingsReport } from '../../lib/api/findings';
import type { Pod } from '../../lib/kube/types';
import { faultKey } from '../../server/sim/store/faults';
import { asMeshdx } from '../../server/auth/identity';
import { runtimeFor } from '../../server/runtime/registry';
import type { Memo } from '../../server/runtime/memo';
import { findingsScreen, getWholeFindings } from '../../server/screens/findings/findings';
import { findingsAlongside } from '../../server/screens/findings/alongside';
import { url, useEdgeCluster } from '../edges/support';
import { GATHER_GUARD_MS, NO_DEADLINE_FOR_COMPLETENESS } from '../../test-support/deadlines';

/**
 * The first Findings answer waits for the lists, not for the analyses: on a fresh server whose
 * proxies answer only after SLOW_MS (every pod's pods/proxy and port-forward slowed), the first
 * answer comes long before them, with the config findings of the listed objects, and names each
 * analysis still running (in `late` and as a source not read), never as none found. The wait a
 * view gives a big cluster's first pod list (MESHDX_FIRST_ANSWER_MS, set long here) does not
 * hold the findings back either: only the lists do.
 */
// long enough that half of it is a guard a busy machine's first answer meets (with 12 s, one
// took 7.7 s against the 6 s bound); the proxy reads time out long before (4 s), so no read
// waits it out
const SLOW_MS = 30_000;
const key = (f: FindingsReport['findings'][number]) =>
  JSON.stringify([f.code, f.subject.kind, f.subject.namespace ?? null, f.subject.name]);

async function firstAnswer(): Promise<{ took: number; report: FindingsReport }> {
  const t0 = Date.now();
  const res = await findingsGet(new Request(url('/api/findings')));
  const took = Date.now() - t0;
  expect(res.status).toBe(200);
  return { took, report: FindingsReportSchema.parse(await res.json()) };
}

function slowProxies(on: boolean) {
  cluster.sim.faults.slowPods.clear();
  if (on)
    for (const p of cluster.sim.store.list('pods') as Pod[])
      cluster.sim.faults.slowPods.set(faultKey(p), SLOW_MS);
}

// the whole report is one with every analysis in (the proxies' holds are what makes the first
// answer's lateness): a deadline the scoping analysis cannot miss on a busy machine, where the
// product's 25 s cut it short
const cluster = useEdgeCluster('findings-first-answer', {
  scenario: 'demo',
  env: {
    MESHDX_FIRST_ANSWER_MS: String(SLOW_MS),
    MESHDX_VIEW_DEADLINE_MS: String(NO_DEADLINE_FOR_COMPLETENESS),
  },
});

describe('the first Findings answer on a fresh server', () => {
  // a test that fails midway leaves no slow proxies to the next (which then reads them whole)
  afterEach(() => slowProxies(false));
  it(
    'comes once the lists are in, naming the analyses still running',
    async () => {
      slowProxies(true);
      const { took, report: first } = await firstAnswer();
      // it did not wait for a proxy: those answer after SLOW_MS
      expect(took).toBeLessThan(SLOW_MS / 2);
      const sources = new Map((first.sources ?? []).map((s) => [s.name, s]));
      expect(sources.get('pods')?.ok).toBe(true);
      expect(sources.get('pods')?.detail).toMatch(/^[1-9]\d* pods$/);
      // the config findings of what is listed are there at once
      expect(first.findings.length).toBeGreaterThan(0);
      // Scoping reads every proxy's config: still running, and said so in both places
      const late = new Map((first.late ?? []).map((l) => [l.part, l.detail]));
      expect(late.get('scoping analysis')).toMatch(/still running/);
      expect(sources.get('scoping analysis')?.ok).toBe(false);
      expect(sources.get('scoping analysis')?.detail).toBe('still running');
      for (const [part, detail] of late) {
        expect(detail, part).toMatch(/still (running|being read)|deadline/);
        const s = sources.get(part);
        if (s) expect(s.ok, part).toBe(false);
      }

      // the next answer is the same run's report so far (no new computation, nothing lost)
      const again = FindingsReportSchema.parse(
        await (await findingsGet(new Request(url('/api/findings')))).json(),
      );
      const shown = new Set(again.findings.map(key));
      for (const f of first.findings) expect(shown.has(key(f)), key(f)).toBe(true);
      slowProxies(false);
    },
    GATHER_GUARD_MS,
  );

  it(
    'asked again once its cache is gone, keeps what the last report found until it is re-read',
    async () => {
      // the run above, whole (its proxy reads answer after SLOW_MS)
      const whole = await getWholeFindings(asMeshdx(null));
      const scoping = (whole.sources ?? []).find((s) => s.name === 'scoping analysis');
      expect(scoping?.ok, scoping?.detail).toBe(true);
      // the cached report expires (FINDINGS_CACHE_MS); the proxies are slow again
      runtimeFor(asMeshdx(null))
        .screen<Memo<FindingsReport>>({
          ...findingsScreen,
          make: () => {
            throw new Error('no findings cache');
          },
        })
        .clear();
      slowProxies(true);
      const { took, report } = await firstAnswer();
      expect(took).toBeLessThan(SLOW_MS / 2);
      const late = new Map((report.late ?? []).map((l) => [l.part, l.detail]));
      expect(late.get('scoping analysis')).toMatch(/^still running: shown as found \d+ s ago/);
      const shown = new Set(report.findings.map(key));
      for (const f of whole.findings) expect(shown.has(key(f)), key(f)).toBe(true);
      slowProxies(false);
    },
    GATHER_GUARD_MS,
  );

  it(
    'come with a page whose own view is in with them, and never hold it back',
    async () => {
      const scope = asMeshdx(null);
      runtimeFor(scope)
        .screen<Memo<FindingsReport>>({
          ...findingsScreen,
          make: () => {
            throw new Error('no findings cache');
          },
        })
        .clear();
      // every API answer takes 3 s: the page's view is in at once, the findings' lists are not
      cluster.sim.faults.latencyMs = 3_000;
      const t0 = Date.now();
      await expect(findingsAlongside(scope, Promise.resolve())).rejects.toThrow(
        /not in with the page/,
      );
      expect(Date.now() - t0).toBeLessThan(2_000);
      cluster.sim.faults.latencyMs = 0;
      // a view that takes longer: the findings come with it
      const report = await findingsAlongside(scope, new Promise(() => undefined));
      expect(report.findings.length).toBeGreaterThan(0);
    },
    GATHER_GUARD_MS,
  );
});
