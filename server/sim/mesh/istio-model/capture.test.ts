import { describe, expect, it } from 'vitest';
import type { Namespace, Pod } from '../../../../lib/kube/types';
import { makePod } from '../testworld';
import { isZtunnelPod, waypointFor, ztunnelCaptures } from './capture';
import { simProxyOf } from './proxy-kind';

const ns = (name: string, labels: Record<string, string> = {}): Namespace => ({
  metadata: { name, labels },
});
const ambientNs = ns('shop', { 'istio.io/dataplane-mode': 'ambient' });
const plain = (labels: Record<string, string> = {}, namespace = 'shop'): Pod =>
  makePod('web-1', namespace, '10.0.0.1', { proxy: 'none', labels });

describe("the simulated CNI agent's ambient enrolment (PodRedirectionEnabled)", () => {
  it('enrols by the namespace label or the pod label, nothing else', () => {
    expect(ztunnelCaptures(plain(), ambientNs)).toBe(true);
    expect(ztunnelCaptures(plain(), ns('shop'))).toBe(false);
    expect(ztunnelCaptures(plain({ 'istio.io/dataplane-mode': 'ambient' }), ns('shop'))).toBe(true);
    expect(ztunnelCaptures(plain(), ns('shop', { 'istio.io/dataplane-mode': 'Ambient' }))).toBe(
      false,
    );
  });

  it('only `none` opts a pod out of an ambient namespace', () => {
    expect(ztunnelCaptures(plain({ 'istio.io/dataplane-mode': 'none' }), ambientNs)).toBe(false);
    // any other value is no opt-out for the CNI agent
    expect(ztunnelCaptures(plain({ 'istio.io/dataplane-mode': 'sidecar' }), ambientNs)).toBe(true);
  });

  it('leaves injected pods, host-network pods, ztunnel, gateways and waypoints alone', () => {
    const injected = plain();
    injected.metadata.annotations = { 'sidecar.istio.io/status': '{}' };
    expect(ztunnelCaptures(injected, ambientNs)).toBe(false);
    const host = plain();
    host.spec.hostNetwork = true;
    expect(ztunnelCaptures(host, ambientNs)).toBe(false);
    const zt = plain({ app: 'ztunnel' }, 'istio-system');
    expect(isZtunnelPod(zt)).toBe(true);
    expect(ztunnelCaptures(zt, ns('istio-system', { 'istio.io/dataplane-mode': 'ambient' }))).toBe(
      false,
    );
    const gateway = makePod('gw-1', 'shop', '10.0.0.2', { proxy: 'gateway' });
    expect(ztunnelCaptures(gateway, ambientNs)).toBe(false);
    const waypoint = makePod('waypoint-1', 'shop', '10.0.0.3', { proxy: 'gateway' });
    const c = waypoint.spec.containers[0];
    if (c) c.args = ['proxy', 'waypoint'];
    expect(simProxyOf(waypoint)?.type).toBe('waypoint');
    expect(ztunnelCaptures(waypoint, ambientNs)).toBe(false);
  });
});

describe('the waypoint a captured pod or a Service uses', () => {
  it('its own label over its namespace, `none` opting out, and the waypoint namespace label', () => {
    const nsWp = { metadata: { labels: { 'istio.io/use-waypoint': 'wp' } } };
    expect(waypointFor({ metadata: { labels: {} } }, nsWp, 'shop')).toBe('shop/wp');
    expect(
      waypointFor({ metadata: { labels: { 'istio.io/use-waypoint': 'none' } } }, nsWp, 'shop'),
    ).toBeNull();
    expect(
      waypointFor(
        {
          metadata: {
            labels: {
              'istio.io/use-waypoint': 'shared',
              'istio.io/use-waypoint-namespace': 'mesh',
            },
          },
        },
        nsWp,
        'shop',
      ),
    ).toBe('mesh/shared');
    expect(waypointFor(undefined, undefined, 'shop')).toBeNull();
  });
});

describe("the simulator's reading of the proxy it injected", () => {
  it('pilot-agent proxy type from the arguments, native sidecar from initContainers', () => {
    expect(simProxyOf(makePod('a', 'shop', '10.0.0.4'))).toMatchObject({
      type: 'sidecar',
      native: false,
    });
    expect(simProxyOf(makePod('g', 'shop', '10.0.0.5', { proxy: 'gateway' }))?.type).toBe('router');
    expect(simProxyOf(plain())).toBeUndefined();
    const native = plain();
    native.spec.initContainers = [
      {
        name: 'istio-proxy',
        image: 'proxyv2:1.27.0',
        args: ['proxy', 'sidecar'],
        restartPolicy: 'Always',
      },
    ];
    expect(simProxyOf(native)).toMatchObject({ type: 'sidecar', native: true });
    // an istio-proxy init container that is no sidecar container is no proxy
    const blocking = plain();
    blocking.spec.initContainers = [{ name: 'istio-proxy', image: 'proxyv2:1.27.0' }];
    expect(simProxyOf(blocking)).toBeUndefined();
    const zt = plain({ app: 'ztunnel' }, 'istio-system');
    zt.spec.containers = [
      {
        name: 'istio-proxy',
        image: 'istio/ztunnel:1.27.3',
        command: ['/usr/local/bin/ztunnel', 'proxy', 'ztunnel'],
      },
    ];
    expect(simProxyOf(zt)?.type).toBe('ztunnel');
  });
});
