import { describe, expect, it } from 'vitest';
import { analyzePod } from '../timeline/analyze';
import { timelineFindings } from '../timeline/findings';
import { buildPod } from '../../tests/data/timeline/builders';
import { groupFindings } from './group';
import { findingsShown } from './view-filter';
import type { Finding } from './types';

/** A classic-sidecar pod of `ns` whose app started 3 s before its proxy was ready. */
function racing(ns: string, workload: string): Finding[] {
  const hash = '7d9f8b6c5d';
  const pod = buildPod({
    name: `${workload}-${hash}-abcde`,
    namespace: ns,
    mode: 'classic',
    owner: { replicaSet: `${workload}-${hash}`, hash },
    apps: [{ name: 'app', startedAt: 2, restarts: 0 }],
    proxy: { startedAt: 3 },
    conditions: { ContainersReady: 5 },
  });
  return timelineFindings(analyzePod(pod));
}

// a Namespace finding is in the namespace it names; one of no namespace is in none
const aboutShop: Finding = {
  code: 'MDX0301',
  severity: 'info',
  subject: { kind: 'Namespace', name: 'shop' },
  evidence: {},
};
const ofNone: Finding = {
  code: 'MDX0302',
  severity: 'warning',
  subject: { kind: 'Observation', name: 'window' },
  evidence: {},
};
const findings = [...racing('shop', 'cart'), ...racing('web', 'front'), aboutShop, ofNone];
const report = { findings, groups: groupFindings(findings) };

describe('what the Findings view shows for its URL state', () => {
  it('a namespace keeps its objects, the Namespace it is about, and narrows the groups', () => {
    const shown = findingsShown(report, { namespace: 'shop' });
    expect(shown.inNamespace).toContain(aboutShop);
    expect(shown.inNamespace).not.toContain(ofNone);
    expect(shown.inNamespace.every((f) => (f.subject.namespace ?? f.subject.name) === 'shop')).toBe(
      true,
    );
    const raced = shown.groups.find((g) => g.code === 'MDX0101');
    expect(raced?.count).toBe(1);
    expect(raced?.objects.map((o) => o.subject.namespace)).toEqual(['shop']);
    expect(shown.namespaces).toEqual(['shop', 'web']);
  });

  it('code and severity narrow the rows and groups, not the per-code base', () => {
    const shown = findingsShown(report, { namespace: 'shop', severity: 'info' });
    expect(shown.rows.every((f) => f.severity === 'info')).toBe(true);
    expect(shown.inNamespace.length).toBeGreaterThan(shown.rows.length - 1);
    const one = findingsShown(report, { code: 'MDX0302' });
    expect(one.rows).toEqual([ofNone]);
    expect(one.groups.map((g) => g.code)).toEqual(['MDX0302']);
    // no state: everything
    expect(findingsShown(report, {}).rows).toHaveLength(findings.length);
    // a namespace nothing is in: nothing, and no group left empty
    expect(findingsShown(report, { namespace: 'nowhere' }).groups).toEqual([]);
  });
});
