import type { PodInterval } from '../../lib/ledger/types';
import { podIdKey } from '../../lib/refs/pod-ref';

/**
 * meshdx's own intervals plus those only Prometheus knows (pods from before meshdx watched, or
 * while it was down). A pod+IP meshdx recorded itself is never replaced by the coarser metric one.
 */
export function mergeIntervals(
  own: readonly PodInterval[],
  extra: readonly PodInterval[],
): PodInterval[] {
  const key = (i: PodInterval) => `${podIdKey(i)}|${i.ip}`;
  const known = new Set(own.map(key));
  return [...own, ...extra.filter((i) => !known.has(key(i)))];
}
