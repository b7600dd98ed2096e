import { describe, expect, it } from 'vitest';
import { upstreamObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const upstream = upstreamObjects;
type Input = 'files' | 'cluster';
const found = (objects: unknown[], input: Input = 'files') =>
  manifestFindings(objects, { given: { input } })
    .findings.filter(
      (f) => f.subject.kind === 'Telemetry' && (f.code === 'IST0101' || f.code === 'IST0159'),
    )
    .map(
      (f) =>
        `${f.code} ${objectKey(f.subject.namespace ?? '-', f.subject.name)}${f.part ? ` @${f.part.name}` : ''}`,
    )
    .sort();
const pod = (name: string, namespace: string, labels: unknown) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels },
  spec: { containers: [{ name: 'app', image: 'app' }] },
});
const telemetry = (name: string, namespace: string | undefined, spec?: unknown) => ({
  apiVersion: 'telemetry.istio.io/v1',
  kind: 'Telemetry',
  metadata: namespace === undefined ? { name } : { name, namespace },
  ...(spec === undefined ? {} : { spec }),
});
const selecting = (matchLabels: unknown) => ({
  selector: { matchLabels },
  accessLogging: [{ providers: [{ name: 'envoy' }] }],
});

describe('IST0101 (selector) and IST0159 on Telemetries (telemetry.SelectorAnalyzer)', () => {
  it("reports istioctl's upstream file as istioctl does", () => {
    expect(found(upstream('telemetry-selector.yaml'))).toEqual([
      'IST0101 default/maps-to-nonexistent',
      'IST0101 other/maps-to-different-ns',
      'IST0159 default/dupe-1 @reviews',
      'IST0159 default/dupe-2 @reviews',
      'IST0159 default/overlap-1 @ratings',
      'IST0159 default/overlap-2 @ratings',
    ]);
    const f = manifestFindings(upstream('telemetry-selector.yaml')).findings.find(
      (x) => x.code === 'IST0159' && x.subject.name === 'overlap-1',
    );
    expect(f?.severity).toBe('error');
    expect(f?.evidence).toMatchObject({
      conflictingTelemetries: 'overlap-1, overlap-2',
      workloadPod: 'ratings',
    });
  });

  it('reports a conflict once per Telemetry and pod, and only pods of its own namespace', () => {
    expect(
      found([
        pod('web-1', 'shop', { app: 'web' }),
        pod('web-2', 'shop', { app: 'web', v: '2' }),
        pod('web-other', 'pay', { app: 'web' }),
        telemetry('a', 'shop', selecting({ app: 'web' })),
        telemetry('b', 'shop', selecting({ v: '2' })),
        telemetry('c', 'pay', selecting({ app: 'web' })),
      ]),
    ).toEqual(['IST0159 shop/a @web-2', 'IST0159 shop/b @web-2']);
  });

  it('leaves Telemetries without a selector, with empty matchLabels or unreadable ones alone', () => {
    const objects = [
      telemetry('none', 'shop'),
      telemetry('no-selector', 'shop', { tracing: [{}] }),
      telemetry('empty', 'shop', selecting({})),
      telemetry('null', 'shop', { selector: null }),
      telemetry('string-selector', 'shop', { selector: 'app=x' }),
      telemetry('list-labels', 'shop', selecting(['app'])),
      telemetry('number-label', 'shop', selecting({ app: 3 })),
      telemetry('spec-list', 'shop', []),
      telemetry('no-namespace', undefined, selecting({ app: 'ghost' })),
    ];
    expect(() => manifestFindings(objects)).not.toThrow();
    // a Telemetry without a namespace is in default, where no pod is
    expect(found(objects)).toEqual(['IST0101 default/no-namespace']);
    expect(manifestFindings(objects).findings.filter((f) => f.code === 'MDX0003')).toEqual([]);
  });

  it("matches istioctl's stand-in ingress gateway on files, never on a cluster's objects", () => {
    const objects = [telemetry('gw', 'istio-system', selecting({ istio: 'ingressgateway' }))];
    expect(found(objects, 'files')).toEqual([]);
    expect(found(objects, 'cluster')).toEqual(['IST0101 istio-system/gw']);
  });
});
