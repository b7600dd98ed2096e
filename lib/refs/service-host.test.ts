import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { parseServiceFqdn, qualifyServiceHost, serviceFqdn } from './service-host';

/** The service hosts of the outbound clusters of a real sidecar's config dump. */
const DUMP_HOSTS = [
  ...readFixture('config_dump', 'istio-details-v1_sidecar_config_dump_camelCase.json').matchAll(
    /"outbound\|\d+\|[^|"]*\|([^"]+)"/g,
  ),
].map((m) => m[1] ?? '');

describe('service hosts', () => {
  it('writes and reads the hosts of a real proxy', () => {
    expect(DUMP_HOSTS).toContain('reviews.default.svc.cluster.local');
    expect(DUMP_HOSTS).toContain('istiod.istio-system.svc.cluster.local');
    for (const host of DUMP_HOSTS) {
      const h = parseServiceFqdn(host);
      expect(h, host).not.toBeNull();
      if (h) expect(serviceFqdn(h.name, h.namespace, h.domain)).toBe(host);
    }
    expect(parseServiceFqdn('kube-dns.kube-system.svc.cluster.local')).toEqual({
      name: 'kube-dns',
      namespace: 'kube-system',
      domain: 'cluster.local',
    });
  });

  it('formats with the default or a given cluster domain', () => {
    expect(serviceFqdn('reviews', 'default')).toBe('reviews.default.svc.cluster.local');
    expect(serviceFqdn('a', 'b', 'corp.example')).toBe('a.b.svc.corp.example');
  });

  it('reads only NAME.NAMESPACE.svc.DOMAIN, lower-cased', () => {
    expect(parseServiceFqdn('Reviews.Prod.SVC.cluster.local')).toEqual({
      name: 'reviews',
      namespace: 'prod',
      domain: 'cluster.local',
    });
    expect(parseServiceFqdn('a.b.svc.corp.example')?.domain).toBe('corp.example');
    for (const host of ['reviews', 'reviews.prod', 'reviews.prod.svc', 'httpbin.org', '.b.svc.x'])
      expect(parseServiceFqdn(host), host).toBeNull();
  });

  it('completes the short forms', () => {
    expect(qualifyServiceHost('reviews', 'prod')).toBe('reviews.prod.svc.cluster.local');
    expect(qualifyServiceHost('reviews', 'prod', { domain: 'corp' })).toBe('reviews.prod.svc.corp');
    // Istio takes a dotted name as written; Kubernetes DNS resolves NAME.NAMESPACE
    expect(qualifyServiceHost('reviews.dev', 'prod')).toBe('reviews.dev');
    expect(qualifyServiceHost('reviews.dev', 'prod', { namespaceForm: true })).toBe(
      'reviews.dev.svc.cluster.local',
    );
    expect(qualifyServiceHost('httpbin.org.', 'prod', { namespaceForm: true })).toBe(
      'httpbin.org.',
    );
    expect(qualifyServiceHost('*.prod.svc.cluster.local', 'x', { namespaceForm: true })).toBe(
      '*.prod.svc.cluster.local',
    );
    expect(qualifyServiceHost('reviews.prod.svc.cluster.local', 'x')).toBe(
      'reviews.prod.svc.cluster.local',
    );
  });
});
