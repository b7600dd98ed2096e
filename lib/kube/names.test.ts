import { describe, expect, it } from 'vitest';
import { checkName, InvalidNameError, requireName } from './names';

describe('checkName', () => {
  it('accepts real names', () => {
    expect(checkName('namespace', 'istio-system')).toBeNull();
    expect(checkName('pod', 'details-v1-79f774bdb9-6hxw6')).toBeNull();
    expect(checkName('pod', 'web-0.headless')).toBeNull();
    expect(checkName('container', 'istio-proxy')).toBeNull();
  });

  it('rejects path injection and illegal characters', () => {
    for (const bad of [
      '../secrets',
      'a/b',
      'a?watch=true',
      'UPPER',
      '-lead',
      'trail-',
      'a b',
      '%2e%2e',
    ]) {
      expect(checkName('pod', bad)?.message).toMatch(/invalid pod name/);
    }
    expect(checkName('namespace', 'a.b')?.message).toMatch(/DNS-1123 label/);
  });

  it('enforces lengths', () => {
    expect(checkName('namespace', 'a'.repeat(63))).toBeNull();
    expect(checkName('namespace', 'a'.repeat(64))?.message).toMatch(/longer than 63/);
    expect(checkName('pod', 'a'.repeat(254))?.message).toMatch(/longer than 253/);
    expect(checkName('pod', '')?.message).toBe('pod name is empty');
  });

  it('requireName throws a typed error', () => {
    expect(() => requireName('namespace', 'Bad_NS')).toThrow(InvalidNameError);
    expect(requireName('namespace', 'default')).toBe('default');
  });
});
