import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ScopingReportSchema, type ScopingReport } from '../api/scoping';
import type { Pod, Service, Sidecar, VirtualService } from '../kube/types';
import { makeService, type WorldObjects } from '../../server/sim/mesh/testworld';
import {
  applyGenerated,
  inputOf,
  pods,
  RATINGS,
  REVIEWS,
  scopable,
  simClusters,
  traffic,
  world,
} from '../../test-support/scoping-world';
import { workloadNameKey } from '../refs/workload-ref';
import { exclusionSupport } from './exclusions';
import { buildScopingReport } from './report';

const PRODUCTPAGE = 'productpage.default.svc.cluster.local';
const ISTIOD = 'istiod.istio-system.svc.cluster.local';
const INGRESS = 'istio-ingressgateway.istio-system.svc.cluster.local';

/** The world with its istiod pod running `image` (its discovery container, as istiod's chart). */
function withIstiod(w: WorldObjects, image: string): WorldObjects {
  const istiod = pods(w).find((p) => p.metadata.labels?.app === 'istiod') as Pod;
  istiod.spec.containers = [{ name: 'discovery', image }];
  return w;
}

function reportAt(image: string | null, mutate: (w: WorldObjects) => void = () => {}) {
  const w = world();
  if (image !== null) withIstiod(w, image);
  mutate(w);
  return { w, report: buildScopingReport(inputOf(w, traffic())) };
}

const nsDefault = (r: ScopingReport, ns: string) =>
  r.generated.find((g) => g.namespace === ns && g.level === 'namespace');

describe('exclusionSupport: only an istiod that reads ~ exclusions gets them', () => {
  const release = (minor: string, version: string, revision = 'default') => ({
    minor,
    version,
    preRelease: false,
    revision,
    from: `Pod istio-system/istiod image docker.io/istio/pilot:${version}`,
  });
  it('1.31 and later: supported; any older istiod (a canary upgrade): not; none known: unknown', () => {
    expect(exclusionSupport({ releases: [release('1.31', '1.31.0')], unknown: null })).toEqual({
      state: 'supported',
      istiod: '1.31.0',
    });
    const canary = exclusionSupport({
      releases: [release('1.31', '1.31.1', 'canary'), release('1.30', '1.30.2')],
      unknown: null,
    });
    expect(canary.state).toBe('unsupported');
    expect(canary.state !== 'supported' && canary.why).toContain('istiod 1.30.2');
    expect(exclusionSupport({ releases: [], unknown: 'no istiod' }).state).toBe('unknown');
    // one istiod known at 1.31, another whose image names no release: not known to be safe
    expect(
      exclusionSupport({ releases: [release('1.31', '1.31.0')], unknown: 'latest tag' }).state,
    ).toBe('unknown');
  });
});

