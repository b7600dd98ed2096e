/** Deterministic identifiers drawn from the scenario's seeded random source. */

/** The alphabet Kubernetes uses for generated name suffixes and pod-template-hash (no vowels). */
const SAFE = 'bcdfghjklmnpqrstvwxz2456789';
const HEX = '0123456789abcdef';

export interface Ids {
  uid(): string;
  /** A pod-template-hash (10 chars, Deployment style). */
  templateHash(): string;
  /** A generated-name suffix (5 chars). */
  suffix(): string;
  /** A request id (x-request-id, UUID v4 shaped). */
  requestId(): string;
  /** A container id as the runtime reports it. */
  containerId(): string;
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  random: () => number;
}

export function createIds(random: () => number): Ids {
  const pick = (alphabet: string, n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)] ?? '';
    return s;
  };
  const uuid = (): string => {
    const h = pick(HEX, 32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
  };
  return {
    uid: uuid,
    templateHash: () => pick(SAFE, 10),
    suffix: () => pick(SAFE, 5),
    requestId: uuid,
    containerId: () => `containerd://${pick(HEX, 64)}`,
    int: (lo, hi) => lo + Math.floor(random() * (hi - lo + 1)),
    random,
  };
}

/** mulberry32: a small, fast, deterministic random source from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** mulberry32 seeded by a string (FNV-1a): the deterministic source scenarios use by default. */
export function seededRandom(seed: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mulberry32(h);
}
