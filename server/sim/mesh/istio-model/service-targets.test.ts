import { describe, expect, it } from 'vitest';
import { makePod, makeService } from '../testworld';
import { findPort, proxyServiceTargets } from './service-targets';

describe("a pod's ServiceTargets as istiod's Kubernetes registry finds them", () => {
  const pod = makePod('web-1', 'shop', '10.0.0.1', {
    labels: { app: 'web' },
    ports: [
      { name: 'http', containerPort: 8080 },
      { name: 'metrics', containerPort: 9090 },
    ],
  });

  it('resolves named target ports on the containers, with the same protocol', () => {
    expect(findPort(pod, { port: 80, targetPort: 'http' })).toBe(8080);
    expect(findPort(pod, { port: 80 })).toBe(80);
    expect(findPort(pod, { port: 80, targetPort: 8081 })).toBe(8081);
    expect(findPort(pod, { port: 80, targetPort: 'nope' })).toBeUndefined();
    // a UDP Service port does not reach a TCP container port of that name
    expect(findPort(pod, { port: 53, targetPort: 'http', protocol: 'UDP' })).toBeUndefined();
  });

  it('one target per target port and Istio protocol within a Service; empty selectors select nothing', () => {
    const web = makeService(
      'web',
      'shop',
      [
        { port: 80, name: 'http', targetPort: 'http' },
        { port: 81, name: 'http-alt', targetPort: 8080 },
        { port: 82, name: 'grpc', targetPort: 8080 },
        { port: 83, name: 'gone', targetPort: 'missing' },
      ],
      { app: 'web' },
    );
    const all = makeService('all', 'shop', [{ port: 1, name: 'tcp' }], {});
    const targets = proxyServiceTargets(pod, [web, all]);
    expect(targets.map((t) => [t.port.port, t.targetPort])).toEqual([
      [80, 8080],
      [82, 8080],
    ]);
  });
});
