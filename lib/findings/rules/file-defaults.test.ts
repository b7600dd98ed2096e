import { describe, expect, it } from 'vitest';
import { screenObjects } from '../screen';
import { assumedIngress, gatewayPods } from './file-defaults';
import type { RuleContext } from './rule';

const istiod = {
  kind: 'Pod',
  metadata: { name: 'istiod-1', namespace: 'istio-system', labels: { app: 'istiod' } },
  spec: { containers: [{ name: 'discovery', image: 'pilot' }] },
};
const ctx = (
  input: RuleContext['input'],
  meshConfig: Record<string, unknown> | null = null,
): RuleContext => {
  const screened = screenObjects([istiod]);
  return {
    input,
    screened,
    rootNamespace: 'istio-system',
    meshConfig,
    meshNetworksGiven: null,
    objects: (kind) => screened.objects.filter((o) => o.kind === kind),
  };
};

describe("istioctl's file defaults", () => {
  it('assume the default ingress gateway for files, whatever pods they hold', () => {
    const a = assumedIngress(ctx('files'));
    expect(a?.pod).toEqual({
      namespace: 'istio-system',
      name: 'istio-ingressgateway-dummypod',
      labels: { istio: 'ingressgateway' },
    });
    expect(a?.ports).toEqual([80, 443, 31400, 15443]);
    expect(gatewayPods(ctx('files'), a).map((p) => p.name)).toEqual([
      'istiod-1',
      'istio-ingressgateway-dummypod',
    ]);
  });

  it('assume nothing for a cluster’s own objects, or with the ingress controller off', () => {
    expect(assumedIngress(ctx('cluster'))).toBeNull();
    expect(assumedIngress(ctx('files', { ingressControllerMode: 'off' }))).toBeNull();
    expect(assumedIngress(ctx('files', { ingressService: 'edge' }))?.pod.name).toBe(
      'edge-dummypod',
    );
  });
});
