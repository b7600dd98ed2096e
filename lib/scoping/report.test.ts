import { describe, it, expect } from 'vitest';
import { parse } from 'yaml';
import { ScopingReportSchema } from '../api/scoping';
import type { Service, Sidecar } from '../kube/types';
import { makeSidecar } from '../../server/sim/mesh/testworld';
import {
  applyGenerated,
  inputOf,
  RATINGS,
  REVIEWS,
  scopable,
  simClusters,
  traffic,
  world,
} from '../../test-support/scoping-world';
import { buildScopingReport } from './report';

describe('buildScopingReport on an unscoped mesh', () => {
  const w = world();
  const report = buildScopingReport(inputOf(w, traffic()));

  it('validates against the view contract', () => {
    expect(ScopingReportSchema.safeParse(report).success).toBe(true);
  });

  it('learns destinations per workload from every source, best first', () => {
    const pp = report.workloads.find((r) => r.name === 'productpage-v1-abc');
    expect(pp?.destinations.map((d) => [d.host, d.bestSource, d.count])).toEqual([
      [REVIEWS, 'envoy-stats', 42],
    ]);
    const rv2 = report.workloads.find((r) => r.name === 'reviews-v2-bbb');
    expect(rv2?.sources.find((s) => s.source === 'envoy-stats')).toMatchObject({
      available: false,
      errors: ['connection refused'],
    });
    expect(rv2?.destinations.map((d) => d.host)).toEqual([RATINGS]);
    // xds-grpc, inbound|9080|| and `unknown` name no destination; the `gone/old` workload is unknown
    expect(report.totals.hitsIgnored).toBe(3);
    expect(report.totals.observationsUnattributed).toBe(1);
  });

  it('proposes ./* + istio-system/* + called namespaces per namespace, never ~/*', () => {
    const def = report.generated.find((g) => g.namespace === 'default' && g.level === 'namespace');
    expect(def?.action).toBe('create');
    const doc = parse(def?.yaml ?? '') as Sidecar;
    expect(doc.kind).toBe('Sidecar');
    expect(doc.metadata).toEqual({ name: 'default', namespace: 'default' });
    expect(doc.spec.egress?.[0]?.hosts).toEqual(['./*', 'istio-system/*', 'prod/*']);
    expect(report.generated.every((g) => !g.hosts.includes('~/*'))).toBe(true);
    // stable key order: apiVersion, kind, metadata, spec
    expect(def?.yaml.split('\n')[0]).toBe('apiVersion: networking.istio.io/v1');
    const prod = report.generated.find((g) => g.namespace === 'prod' && g.level === 'namespace');
    expect(prod?.hosts).toEqual(['./*', 'istio-system/*']);
  });

  it('gives productpage its own narrower Sidecar, selected by its app label', () => {
    const pp = report.generated.find((g) => g.workloads.includes('default/productpage-v1-abc'));
    expect(pp).toMatchObject({
      level: 'workload',
      selector: { app: 'productpage' },
      hosts: ['./*', 'istio-system/*'],
    });
  });

  it('predicts exactly what the simulator serves after applying the generated Sidecars', () => {
    const applied = applyGenerated(
      w,
      report.generated.filter((g) => g.apply).map((g) => g.yaml),
    );
    let reduction = 0;
    for (const pod of scopable(w)) {
      const row = report.workloads
        .flatMap((r) => r.proxies)
        .find((p) => p.pod === pod.metadata.name);
      const before = simClusters(w, pod).length;
      const after = simClusters(applied, pod).length;
      expect(row?.clusters.current).toBe(before);
      expect(row?.clusters.predicted).toBe(after);
      expect(row?.clusters.modelled).toBe(before);
      reduction += before - after;
    }
    expect(report.totals.reduction).toBe(reduction);
    expect(reduction).toBeGreaterThan(0);
  });

  it('predicts the same counts from the model alone when no proxy answered', () => {
    const unreachable = scopable(w).map((p) => ({
      namespace: p.metadata.namespace ?? '',
      pod: p.metadata.name,
      active: null,
      service: null,
    }));
    const r2 = buildScopingReport(inputOf(w, traffic(), unreachable));
    expect(r2.totals.proxiesMeasured).toBe(0);
    expect(r2.totals.reduction).toBe(report.totals.reduction);
    expect(r2.totals.clustersAfter).toBe(report.totals.clustersAfter);
  });

  it('an unobserved namespace has an unknown waste, ranked after the known, never 0', () => {
    const blind = buildScopingReport(inputOf(w, []));
    expect(blind.namespaces.length).toBeGreaterThan(0);
    for (const n of blind.namespaces) expect(n.waste, n.name).toBeNull();
    expect(blind.totals.waste).toBeNull();
    expect(blind.totals.wasteUnknown).toBe(blind.namespaces.length);
    const known = report.namespaces.filter((n) => n.waste !== null);
    expect(known.length).toBeGreaterThan(0);
    expect(report.namespaces.slice(0, known.length)).toEqual(known);
    expect(report.totals.waste).toBe(known.reduce((n, r) => n + (r.waste ?? 0), 0));
    expect(report.totals.wasteUnknown).toBe(report.namespaces.length - known.length);
  });

  it('ranks namespaces by waste (clusters today - minimum) and computes the minimum', () => {
    expect(report.namespaces.map((n) => n.name)).toEqual(['default', 'prod', 'shop']);
    const pp = report.workloads.find((r) => r.name === 'productpage-v1-abc');
    // today: every service port (+3 reviews subsets); used: reviews (1 port x (1 + 3 subsets))
    const outbound =
      (w.services as Service[]).reduce((n, s) => n + (s.spec.ports?.length ?? 0), 0) + 3;
    expect(pp?.clusters.unused).toBe(outbound - 4);
    expect(pp?.clusters.minimum).toBe(4 + 1 + 8);
    expect(pp?.unusedServicesTotal).toBe((w.services as Service[]).length - 1);
    const def = report.namespaces.find((n) => n.name === 'default');
    // the row's own figures: waste is exactly clusters today minus the minimum it shows
    for (const n of report.namespaces)
      if (n.waste !== null) expect(n.waste, n.name).toBe(n.clusters.current - n.clusters.minimum);
    const inDefault = report.workloads.filter((r) => r.namespace === 'default');
    expect(def?.clusters.current).toBe(inDefault.reduce((n, r) => n + r.clustersTotal.current, 0));
    expect(def?.clusters.minimum).toBe(inDefault.reduce((n, r) => n + r.clustersTotal.minimum, 0));
    expect(def?.defaultSidecar.source).toBe('none');
  });

  it('flags namespaces without a default Sidecar (MDX0301) with the generated YAML as fix', () => {
    const f = report.findings.filter((x) => x.code === 'MDX0301').map((x) => x.subject.name);
    expect(f).toEqual(['default', 'prod', 'shop']);
    expect(report.findings.find((x) => x.code === 'MDX0301')?.fix?.yaml).toContain('prod/*');
  });
});

