import { describe, expect, it } from 'vitest';
import { parseManifestText } from './input';
import { manifestFindings } from './manifest';
import {
  annotationIndexOfRaw,
  applySuppressions,
  globMatch,
  istioResourceName,
  parseSuppressRule,
  type SuppressRule,
} from './suppress';
import { readFixture } from '../../test-support/fixtures';
import { objectKey } from '../refs/object-ref';

const injection = parseManifestText(
  readFixture('istio_config', 'analyzer', 'injection.yaml'),
  'injection.yaml',
).objects.map((o) => o.object);
const rule = (t: string): SuppressRule => {
  const r = parseSuppressRule(t);
  if ('error' in r) throw new Error(r.error);
  return r.rule;
};

describe('--suppress values as istioctl reads them', () => {
  it('reads CODE=RESOURCE and refuses other forms, naming the expected one', () => {
    expect(parseSuppressRule('IST0103=Pod mypod.testing')).toEqual({
      rule: { code: 'IST0103', resource: 'Pod mypod.testing' },
    });
    for (const bad of ['IST0103', 'IST0103=a=b', '=Pod x', 'IST0103=']) {
      const r = parseSuppressRule(bad);
      expect('error' in r && r.error).toMatch(/expected CODE=RESOURCE/);
    }
  });

  it('warns that a code meshdx does not report has no effect', () => {
    const r = parseSuppressRule('IST9999=Pod x.default');
    expect('warning' in r && r.warning).toMatch(/IST9999 is unknown to meshdx/);
  });

  it("globs as istioctl's go-glob: * matches any run, nothing else is special", () => {
    expect(globMatch('Pod *.testing', 'Pod mypod.testing')).toBe(true);
    expect(globMatch('Pod *.testing', 'Pod mypod.default')).toBe(false);
    expect(globMatch('*', 'Service a.b')).toBe(true);
    expect(globMatch('Pod a*b*c', 'Pod abc')).toBe(true);
    expect(globMatch('Pod a*b*c', 'Pod ac')).toBe(false);
    expect(globMatch('Pod a?c', 'Pod abc')).toBe(false);
    expect(globMatch('Pod my.pod', 'Pod my.pod')).toBe(true);
  });

  it('names the subject as istioctl does (Kind name.namespace)', () => {
    expect(istioResourceName({ kind: 'Pod', namespace: 'testing', name: 'mypod' })).toBe(
      'Pod mypod.testing',
    );
    expect(istioResourceName({ kind: 'Namespace', name: 'foo' })).toBe('Namespace foo');
  });
});

describe('applying suppressions to the findings of istioctl injection test input', () => {
  const { findings } = manifestFindings(injection);
  const missing = findings.filter((f) => f.code === 'IST0103');

  it('has a finding to silence', () => {
    expect(missing.length).toBeGreaterThan(0);
  });

  it('silences by rule with a wildcard and counts it by rule', () => {
    const r = applySuppressions(findings, [rule('IST0103=Pod *.default')], new Map());
    const silenced = missing.filter((f) => f.subject.namespace === 'default').length;
    expect(silenced).toBeGreaterThan(0);
    expect(r.suppressed).toBe(silenced);
    expect(r.kept).toHaveLength(findings.length - silenced);
    expect(r.counts).toEqual([{ by: '--suppress IST0103=Pod *.default', count: silenced }]);
  });

  it('does not silence another code or another resource', () => {
    const r = applySuppressions(
      findings,
      [rule('IST0118=Pod *'), rule('IST0103=Pod nothing.default')],
      new Map(),
    );
    expect(r.suppressed).toBe(0);
  });

  it('silences by the galley.istio.io/analyze-suppress annotation on the subject', () => {
    const target = missing[0];
    if (target === undefined) throw new Error('no IST0103 finding');
    const annotated = injection.map((o) => {
      const obj = o as { kind: string; metadata: { name: string; namespace?: string } };
      return obj.kind === target.subject.kind && obj.metadata.name === target.subject.name
        ? {
            ...obj,
            metadata: {
              ...obj.metadata,
              annotations: { 'galley.istio.io/analyze-suppress': 'IST0102,IST0103' },
            },
          }
        : o;
    });
    const r = applySuppressions(
      manifestFindings(annotated).findings,
      [],
      annotationIndexOfRaw(annotated),
    );
    expect(r.suppressed).toBe(1);
    expect(r.counts[0]?.by).toBe(
      `annotation galley.istio.io/analyze-suppress=IST0102,IST0103 on Pod ${objectKey(target.subject.namespace ?? '', target.subject.name)}`,
    );
    const all = applySuppressions(
      findings,
      [],
      annotationIndexOfRaw([
        {
          kind: target.subject.kind,
          metadata: {
            name: target.subject.name,
            namespace: target.subject.namespace,
            annotations: { 'galley.istio.io/analyze-suppress': '*' },
          },
        },
      ]),
    );
    expect(all.suppressed).toBe(
      findings.filter((f) => f.subject.name === target.subject.name).length,
    );
  });

  it("honours Kiali's kiali.io/ignore-validations: empty ignores all, else the codes listed", () => {
    const target = missing[0];
    if (target === undefined) throw new Error('no IST0103 finding');
    const on = (value: string) =>
      annotationIndexOfRaw([
        {
          kind: target.subject.kind,
          metadata: {
            name: target.subject.name,
            namespace: target.subject.namespace,
            annotations: { 'kiali.io/ignore-validations': value },
          },
        },
      ]);
    const ofTarget = findings.filter((f) => f.subject.name === target.subject.name).length;
    const where = `Pod ${objectKey(target.subject.namespace ?? '', target.subject.name)}`;
    const empty = applySuppressions(findings, [], on(''));
    expect(empty.suppressed).toBe(ofTarget);
    expect(empty.counts[0]?.by).toBe(
      `annotation kiali.io/ignore-validations (empty: every finding) on ${where}`,
    );
    const listed = applySuppressions(findings, [], on('KIA0101, IST0103'));
    expect(listed.suppressed).toBe(1);
    expect(listed.counts[0]?.by).toBe(
      `annotation kiali.io/ignore-validations=KIA0101, IST0103 on ${where}`,
    );
    // Kiali's own codes name Kiali's checks: they silence none of meshdx's
    expect(applySuppressions(findings, [], on('KIA0101')).suppressed).toBe(0);
  });
});
