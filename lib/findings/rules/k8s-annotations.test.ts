import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';
import { ISTIO_ANNOTATION_CHECKS } from './k8s-annotation-values';

const CODES = new Set(['IST0107', 'IST0108', 'IST0125', 'IST0135']);
const grid = (file: string): unknown[] =>
  parseAllDocuments(readFixture('istio_config', 'analyzer', file)).map((d) => d.toJS() as unknown);
const found = (objects: unknown[]) =>
  manifestFindings(objects)
    .findings.filter((f) => CODES.has(f.code))
    .map((f) => `${f.code} ${f.subject.kind} ${f.subject.name} ${String(f.evidence.annotation)}`)
    .sort();
const pod = (annotations: Record<string, unknown>, labels: Record<string, string> = {}) => ({
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'shop', annotations, labels },
  spec: { containers: [{ name: 'app' }] },
});

describe('annotations.K8sAnalyzer: IST0107, IST0108, IST0125, IST0135', () => {
  it("reports istioctl's grid file misannotated.yaml as istioctl does", () => {
    expect(found(grid('misannotated.yaml'))).toEqual([
      'IST0107 Deployment fortio-deploy sidecar.istio.io/statsInclusionPrefixes',
      'IST0107 Namespace staging kubernetes.io/ingress.class',
      'IST0107 Pod grafana-test kubernetes.io/ingress.class',
      'IST0108 Service httpbin networking.istio.io/exportThree',
      'IST0125 Pod invalid-annotations readiness.status.sidecar.istio.io/initialDelaySeconds',
      'IST0135 Deployment fortio-deploy sidecar.istio.io/statsInclusionPrefixes',
    ]);
  });

  it('gives the value, the problem and where the annotation belongs', () => {
    const fs = manifestFindings([
      pod({ 'sidecar.istio.io/interceptionMode': 'IPTABLES', 'networking.istio.io/exportTo': '.' }),
    ]).findings.filter((f) => CODES.has(f.code));
    expect(fs.map((f) => [f.code, f.severity, f.evidence])).toEqual([
      [
        'IST0107',
        'warning',
        { annotation: 'networking.istio.io/exportTo', kind: 'Pod', appliesTo: 'Service' },
      ],
      [
        'IST0125',
        'warning',
        {
          annotation: 'sidecar.istio.io/interceptionMode',
          value: 'IPTABLES',
          problem: 'interceptionMode invalid, use REDIRECT,TPROXY,NONE: IPTABLES',
        },
      ],
    ]);
  });

  it('does not call the deprecated inject annotation out beside the label that replaces it', () => {
    expect(found([pod({ 'sidecar.istio.io/inject': 'false' })])).toEqual([
      'IST0135 Pod p sidecar.istio.io/inject',
    ]);
    expect(
      found([pod({ 'sidecar.istio.io/inject': 'false' }, { 'sidecar.istio.io/inject': 'false' })]),
    ).toEqual([]);
  });

  it('leaves annotations Istio writes, annotations of any kind and other namespaces alone', () => {
    expect(
      found([
        pod({
          'sidecar.istio.io/status': '{}',
          'istio.io/rev': 'canary',
          'galley.istio.io/analyze-suppress': 'IST0103',
          'helm.sh/hook': 'test',
          'example.com/istio.io': 'x',
        }),
        {
          kind: 'Namespace',
          metadata: { name: 'n', annotations: { 'galley.istio.io/analyze-suppress': 'x' } },
        },
      ]),
    ).toEqual([]);
  });

  it('survives annotations of the wrong shape without throwing', () => {
    const bad = [
      { kind: 'Pod', metadata: { name: 'a', annotations: 'x' } },
      { kind: 'Pod', metadata: { name: 'b', annotations: ['x'] } },
      { kind: 'Service', metadata: { name: 'c', annotations: { 'istio.io/nope': 5 } } },
    ];
    const fs = manifestFindings(bad).findings;
    expect(fs.filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});

describe("the injector's annotation value checks", () => {
  const check = (name: string, value: string) => ISTIO_ANNOTATION_CHECKS.get(name)?.(value) ?? null;

  it('reads port lists, CIDR lists and integers as the injector does', () => {
    expect(check('traffic.sidecar.istio.io/excludeInboundPorts', ' 15020, 8080 ')).toBeNull();
    expect(check('traffic.sidecar.istio.io/excludeInboundPorts', '')).toBeNull();
    expect(check('traffic.sidecar.istio.io/excludeInboundPorts', '80,70000')).toMatch(
      /excludeInboundPorts invalid/,
    );
    expect(check('traffic.sidecar.istio.io/includeInboundPorts', '*')).toBeNull();
    expect(check('traffic.sidecar.istio.io/excludeOutboundPorts', '80,,81')).not.toBeNull();
    expect(check('traffic.sidecar.istio.io/includeOutboundIPRanges', '*')).toBeNull();
    expect(
      check('traffic.sidecar.istio.io/includeOutboundIPRanges', '10.0.0.0/8,fd00::/8'),
    ).toBeNull();
    expect(check('traffic.sidecar.istio.io/excludeOutboundIPRanges', '*')).toMatch(
      /failed parsing cidr/,
    );
    expect(check('traffic.sidecar.istio.io/excludeOutboundIPRanges', '10.0.0.1')).not.toBeNull();
    expect(check('traffic.sidecar.istio.io/excludeOutboundIPRanges', '10.0.0.0/33')).not.toBeNull();
    expect(check('traffic.sidecar.istio.io/excludeOutboundIPRanges', '010.0.0.0/8')).not.toBeNull();
    expect(check('traffic.sidecar.istio.io/excludeOutboundIPRanges', '::1/128')).toBeNull();
    expect(check('traffic.sidecar.istio.io/excludeOutboundIPRanges', '1::2::3/64')).not.toBeNull();
    expect(check('readiness.status.sidecar.istio.io/periodSeconds', '10')).toBeNull();
    expect(check('readiness.status.sidecar.istio.io/periodSeconds', '-1')).not.toBeNull();
    expect(check('readiness.status.sidecar.istio.io/periodSeconds', '4294967296')).not.toBeNull();
    expect(check('status.sidecar.istio.io/port', '15020')).toBeNull();
  });

  it('reads booleans, quantities, interface names and proxy configs', () => {
    expect(check('prometheus.istio.io/merge-metrics', 'True')).toBeNull();
    expect(check('prometheus.istio.io/merge-metrics', 'yes')).not.toBeNull();
    expect(check('sidecar.istio.io/proxyCPU', '100m')).toBeNull();
    expect(check('sidecar.istio.io/proxyMemory', '1.5Gi')).toBeNull();
    expect(check('sidecar.istio.io/proxyMemory', '1e3')).toBeNull();
    expect(check('sidecar.istio.io/proxyMemory', '1GB')).not.toBeNull();
    expect(check('sidecar.istio.io/proxyCPU', '')).not.toBeNull();
    expect(check('traffic.sidecar.istio.io/excludeInterfaces', 'eth0, net1')).toBeNull();
    expect(check('traffic.sidecar.istio.io/excludeInterfaces', 'eth0,')).toBe(
      'empty interface name',
    );
    expect(check('traffic.sidecar.istio.io/kubevirtInterfaces', '0eth')).not.toBeNull();
    expect(check('proxy.istio.io/config', '{}')).toBeNull();
    expect(check('proxy.istio.io/config', 'holdApplicationUntilProxyStarts: true')).toBeNull();
    expect(check('proxy.istio.io/config', '- a')).toBe('not a ProxyConfig mapping');
    expect(check('proxy.istio.io/config', 'a: [')).toMatch(/^not YAML/);
  });
});