describe('buildScopingReport with existing Sidecars', () => {
  it('replaces a ~/* default that cuts off observed calls (MDX0305, MDX0306) and keeps its name', () => {
    const w = world();
    w.sidecars = [makeSidecar('narrow', 'default', ['~/*'])];
    const report = buildScopingReport(inputOf(w, traffic()));
    const codes = report.findings.map((f) => `${f.code}:${f.subject.name}`);
    expect(codes).toContain('MDX0305:productpage-v1-abc');
    expect(codes).toContain('MDX0306:productpage-v1-abc');
    expect(codes).not.toContain('MDX0305:ratings-v1-ccc');
    const def = report.generated.find((g) => g.namespace === 'default' && g.level === 'namespace');
    expect(def).toMatchObject({ action: 'replace', name: 'narrow', replaces: 'narrow' });
    const pp = report.workloads.find((r) => r.name === 'productpage-v1-abc');
    expect(pp?.cutOff).toEqual([REVIEWS]);
    expect(pp?.destinations[0]?.visibleNow).toBe(false);
    const applied = applyGenerated(
      w,
      report.generated.filter((g) => g.apply).map((g) => g.yaml),
    );
    for (const pod of scopable(w)) {
      const row = report.workloads
        .flatMap((r) => r.proxies)
        .find((p) => p.pod === pod.metadata.name);
      expect(row?.clusters.predicted).toBe(simClusters(applied, pod).length);
    }
  });

  it('names the second selector-less Sidecar to delete (IST0111) and predicts without it', () => {
    const w = world();
    w.sidecars = [
      makeSidecar('a-default', 'prod', ['./*', 'istio-system/*', 'shop/*']),
      makeSidecar('b-extra', 'prod', ['*/*']),
    ];
    const report = buildScopingReport(inputOf(w, traffic()));
    const prod = report.generated.find((g) => g.namespace === 'prod' && g.level === 'namespace');
    expect(prod).toMatchObject({ name: 'a-default', replaces: 'a-default', apply: true });
    const warning = prod?.warnings.find((x) => x.code === 'IST0111');
    expect(warning?.message).toContain('prod/b-extra');
    expect(warning?.message).not.toContain('a-default');
    expect(prod?.yaml).toContain('kubectl -n prod delete sidecar b-extra');
    // applying the YAML and deleting b-extra gives the predicted counts
    const applied = applyGenerated(
      { ...w, sidecars: [(w.sidecars as Sidecar[])[0] as Sidecar] },
      report.generated.filter((g) => g.apply).map((g) => g.yaml),
    );
    const ratings = scopable(w).find((p) => p.metadata.namespace === 'prod');
    if (!ratings) throw new Error('no prod pod');
    const row = report.workloads
      .flatMap((r) => r.proxies)
      .find((p) => p.pod === ratings.metadata.name);
    expect(row?.clusters.predicted).toBe(simClusters(applied, ratings).length);
  });

  it('a namespace with an unobserved workload keeps its waste as today - minimum, marked partial', () => {
    const w = world();
    const obs = traffic().filter((o) => o.pod !== 'productpage-v1-abc');
    const partial = buildScopingReport(inputOf(w, obs));
    const def = partial.namespaces.find((n) => n.name === 'default');
    expect(def?.unobservedWorkloads).toBeGreaterThan(0);
    expect(def?.unobservedWorkloads).toBeLessThan(def?.workloads ?? 0);
    // the figure is not dropped nor recomputed over the observed ones: the row's own difference
    expect(def?.waste).toBe((def?.clusters.current ?? 0) - (def?.clusters.minimum ?? 0));
    expect(partial.totals.waste).toBe(partial.namespaces.reduce((n, r) => n + (r.waste ?? 0), 0));
  });

  it('leaves a good default alone when some workload is unobserved', () => {
    const w = world();
    w.sidecars = [makeSidecar('default', 'prod', ['./*', 'istio-system/*', 'shop/*'])];
    const obs = traffic().filter((o) => o.namespace !== 'prod');
    const report = buildScopingReport(inputOf(w, obs));
    const prod = report.generated.find((g) => g.namespace === 'prod');
    expect(prod).toMatchObject({ action: 'unchanged', apply: false });
    expect(prod?.warnings.map((x) => x.code)).toContain('MDX0308');
    expect(report.findings.map((f) => `${f.code}:${f.subject.name}`)).toContain(
      'MDX0308:ratings-v1-ccc',
    );
    // no source had anything of it: said as such, not as an empty value
    expect(
      report.findings.find((f) => f.code === 'MDX0308' && f.subject.name === 'ratings-v1-ccc')
        ?.evidence.sourcesTried,
    ).toBe('none');
    expect(report.namespaces.find((n) => n.name === 'prod')?.defaultSidecar).toEqual({
      source: 'namespace',
      namespace: 'prod',
      name: 'default',
    });
  });

  it('warns when the observation window is short or unknown (MDX0307)', () => {
    const w = world();
    const short = buildScopingReport(
      inputOf(w, traffic(), [], { start: '2024-06-01T11:30:00Z', end: '2024-06-01T12:00:00Z' }),
    );
    expect(short.findings.find((f) => f.code === 'MDX0307')?.evidence.seconds).toBe(1800);
    expect(short.window).toMatchObject({ seconds: 1800, trusted: false });
    const none = buildScopingReport(inputOf(w, traffic(), [], null));
    expect(none.findings.find((f) => f.code === 'MDX0307')?.evidence.seconds).toBeNull();
    const long = buildScopingReport(inputOf(w, traffic(), []));
    expect(long.findings.some((f) => f.code === 'MDX0307')).toBe(false);
    expect(long.totals.proxiesMeasured).toBe(0);
  });
});
