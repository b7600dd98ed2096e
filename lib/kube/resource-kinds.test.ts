import { describe, expect, it } from 'vitest';
import { RULE_KINDS } from '../findings/rules';
import { KIND_RESOURCES, kindResource } from './resource-kinds';

describe('where each kind is served', () => {
  it('knows every kind an analyzer rule reads, so the server can list it', () => {
    const unknown = [...RULE_KINDS].filter((k) => kindResource(k) === null);
    expect(unknown).toEqual([]);
  });

  it('tells the two Gateways apart by group', () => {
    expect(kindResource('Gateway')?.group).toBe('networking.istio.io');
    expect(kindResource('Gateway', 'gateway.networking.k8s.io')?.plural).toBe('gateways');
    expect(kindResource('Gateway', 'gateway.networking.k8s.io')?.group).toBe(
      'gateway.networking.k8s.io',
    );
  });

  it('marks the CRD-served kinds, which may not be installed', () => {
    expect(KIND_RESOURCES.EnvoyFilter?.crd).toBe(true);
    expect(KIND_RESOURCES.HTTPRoute?.crd).toBe(true);
    expect(KIND_RESOURCES.Deployment?.crd).toBe(false);
    expect(KIND_RESOURCES.MutatingWebhookConfiguration).toMatchObject({
      crd: false,
      namespaced: false,
    });
  });
});
