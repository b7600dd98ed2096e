/**
 * meshdx against istioctl on istioctl's own analyzer test grid: every case of the shared
 * analyzer_expected_messages.json and of tests/data/istio-analyzer/expected_messages.json (the
 * upstream cases the shared set lacks) that concerns a code meshdx claims (lib/findings/claims.ts)
 * is run through `meshdx findings --json` (the CLI entry), and any false positive or miss for a
 * claimed code fails the test. The score per code is printed.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { runWith } from '../../cli/commands/findings';
import { ISTIOCTL_CLAIMS, type IstioctlClaim } from '../../lib/findings/claims';
import { fakeIO } from '../../test-support/cli-io';
import { fixturePath } from '../../test-support/fixtures';
import { objectKey } from '../../lib/refs/object-ref';

interface Expected {
  code: string;
  level: string;
  resource: string;
}
interface Case {
  name: string;
  inputFiles: string[];
  analyzer: string;
  expected: Expected[];
  /** Folder the input files are relative to. */
  base: string;
}
interface JsonFinding {
  code: string;
  subject: { kind: string; namespace: string | null; name: string };
  evidence: Record<string, unknown>;
}

const SHARED = fixturePath('istio_config');
const LOCAL = path.resolve(import.meta.dirname, '..', 'data', 'istio-analyzer');
const load = (base: string, file: string): Case[] =>
  (JSON.parse(fs.readFileSync(path.join(base, file), 'utf8')) as Omit<Case, 'base'>[]).map((c) => ({
    ...c,
    base,
  }));
const CASES = [
  ...load(SHARED, 'analyzer_expected_messages.json'),
  ...load(LOCAL, 'expected_messages.json'),
];
const CLAIMED_CODES = new Set(ISTIOCTL_CLAIMS.map((c) => c.code));
const CLAIMED_ANALYZERS = new Set(ISTIOCTL_CLAIMS.map((c) => c.analyzer));

/** "Kind ns/name" or "Kind name" as istioctl's test table writes it. */
function parseResource(r: string): { kind: string; namespace: string | null; name: string } {
  const [kind = '', ref = ''] = r.split(' ');
  const slash = ref.indexOf('/');
  return slash < 0
    ? { kind, namespace: null, name: ref }
    : { kind, namespace: ref.slice(0, slash), name: ref.slice(slash + 1) };
}

/** The claim a finding of the CLI's JSON answers to, if any. */
function claimOfJson(f: JsonFinding): IstioctlClaim | undefined {
  return ISTIOCTL_CLAIMS.find(
    (c) =>
      c.code === f.code &&
      c.kinds.includes(f.subject.kind) &&
      (c.reftypes === undefined || c.reftypes.includes(String(f.evidence.reftype))),
  );
}

const relevant = CASES.filter(
  (c) => CLAIMED_ANALYZERS.has(c.analyzer) || c.expected.some((e) => CLAIMED_CODES.has(e.code)),
);

interface Score {
  cases: number;
  expected: number;
  truePositives: number;
  falsePositives: string[];
  misses: string[];
}
const scores = new Map<string, Score>();
const score = (code: string): Score => {
  let s = scores.get(code);
  if (s === undefined) {
    s = { cases: 0, expected: 0, truePositives: 0, falsePositives: [], misses: [] };
    scores.set(code, s);
  }
  return s;
};

async function runCase(c: Case): Promise<JsonFinding[]> {
  const io = fakeIO(c.base);
  await runWith([...c.inputFiles, '--json'], io, () =>
    Promise.reject(new Error('stdin not expected')),
  );
  const out = JSON.parse(io.out) as { findings: JsonFinding[]; unreadable: unknown[] };
  expect(out.unreadable).toEqual([]);
  return out.findings;
}

