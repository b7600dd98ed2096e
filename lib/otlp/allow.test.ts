import { describe, expect, it } from 'vitest';
import { inCidr, judgeSender, parseAllowRule, parseCidr } from './allow';

describe('parseCidr / inCidr', () => {
  it('matches IPv4 and IPv6 networks and bare addresses', () => {
    expect(inCidr('10.1.2.3', parseCidr('10.0.0.0/8'))).toBe(true);
    expect(inCidr('11.1.2.3', parseCidr('10.0.0.0/8'))).toBe(false);
    expect(inCidr('127.0.0.1', parseCidr('127.0.0.1'))).toBe(true);
    expect(inCidr('127.0.0.2', parseCidr('127.0.0.1/32'))).toBe(false);
    expect(inCidr('::ffff:10.0.0.1', parseCidr('10.0.0.0/24'))).toBe(true);
    expect(inCidr('fd00::1:2', parseCidr('fd00::/8'))).toBe(true);
    expect(inCidr('fe80::1', parseCidr('fd00::/8'))).toBe(false);
    expect(inCidr('10.0.0.1', parseCidr('fd00::/8'))).toBe(false);
  });

  it('names a bad CIDR', () => {
    expect(() => parseCidr('10.0.0/8')).toThrow(/"10.0.0\/8" is not a CIDR/);
    expect(() => parseCidr('10.0.0.0/33')).toThrow(/prefix length must be 0..32/);
    expect(() => parseCidr('10.0.0.0/8/1')).toThrow(/not a CIDR/);
  });
});

describe('judgeSender', () => {
  const pod = (namespace: string, meshed = true) => ({ namespace, name: 'web-1', meshed });

  it('by default admits meshed pods only', () => {
    const rule = parseAllowRule(undefined, undefined);
    expect(judgeSender(rule, '10.1.0.5', pod('shop'))).toMatchObject({ allowed: true, via: 'pod' });
    expect(judgeSender(rule, '10.1.0.6', pod('shop', false))).toEqual({
      allowed: false,
      reason: 'pod shop/web-1 (10.1.0.6) runs no Istio proxy',
    });
    expect(judgeSender(rule, '192.168.1.1', null)).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/no pod meshdx knows/),
    });
    expect(judgeSender(rule, null, null)).toMatchObject({ allowed: false });
  });

  it('admits listed namespaces and Collector CIDRs, refuses the rest with the namespace named', () => {
    const rule = parseAllowRule('shop, payments', '10.200.0.0/16');
    expect(judgeSender(rule, '10.1.0.5', pod('payments'))).toMatchObject({ allowed: true });
    expect(judgeSender(rule, '10.1.0.5', pod('attacker'))).toEqual({
      allowed: false,
      reason: 'namespace attacker (pod web-1, 10.1.0.5) is not allowed to send access logs',
    });
    expect(judgeSender(rule, '10.200.3.4', null)).toMatchObject({ allowed: true, via: 'cidr' });
  });

  it('names a bad namespace in the rule', () => {
    expect(() => parseAllowRule('Shop', '')).toThrow(/"Shop" is not a namespace name/);
    expect(() => parseAllowRule('meshed', 'x')).toThrow(/"x" is not a CIDR/);
  });
});
