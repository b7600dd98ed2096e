import { describe, expect, it } from 'vitest';
import { linkTo } from '../api/context';
import { findingLinks, findingNamespace } from './links';
import { catalogEntry } from './registry';

const href = (f: Parameters<typeof findingLinks>[0], ctx: string | null = null) =>
  findingLinks(f, catalogEntry(f.code)?.domain).map((l) => linkTo(l.path, l.query, ctx));

describe('findingLinks', () => {
  it('opens a timeline finding on its workload with its example pod, context kept', () => {
    const f = {
      code: 'MDX0101',
      subject: { kind: 'Deployment', namespace: 'accounts-1', name: 'events' },
      evidence: { verdict: 'race', pods: 6, examplePod: 'accounts-1/events-dx2vbsgks7-bkw8t' },
    };
    expect(href(f, 'prod')).toEqual([
      '/timelines?namespace=accounts-1&workload=events&pod=accounts-1%2Fevents-dx2vbsgks7-bkw8t&context=prod',
    ]);
    // an example pod that is no pod reference is left out, the workload still linked
    expect(href({ ...f, evidence: { examplePod: 'not a pod' } })).toEqual([
      '/timelines?namespace=accounts-1&workload=events',
    ]);
  });

  it('opens an incident finding on its service, with the window its evidence names', () => {
    expect(
      href({
        code: 'MDX0401',
        subject: { kind: 'Service', namespace: 'shop', name: 'payments' },
        evidence: { requests: 12, servers: 'payments' },
      }),
    ).toEqual(['/incidents?namespace=shop&service=payments']);
    expect(
      href({
        code: 'MDX0402',
        subject: { kind: 'Service', namespace: 'shop', name: 'payments' },
        evidence: { from: '2026-11-01T11:00:00Z', to: '2026-11-01T12:00:00Z' },
      }),
    ).toEqual([
      '/incidents?namespace=shop&service=payments&from=2026-11-01T11%3A00%3A00.000Z&to=2026-11-01T12%3A00%3A00.000Z',
    ]);
  });

  it("opens a stale-endpoint finding on its client proxy's Incidents and Proxies rows", () => {
    expect(
      href({
        code: 'MDX0407',
        subject: { kind: 'Pod', namespace: 'shop', name: 'checkout-1' },
        evidence: { cluster: 'outbound|80||payments.shop.svc.cluster.local' },
      }),
    ).toEqual([
      '/incidents?namespace=shop&client=shop%2Fcheckout-1',
      '/proxies?namespace=shop&proxy=shop%2Fcheckout-1',
    ]);
  });

  it('opens a scoping finding on its namespace (and workload) on Scoping and Proxies', () => {
    expect(
      href({
        code: 'MDX0301',
        subject: { kind: 'Namespace', name: 'accounts-1' },
        evidence: { sidecarPods: 32 },
      }),
    ).toEqual(['/scoping?namespace=accounts-1']);
    expect(
      href({
        code: 'MDX0306',
        subject: { kind: 'Deployment', namespace: 'ads-1', name: 'worker' },
        evidence: { count: 2 },
      }),
    ).toEqual([
      '/scoping?namespace=ads-1&workload=worker',
      '/proxies?namespace=ads-1&workload=worker',
    ]);
    // the observation window is in no namespace: Scoping as a whole
    expect(
      href({
        code: 'MDX0307',
        subject: { kind: 'ObservationWindow', name: 'traffic' },
        evidence: {},
      }),
    ).toEqual(['/scoping']);
  });

  it('opens a proxy that is not ready on its Proxies row; a config finding links nowhere else', () => {
    expect(
      href({
        code: 'MDX0001',
        subject: { kind: 'Pod', namespace: 'shop', name: 'p-1' },
        evidence: {},
      }),
    ).toEqual(['/proxies?namespace=shop&proxy=shop%2Fp-1']);
    expect(
      href({
        code: 'IST0173',
        subject: { kind: 'DestinationRule', namespace: 'ads-1', name: 'gateway' },
        evidence: {},
      }),
    ).toEqual([]);
  });
});

describe('findingNamespace', () => {
  it('is the subject namespace, or the Namespace itself, never another kind of name', () => {
    expect(findingNamespace({ kind: 'Deployment', namespace: 'a', name: 'w' })).toBe('a');
    expect(findingNamespace({ kind: 'Namespace', name: 'b' })).toBe('b');
    expect(findingNamespace({ kind: 'ObservationWindow', name: 'traffic' })).toBeUndefined();
  });
});
