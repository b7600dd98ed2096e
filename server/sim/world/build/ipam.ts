import type { SimNode } from './nodes';

/**
 * Pod IP allocation per node, like host-local IPAM: addresses are handed out in order from the
 * node's range and released ones are only reused after the range is exhausted, unless a caller
 * asks for a specific released address (to stage IP reuse). No two live pods share an address.
 */
export interface Ipam {
  allocate(node: SimNode, want?: string): string;
  release(ip: string): void;
  isLive(ip: string): boolean;
  liveCount(): number;
}

const PER_NODE = 250 * 250;

function ipOf(node: SimNode, n: number): string {
  // n in [0, PER_NODE): third octet 0..249, fourth 2..251 (skip network/gateway and the top).
  return `10.${node.podNet}.${Math.floor(n / 250)}.${(n % 250) + 2}`;
}

export function createIpam(): Ipam {
  const live = new Set<string>();
  const next = new Map<string, number>();
  return {
    allocate(node, want) {
      if (want !== undefined && !live.has(want)) {
        live.add(want);
        return want;
      }
      let n = next.get(node.name) ?? 0;
      for (let tries = 0; tries < PER_NODE; tries++) {
        const ip = ipOf(node, n % PER_NODE);
        n += 1;
        if (!live.has(ip)) {
          next.set(node.name, n);
          live.add(ip);
          return ip;
        }
      }
      throw new Error(`pod range of ${node.name} exhausted`);
    },
    release(ip) {
      live.delete(ip);
    },
    isLive: (ip) => live.has(ip),
    liveCount: () => live.size,
  };
}
