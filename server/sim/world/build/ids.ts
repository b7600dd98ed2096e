/** Deterministic identifiers drawn from the scenario's seeded random source. */
import { createHash } from 'node:crypto';

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

export function createIds(random: () => number, uidSalt = ''): Ids {
  const pick = (alphabet: string, n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)] ?? '';
    return s;
  };
  const uuid = (): string => {
    // the seed's digits are drawn either way, so names and everything after stay as seeded
    const seeded = pick(HEX, 32);
    const h = uidSalt
      ? createHash('sha256').update(uidSalt).update(seeded).digest('hex').slice(0, 32)
      : seeded;
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

// the seeded sources live in lib/ (tests of pure code draw from them too)
export { mulberry32, seededRandom } from '../../../../lib/random';
