import { describe, expect, it } from 'vitest';
import {
  isHostAllowed,
  isOriginAllowed,
  parseHost,
  type HostAllowlist,
} from '../../server/security/hosts';
import { loadSecurityConfig, SecurityConfigError } from '../../server/security/config';

const loopback = (): HostAllowlist => loadSecurityConfig({}).allowlist;

describe('parseHost', () => {
  it('splits name and port, lower-cases, drops one trailing dot', () => {
    expect(parseHost('localhost:3000')).toEqual({ hostname: 'localhost', port: 3000 });
    expect(parseHost('LocalHost.')).toEqual({ hostname: 'localhost', port: undefined });
    expect(parseHost('MeshDX.Example.COM.:443')).toEqual({
      hostname: 'meshdx.example.com',
      port: 443,
    });
    expect(parseHost('127.0.0.1')).toEqual({ hostname: '127.0.0.1', port: undefined });
  });

  it('reads bracketed IPv6 literals, with and without a port, canonically', () => {
    expect(parseHost('[::1]:3000')).toEqual({ hostname: '[::1]', port: 3000 });
    expect(parseHost('[::1]')).toEqual({ hostname: '[::1]', port: undefined });
    expect(parseHost('[0:0:0:0:0:0:0:1]:80')).toEqual({ hostname: '[::1]', port: 80 });
    expect(parseHost('[FE80::1]')).toEqual({ hostname: '[fe80::1]', port: undefined });
  });

  it('refuses what no client sends: empty, bare IPv6, user info, paths, bad ports', () => {
    for (const bad of [
      '',
      '   ',
      '::1',
      '[::1',
      '[::1]x',
      '[nothex]',
      'evil@localhost',
      'localhost/x',
      'localhost:',
      'localhost:99999',
      'localhost:3a',
      'local host',
      '.',
      '..localhost',
      'a..b',
      'évil.example',
      'localhost:3000:1',
    ])
      expect(parseHost(bad), bad).toBeNull();
    expect(parseHost(null)).toBeNull();
    expect(parseHost(undefined)).toBeNull();
  });
});

describe('isHostAllowed (default: loopback on any port)', () => {
  it('admits localhost, 127.0.0.1 and [::1] on any port, in any case, with a trailing dot', () => {
    const allow = loopback();
    for (const ok of [
      'localhost',
      'localhost:3000',
      'LOCALHOST:8080',
      'localhost.:3000',
      '127.0.0.1:3107',
      '[::1]:3000',
      '[::1]',
    ])
      expect(isHostAllowed(ok, allow), ok).toBe(true);
  });

  it('refuses other names, look-alikes and a missing Host', () => {
    const allow = loopback();
    for (const bad of [
      'evil.example',
      'evil.example:3000',
      'localhost.evil.example',
      'evil.localhost.',
      '127.0.0.2',
      '10.0.0.7:3000',
      '[::2]:3000',
      'evil@localhost',
      null,
      '',
    ])
      expect(isHostAllowed(bad, allow), String(bad)).toBe(false);
  });
});

describe('MESHDX_ALLOWED_HOSTS', () => {
  it('adds comma-separated names (normalised) to loopback', () => {
    const { allowlist, warnings } = loadSecurityConfig({
      MESHDX_ALLOWED_HOSTS: ' MeshDX.Example.com. , meshdx.meshdx.svc,,',
    });
    expect(warnings).toEqual([]);
    expect(allowlist.any).toBe(false);
    expect([...allowlist.hosts].sort()).toEqual(
      ['127.0.0.1', '[::1]', 'localhost', 'meshdx.example.com', 'meshdx.meshdx.svc'].sort(),
    );
    expect(isHostAllowed('meshdx.example.com:443', allowlist)).toBe(true);
    expect(isHostAllowed('MESHDX.EXAMPLE.COM', allowlist)).toBe(true);
    expect(isHostAllowed('other.example.com', allowlist)).toBe(false);
  });

  it('an empty or absent setting means loopback only', () => {
    expect([...loadSecurityConfig({ MESHDX_ALLOWED_HOSTS: '' }).allowlist.hosts]).toHaveLength(3);
    expect(loadSecurityConfig({}).allowlist.any).toBe(false);
  });

  it('`*` turns the check off, with a warning naming the setting', () => {
    const { allowlist, warnings } = loadSecurityConfig({ MESHDX_ALLOWED_HOSTS: '*' });
    expect(allowlist.any).toBe(true);
    expect(isHostAllowed('evil.example', allowlist)).toBe(true);
    expect(warnings.join(' ')).toMatch(/MESHDX_ALLOWED_HOSTS=\* turns the Host check off/);
  });

  it('refuses entries with ports or that are not host names, naming the setting', () => {
    expect(() => loadSecurityConfig({ MESHDX_ALLOWED_HOSTS: 'meshdx.example.com:443' })).toThrow(
      /MESHDX_ALLOWED_HOSTS: "meshdx.example.com:443" has a port/,
    );
    expect(() =>
      loadSecurityConfig({ MESHDX_ALLOWED_HOSTS: 'https://meshdx.example.com' }),
    ).toThrow(SecurityConfigError);
    expect(() => loadSecurityConfig({ MESHDX_ALLOWED_HOSTS: 'a b' })).toThrow(
      /"a b" is not a host name/,
    );
  });
});

describe('isOriginAllowed (for POSTs)', () => {
  it('admits no Origin and same-site origins, refuses other sites, opaque and odd schemes', () => {
    const allow = loopback();
    expect(isOriginAllowed(null, allow)).toBe(true);
    expect(isOriginAllowed('http://localhost:3000', allow)).toBe(true);
    expect(isOriginAllowed('http://[::1]:3000', allow)).toBe(true);
    expect(isOriginAllowed('https://evil.example', allow)).toBe(false);
    expect(isOriginAllowed('null', allow)).toBe(false);
    expect(isOriginAllowed('file://', allow)).toBe(false);
    expect(isOriginAllowed('chrome-extension://abc', allow)).toBe(false);
  });
});
