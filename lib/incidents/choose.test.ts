import { describe, expect, it } from 'vitest';
import type { PodInterval } from '../../../lib/ledger/types';
import type { Pod } from '../../../lib/kube/types';
import { churnByNamespace, chooseClients, MAX_CLIENTS } from './incidents';

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
