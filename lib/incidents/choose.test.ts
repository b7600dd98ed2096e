import { describe, expect, it } from 'vitest';
import type { PodInterval } from '../ledger/types';
import type { Pod } from '../kube/types';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import {
  churnByNamespace,
  chooseClients,
  clientCandidates,
  filterOf,
  graceMap,
  MAX_CLIENTS,
} from './choose';

/** A real Pod of the fixtures, placed in `namespace` under `name`. */
const fixturePod = (file: string, namespace?: string, name?: string): Pod => {
  const p = parseAllDocuments(readFixture('pods', file))
    .map((d) => d.toJS() as (Pod & { kind?: unknown }) | null)
    .find((d): d is Pod => d?.kind === 'Pod');
  if (!p) throw new Error(`no Pod in fixture ${file}`);
  return {
    ...p,
    metadata: {
      ...p.metadata,
      namespace: namespace ?? p.metadata.namespace,
      name: name ?? p.metadata.name,
    },
  };
};

const pod = (ns: string, name: string): Pod => ({
  metadata: { name, namespace: ns },
  spec: { containers: [{ name: 'app' }, { name: 'istio-proxy' }] },
});

const interval = (
  ns: string,
  deletionStartedAt: number | null,
  goneAt: number | null,
): PodInterval => ({
  ip: '10.0.0.1',
  namespace: ns,
  name: 'x',
  uid: null,
  owner: null,
  node: null,
  from: 0,
  fromSource: 'event',
  deletionStartedAt,
  graceEndsAt: null,
  goneAt,
  goneUncertain: false,
  lastSeenAt: null,
});

describe('choosing whose logs to read', () => {
  it('counts recent terminations per namespace within the window only', () => {
    const churn = churnByNamespace(
      [
        interval('shop', 900, 1000),
        interval('shop', null, 950),
        interval('old', 10, 20),
        interval('live', null, null),
      ],
      500,
      1000,
    );
    expect(Object.fromEntries(churn)).toEqual({ shop: 2 });
  });

  it('reads clients where pods were terminated first when there are more than it can read', () => {
    const pods = [
      ...Array.from({ length: MAX_CLIENTS }, (_, i) =>
        pod('aaa', `client-${String(i).padStart(3, '0')}`),
      ),
      pod('shop', 'checkout-1'),
      pod('shop', 'checkout-2'),
    ];
    const quiet = chooseClients(pods, {});
    expect(quiet.chosen.some((p) => p.metadata.namespace === 'shop')).toBe(false);
    expect(quiet.skipped.map((c) => c.pod)).toEqual(['shop/checkout-1', 'shop/checkout-2']);
    expect(quiet.skipped[0]?.why).toBe('no failures or deletions known for it');
    const busy = chooseClients(pods, {}, new Map([['shop', 5]]));
    expect(busy.chosen.slice(0, 2).map((p) => p.metadata.name)).toEqual([
      'checkout-1',
      'checkout-2',
    ]);
    expect(busy.chosen).toHaveLength(MAX_CLIENTS);
  });

  it('reads the clients whose own metrics report failures before churned namespaces', () => {
    const pods = [
      ...Array.from({ length: MAX_CLIENTS + 5 }, (_, i) =>
        pod('shop', `batch-${String(i).padStart(3, '0')}`),
      ),
      pod('storefront', 'checkout-1'),
    ];
    const r = chooseClients(
      pods,
      {},
      new Map([['shop', 5]]),
      new Map([['storefront/checkout-1', { failures: 12, calls: ['shop'] }]]),
    );
    expect(r.chosen[0]?.metadata.name).toBe('checkout-1');
    expect(r.choices[0]?.why).toBe('12 failing requests in its own metrics');
    expect(r.skipped).toHaveLength(6);
    expect(r.skipped.every((c) => c.why === '5 pods deleted in its namespace in the window')).toBe(
      true,
    );
  });

  it('reads several clients asked for, in any namespace', () => {
    const pods = [pod('aaa', 'a'), pod('bbb', 'b'), pod('shop', 'checkout-1')];
    const r = chooseClients(pods, { namespace: 'shop', client: 'aaa/a,bbb/b' });
    expect(r.chosen.map((p) => p.metadata.name)).toEqual(['a', 'b']);
    expect(r.choices.every((c) => c.reason === 'asked')).toBe(true);
  });

  it('a chosen client or namespace narrows the set whatever the churn', () => {
    const pods = [pod('aaa', 'a'), pod('shop', 'checkout-1')];
    expect(
      chooseClients(pods, { client: 'aaa/a' }, new Map([['shop', 9]])).chosen.map(
        (p) => p.metadata.name,
      ),
    ).toEqual(['a']);
    expect(chooseClients(pods, { namespace: 'aaa' }, new Map([['shop', 9]])).chosen).toHaveLength(
      1,
    );
  });
});