describe('meshdx findings agrees with istioctl analyze on its test grid', () => {
  it('has both grids and cases for the claimed analyzers', () => {
    expect(fs.existsSync(fixturePath('istio_config', 'analyzer'))).toBe(true);
    expect(relevant.length).toBeGreaterThan(20);
  });

  it.each(relevant.map((c) => [`${c.name} (${c.analyzer})`, c] as const))('%s', async (_n, c) => {
    const claims = ISTIOCTL_CLAIMS.filter((x) => x.analyzer === c.analyzer);
    const codes = new Set(claims.map((x) => x.code));
    const expected = new Map<string, number>();
    for (const e of c.expected) {
      if (!codes.has(e.code)) continue;
      const r = parseResource(e.resource);
      if (!claims.some((x) => x.code === e.code && x.kinds.includes(r.kind))) continue;
      const key = `${e.code} ${r.kind} ${objectKey(r.namespace ?? '-', r.name)}`;
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const got = new Map<string, number>();
    for (const f of await runCase(c)) {
      const claim = claimOfJson(f);
      if (claim === undefined || claim.analyzer !== c.analyzer) continue;
      // istioctl's table names objects given without a namespace by name alone
      const named = c.expected.some(
        (e) =>
          e.code === f.code &&
          parseResource(e.resource).namespace === null &&
          parseResource(e.resource).name === f.subject.name,
      );
      const key = `${f.code} ${f.subject.kind} ${objectKey(named ? '-' : (f.subject.namespace ?? '-'), f.subject.name)}`;
      got.set(key, (got.get(key) ?? 0) + 1);
    }
    for (const code of codes) score(code).cases += 1;
    const keys = new Set([...expected.keys(), ...got.keys()]);
    for (const k of keys) {
      const code = k.split(' ')[0] ?? '';
      const e = expected.get(k) ?? 0;
      const g = got.get(k) ?? 0;
      const s = score(code);
      s.expected += e;
      s.truePositives += Math.min(e, g);
      for (let i = g; i < e; i++) s.misses.push(`${c.name}: ${k}`);
      for (let i = e; i < g; i++) s.falsePositives.push(`${c.name}: ${k}`);
    }
    expect([...got.entries()].sort()).toEqual([...expected.entries()].sort());
  });

  it('prints the score per claimed code', async () => {
    const lines = [...scores.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([code, s]) =>
          `${code}: ${s.truePositives}/${s.expected} found, ${s.falsePositives.length} false positives, ${s.misses.length} misses, ${s.cases} cases`,
      );
    const analyzersRun = new Set(relevant.map((c) => c.analyzer));
    const noCase = ISTIOCTL_CLAIMS.filter((c) => !analyzersRun.has(c.analyzer)).map(
      (c) => `${c.code} (${c.analyzer})`,
    );
    const total = [...scores.values()].reduce(
      (t, s) => ({
        tp: t.tp + s.truePositives,
        exp: t.exp + s.expected,
        fp: t.fp + s.falsePositives.length,
        miss: t.miss + s.misses.length,
      }),
      { tp: 0, exp: 0, fp: 0, miss: 0 },
    );
    console.log(
      `meshdx findings vs istioctl analyze, ${relevant.length} cases (claimed codes):\n  ${lines.join('\n  ')}\n  total: ${total.tp}/${total.exp} found, ${total.fp} false positives, ${total.miss} misses${
        noCase.length ? `\n  no istioctl test case for: ${noCase.join(', ')}` : ''
      }`,
    );
    for (const s of scores.values()) {
      expect(s.falsePositives).toEqual([]);
      expect(s.misses).toEqual([]);
    }
    // docs/analyzers.md states the score per code: it is this run's, or the test fails
    // (MESHDX_WRITE_SCORES=1 writes this run's table into it)
    const table = scoreTable([...scores.entries()]);
    const doc = fs.readFileSync(SCORES_DOC, 'utf8');
    const start = doc.indexOf(TABLE_START);
    const end = doc.indexOf(TABLE_END);
    expect(start, `${SCORES_DOC} has the ${TABLE_START} marker`).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    // as Prettier writes it (npm run check formats the docs)
    const now = await prettier.format(
      `${doc.slice(0, start + TABLE_START.length)}\n${table}\n${doc.slice(end)}`,
      { ...(await prettier.resolveConfig(SCORES_DOC)), filepath: SCORES_DOC },
    );
    if (process.env.MESHDX_WRITE_SCORES === '1' && doc !== now) {
      fs.writeFileSync(SCORES_DOC, now);
      console.log(`${SCORES_DOC} written: run the test again to check it`);
    }
    expect(doc, 'docs/analyzers.md states the scores of this run').toBe(now);
  });
});

const SCORES_DOC = path.resolve(import.meta.dirname, '..', '..', 'docs', 'analyzers.md');
const TABLE_START = '<!-- scores: written by tests/findings/analyzer-agreement.test.ts -->';
const TABLE_END = '<!-- end of scores -->';

/** The score per claimed code as docs/analyzers.md shows it, with the analyzer it follows. */
function scoreTable(entries: [string, Score][]): string {
  const analyzers = (code: string) =>
    [...new Set(ISTIOCTL_CLAIMS.filter((c) => c.code === code).map((c) => c.analyzer))]
      .sort()
      .join(', ');
  const rows = entries
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([code, s]) =>
        `| ${code} | ${analyzers(code)} | ${s.cases} | ${s.truePositives}/${s.expected} | ${s.falsePositives.length} | ${s.misses.length} |`,
    );
  const total = entries.reduce(
    (t, [, s]) => ({ tp: t.tp + s.truePositives, exp: t.exp + s.expected }),
    { tp: 0, exp: 0 },
  );
  return [
    `${entries.length} codes claimed; ${total.tp}/${total.exp} expected findings found over ${relevant.length} cases.`,
    '',
    '| code | istioctl analyzer | cases | found | false positives | misses |',
    '| ---- | ----------------- | ----- | ----- | --------------- | ------ |',
    ...rows,
  ].join('\n');
}
