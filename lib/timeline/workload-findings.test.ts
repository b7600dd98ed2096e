import { describe, expect, it } from 'vitest';
import type { TimelineFleet } from '../api/timelines';
import { groupFindings } from '../findings/group';
import { holdCounts, workloadTimelineFindings } from './workload-findings';
import { objectKey } from '../refs/object-ref';

type Row = TimelineFleet['rows'][number];
type Fix = TimelineFleet['fixes'][number];

const row = (ns: string, workload: string, mode: Row['mode'], deleted = false): Row =>
  ({ namespace: ns, workload, workloadKind: 'Deployment', mode, deleted }) as Row;
const fix = (ns: string, name: string, verdict: Fix['verdict'], code: string): Fix => ({
  namespace: ns,
  kind: 'Deployment',
  name,
  verdict,
  code,
  pods: 2,
  example: `${name}-abc`,
  fixes: [{ why: `hold ${name}`, yaml: 'x: 1' }],
});

describe('the Timelines fleet as findings', () => {
  it('counts a workload as held only when none of its live pods starts classic', () => {
    const fleet = {
      rows: [
        row('a', 'web', 'classic'),
        row('a', 'web', 'hold'),
        row('a', 'api', 'hold'),
        row('b', 'db', 'native'),
        row('b', 'gw', 'gateway'),
        row('b', 'old', 'classic', true),
        row('c', 'job', 'none'),
      ],
    } as TimelineFleet;
    expect(holdCounts(fleet)).toEqual({ meshedWorkloads: 3, heldWorkloads: 2 });
  });

  it('makes one finding per workload verdict that needs action, and groups them once', () => {
    const fleet = {
      rows: [row('a', 'web', 'classic'), row('a', 'api', 'classic'), row('b', 'db', 'classic')],
      fixes: [
        fix('a', 'web', 'race', 'MDX0101'),
        fix('a', 'api', 'race', 'MDX0101'),
        fix('b', 'db', 'race', 'MDX0101'),
        fix('b', 'db', 'held-ok', 'MDX0103'),
      ],
    } as unknown as TimelineFleet;
    const findings = workloadTimelineFindings(fleet);
    expect(
      findings.map((f) => `${f.code} ${objectKey(f.subject.namespace ?? '', f.subject.name)}`),
    ).toEqual(['MDX0101 a/web', 'MDX0101 a/api', 'MDX0101 b/db']);
    const groups = groupFindings(findings, holdCounts(fleet));
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ code: 'MDX0101', count: 3, harm: 'exposure' });
    // no workload holds yet: the mesh-wide hold is the fix that reaches all of them
    expect(groups[0]?.fix?.scope).toBe('mesh');
  });
});

describe('workloads whose next restart flips the sidecar mode', () => {
  it('are findings with the pinning fix, the others are not', () => {
    const mode = (name: string, flips: boolean) => ({
      namespace: 'native-lab',
      kind: 'Deployment',
      name,
      pods: 2,
      nativePods: 2,
      classicPods: 0,
      now: 'native' as const,
      next: flips ? ('classic' as const) : ('native' as const),
      why: 'auto: a node runs kubelet 1.32',
      pinned: null,
      flips,
      code: flips ? 'MDX0113' : null,
      fixes: flips ? [{ why: 'pin it', yaml: 'a: 1' }] : [],
    });
    const fleet = {
      rows: [],
      fixes: [],
      modes: [mode('checkout', true), mode('orders', false)],
    } as unknown as TimelineFleet;
    const findings = workloadTimelineFindings(fleet);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      code: 'MDX0113',
      subject: { name: 'checkout' },
      evidence: { now: 'native', next: 'classic' },
      fix: { why: 'pin it' },
    });
  });
});