describe("the view's request filter", () => {
  it('reads the window and the narrowing fields of the URL state', () => {
    expect(
      filterOf({
        from: '2026-11-01T10:00:00Z',
        to: '2026-11-01T10:05:00.250Z',
        service: 'reviews.bookinfo.svc.cluster.local',
        ip: '10.8.0.12',
      }),
    ).toEqual({
      fromMs: Date.parse('2026-11-01T10:00:00Z'),
      toMs: Date.parse('2026-11-01T10:05:00.250Z'),
      service: 'reviews.bookinfo.svc.cluster.local',
      ip: '10.8.0.12',
    });
  });

  it('leaves every bound open when the URL has none', () => {
    expect(filterOf({})).toEqual({ fromMs: null, toMs: null, service: null, ip: null });
  });
});

describe('client candidates from real pods', () => {
  it('takes sidecar-injected pods, classic or native, and leaves unmeshed ones out', () => {
    const pods = [
      fixturePod('kube-dns_pod_with_status.yaml'),
      fixturePod('injected_native-sidecar.yaml', 'shop', 'native'),
      fixturePod('injected_native-sidecar-opt-out.yaml', 'shop', 'classic'),
    ];
    expect(clientCandidates(pods, {}).map((p) => p.metadata.name)).toEqual(['classic', 'native']);
    expect(clientCandidates(pods, { namespace: 'kube-system' })).toEqual([]);
    expect(clientCandidates(pods, { client: 'shop/native' }).map((p) => p.metadata.name)).toEqual([
      'native',
    ]);
  });
});

describe('grace periods of live pods', () => {
  it('keys the real kube-dns pod by uid and by its Deployment, from its ReplicaSet owner', () => {
    const dns = fixturePod('kube-dns_pod_with_status.yaml');
    const g = graceMap([dns]);
    expect(g.get('dd4bbbd4-f71c-11e8-af4f-42010a800072')).toBe(30);
    expect(g.get('kube-system/kube-dns')).toBe(30);
    expect(g.size).toBe(2);
  });

  it('keeps the longest grace of a workload, and 30 s where the pod sets none', () => {
    const dns = fixturePod('kube-dns_pod_with_status.yaml');
    const slow: Pod = {
      ...dns,
      metadata: { ...dns.metadata, name: 'kube-dns-548976df6c-x2x2x', uid: 'slow' },
      spec: { ...dns.spec, terminationGracePeriodSeconds: 90 },
    };
    const unset: Pod = {
      ...dns,
      metadata: { ...dns.metadata, name: 'kube-dns-548976df6c-y3y3y', uid: 'unset' },
      spec: { ...dns.spec, terminationGracePeriodSeconds: undefined },
    };
    const g = graceMap([dns, slow, unset]);
    expect(g.get('kube-system/kube-dns')).toBe(90);
    expect(g.get('unset')).toBe(30);
  });

  it('has no workload entry for a pod without owner', () => {
    const bare = fixturePod('injected_pod.yaml', 'shop', 'bare');
    expect([...graceMap([bare]).keys()].filter((k) => k.includes('/'))).toEqual([]);
  });
});
