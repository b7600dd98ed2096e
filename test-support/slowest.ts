/**
 * The slowest tests of a run, as both reporters (Vitest's and Playwright's) print them at the
 * end: where the suite's time goes, so a test that grows slow is seen the day it does.
 */
export interface TimedTest {
  /** The test file, relative to the repository. */
  file: string;
  /** The test's full title, describe blocks included; empty for a whole file. */
  title: string;
  /** Wall time in ms. */
  ms: number;
}

/** The `n` slowest, slowest first; ties keep their order. */
export function slowest(tests: readonly TimedTest[], n = 10): TimedTest[] {
  if (!Number.isInteger(n) || n < 0) throw new Error(`slowest: ${n} is not a count of tests`);
  for (const t of tests)
    if (!Number.isFinite(t.ms) || t.ms < 0)
      throw new Error(`slowest: ${t.file} "${t.title}" has no duration (${t.ms})`);
  return tests
    .map((t, i) => ({ t, i }))
    .sort((a, b) => b.t.ms - a.t.ms || a.i - b.i)
    .slice(0, n)
    .map(({ t }) => t);
}

/** Seconds with one decimal, right-aligned to `width`. */
const seconds = (ms: number, width: number) => `${(ms / 1000).toFixed(1)} s`.padStart(width);

/** A heading and one line per test: its time, its file and its title. */
export function formatSlowest(heading: string, tests: readonly TimedTest[]): string {
  if (tests.length === 0) return `${heading}: no test ran\n`;
  const width = Math.max(...tests.map((t) => seconds(t.ms, 0).length));
  const lines = tests.map(
    (t) => `  ${seconds(t.ms, width)}  ${t.file}${t.title ? ` › ${t.title}` : ''}`,
  );
  return `${heading}:\n${lines.join('\n')}\n`;
}
