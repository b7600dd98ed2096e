import { describe, expect, it } from 'vitest';
import { gridObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';

const grid = gridObjects;
const run = (objects: unknown[]) => manifestFindings(objects).findings;
const found = (objects: unknown[]) =>
  run(objects)
    .filter((f) => f.code === 'IST0176')
    .map(
      (f) =>
        `${f.subject.name} ${String(f.evidence.installedVersion)} < ${String(f.evidence.minimumVersion)}`,
    )
    .sort();
const crd = (name: string, version?: unknown) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: {
    name,
    annotations:
      version === undefined ? {} : { 'gateway.networking.k8s.io/bundle-version': version },
  },
  spec: { group: 'gateway.networking.k8s.io' },
});
const TLS = 'tlsroutes.gateway.networking.k8s.io';

describe('IST0176 GatewayAPICRDVersionBelowMinimum (k8sgateway.CRDVersionAnalyzer)', () => {
  it("reports istioctl's grid file as istioctl does", () => {
    expect(found(grid('gateway-api-crd-version-old.yaml'))).toEqual([
      'tlsroutes.gateway.networking.k8s.io 1.4.1 < 1.5.0',
    ]);
    const f = run(grid('gateway-api-crd-version-old.yaml')).find((x) => x.code === 'IST0176');
    expect(f?.severity).toBe('warning');
    expect(f?.subject).toEqual({ kind: 'CustomResourceDefinition', name: TLS });
  });

  it('reads versions as Masterminds semver does, without their pre-release', () => {
    expect(found([crd(TLS, '1.4')])).toEqual([`${TLS} 1.4.0 < 1.5.0`]);
    expect(found([crd(TLS, 'v1')])).toEqual([`${TLS} 1.0.0 < 1.5.0`]);
    expect(found([crd(TLS, 'v1.4.9-rc.1+build.7')])).toEqual([`${TLS} 1.4.9-rc.1+build.7 < 1.5.0`]);
    expect(found([crd(TLS, 'v1.5.0-rc1')])).toEqual([]);
    expect(found([crd(TLS, 'v1.5.0')])).toEqual([]);
    expect(found([crd(TLS, 'v2.0.0')])).toEqual([]);
    expect(
      found([
        crd('tcproutes.gateway.networking.k8s.io', 'v1.5.9'),
        crd('grpcroutes.gateway.networking.k8s.io', 'v1.0.0'),
        crd('backendtlspolicies.gateway.networking.k8s.io', 'v1.4.0'),
      ]),
    ).toEqual([
      'grpcroutes.gateway.networking.k8s.io 1.0.0 < 1.1.0',
      'tcproutes.gateway.networking.k8s.io 1.5.9 < 1.6.0',
    ]);
  });

  it('does not judge a CRD it has no minimum for, without the annotation, or of a version it cannot read', () => {
    const odd = [
      crd('httproutes.gateway.networking.k8s.io', 'v0.1.0'),
      crd('tlsroutes.example.com', 'v0.1.0'),
      crd(TLS),
      crd(TLS, 'latest'),
      crd(TLS, 'v1.4.0-01'),
      crd(TLS, '1.4.0.1'),
      crd(TLS, ''),
      crd(TLS, 140),
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: TLS, annotations: 'x' },
      },
    ];
    expect(found(odd)).toEqual([]);
    expect(run(odd).filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});
