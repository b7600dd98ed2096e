import { describe, expect, it } from 'vitest';
import { manifestFindings } from '../manifest';
import { screenObjects } from '../screen';
import { ruleFindings } from '.';

const ns = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { 'istio.io/dataplane-mode': 'ambient', ...labels } },
});
const svc = (name: string, namespace: string, labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace, labels },
  spec: { ports: [{ name: 'http', port: 80 }], selector: { app: name } },
});
const gateway = (name: string, namespace: string, gatewayClassName: unknown) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name, namespace },
  spec: { gatewayClassName, listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
});
const found = (objects: unknown[]) =>
  manifestFindings(objects)
    .findings.filter((f) => f.code === 'MDX0609')
    .map(
      (f) =>
        `${f.subject.kind} ${f.subject.name}: ${String(f.evidence.waypoint)} ${String(f.evidence.problem)}`,
    )
    .sort();

describe('MDX0609 istio.io/use-waypoint names no waypoint', () => {
  it('names the objects whose waypoint is missing or is not a waypoint', () => {
    expect(
      found([
        ns('shop', { 'istio.io/use-waypoint': 'waypoint' }),
        gateway('waypoint', 'shop', 'istio-waypoint'),
        svc('cart', 'shop', { 'istio.io/use-waypoint': 'gone' }),
        svc('pay', 'shop', { 'istio.io/use-waypoint': 'ingress' }),
        gateway('ingress', 'shop', 'istio'),
        svc('edge', 'shop', { 'istio.io/use-waypoint': 'none' }),
      ]),
    ).toEqual(['Service cart: shop/gone missing', 'Service pay: shop/ingress not a waypoint']);
  });

  it('looks in the namespace use-waypoint-namespace gives, and not at Istio Gateways', () => {
    const shared = {
      'istio.io/use-waypoint': 'waypoint',
      'istio.io/use-waypoint-namespace': 'mesh',
    };
    expect(found([ns('shop', shared), gateway('waypoint', 'mesh', 'istio-waypoint')])).toEqual([]);
    expect(found([ns('shop', shared), gateway('waypoint', 'shop', 'istio-waypoint')])).toEqual([
      'Namespace shop: mesh/waypoint missing',
    ]);
    const istioGateway = {
      ...gateway('waypoint', 'mesh', 'istio-waypoint'),
      apiVersion: 'networking.istio.io/v1',
    };
    expect(found([ns('shop', shared), istioGateway])).toEqual([
      'Namespace shop: mesh/waypoint missing',
    ]);
  });

  it('judges nothing when the Gateways could not be read', () => {
    const objects = [ns('shop', { 'istio.io/use-waypoint': 'waypoint' })];
    const screened = screenObjects(objects, { gatewaysUnknown: 'gateways: forbidden' });
    expect(ruleFindings(screened, 'istio-system').filter((f) => f.code === 'MDX0609')).toEqual([]);
    expect(found(objects)).toEqual(['Namespace shop: shop/waypoint missing']);
  });
});
