import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';

const alpha = (objects: unknown[]) =>
  manifestFindings(objects)
    .findings.filter((f) => f.code === 'IST0136')
    .map((f) => `${f.subject.kind} ${f.subject.name} ${String(f.evidence.annotation)}`)
    .sort();

describe('IST0136 AlphaAnnotation (maturity.AlphaAnalyzer)', () => {
  it("reports istioctl's grid file misannotated.yaml as istioctl does", () => {
    const objects = parseAllDocuments(
      readFixture('istio_config', 'analyzer', 'misannotated.yaml'),
    ).map((d) => d.toJS() as unknown);
    expect(alpha(objects)).toEqual([
      'Deployment fortio-deploy sidecar.istio.io/statsInclusionPrefixes',
      'Pod anno-not-set-by-default sidecar.istio.io/interceptionMode',
      'Pod anno-not-set-by-default traffic.sidecar.istio.io/excludeInboundPorts',
      'Pod anno-not-set-by-default traffic.sidecar.istio.io/includeInboundPorts',
      'Pod anno-not-set-by-default traffic.sidecar.istio.io/includeOutboundIPRanges',
      'Pod invalid-annotations readiness.status.sidecar.istio.io/initialDelaySeconds',
      'Pod invalid-annotations readiness.status.sidecar.istio.io/periodSeconds',
      'Service httpbin networking.istio.io/exportTo',
    ]);
  });

  it('skips the capture annotations the CNI plugin sets, only on pods it captures', () => {
    const annotations = {
      'sidecar.istio.io/interceptionMode': 'REDIRECT',
      'sidecar.istio.io/proxyCPU': '100m',
    };
    const pod = (name: string, initContainers: unknown) => ({
      kind: 'Pod',
      metadata: { name, namespace: 'shop', annotations },
      spec: { containers: [{ name: 'app' }], initContainers },
    });
    expect(
      alpha([pod('cni', [{ name: 'istio-validation' }]), pod('init', [{ name: 'istio-init' }])]),
    ).toEqual([
      'Pod cni sidecar.istio.io/proxyCPU',
      'Pod init sidecar.istio.io/interceptionMode',
      'Pod init sidecar.istio.io/proxyCPU',
    ]);
    // on a Deployment the annotation is the user's, whatever its pods
    expect(
      alpha([{ kind: 'Deployment', metadata: { name: 'd', annotations }, spec: { template: {} } }]),
    ).toEqual([
      'Deployment d sidecar.istio.io/interceptionMode',
      'Deployment d sidecar.istio.io/proxyCPU',
    ]);
  });

  it('leaves beta, stable and Istio-written annotations alone, and odd specs do not throw', () => {
    const fs = manifestFindings([
      {
        kind: 'Pod',
        metadata: {
          name: 'p',
          annotations: {
            'proxy.istio.io/config': '{}',
            'ambient.istio.io/redirection': 'enabled',
            'sidecar.istio.io/status': '{}',
            'istio.io/rev': 'x',
          },
        },
        spec: { initContainers: 'nope' },
      },
    ]).findings;
    expect(fs.filter((f) => f.code === 'IST0136' || f.code === 'MDX0003')).toEqual([]);
  });
});
