import { describe, expect, it } from 'vitest';
import { listFixtures, readFixture } from '../../test-support/fixtures';
import type { Pod } from '../kube/types';
import { CODES } from './codes';
import { multiplexFindings } from './multiplex';
import { decodeAppProbers, probeFindings, REWRITE_ANNOTATION } from './probes';
import { pod, svc, yamlObjects } from '../../tests/data/protocol/objects';

const fixturePod = (file: string): Pod =>
  yamlObjects(readFixture('pods', file))[0] as unknown as Pod;

describe('probe rewrites on the real injected pods', () => {
  const files = listFixtures('pods').filter((f) => f.startsWith('injected_'));
  it('reads every injected pod fixture', () => expect(files.length).toBeGreaterThanOrEqual(3));

  it('decodes ISTIO_KUBE_APP_PROBERS of the native-sidecar pod', () => {
    const text = readFixture('pods', 'injected_native-sidecar.yaml');
    // the rewritten path and the original port, read from the file itself
    const env = /ISTIO_KUBE_APP_PROBERS\n\s+value: '([^']+)'/.exec(text)?.[1];
    expect(env).toBeDefined();
    const raw = JSON.parse(env ?? '{}') as Record<string, { httpGet: { port: number } }>;
    const [path, probe] = Object.entries(raw)[0] ?? [];
    const findings = probeFindings([fixturePod('injected_native-sidecar.yaml')]);
    const rewritten = findings.filter((f) => f.code === CODES.probeRewritten);
    expect(rewritten).toHaveLength(1);
    expect(rewritten[0]?.evidence).toMatchObject({
      container: 'other-sidecar',
      rewrittenTo: `:15020${path}`,
      original: `HTTP GET :${probe?.httpGet.port}/`,
      decodeError: null,
    });
    expect(findings.filter((f) => f.code === CODES.probeNotRewritten)).toEqual([]);
  });

  it('ignores the proxy’s own probes (15021) in every injected pod', () => {
    for (const f of files) {
      const out = probeFindings([fixturePod(f)]).filter((x) => x.code === CODES.probeNotRewritten);
      expect(out, f).toEqual([]);
    }
  });
});

describe('probe findings (hand-made)', () => {
  const probe = { httpGet: { path: '/readyz', port: 8080 } };
  it('flags an HTTP probe left as is under the opt-out annotation, once per workload', () => {
    const mk = (n: string) =>
      pod(n, 'mux', [{ name: 'mux', readinessProbe: probe }], {
        annotations: { [REWRITE_ANNOTATION]: 'false' },
      });
    const out = probeFindings([mk('mux-1'), mk('mux-2')]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      code: CODES.probeNotRewritten,
      subject: { kind: 'Deployment', namespace: 'ports', name: 'mux' },
      evidence: {
        annotation: `${REWRITE_ANNOTATION}=false`,
        pods: 2,
        target: 'HTTP GET :8080/readyz',
      },
    });
  });
  it('reports an app-health probe whose env entry is missing or broken', () => {
    const rewritten = { httpGet: { path: '/app-health/web/livez', port: 15020 } };
    const a = probeFindings([pod('w-1', 'w', [{ name: 'web', livenessProbe: rewritten }])]);
    expect(a[0]?.evidence.decodeError).toBe('/app-health/web/livez not in ISTIO_KUBE_APP_PROBERS');
    const b = probeFindings([
      pod('v-1', 'v', [{ name: 'web', livenessProbe: rewritten }], {
        proxyEnv: { ISTIO_KUBE_APP_PROBERS: '{"/app-health/web/livez":' },
      }),
    ]);
    expect(String(b[0]?.evidence.decodeError)).toMatch(/not JSON/);
  });
  it('decodes tcpSocket and grpc originals', () => {
    const d = decodeAppProbers(
      '{"/app-health/a/livez":{"tcpSocket":{"port":5000}},"/app-health/a/readyz":{"grpc":{"port":9090}},"/app-health/a/startupz":{"httpGet":{"path":"/s","port":8080,"scheme":"HTTPS"}}}',
    );
    expect([...d.byPath.values()]).toEqual(['TCP :5000', 'gRPC :9090', 'HTTPS GET :8080/s']);
  });
  it('skips pods without a sidecar', () => {
    const p = pod('n-1', 'n', [{ name: 'n', readinessProbe: probe }]);
    p.spec.containers = p.spec.containers.filter((c) => c.name !== 'istio-proxy');
    expect(probeFindings([p])).toEqual([]);
  });
});

describe('multiplexFindings', () => {
  const p = pod('mux-1', 'mux', [{ name: 'mux', ports: [{ name: 'web', containerPort: 8080 }] }]);
  it('flags two protocols on one pod port, across one or several Services', () => {
    const one = svc('mux', [
      { name: 'http', port: 8080, targetPort: 8080 },
      { name: 'tcp-raw', port: 8081, targetPort: 'web' },
    ]);
    const codes = multiplexFindings([p], [one]).map((f) => f.code);
    expect(codes).toEqual([CODES.multiplexedPort, CODES.conflictingTargetPort]);
    const m = multiplexFindings([p], [one])[0];
    expect(m?.evidence).toMatchObject({ targetPort: '8080', protocols: 'HTTP,TCP' });

    const a = svc('a', [{ name: 'http', port: 80, targetPort: 8080 }], {
      selector: { app: 'mux' },
    });
    const b = svc('b', [{ name: 'grpc', port: 80, targetPort: 8080 }], {
      selector: { app: 'mux' },
    });
    expect(multiplexFindings([p], [a, b]).map((f) => f.code)).toEqual([CODES.multiplexedPort]);
  });
  it('reports IST0116 for one port number with TCP and UDP across Services', () => {
    const a = svc('a', [{ name: 'dns-tcp', port: 53 }], { selector: { app: 'mux' } });
    const b = svc('b', [{ name: 'dns-udp', port: 53, protocol: 'UDP' }], {
      selector: { app: 'mux' },
    });
    const out = multiplexFindings([p], [a, b]).filter((f) => f.code === CODES.multiServiceProtocol);
    expect(out[0]?.evidence).toMatchObject({ port: 53, protocols: 'TCP,UDP', services: 'a,b' });
  });
  it('is silent when the protocols agree and the ports match', () => {
    const a = svc('a', [{ name: 'http', port: 80, targetPort: 8080 }], {
      selector: { app: 'mux' },
    });
    const b = svc('b', [{ name: 'http-x', port: 80, targetPort: 8080 }], {
      selector: { app: 'mux' },
    });
    expect(multiplexFindings([p], [a, b])).toEqual([]);
  });
});

describe('pickLogWorkloads', () => {
  it('takes unselected (client) workloads first, one namespace at a time', async () => {
    const { groupWorkloads, pickLogWorkloads } = await import('./select');
    const pods = [
      pod('a-1', 'a', [{ name: 'a' }], { ns: 'n1' }),
      pod('b-1', 'b', [{ name: 'b' }], { ns: 'n1' }),
      pod('c-1', 'c', [{ name: 'c' }], { ns: 'n1' }),
      pod('d-1', 'd', [{ name: 'd' }], { ns: 'n2' }),
      pod('e-1', 'e', [{ name: 'e' }], { ns: 'n2' }),
    ];
    const services = [
      svc('a', [{ port: 80 }], { ns: 'n1' }),
      svc('d', [{ port: 80 }], { ns: 'n2' }),
    ];
    const picked = pickLogWorkloads(groupWorkloads(pods), services, 4).map((g) => g.name);
    expect(picked).toEqual(['b', 'e', 'c', 'a']);
  });
});