describe('Scoping proposes ~ns/host exclusions where they save clusters', () => {
  const { w, report } = reportAt('docker.io/istio/pilot:1.31.0');
  const older = reportAt('docker.io/istio/pilot:1.24.2').report;

  it('excludes the hosts of imported namespaces nobody governed called, never a used one', () => {
    expect(ScopingReportSchema.safeParse(report).success).toBe(true);
    const def = nsDefault(report, 'default');
    expect(def?.hosts).toEqual([
      './*',
      'istio-system/*',
      'prod/*',
      `~default/${PRODUCTPAGE}`,
      `~istio-system/${INGRESS}`,
      `~istio-system/${ISTIOD}`,
    ]);
    const doc = parse(def?.yaml ?? '') as Sidecar;
    expect(doc.spec.egress?.[0]?.hosts).toEqual(def?.hosts);
    // no proposal excludes a host one of the workloads it governs was seen calling
    let checked = 0;
    for (const g of report.generated) {
      const used = report.workloads
        .filter((r) => g.workloads.includes(workloadNameKey(r.namespace, r.name)))
        .flatMap((r) => r.destinations.map((d) => d.host));
      for (const h of g.hosts.filter((x) => x.startsWith('~')))
        for (const u of used) {
          expect(h.endsWith(`/${u}`), `${g.name} ${h}`).toBe(false);
          checked += 1;
        }
    }
    expect(checked).toBeGreaterThan(0);
    expect(def?.hosts.join()).not.toContain(REVIEWS);
    expect(def?.hosts.join()).not.toContain(RATINGS);
    // 1 (productpage) + 2 (ingress) + 4 (istiod ports) per proxy, over reviews v1 and v2
    expect(def?.exclusions).toEqual({
      hosts: def?.hosts.filter((h) => h.startsWith('~')),
      proposed: true,
      clustersSaved: 14,
      notProposed: null,
    });
    expect(report.exclusions).toMatchObject({ support: 'supported', detail: 'istiod 1.31.0' });
  });

  it('predicts exactly what the simulator serves once the YAML with exclusions is applied', () => {
    const applied = applyGenerated(
      w,
      report.generated.filter((g) => g.apply).map((g) => g.yaml),
    );
    expect(
      (applied.sidecars as Sidecar[]).some((s) =>
        s.spec.egress?.[0]?.hosts.some((h) => h.startsWith('~')),
      ),
    ).toBe(true);
    for (const pod of scopable(w)) {
      const row = report.workloads
        .flatMap((r) => r.proxies)
        .find((p) => p.pod === pod.metadata.name);
      expect(row?.clusters.predicted, pod.metadata.name).toBe(simClusters(applied, pod).length);
    }
  });

  it('with an older istiod: the same hosts without exclusions, and what they would save', () => {
    const def = nsDefault(older, 'default');
    expect(def?.hosts).toEqual(['./*', 'istio-system/*', 'prod/*']);
    expect(def?.yaml).not.toContain('~');
    expect(def?.exclusions?.proposed).toBe(false);
    expect(def?.exclusions?.notProposed).toContain('istiod 1.24.2 is older than 1.31');
    expect(older.exclusions.support).toBe('unsupported');
    // one computation: what the note says they would save is what they do save on 1.31, the
    // cards' and the table's figures both
    expect(def?.exclusions?.clustersSaved).toBe(
      nsDefault(report, 'default')?.exclusions?.clustersSaved,
    );
    expect(older.exclusions.clustersSaved).toBe(report.exclusions.clustersSaved);
    expect(older.totals.clustersAfter - report.totals.clustersAfter).toBe(
      report.exclusions.clustersSaved,
    );
    for (const g of report.generated) {
      const o = older.generated.find((x) => x.namespace === g.namespace && x.name === g.name);
      expect((o?.clustersAfter ?? 0) - g.clustersAfter, g.name).toBe(
        g.exclusions?.clustersSaved ?? 0,
      );
    }
    const table = (r: ScopingReport) =>
      r.workloads.reduce((n, x) => n + x.clustersTotal.predicted, 0);
    expect(table(older) - table(report)).toBe(report.exclusions.clustersSaved);
  });

  it('with the istiod version unknown: none proposed, and it says so with the saving', () => {
    const { report: blind } = reportAt(null);
    expect(blind.exclusions.support).toBe('unknown');
    expect(blind.exclusions.detail).toContain('istiod version unknown');
    expect(blind.exclusions.clustersSaved).toBe(report.exclusions.clustersSaved);
    for (const g of blind.generated) {
      expect(g.hosts.some((h) => h.startsWith('~'))).toBe(false);
      if (g.exclusions) expect(g.exclusions.notProposed).toContain('istiod version unknown');
    }
  });

  it('no exclusion while a governed workload was not observed: unknown usage is not unused', () => {
    const w2 = withIstiod(world(), 'docker.io/istio/pilot:1.31.0');
    const partial = buildScopingReport(
      inputOf(
        w2,
        traffic().filter((o) => o.pod !== 'reviews-v1-aaa'),
      ),
    );
    const def = nsDefault(partial, 'default');
    expect(def?.exclusions).toBeNull();
    expect(def?.hosts.some((h) => h.startsWith('~'))).toBe(false);
    // prod's only workload was observed: its own default still gets them
    expect(nsDefault(partial, 'prod')?.exclusions?.proposed).toBe(true);
  });

  it('only where it pays: no exclusion for a host with no cluster, nor one a VirtualService names', () => {
    const { report: r } = reportAt('docker.io/istio/pilot:1.31.0', (w3) => {
      const dns = makeService('dns', 'default', [{ port: 53, name: 'dns' }]);
      const udp = dns.spec.ports?.[0];
      if (udp) udp.protocol = 'UDP';
      (w3.services as Service[]).push(dns);
      const vs: VirtualService = {
        kind: 'VirtualService',
        metadata: { name: 'productpage', namespace: 'default' },
        spec: { hosts: ['productpage'], http: [{ route: [{ destination: { host: 'reviews' } }] }] },
      } as VirtualService;
      w3.virtualservices = [vs];
    });
    const def = nsDefault(r, 'default');
    expect(def?.exclusions?.proposed).toBe(true);
    expect(def?.hosts.some((h) => h.includes('dns.default'))).toBe(false);
    expect(def?.hosts.some((h) => h.includes(PRODUCTPAGE))).toBe(false);
  });
});
