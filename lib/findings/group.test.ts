import { describe, expect, it } from 'vitest';
import { FindingGroupSchema } from '../api/findings';
import { analyzePod } from '../timeline/analyze';
import { timelineFindings } from '../timeline/findings';
import { buildPod } from '../../tests/data/timeline/builders';
import { groupFindings, harmSeverity, narrowGroups, withHarmSeverity } from './group';
import { manifestFindings } from './manifest';
import type { Finding } from './types';

/** A classic-sidecar workload whose app started 3 s before the proxy was ready. */
function racing(workload: string, opts: { restarts?: number; failedFirstRun?: boolean } = {}) {
  const hash = '7d9f8b6c5d';
  const pod = buildPod({
    name: `${workload}-${hash}-abcde`,
    namespace: 'shop',
    mode: 'classic',
    owner: { replicaSet: `${workload}-${hash}`, hash },
    apps: [
      opts.failedFirstRun
        ? {
            name: 'app',
            startedAt: 12,
            restarts: 1,
            last: { startedAt: 1, finishedAt: 2, exitCode: 1, reason: 'Error' },
          }
        : { name: 'app', startedAt: 2, restarts: opts.restarts ?? 0 },
    ],
    proxy: { startedAt: 3 },
    conditions: { ContainersReady: opts.failedFirstRun ? 13 : 5 },
  });
  return timelineFindings(analyzePod(pod)).filter((f) => !f.code.startsWith('MDX0108'));
}

const fleet = (n: number): Finding[] =>
  Array.from({ length: n }, (_, i) => racing(`svc-${String(i).padStart(2, '0')}`)).flat();

describe('grouping findings by code and fix', () => {
  it('51 workloads that raced their sidecar are one group with the mesh-wide fix, info', () => {
    const findings = fleet(51);
    expect(findings.every((f) => f.code === 'MDX0101')).toBe(true);
    const groups = groupFindings(findings);
    expect(groups).toHaveLength(1);
    const g = groups[0];
    expect(g).toMatchObject({
      code: 'MDX0101',
      title: 'App started before its sidecar was ready',
      count: 51,
      harmed: 0,
      harm: 'exposure',
      severity: 'info',
    });
    expect(g?.fix?.scope).toBe('mesh');
    expect(g?.fix?.yaml).toContain('holdApplicationUntilProxyStarts: true');
    expect(g?.rest).toEqual([]);
    expect(FindingGroupSchema.safeParse(g).success).toBe(true);
  });

  it('puts observed harm first: failed first runs (error), then races that restarted', () => {
    const findings = [
      ...fleet(20),
      ...racing('checkout', { failedFirstRun: true }),
      ...racing('cart', { restarts: 2 }),
    ];
    const groups = groupFindings(findings);
    expect(groups.map((g) => [g.code, g.severity, g.harm, g.count, g.harmed])).toEqual([
      ['MDX0102', 'error', 'observed', 1, 1],
      ['MDX0101', 'error', 'observed', 21, 1],
    ]);
    // inside the group, the workload that was hurt comes first
    expect(groups[1]?.objects[0]?.subject.name).toBe('cart-7d9f8b6c5d-abcde');
    expect(groups[1]?.objects[1]?.severity).toBe('info');
  });

  it('offers per-workload patches when most of the mesh already holds its apps', () => {
    const findings = fleet(3);
    const [g] = groupFindings(findings, { meshedWorkloads: 200, heldWorkloads: 180 });
    expect(g?.fix?.scope).not.toBe('mesh');
    expect(g?.rest.map((r) => r.subjects.length)).toEqual([1, 1, 1]);
    expect(g?.rest[0]?.fix.yaml).toContain('holdApplicationUntilProxyStarts');
  });

  it('keeps the ports of one Service in one group, with each port listed', () => {
    const svc = {
      kind: 'Service',
      metadata: { name: 'legacy', namespace: 'shop' },
      spec: {
        selector: { app: 'legacy' },
        ports: [
          { port: 8080, targetPort: 8080 },
          { port: 9090, name: 'metrics', targetPort: 9090 },
        ],
      },
    };
    const groups = groupFindings(manifestFindings([svc]).findings);
    const g = groups.find((x) => x.code === 'IST0118');
    expect(g?.count).toBe(2);
    expect(g?.severity).toBe('info');
    expect(g?.objects.map((o) => o.part?.name)).toEqual(['8080/TCP', '9090/TCP']);
    expect(g?.fix).toBeUndefined();
    expect(g?.rest.map((r) => r.fix.yaml?.includes('appProtocol'))).toEqual([true, true]);
  });

  it('a mesh default Sidecar fixes many namespaces without one', () => {
    const ns = (name: string): Finding => ({
      code: 'MDX0301',
      severity: 'warning',
      subject: { kind: 'Namespace', name },
      evidence: { meshedPods: 4, services: 2 },
      fix: { why: 'Limits the namespace.', yaml: `namespace: ${name}` },
    });
    const [g] = groupFindings([ns('a'), ns('b'), ns('c')], { rootNamespace: 'istio-system' });
    expect(g).toMatchObject({ count: 3, severity: 'info', fix: { scope: 'mesh' } });
    expect(g?.fix?.yaml).toContain('namespace: istio-system');
    expect(g?.rest).toEqual([]);
  });

  it('keeps the own Sidecar of each namespace seen calling others under the mesh default', () => {
    // the root default gives a namespace only itself and the control plane: one that calls
    // another namespace would lose it, so its measured Sidecar stays offered, to apply first
    const ns = (name: string, callsOut: string | null): Finding => ({
      code: 'MDX0301',
      severity: 'warning',
      subject: { kind: 'Namespace', name },
      evidence: { sidecarPods: 4, services: 2, callsOut },
      fix: { why: 'Limits the namespace.', yaml: `namespace: ${name}` },
    });
    const [g] = groupFindings([ns('a', 'billing/*'), ns('b', ''), ns('c', null)], {
      rootNamespace: 'mesh-root',
      istioNamespace: 'istio-system',
    });
    expect(g?.fix?.scope).toBe('mesh');
    expect(g?.fix?.why).toContain('The namespace below calls others: apply its own Sidecar');
    // the root Sidecar lives in the root namespace and keeps the control plane's namespace
    expect(g?.fix?.yaml).toContain('  namespace: mesh-root\n');
    expect(g?.fix?.yaml).toContain('- "istio-system/*"');
    expect(g?.rest.map((r) => r.subjects.map((x) => x.name))).toEqual([['a']]);
  });

  it('keeps errors of configuration as they are (no harm needed to be an error)', () => {
    const vs = {
      kind: 'VirtualService',
      metadata: { name: 'r', namespace: 'shop' },
      spec: { http: [{ route: [{ destination: { host: 'nowhere' } }] }] },
    };
    const [g] = groupFindings(manifestFindings([vs]).findings);
    expect(g).toMatchObject({ code: 'IST0101', severity: 'error', harm: 'exposure' });
  });
});

