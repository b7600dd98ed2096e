import { describe, expect, it } from 'vitest';
import { HttpRequestReader, httpResponse, splitTarget } from './httpreq';
import { parseApiPath } from './paths';
import { kubeletTimestamp, pickContainer } from './podlog';
import { resolvePort, splitProxyName } from './podport';
import { choosePortForwardProtocol, parsePorts } from './portforward';
import type { Pod } from '../../../lib/kube/types';

describe('parseApiPath', () => {
  it('splits core, group, namespaced and cluster-scoped paths', () => {
    expect(parseApiPath('/api/v1/pods')).toEqual({
      type: 'resource',
      path: { group: '', version: 'v1', resource: 'pods' },
    });
    expect(parseApiPath('/api/v1/namespaces/shop')).toEqual({
      type: 'resource',
      path: { group: '', version: 'v1', resource: 'namespaces', name: 'shop' },
    });
    expect(parseApiPath('/apis/networking.istio.io/v1beta1/namespaces/a/sidecars/default')).toEqual(
      {
        type: 'resource',
        path: {
          group: 'networking.istio.io',
          version: 'v1beta1',
          resource: 'sidecars',
          namespace: 'a',
          name: 'default',
        },
      },
    );
    expect(parseApiPath('/apis/discovery.k8s.io/v1')).toEqual({
      type: 'groupVersion',
      group: 'discovery.k8s.io',
      version: 'v1',
    });
    expect(parseApiPath('/healthz')).toEqual({ type: 'other' });
  });

  it('decodes the pod proxy path as client-node encodes it', () => {
    const r = parseApiPath('/api/v1/namespaces/a/pods/p%3A15020/proxy/stats%2Fprometheus');
    expect(r).toMatchObject({
      type: 'resource',
      path: { name: 'p:15020', subresource: 'proxy', rest: '/stats/prometheus' },
    });
    expect(parseApiPath('/api/v1/namespaces/a/pods/p/proxy')).toMatchObject({
      path: { rest: '/' },
    });
    expect(parseApiPath('/api/v1/namespaces/a/pods/p/proxy/debug/')).toMatchObject({
      path: { rest: '/debug/' },
    });
    expect(parseApiPath('/api/v1/namespaces/a/pods/p/log/extra')).toMatchObject({
      type: 'invalid',
    });
    expect(parseApiPath('/api/v1/pods/%E0%A4%A')).toMatchObject({ type: 'invalid' });
  });
});

describe('HttpRequestReader', () => {
  it('reads a request split anywhere, with a body', () => {
    const raw = Buffer.from(
      'GET /config_dump?resource=x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc',
    );
    const r = new HttpRequestReader();
    for (let i = 0; i < raw.length - 1; i += 1)
      expect(r.feed(raw.subarray(i, i + 1)).state).toBe('more');
    const done = r.feed(raw.subarray(raw.length - 1));
    expect(done).toEqual({
      state: 'done',
      request: {
        method: 'GET',
        target: '/config_dump?resource=x',
        version: 'HTTP/1.1',
        headers: { host: 'localhost', 'content-length': '3' },
      },
    });
    expect(new HttpRequestReader().feed(Buffer.from('hello\r\n\r\n')).state).toBe('error');
    const t = splitTarget('/stats?filter=cluster_manager&usedonly');
    expect([t.path, t.query.get('filter'), t.query.has('usedonly')]).toEqual([
      '/stats',
      'cluster_manager',
      true,
    ]);
  });

  it('writes a closing HTTP/1.1 response with a byte-exact length', () => {
    const text = httpResponse(200, 'application/json', '{"é":1}', new Date(0)).toString('utf8');
    expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(text).toContain('content-length: 8\r\n'); // 7 characters, é is 2 bytes
    expect(text).toContain('connection: close\r\n\r\n{"é":1}');
  });
});

describe('pod helpers', () => {
  const pod: Pod = {
    metadata: { name: 'p', namespace: 'a' },
    spec: {
      containers: [
        { name: 'app', ports: [{ name: 'http', containerPort: 8080 }] },
        { name: 'istio-proxy' },
      ],
      initContainers: [{ name: 'istio-init' }],
    },
  };

  it('resolves the proxy name and port forms', () => {
    expect(splitProxyName('p')).toEqual({ name: 'p' });
    expect(splitProxyName('p:15020')).toEqual({ name: 'p', port: '15020' });
    expect(splitProxyName('https:p:443')).toEqual({ name: 'p', port: '443' });
    expect(resolvePort(pod, undefined)).toBe(8080);
    expect(resolvePort(pod, 'http')).toBe(8080);
    expect(resolvePort(pod, '15090')).toBe(15090);
    expect(resolvePort(pod, 'nope')).toBeUndefined();
    expect(resolvePort(pod, '70000')).toBeUndefined();
  });

  it('picks the log container like the API server', () => {
    expect(pickContainer(pod, null)).toEqual({
      error:
        'a container name must be specified for pod p, choose one of: [app istio-proxy] or one of the init containers: [istio-init]',
    });
    expect(pickContainer(pod, 'istio-init')).toEqual({ name: 'istio-init' });
    expect(pickContainer(pod, 'x')).toEqual({ error: 'container x is not valid for pod p' });
    expect(kubeletTimestamp(new Date('2026-01-01T00:00:01.5Z'))).toBe(
      '2026-01-01T00:00:01.500000000Z',
    );
  });

  it('chooses the port-forward protocol and ports', () => {
    expect(
      choosePortForwardProtocol(['v5.channel.k8s.io', 'v4.channel.k8s.io', 'channel.k8s.io']),
    ).toBe('v4.channel.k8s.io');
    expect(choosePortForwardProtocol(['channel.k8s.io'])).toBe('channel.k8s.io');
    expect(choosePortForwardProtocol(['portforward.k8s.io'])).toBeUndefined();
    expect(parsePorts(new URLSearchParams('ports=15000&ports=15020,15021'))).toEqual([
      15000, 15020, 15021,
    ]);
    expect(parsePorts(new URLSearchParams(''))).toBe('at least 1 port must be specified');
    expect(parsePorts(new URLSearchParams('ports=0'))).toBe('invalid port "0"');
  });
});
