import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { RefError } from './ref-error';
import { formatNodeId, isEnvoyNode, parseNodeId, proxyKey, tryParseNodeId } from './proxy-ref';

const bootstrapId = (file: string): string => {
  const m = /"id": *"([^"]+~[^"]+)"/.exec(readFixture('config_dump', file));
  if (!m?.[1]) throw new Error(`no node id in ${file}`);
  return m[1];
};

describe('Envoy node ids', () => {
  it('reads the node ids of real sidecar and waypoint config dumps and writes them back', () => {
    const cases = [
      [
        'istio-details-v1_sidecar_config_dump_camelCase.json',
        'sidecar',
        'default',
        'details-v1-79f774bdb9-6hxw6',
        '10.244.0.12',
      ],
      [
        'istio-echo-a_sidecar_config_dump.json',
        'sidecar',
        'apps-1-99281',
        'a-6bb6dbdcc5-z58cx',
        '10.40.3.59',
      ],
      [
        'istioctl-proxyconfig_all_types_config_dump.json',
        'waypoint',
        'default',
        'httpbin-istio-waypoint-58f646c5ff-dbfkz',
        '192.168.252.229',
      ],
    ] as const;
    for (const [file, type, namespace, name, ip] of cases) {
      const id = bootstrapId(file);
      const n = parseNodeId(id);
      expect(n).toEqual({
        type,
        ip,
        pod: { namespace, name },
        domain: `${namespace}.svc.cluster.local`,
      });
      expect(formatNodeId(n)).toBe(id);
      expect(formatNodeId({ type, ip, pod: { namespace, name } })).toBe(id);
      expect(proxyKey(n.pod)).toBe(`${namespace}/${name}`);
      expect(isEnvoyNode(n)).toBe(true);
    }
  });

  it('reads the router node id of a real ingress gateway log', () => {
    const log = readFixture('proxy_logs', 'istio-ingressgateway-1.6.3_istio-proxy_container.log');
    const m = /router~[^\s"',]+/.exec(log);
    expect(m).not.toBeNull();
    const n = parseNodeId(m?.[0] ?? '');
    expect(n.type).toBe('router');
    expect(n.pod).toEqual({
      namespace: 'istio-system',
      name: 'istio-ingressgateway-5855454469-5h8dq',
    });
    expect(formatNodeId(n)).toBe(m?.[0]);
  });

  it('reads a ztunnel node id, which is not an Envoy proxy of its pod', () => {
    const n = parseNodeId(
      'ztunnel~10.244.1.7~ztunnel-n5bg2.istio-system~istio-system.svc.cluster.local',
    );
    expect(n.pod).toEqual({ namespace: 'istio-system', name: 'ztunnel-n5bg2' });
    expect(isEnvoyNode(n)).toBe(false);
  });

  it('keeps dots of pod names and reads IPv6 addresses', () => {
    const id = 'router~fd00::9~gw-7f.v2.istio-system~istio-system.svc.cluster.local';
    const n = parseNodeId(id);
    expect(n).toEqual({
      type: 'router',
      ip: 'fd00::9',
      pod: { namespace: 'istio-system', name: 'gw-7f.v2' },
      domain: 'istio-system.svc.cluster.local',
    });
    expect(formatNodeId(n)).toBe(id);
    expect(formatNodeId({ ...n, domain: undefined })).toBe(id);
    expect(formatNodeId({ ...n, domain: 'istio-system.svc.corp.example' })).toMatch(
      /~istio-system\.svc\.corp\.example$/,
    );
  });

  it('names the problem of bad input', () => {
    expect(() => parseNodeId('not-a-node-id')).toThrow(RefError);
    expect(() => parseNodeId('not-a-node-id')).toThrow(/not an Envoy node id: "not-a-node-id"/);
    expect(() => parseNodeId('not-a-node-id')).toThrow(/found 1 part/);
    expect(() => parseNodeId('gateway~1.2.3.4~gw.ns~ns.svc.cluster.local')).toThrow(
      /type "gateway" is none of sidecar, router, waypoint, ztunnel/,
    );
    expect(() => parseNodeId('sidecar~~gw.ns~ns.svc.cluster.local')).toThrow(/the IP is empty/);
    expect(() => parseNodeId('sidecar~1.2.3.4~gw~ns.svc.cluster.local')).toThrow(
      /has no "\.NAMESPACE"/,
    );
    expect(() => parseNodeId('sidecar~1.2.3.4~gw.NS~ns.svc.cluster.local')).toThrow(
      /not a DNS label/,
    );
    expect(() => parseNodeId('sidecar~1.2.3.4~gw.ns~')).toThrow(/the domain is empty/);
    expect(tryParseNodeId('x')).toBeNull();
  });
});
