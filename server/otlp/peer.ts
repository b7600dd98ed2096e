import { normalizeIp, parseAddress } from '../../lib/accesslog/address';

/** The IP of a peer as gRPC (`ipv4:1.2.3.4:5`, `[::1]:5`, `1.2.3.4:5`) or a socket names it. */
export function peerIp(peer: string | undefined | null): string | null {
  if (!peer) return null;
  const text = peer.replace(/^ipv[46]:/, '');
  const addr = parseAddress(text) ?? parseAddress(text.replace(/%[^\]]*/, ''));
  return addr ? normalizeIp(addr.ip) : null;
}
