import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import { RequestError } from '../api/request-error';
import type { Namespace, Pod } from '../kube/types';
import { podListPage, parsePodListQuery, podListQueryString, type PodListQuery } from './pod-list';
import { podKeyOf } from '../refs/pod-ref';

const fixture = (file: string, namespace: string, name: string, ip?: string): Pod => {
  const p = parseAllDocuments(readFixture('pods', file))
    .map((d) => d.toJS() as Pod | null)
    .find((d) => d !== null) as Pod;
  return {
    ...p,
    metadata: { ...p.metadata, namespace, name },
    status: ip ? { ...p.status, podIP: ip, podIPs: [{ ip }] } : p.status,
  };
};

// real injector output (native and classic sidecars), a pod without a proxy, a pod without status
const pods: Pod[] = [
  fixture('injected_native-sidecar.yaml', 'shop', 'web-2', '10.0.0.2'),
  fixture('injected_native-sidecar-opt-out.yaml', 'shop', 'web-1', '10.0.0.1'),
  fixture('kube-dns_pod_with_status.yaml', 'kube-system', 'kube-dns-548976df6c-d9kkv'),
  fixture('injected_pod.yaml', 'pay', 'api-0'),
  {
    metadata: { name: 'dual', namespace: 'pay' },
    spec: { containers: [{ name: 'app' }] },
    status: { podIP: '10.0.0.9', podIPs: [{ ip: '10.0.0.9' }, { ip: 'fd00::9' }] },
  },
  { metadata: { name: 'no-status', namespace: 'pay' }, spec: { containers: [] } },
];
const namespaces: Namespace[] = [{ metadata: { name: 'shop' } }, { metadata: { name: 'pay' } }];
const now = new Date('2026-11-01T12:00:00Z');
const names = (q: PodListQuery) => podListPage(pods, namespaces, q, now).pods.map(podKeyOf);

describe('podListPage', () => {
  it('orders by namespace then name and sends rows for all when under the limit', () => {
    const all = podListPage(pods, namespaces, {}, now);
    expect(all.total).toBe(6);
    expect(all.truncated).toBe(false);
    expect(all.pods.map(podKeyOf)).toEqual([
      'kube-system/kube-dns-548976df6c-d9kkv',
      'pay/api-0',
      'pay/dual',
      'pay/no-status',
      'shop/web-1',
      'shop/web-2',
    ]);
    expect(all.generatedAt).toBe(now.toISOString());
  });

  it('keeps only pods with a proxy (native and classic sidecars), per namespace', () => {
    expect(names({ meshed: true })).toEqual(['pay/api-0', 'shop/web-1', 'shop/web-2']);
    expect(names({ meshed: true, namespace: 'shop' })).toEqual(['shop/web-1', 'shop/web-2']);
    const rows = podListPage(pods, namespaces, { namespace: 'shop' }, now).pods;
    expect(rows.map((r) => r.proxy.placement)).toEqual(['sidecar', 'native-sidecar']);
  });

  it('finds the holder of an address, also by its second (IPv6) address', () => {
    expect(names({ ip: '10.0.0.1' })).toEqual(['shop/web-1']);
    expect(names({ ip: 'fd00::9' })).toEqual(['pay/dual']);
    expect(names({ ip: '10.0.0.77' })).toEqual([]);
  });

  it('matches part of the name, case-insensitively', () => {
    expect(names({ q: 'WEB' })).toEqual(['shop/web-1', 'shop/web-2']);
  });

  it('turns only the first `limit` into rows and says how many matched', () => {
    const page = podListPage(pods, namespaces, { limit: 2 }, now);
    expect(page.total).toBe(6);
    expect(page.truncated).toBe(true);
    expect(page.pods).toHaveLength(2);
  });
});

describe('parsePodListQuery', () => {
  const parse = (qs: string) => parsePodListQuery(new URLSearchParams(qs));
  const problem = (qs: string) => {
    try {
      parse(qs);
    } catch (e) {
      if (e instanceof RequestError) return `${e.status} ${e.message}`;
      throw e;
    }
    return 'accepted';
  };

  it('reads every filter and writes it back the same', () => {
    const q = parse('namespace=shop&ip=10.0.0.1&meshed=1&q=web&limit=20');
    expect(q).toEqual({ namespace: 'shop', ip: '10.0.0.1', meshed: true, q: 'web', limit: 20 });
    expect(parse(podListQueryString(q))).toEqual(q);
    expect(parse('ip=fd00::9&meshed=false')).toEqual({ ip: 'fd00::9', meshed: false });
    expect(parse('namespace=&ip=')).toEqual({});
  });

  it('answers 400 naming the parameter for a value it cannot use', () => {
    expect(problem('ip=10.1.2')).toBe('400 ip: "10.1.2" is not an IPv4 or IPv6 address');
    expect(problem('ip=300.1.1.1')).toMatch(/^400 ip:/);
    expect(problem('namespace=Shop_1')).toMatch(/^400 namespace: "Shop_1" is not a namespace name/);
    expect(problem('meshed=yes')).toBe('400 meshed: "yes" is not 1, true, 0 or false');
    expect(problem('limit=0')).toBe('400 limit: "0" must be at least 1');
    expect(problem('limit=5001')).toBe('400 limit: 5001 is more than 5000');
    expect(problem('limit=-3')).toBe('400 limit: "-3" is not a whole number');
  });
});
