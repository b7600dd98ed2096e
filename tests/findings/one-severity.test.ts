import { beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import { getWholeFindings } from '../../server/screens/findings/findings';
import { findingKey, type Finding } from '../../lib/findings/types';
import { findingLinks, findingNamespace } from '../../lib/findings/links';
import { narrowGroups } from '../../lib/findings/group';
import type { FindingsReport } from '../../lib/api/findings';
import { countByCode, severityTotals, sortFindings } from '../../components/findings/summary';
import { useEdgeCluster } from '../edges/support';

/**
 * One severity per finding on the demo: the Findings view's groups and their objects, its "By
 * code" chips, its table rows and Overview's totals and attention list all read the same
 * report, and each shows a finding with the one severity the report gives it.
 */
useEdgeCluster('findings-one-severity', { scenario: 'demo' });

let report: FindingsReport;
beforeAll(async () => {
  report = await getWholeFindings(asMeshdx(null));
}, 120_000);

const keyOf = (code: string, o: Pick<Finding, 'subject' | 'part'>) =>
  findingKey({ code, subject: o.subject, ...(o.part ? { part: o.part } : {}) });

describe('one severity per finding, in every list', () => {
  it('the groups, their objects, the chips, the rows and the totals agree', () => {
    const groups = report.groups ?? [];
    expect(groups.length).toBeGreaterThan(5);
    const bySeverity = new Map(report.findings.map((f) => [findingKey(f), f.severity]));
    // every object of a group is a finding of the report, with that finding's severity
    const objects = groups.flatMap((g) => g.objects.map((o) => [keyOf(g.code, o), o.severity]));
    expect(objects.length).toBe(report.findings.length);
    for (const [key, severity] of objects)
      expect([key, bySeverity.get(key!)]).toEqual([key, severity]);
    // a group's severity is the worst of its findings', as its code's chip shows it
    const chips = new Map(countByCode(report.findings, report.catalog).map((c) => [c.code, c]));
    for (const g of groups) {
      const chip = chips.get(g.code);
      expect([g.code, chip?.severity, chip?.count]).toEqual([g.code, g.severity, g.count]);
    }
    // the exposures without harm the demo has are notes everywhere, not warnings in some lists
    for (const code of ['MDX0101', 'MDX0301', 'MDX0105', 'MDX0106', 'MDX0507']) {
      const g = groups.find((x) => x.code === code);
      expect([code, g?.severity]).toEqual([code, 'info']);
      const rows = sortFindings(report.findings).filter((f) => f.code === code);
      expect(rows.length).toBe(g?.count);
      expect(new Set(rows.map((f) => f.severity))).toEqual(new Set(['info']));
    }
    // Overview's totals count what the groups count, severity by severity
    const totals = severityTotals(report.findings);
    const fromGroups = { error: 0, warning: 0, info: 0 };
    for (const g of groups) for (const o of g.objects) fromGroups[o.severity]++;
    expect(totals).toEqual(fromGroups);
  });

  it('an IST code keeps the severity of its catalog entry (istioctl analyze)', () => {
    const catalog = new Map(report.catalog.map((c) => [c.code, c.severity]));
    const ist = report.findings.filter((f) => f.code.startsWith('IST'));
    expect(ist.length).toBeGreaterThan(0);
    for (const f of ist) expect([f.code, f.severity]).toEqual([f.code, catalog.get(f.code)]);
  });

  it('a namespace filter keeps that namespace in the groups, their fixes and the list', () => {
    const namespaces = new Set(report.findings.flatMap((f) => findingNamespace(f.subject) ?? []));
    // the observation window names no namespace: not offered as one
    expect(namespaces.has('traffic')).toBe(false);
    expect(namespaces.has('accounts-1')).toBe(true);
    const ns = 'accounts-1';
    const inNs = (f: { subject: Finding['subject'] }) => findingNamespace(f.subject) === ns;
    const groups = narrowGroups(report.groups ?? [], inNs);
    const subjects = groups.flatMap((g) => [
      ...g.objects.map((o) => o.subject),
      ...g.rest.flatMap((r) => r.subjects),
    ]);
    expect(subjects.length).toBeGreaterThan(0);
    expect(subjects.filter((s) => findingNamespace(s) !== ns)).toEqual([]);
    expect(groups.reduce((n, g) => n + g.count, 0)).toBe(report.findings.filter(inNs).length);
  });

  it('each timeline and scoping finding links to the view that shows it', () => {
    const domains = new Map(report.catalog.map((c) => [c.code, c.domain]));
    for (const f of report.findings) {
      const domain = domains.get(f.code);
      const paths = findingLinks(f, domain).map((l) => l.path);
      if (domain === 'timeline') expect([f.code, paths]).toEqual([f.code, ['/timelines']]);
      if (domain === 'scoping') expect(paths[0]).toBe('/scoping');
    }
    const race = report.findings.find((f) => f.code === 'MDX0101');
    const [timelines] = findingLinks(race!, 'timeline');
    expect(timelines?.query.get('pod')).toBe(race?.evidence.examplePod);
  });
});
