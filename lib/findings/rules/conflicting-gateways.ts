/**
 * IST0145 ConflictingGateways, as istioctl's gateway.ConflictingGatewayAnalyzer reports it: two
 * Istio Gateways whose selectors are the same label set, or overlap (one's text contains the
 * other's and some pod matches both), with a server on the same port number that shares a host
 * with the same bind. Once per server of a Gateway that conflicts with another, in any
 * namespace (selectors are cluster-wide). A server without a port is on port 0, as istioctl
 * reads it; hosts are compared as written.
 *
 * Istioctl keeps, for each Gateway, selector and port, the hosts of its last server there, and
 * so does this rule. It also adds the hosts of each server it found no conflict for to the
 * Gateways it compared them with, so what it reports can depend on the order it visits
 * Gateways in; this rule compares each pair on their own hosts. Istioctl's IST0101 for a
 * Gateway without servers whose selector no other Gateway shares is left to
 * gateway.IngressGatewayPortAnalyzer's (./gateway-service-port.ts).
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { objectKey } from '../../refs/object-ref';
import { defineRule } from './rule';
import { list, obj, specOf, str, strings } from './raw';
import { assumedIngress, gatewayPods, type GatewayPodLabels } from './file-defaults';
import {
  gatewaySelector,
  isIstioGateway,
  labelSetMatches,
  labelSetText,
} from './gateway-service-port';

const CATALOG = defineCatalog('config', {
  conflictingGateways: {
    code: 'IST0145',
    severity: 'error',
    title: 'ConflictingGateways',
    description:
      'Two Gateways select the same gateway pods and declare a server on the same port with a host in common: Envoy gets one listener and route for that port and host, so only one of the servers (its TLS settings, its bound VirtualServices) is applied and the other is silently ignored.',
    istio: {
      since: '1.0',
      why: "Gateways selecting pods and serving hosts by port are Istio 1.0's; istioctl analyze reports IST0145 since 1.11.",
    },
  },
});

interface Server {
  port: string;
  hosts: string[];
  bind: string;
  index: number;
}

interface Gw {
  o: KubeObject;
  key: string;
  selector: Record<string, string>;
  text: string;
  servers: Server[];
}

/** The port as istioctl's key writes it: the number, 0 when the server has none. */
function portText(server: Record<string, unknown>): string | null {
  const port = server.port;
  if (port === undefined || port === null) return '0';
  const number = obj(port)?.number;
  if (number === undefined || number === null) return '0';
  return typeof number === 'number' && Number.isInteger(number) && number >= 0
    ? String(number)
    : null;
}

function readGateway(o: KubeObject): Gw | null {
  if (!isIstioGateway(o)) return null;
  const spec = specOf(o);
  const selector = gatewaySelector(spec);
  if (selector === null) return null;
  const servers: Server[] = [];
  list(spec?.servers).forEach((s, index) => {
    const server = obj(s);
    const port = server === null ? null : portText(server);
    if (server === null || port === null) return;
    servers.push({ port, hosts: strings(server.hosts), bind: str(server.bind) ?? '', index });
  });
  const key = objectKey(o.metadata.namespace ?? 'default', o.metadata.name);
  return { o, key, selector, text: labelSetText(selector), servers };
}

/** A selector text read back as istioctl does: `k=v` pairs split on `,`, others dropped. */
function parseLabelSet(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const kv = pair.split('=');
    if (kv.length === 2) out[kv[0] ?? ''] = kv[1] ?? '';
  }
  return out;
}

/** Whether istioctl takes the two selectors for the same gateway workload. */
function sameWorkload(a: Gw, bText: string, pods: readonly GatewayPodLabels[]): boolean {
  if (a.text === bText) return true;
  if (!a.text.includes(bText) && !bText.includes(a.text)) return false;
  const b = parseLabelSet(bText);
  return pods.some((p) => labelSetMatches(a.selector, p.labels) && labelSetMatches(b, p.labels));
}

export const CONFLICTING_GATEWAYS = defineRule({
  id: 'conflicting-gateways',
  analyzer: 'gateway.ConflictingGatewayAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0145', kinds: ['Gateway'] }],
  reads: ['Gateway', 'Pod', 'ConfigMap'],
  check(ctx) {
    const gateways = ctx.objects('Gateway').flatMap((o) => readGateway(o) ?? []);
    if (gateways.length < 2) return [];
    const pods = gatewayPods(ctx, assumedIngress(ctx));
    /** selector text -> port -> gateway -> host -> bind (each gateway's last server there). */
    const bySelector = new Map<string, Map<string, Map<string, Map<string, string>>>>();
    for (const gw of gateways) {
      const byPort = bySelector.get(gw.text) ?? new Map<string, Map<string, Map<string, string>>>();
      bySelector.set(gw.text, byPort);
      for (const s of gw.servers) {
        const byGateway = byPort.get(s.port) ?? new Map<string, Map<string, string>>();
        byPort.set(s.port, byGateway);
        byGateway.set(gw.key, new Map(s.hosts.map((h) => [h, s.bind])));
      }
    }
    const out: Finding[] = [];
    for (const gw of gateways) {
      const same = [...bySelector.keys()].filter((t) => sameWorkload(gw, t, pods));
      const seen = new Set<string>();
      for (const s of gw.servers) {
        const others = new Set<string>();
        for (const t of same) {
          for (const [other, hosts] of bySelector.get(t)?.get(s.port) ?? []) {
            if (other === gw.key) continue;
            if (s.hosts.some((h) => hosts.has(h) && hosts.get(h) === s.bind)) others.add(other);
          }
        }
        if (others.size === 0) continue;
        const part = seen.has(s.port) ? `${s.port} (servers[${s.index}])` : s.port;
        seen.add(s.port);
        out.push({
          code: CATALOG.code.conflictingGateways,
          severity: CATALOG.byKey.conflictingGateways.severity,
          subject: {
            kind: 'Gateway',
            namespace: gw.o.metadata.namespace,
            name: gw.o.metadata.name,
          },
          part: { kind: 'port', name: part },
          evidence: {
            conflictsWith: [...others].sort().join(', '),
            selector: gw.text,
            port: Number(s.port),
            hosts: s.hosts.join(', '),
          },
          fix: {
            why: 'Serve each host and port from one Gateway (merge the servers), or give the Gateways different ports, hosts or gateway workloads.',
          },
        });
      }
    }
    return out;
  },
});
