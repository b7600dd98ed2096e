import type { ServicePort } from '../kube/types';

/** The protocols Istio reads from a port name prefix or appProtocol (case-insensitive). */
export const KNOWN_PROTOCOLS: Readonly<Record<string, string>> = {
  http: 'HTTP',
  http2: 'HTTP2',
  https: 'HTTPS',
  http_proxy: 'HTTP_PROXY',
  tcp: 'TCP',
  tls: 'TLS',
  udp: 'UDP',
  grpc: 'GRPC',
  'grpc-web': 'GRPC-Web',
  mongo: 'Mongo',
  mysql: 'MySQL',
  redis: 'Redis',
  hbone: 'HBONE',
};

/** appProtocol values of the Kubernetes standard that Istio maps. */
const K8S_APP_PROTOCOLS: Readonly<Record<string, string>> = {
  'kubernetes.io/h2c': 'HTTP2',
  'kubernetes.io/ws': 'HTTP',
  'kubernetes.io/wss': 'HTTPS',
};

/** Service port numbers Istio treats as TCP when nothing declares a protocol (never sniffed). */
export const WELL_KNOWN_TCP_PORTS: ReadonlySet<number> = new Set([25, 53, 3306, 27017]);

export type ProtocolSource = 'udp' | 'appProtocol' | 'name' | 'well-known-port' | 'sniffed';

export interface ResolvedProtocol {
  /** Istio's protocol name, or null when Istio sniffs it. */
  protocol: string | null;
  source: ProtocolSource;
}

/** The protocol in a name or appProtocol: the whole value for grpc-web, else the prefix before '-'. */
export function protocolOfName(name: string | undefined): string | null {
  if (name === undefined || name === '') return null;
  const lower = name.toLowerCase();
  const k8s = K8S_APP_PROTOCOLS[lower];
  if (k8s !== undefined) return k8s;
  if (lower.startsWith('grpc-web')) return 'GRPC-Web';
  const dash = lower.indexOf('-');
  const prefix = dash >= 0 ? lower.slice(0, dash) : lower;
  return KNOWN_PROTOCOLS[prefix] ?? null;
}

/**
 * How Istio decides a Service port's protocol: UDP by the Kubernetes protocol, else appProtocol
 * when set (the name is then ignored), else the name prefix, else TCP for a few well-known port
 * numbers, else protocol sniffing.
 */
export function resolvePortProtocol(port: ServicePort): ResolvedProtocol {
  if ((port.protocol ?? 'TCP').toUpperCase() === 'UDP') return { protocol: 'UDP', source: 'udp' };
  const hasApp = port.appProtocol !== undefined && port.appProtocol !== '';
  const p = protocolOfName(hasApp ? port.appProtocol : port.name);
  if (p !== null) return { protocol: p, source: hasApp ? 'appProtocol' : 'name' };
  if (WELL_KNOWN_TCP_PORTS.has(port.port)) return { protocol: 'TCP', source: 'well-known-port' };
  return { protocol: null, source: 'sniffed' };
}

/** Protocol label for comparisons: sniffed ports count as "auto". */
export function protocolLabel(r: ResolvedProtocol): string {
  return r.protocol ?? 'auto';
}