describe('one severity per finding', () => {
  it("gives each finding its group's severity, IST codes keeping istioctl's", () => {
    const findings = [
      ...fleet(2),
      ...racing('cart', { restarts: 2 }),
      ...manifestFindings([
        {
          kind: 'Service',
          metadata: { name: 'legacy', namespace: 'shop' },
          spec: { selector: { app: 'legacy' }, ports: [{ port: 8080, targetPort: 8080 }] },
        },
      ]).findings,
    ];
    const own = withHarmSeverity(findings);
    expect(own.map((f) => [f.code, f.subject.name, f.severity])).toEqual([
      ['MDX0101', 'svc-00-7d9f8b6c5d-abcde', 'info'],
      ['MDX0101', 'svc-01-7d9f8b6c5d-abcde', 'info'],
      ['MDX0101', 'cart-7d9f8b6c5d-abcde', 'error'],
      ['IST0118', 'legacy', 'info'],
    ]);
    // applied again, nothing changes; grouped, every object keeps its finding's severity
    expect(withHarmSeverity(own)).toEqual(own);
    const objects = groupFindings(own).flatMap((g) => g.objects.map((o) => o.severity));
    expect(objects.sort()).toEqual(own.map(harmSeverity).sort());
    // an IST code harmed keeps istioctl's severity
    const ist = own.find((f) => f.code === 'IST0118')!;
    expect(harmSeverity({ ...ist, evidence: { ...ist.evidence, failures: 3 } })).toBe('info');
  });
});

describe('narrowGroups', () => {
  it('keeps the objects a filter accepts, recounts them and drops emptied groups', async () => {
    const obj = (ns: string, harmed: boolean) => ({
      subject: { kind: 'Deployment', namespace: ns, name: `w-${ns}` },
      severity: 'warning' as const,
      harmed,
      evidence: {},
    });
    const groups = [
      {
        key: 'MDX0101',
        code: 'MDX0101',
        title: 't',
        severity: 'warning' as const,
        harm: 'observed' as const,
        count: 3,
        harmed: 2,
        objects: [obj('a', true), obj('a', false), obj('b', true)],
        rest: [],
      },
      {
        key: 'IST0118',
        code: 'IST0118',
        title: 't',
        severity: 'info' as const,
        harm: 'exposure' as const,
        count: 1,
        harmed: 0,
        objects: [obj('b', false)],
        rest: [],
      },
    ];
    const onlyA = narrowGroups(groups, (o) => o.subject.namespace === 'a');
    expect(onlyA.map((g) => [g.code, g.count, g.harmed])).toEqual([['MDX0101', 2, 1]]);
    expect(narrowGroups(groups, () => true)).toEqual(groups);
  });

  it('drops the per-object fixes of other namespaces, and takes the severity of what is left', () => {
    const ns = (name: string, severity: 'error' | 'info') => ({
      subject: { kind: 'Namespace', name },
      severity,
      harmed: severity === 'error',
      evidence: {},
    });
    const fix = (name: string) => ({
      fix: { why: `own Sidecar of ${name}` },
      subjects: [{ kind: 'Namespace', name }],
    });
    const [g] = [
      {
        key: 'MDX0301',
        code: 'MDX0301',
        title: 't',
        severity: 'error' as const,
        harm: 'observed' as const,
        count: 2,
        harmed: 1,
        objects: [ns('a', 'error'), ns('b', 'info')],
        fix: { scope: 'mesh' as const, why: 'root default' },
        rest: [fix('a'), fix('b')],
      },
    ];
    const onlyB = narrowGroups([g!], (o) => o.subject.name === 'b');
    expect(onlyB).toMatchObject([
      { severity: 'info', harm: 'exposure', count: 1, harmed: 0, fix: { scope: 'mesh' } },
    ]);
    expect(onlyB[0]?.rest).toEqual([fix('b')]);
  });
});
