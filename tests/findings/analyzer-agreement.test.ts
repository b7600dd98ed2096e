/**
 * meshdx against istioctl on istioctl's own analyzer test inputs: every case of
 * analyzer_expected_messages.json that concerns a code meshdx claims (lib/findings/claims.ts)
 * is run through meshdx's manifest checks, and any false positive or false negative for a
 * claimed code fails the test. The score per code is printed.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claimOf, ISTIOCTL_CLAIMS } from '../../lib/findings/claims';
import { parseManifestText } from '../../lib/findings/input';
import { manifestFindings } from '../../lib/findings/manifest';
import { fixturePath, readFixture } from '../../test-support/fixtures';

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
}

const CASES = JSON.parse(readFixture('istio_config', 'analyzer_expected_messages.json')) as Case[];
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

const relevant = CASES.filter(
  (c) => CLAIMED_ANALYZERS.has(c.analyzer) || c.expected.some((e) => CLAIMED_CODES.has(e.code)),
);

interface Score {
  cases: number;
  expected: number;
  truePositives: number;
  falsePositives: string[];
  falseNegatives: string[];
}
const scores = new Map<string, Score>();
const score = (code: string): Score => {
  let s = scores.get(code);
  if (s === undefined) {
    s = { cases: 0, expected: 0, truePositives: 0, falsePositives: [], falseNegatives: [] };
    scores.set(code, s);
  }
  return s;
};

function runCase(c: Case) {
  const objects: unknown[] = [];
  const origins: string[] = [];
  for (const f of c.inputFiles) {
    const parsed = parseManifestText(readFixture('istio_config', f), f);
    expect(parsed.unreadable).toEqual([]);
    for (const o of parsed.objects) {
      objects.push(o.object);
      origins.push(o.origin);
    }
  }
  return manifestFindings(objects, { origins }).findings;
}

describe('meshdx agrees with istioctl analyze on its test inputs', () => {
  it('has the fixture and at least one case for each claimed analyzer with messages', () => {
    expect(fs.existsSync(fixturePath('istio_config', 'analyzer'))).toBe(true);
    expect(relevant.length).toBeGreaterThan(10);
  });

  it.each(relevant.map((c) => [`${c.name} (${c.analyzer})`, c] as const))('%s', (_n, c) => {
    const claims = ISTIOCTL_CLAIMS.filter((x) => x.analyzer === c.analyzer);
    const codes = new Set(claims.map((x) => x.code));
    const expected = new Map<string, number>();
    for (const e of c.expected) {
      if (!codes.has(e.code)) continue;
      const r = parseResource(e.resource);
      if (!claims.some((x) => x.code === e.code && x.kinds.includes(r.kind))) continue;
      const key = `${e.code} ${r.kind} ${r.namespace ?? '-'}/${r.name}`;
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const got = new Map<string, number>();
    for (const f of runCase(c)) {
      const claim = claimOf(f);
      if (claim === undefined || claim.analyzer !== c.analyzer) continue;
      // istioctl's table names cluster-scoped and some namespaced objects without namespace
      const named = c.expected.some(
        (e) =>
          e.code === f.code &&
          parseResource(e.resource).namespace === null &&
          parseResource(e.resource).name === f.subject.name,
      );
      const key = `${f.code} ${f.subject.kind} ${named ? '-' : (f.subject.namespace ?? '-')}/${f.subject.name}`;
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
      for (let i = g; i < e; i++) s.falseNegatives.push(`${c.name}: ${k}`);
      for (let i = e; i < g; i++) s.falsePositives.push(`${c.name}: ${k}`);
    }
    expect([...got.entries()].sort()).toEqual([...expected.entries()].sort());
  });

  it('prints the score per claimed code', () => {
    const lines = [...scores.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([code, s]) =>
          `${code}: ${s.truePositives}/${s.expected} expected found, ${s.falsePositives.length} false positives, ${s.falseNegatives.length} false negatives, ${s.cases} cases`,
      );
    const analyzersRun = new Set(relevant.map((c) => c.analyzer));
    const noCase = ISTIOCTL_CLAIMS.filter((c) => !analyzersRun.has(c.analyzer)).map(
      (c) => `${c.code} (${c.analyzer})`,
    );
    console.log(
      `meshdx vs istioctl analyze (claimed codes):\n  ${lines.join('\n  ')}${
        noCase.length ? `\n  no istioctl test case for: ${noCase.join(', ')}` : ''
      }`,
    );
    for (const s of scores.values()) {
      expect(s.falsePositives).toEqual([]);
      expect(s.falseNegatives).toEqual([]);
    }
  });
});
