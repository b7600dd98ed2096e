/**
 * An Envoy `config.core.v3.Address` as istioctl prints it (istio/istio
 * istioctl/pkg/writer/envoy/clusters/clusters.go retrieveEndpointAddress and
 * configdump/endpoint.go retrieveEndpointAddresses): a socket address `IP:PORT`, a pipe's path,
 * or an internal address `envoy://LISTENER/ENDPOINT_ID`. Internal addresses are how a waypoint
 * or a sidecar reaches an ambient pod over HBONE (`envoy://connect_originate/10.244.2.239:8080`):
 * the endpoint id is the pod's `IP:PORT`, the IP a request's attribution needs.
 */
import { normalizeIp } from '../accesslog/address';
import { field } from './fields';

export type EnvoyAddress =
  | { kind: 'socket'; ip: string; port: number | null }
  | { kind: 'pipe'; path: string }
  /** ip/port: the pod address inside the endpoint id, null when the id is not `IP:PORT`. */
  | {
      kind: 'internal';
      listener: string;
      endpointId: string;
      ip: string | null;
      port: number | null;
    };

/** `10.0.0.1:80`, `[fd00::1]:80` -> ip and port; null for anything else. */
export function splitHostPort(text: string): { ip: string; port: number } | null {
  const m =
    /^\[([0-9A-Fa-f:.]+)\]:(\d{1,5})$/.exec(text) ??
    /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(text);
  if (!m) return null;
  const port = Number(m[2]);
  return port <= 65535 ? { ip: normalizeIp(m[1] as string), port } : null;
}

/** Reads an Address (snake_case or camelCase keys); null when it holds none of the three. */
export function envoyAddress(address: unknown): EnvoyAddress | null {
  const sock = field(address, 'socket_address');
  const ip = field(sock, 'address');
  if (typeof ip === 'string') {
    const p = field(sock, 'port_value');
    return { kind: 'socket', ip: normalizeIp(ip), port: typeof p === 'number' ? p : null };
  }
  const path = field(field(address, 'pipe'), 'path');
  if (typeof path === 'string') return { kind: 'pipe', path };
  const internal = field(address, 'envoy_internal_address');
  const listener = field(internal, 'server_listener_name');
  if (typeof listener === 'string') {
    const id = field(internal, 'endpoint_id');
    const endpointId = typeof id === 'string' ? id : '';
    const inside = splitHostPort(endpointId);
    return {
      kind: 'internal',
      listener,
      endpointId,
      ip: inside?.ip ?? null,
      port: inside?.port ?? null,
    };
  }
  return null;
}

/** The text istioctl prints for an address (a socket's port apart: see `endpointText`). */
export function internalAddressText(listener: string, endpointId: string): string {
  return `envoy://${listener}/${endpointId}`;
}

/**
 * An endpoint of Envoy's `/clusters` text: `IP:PORT`, `[IPv6]:PORT`, `envoy://LISTENER/ID`, or
 * a pipe's path (Envoy prints an address's `asString()`). Null for an empty text.
 */
export function addressOfText(text: string): EnvoyAddress | null {
  if (text === '') return null;
  const internal = /^envoy:\/\/([^/]+)\/(.*)$/.exec(text);
  if (internal) {
    const endpointId = internal[2] as string;
    const inside = splitHostPort(endpointId);
    return {
      kind: 'internal',
      listener: internal[1] as string,
      endpointId,
      ip: inside?.ip ?? null,
      port: inside?.port ?? null,
    };
  }
  const sock = splitHostPort(text);
  if (sock) return { kind: 'socket', ...sock };
  return { kind: 'pipe', path: text };
}
