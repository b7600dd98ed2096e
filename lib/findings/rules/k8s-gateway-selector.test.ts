import { describe, expect, it } from 'vitest';
import { gridObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const grid = gridObjects;
const run = (objects: unknown[]) => manifestFindings(objects).findings;
const found = (objects: unknown[]) =>
  run(objects)
    .filter((f) => f.code === 'IST0166')
    .map(
      (f) =>
        `${f.subject.kind} ${objectKey(f.subject.namespace ?? '-', f.subject.name)}:${f.part?.name ?? ''}`,
    )
    .sort();
const GATEWAY_NAME = 'gateway.networking.k8s.io/gateway-name';
const pod = (name: string, namespace: string, labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels },
  spec: { containers: [{ name: 'istio-proxy', image: 'proxyv2' }] },
});
const policy = (kind: string, name: string, spec: unknown, namespace = 'web') => ({
  apiVersion: 'security.istio.io/v1',
  kind,
  metadata: { name, namespace },
  spec,
});
const gwPod = (name: string, gateway: string, extra: Record<string, string> = {}) =>
  pod(name, 'web', { [GATEWAY_NAME]: gateway, ...extra });
const select = (matchLabels: unknown) => ({ selector: { matchLabels } });

describe('IST0166 IneffectiveSelector (k8sgateway.SelectorAnalyzer)', () => {
  it("reports istioctl's grid file as istioctl does", () => {
    expect(found(grid('k8sgateway-selector.yaml'))).toEqual([
      'AuthorizationPolicy default/ap-ineffective:bookinfo-gateway-istio-6ff4cf9645-xbqmc',
      'RequestAuthentication default/ra-ineffective:bookinfo-gateway-istio-6ff4cf9645-xbqmc',
      'Telemetry default/telemetry-ineffective:bookinfo-gateway-istio-6ff4cf9645-xbqmc',
      'WasmPlugin default/wasmplugin-ineffective:bookinfo-gateway-istio-6ff4cf9645-xbqmc',
    ]);
    const f = run(grid('k8sgateway-selector.yaml')).find((x) => x.code === 'IST0166');
    expect(f?.severity).toBe('warning');
    expect(f?.evidence.gateway).toBe('bookinfo-gateway');
  });

  it('reports once per gateway pod matched, in the policy namespace only', () => {
    const pods = [
      gwPod('gw-a-1', 'a', { app: 'gw' }),
      gwPod('gw-a-2', 'a', { app: 'gw' }),
      gwPod('gw-b-1', 'b'),
      pod('plain', 'web', { app: 'gw' }),
      pod('elsewhere', 'other', { [GATEWAY_NAME]: 'a', app: 'gw' }),
    ];
    expect(found([...pods, policy('AuthorizationPolicy', 'ap', select({ app: 'gw' }))])).toEqual([
      'AuthorizationPolicy web/ap:gw-a-1',
      'AuthorizationPolicy web/ap:gw-a-2',
    ]);
    // a selector without matchLabels matches every gateway pod of the namespace
    expect(found([...pods, policy('AuthorizationPolicy', 'ap', { selector: {} })])).toEqual([
      'AuthorizationPolicy web/ap:gw-a-1',
      'AuthorizationPolicy web/ap:gw-a-2',
      'AuthorizationPolicy web/ap:gw-b-1',
    ]);
    expect(found([...pods, policy('AuthorizationPolicy', 'ap', select({ app: 'x' }))])).toEqual([]);
    expect(found([pods[4], policy('Telemetry', 't', select({ app: 'gw' }), 'default')])).toEqual(
      [],
    );
  });

  it('skips a policy with targetRef or no selector, as istioctl does; targetRefs alone is not looked at', () => {
    const p = gwPod('gw-1', 'a');
    const sel = select({ [GATEWAY_NAME]: 'a' });
    expect(
      found([
        p,
        policy('AuthorizationPolicy', 'ref', { ...sel, targetRef: { kind: 'Gateway', name: 'a' } }),
        policy('AuthorizationPolicy', 'none', { action: 'DENY' }),
        policy('AuthorizationPolicy', 'null', { selector: null }),
        policy('RequestAuthentication', 'null-ref', { ...sel, targetRef: null }),
        policy('WasmPlugin', 'refs', { ...sel, targetRefs: [{ kind: 'Gateway', name: 'a' }] }),
      ]),
    ).toEqual(['RequestAuthentication web/null-ref:gw-1', 'WasmPlugin web/refs:gw-1']);
  });

  it('survives policies of the wrong shape', () => {
    const odd = [
      gwPod('gw-1', 'a'),
      policy('AuthorizationPolicy', 'string-selector', { selector: 'app=gw' }),
      policy('AuthorizationPolicy', 'list-labels', select(['app'])),
      policy('Telemetry', 'no-spec', undefined),
      policy('WasmPlugin', 'spec-list', []),
    ];
    expect(found(odd)).toEqual([]);
    expect(run(odd).filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});
