/**
 * The Findings view's MDX0301 (a namespace without a default Sidecar) gives the Sidecar Scoping
 * proposes for that namespace: egress to the namespaces its workloads were seen calling. The
 * inventory's generic Sidecar (own namespace and control plane only) would cut those calls
 * once applied; it is the fix only when Scoping is not there.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { asMeshdx } from '../../server/auth/identity';
import type { Sidecar } from '../../lib/kube/types';
import type { FindingsReport } from '../../lib/api/findings';
import type { ScopingView } from '../../lib/api/scoping-view';
import { getWholeFindings } from '../../server/screens/findings/findings';
import { scopingOf } from '../../server/screens/scoping/scoping';
import { baseRuntimeFor } from '../../server/runtime/registry';
import { wiredUnscopedMesh } from './harness';
import { GATHER_GUARD_MS } from '../../test-support/deadlines';

wiredUnscopedMesh('findings-fix');
let view: ScopingView;
let report: FindingsReport;

beforeAll(async () => {
  // the runtime's Scoping view, which Findings then reuses (one analysis for both screens, as
  // a user opening Scoping then Findings gets): computed apart, the two raced each other for
  // the proxies and Findings' copy could miss its deadline on a busy machine
  view = await scopingOf(baseRuntimeFor());
  report = await getWholeFindings(asMeshdx(null));
}, GATHER_GUARD_MS);

describe('MDX0301 in the Findings view', () => {
  it('carries Scoping’s proposed Sidecar, with the namespaces the workloads call', () => {
    const asked = report.findings.filter((f) => f.code === 'MDX0301');
    expect(asked.length).toBeGreaterThan(0);
    let crossNamespace = 0;
    for (const f of asked) {
      const ns = f.subject.name;
      const proposal = view.report.generated.find(
        (g) => g.level === 'namespace' && g.namespace === ns,
      );
      expect(proposal, ns).toBeDefined();
      expect(f.fix?.yaml, ns).toBe(proposal?.yaml);
      expect(f.evidence.sidecarPods, ns).toBeGreaterThan(0);
      const hosts = (parse(proposal?.yaml ?? '') as Sidecar).spec.egress?.[0]?.hosts ?? [];
      if (hosts.some((h) => h !== './*' && h !== 'istio-system/*')) crossNamespace++;
    }
    // the case the generic Sidecar gets wrong is there: a namespace calling another
    expect(crossNamespace).toBeGreaterThan(0);
    // one finding per namespace, whichever analyses made it
    const namespaces = asked.map((f) => f.subject.name);
    expect(new Set(namespaces).size).toBe(namespaces.length);
  });

  it('offers the mesh default, and under it the own Sidecar of each namespace that calls others', () => {
    const group = report.groups?.find((g) => g.code === 'MDX0301');
    expect(group?.fix?.scope).toBe('mesh');
    const calling = report.findings.filter(
      (f) => f.code === 'MDX0301' && typeof f.evidence.callsOut === 'string' && f.evidence.callsOut,
    );
    expect(calling.length).toBeGreaterThan(0);
    const offered = new Map(
      (group?.rest ?? []).flatMap((r) => r.subjects.map((x) => [x.name, r.fix.yaml] as const)),
    );
    for (const f of calling) expect(offered.get(f.subject.name), f.subject.name).toBe(f.fix?.yaml);
    expect(offered.size).toBe(calling.length);
  });
});
