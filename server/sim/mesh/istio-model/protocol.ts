/**
 * Istio protocol selection for a service port: `appProtocol`, else the ServiceEntry protocol,
 * else the port name prefix `<protocol>[-suffix]`; anything else is UNKNOWN (sniffed).
 */
import type { ServiceRegistry, SimPort } from './service-registry';

const KNOWN = new Map<string, string>([
  ['http', 'HTTP'],
  ['http2', 'HTTP2'],
  ['https', 'HTTPS'],
  ['grpc', 'GRPC'],
  ['grpc-web', 'GRPC-Web'],
  ['tcp', 'TCP'],
  ['tls', 'TLS'],
  ['mongo', 'Mongo'],
  ['mysql', 'MySQL'],
  ['redis', 'Redis'],
  ['udp', 'UDP'],
]);

export function portProtocol(
  port: Pick<SimPort, 'name' | 'protocol' | 'appProtocol'>,
  registry: ServiceRegistry,
): string {
  const known = (p: string) => KNOWN.get(p.toLowerCase()) ?? p.toUpperCase();
  if (port.appProtocol) return known(port.appProtocol);
  if (registry === 'External' && port.protocol) return known(port.protocol);
  if (registry === 'Kubernetes' && port.protocol && port.protocol !== 'TCP')
    return known(port.protocol);
  const name = (port.name ?? '').toLowerCase();
  if (name === 'grpc-web' || name.startsWith('grpc-web-')) return 'GRPC-Web';
  return KNOWN.get(name.split('-')[0] ?? '') ?? 'UNKNOWN';
}

/** HTTP-family protocols get an HTTP route config and a 0.0.0.0_PORT listener. */
export function isHttpProtocol(protocol: string): boolean {
  return ['HTTP', 'HTTP2', 'GRPC', 'GRPC-Web'].includes(protocol);
}

export function isHttp2(protocol: string): boolean {
  return protocol === 'HTTP2' || protocol === 'GRPC';
}
