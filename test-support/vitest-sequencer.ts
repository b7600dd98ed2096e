import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that spend most of their time waiting (on a slow API server by design, Prometheus'
 * scrapes, kubectl, Chromium), slowest first, as `npm test` prints them ("Slowest test files").
 * They start first, so their waits overlap the files that keep the cores busy: left to Vitest's
 * order on a fresh clone (larger files first, no timings cached yet), they ran last, and the
 * run's last 80 s left most of the CPU idle. A file missing here only runs in Vitest's order.
 */
export const WAITING_FILES: readonly string[] = [
  'tests/edges/deadlines.test.ts',
  'tests/scale/budget.test.ts',
  'tests/bloat/bloat-prometheus.test.ts',
  'tests/report/report.test.ts',
  'tests/scale/scoping-prometheus.test.ts',
  'tests/incidents/prometheus.test.ts',
  'tests/deploy/kustomize.test.ts',
  'tests/scale/deadline.test.ts',
  'tests/edges/unknowns.test.ts',
  'tests/scale/fleet-prometheus.test.ts',
  'tests/findings/first-answer-list.test.ts',
  'tests/edges/cli.test.ts',
  'tests/scale/views-budget.test.ts',
  'tests/scale/first-answer.test.ts',
  'tests/auth/pages.test.ts',
];

const rank = (spec: TestSpecification, root: string): number => {
  const i = WAITING_FILES.indexOf(spec.moduleId.slice(root.length + 1));
  return i < 0 ? WAITING_FILES.length : i;
};

/** Vitest's own order (failed first, then longest, or larger first when none ran yet), after WAITING_FILES. */
export default class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const base = await super.sort(files);
    return base
      .map((spec, i) => ({ spec, i, r: rank(spec, root) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map((x) => x.spec);
  }
}
