import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { RefError } from './ref-error';
import {
  parsePodDotted,
  parsePodKey,
  parsePodRef,
  podDotted,
  podHref,
  podPageHref,
  podIdKey,
  podIdKeyOfObject,
  podKey,
  podKeyOf,
  podKeyOfObject,
  podKeyOfWorkloadUid,
  podPath,
  podRefOf,
  podText,
  podWorkloadUid,
  samePod,
  tryParsePodRef,
} from './pod-ref';

const ztunnelUids = (): string[] =>
  Object.values(
    (
      JSON.parse(readFixture('config_dump', 'ztunnel_config_dump.json')) as {
        workloads: Record<string, { uid: string }>;
      }
    ).workloads,
  ).map((w) => w.uid);

describe('pod references', () => {
  const ref = { namespace: 'bookinfo', name: 'ratings-v1-6484c4d9bb-mdxm5' };

  it('formats every form from one reference', () => {
    expect(podKey('bookinfo', 'ratings-v1-6484c4d9bb-mdxm5')).toBe(
      'bookinfo/ratings-v1-6484c4d9bb-mdxm5',
    );
    expect(podKeyOf(ref)).toBe('bookinfo/ratings-v1-6484c4d9bb-mdxm5');
    expect(podDotted(ref)).toBe('ratings-v1-6484c4d9bb-mdxm5.bookinfo');
    expect(podWorkloadUid(ref)).toBe('Kubernetes//Pod/bookinfo/ratings-v1-6484c4d9bb-mdxm5');
    expect(podText(ref)).toBe('Pod bookinfo/ratings-v1-6484c4d9bb-mdxm5');
    expect(podHref(ref)).toBe('/pods/bookinfo/ratings-v1-6484c4d9bb-mdxm5');
  });

  it('round-trips every written form', () => {
    for (const text of [podKeyOf(ref), podText(ref), podWorkloadUid(ref)]) {
      expect(parsePodRef(text)).toEqual(ref);
    }
    expect(parsePodDotted(podDotted(ref))).toEqual(ref);
  });

  it('reads the pod workload uids of a real ztunnel config dump and skips other kinds', () => {
    const uids = ztunnelUids();
    const pods = uids.filter((u) => u.startsWith('Kubernetes//Pod/'));
    expect(pods.length).toBeGreaterThan(0);
    for (const uid of pods) {
      const key = podKeyOfWorkloadUid(uid);
      expect(key).not.toBeNull();
      expect(podWorkloadUid(parsePodKey(key ?? ''))).toBe(uid);
    }
    expect(podKeyOfWorkloadUid('Kubernetes//Pod/bookinfo/ratings-v1-6484c4d9bb-mdxm5')).toBe(
      'bookinfo/ratings-v1-6484c4d9bb-mdxm5',
    );
    expect(podKeyOfWorkloadUid('Kubernetes/networking.istio.io/WorkloadEntry/ns/vm')).toBeNull();
  });

  it('keeps dots in pod names: the namespace is the part after the last dot', () => {
    const dotted = { namespace: 'istio-system', name: 'gw-7f.v2' };
    expect(parsePodDotted('gw-7f.v2.istio-system')).toEqual(dotted);
    expect(parsePodKey('istio-system/gw-7f.v2')).toEqual(dotted);
    expect(parsePodRef(podWorkloadUid(dotted))).toEqual(dotted);
  });

  it('names the problem of bad input', () => {
    expect(() => parsePodKey('web-1')).toThrow(RefError);
    expect(() => parsePodKey('web-1')).toThrow(
      /not a pod reference: "web-1": expected NAMESPACE\/NAME, there is no "\/"/,
    );
    expect(() => parsePodKey('a/b/c')).toThrow(/more than one "\/"/);
    expect(() => parsePodKey('/web-1')).toThrow(/the namespace is empty/);
    expect(() => parsePodKey('shop/')).toThrow(/the name is empty/);
    expect(() => parsePodKey('Shop/web-1')).toThrow(/namespace "Shop" is not a DNS label/);
    expect(() => parsePodKey('shop/web_1')).toThrow(/name "web_1" is not a DNS subdomain/);
    expect(() => parsePodKey(`shop/${'a'.repeat(254)}`)).toThrow(/254 characters long/);
    expect(() => parsePodDotted('web-1')).toThrow(/no "\."/);
    expect(() => parsePodRef('Kubernetes/networking.istio.io/WorkloadEntry/ns/vm')).toThrow(
      /another kind than Pod/,
    );
    expect(tryParsePodRef('nonsense')).toBeNull();
    expect(tryParsePodRef(' shop/web-1 ')).toEqual({ namespace: 'shop', name: 'web-1' });
  });

  it('keys by uid when known, else by namespace and name', () => {
    expect(podIdKey({ namespace: 'shop', name: 'web-1', uid: 'u-1' })).toBe('u-1');
    expect(podIdKey({ namespace: 'shop', name: 'web-1', uid: null })).toBe('shop/web-1');
    expect(podIdKey({ namespace: 'shop', name: 'web-1', uid: '' })).toBe('shop/web-1');
    expect(podIdKeyOfObject({ metadata: { namespace: 'shop', name: 'web-1', uid: 'u-1' } })).toBe(
      'u-1',
    );
    expect(podIdKeyOfObject({ metadata: { name: 'web-1' } })).toBe('default/web-1');
  });

  it('reads the reference of an object and compares references', () => {
    expect(podRefOf({ metadata: { name: 'web-1' } })).toEqual({
      namespace: 'default',
      name: 'web-1',
    });
    expect(podKeyOfObject({ metadata: { namespace: 'shop', name: 'web-1' } })).toBe('shop/web-1');
    expect(samePod({ namespace: 'a', name: 'x' }, { namespace: 'a', name: 'x' })).toBe(true);
    expect(samePod({ namespace: 'a', name: 'x' }, { namespace: 'b', name: 'x' })).toBe(false);
  });

  it('escapes what a link cannot carry', () => {
    expect(podHref({ namespace: 'a b', name: 'x/y' })).toBe('/pods/a%20b/x%2Fy');
    expect(podPath({ namespace: 'shop', name: 'web-1' })).toBe('shop/web-1');
  });

  it('links one pod of a name by its uid, where the uid is known', () => {
    const web0 = { namespace: 'shop', name: 'web-0' };
    expect(podPageHref({ ...web0, uid: '2b1c0d3e-aaaa-4bbb-8ccc-0123456789ab' })).toBe(
      '/pods/shop/web-0?uid=2b1c0d3e-aaaa-4bbb-8ccc-0123456789ab',
    );
    expect(podPageHref({ ...web0, uid: 'a b&c' })).toBe('/pods/shop/web-0?uid=a%20b%26c');
    expect(podPageHref({ ...web0, uid: null })).toBe('/pods/shop/web-0');
    expect(podPageHref({ ...web0, uid: '' })).toBe('/pods/shop/web-0');
    expect(podPageHref(web0)).toBe('/pods/shop/web-0');
  });
});
