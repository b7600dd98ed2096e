import type { ScrapeOutcome } from './types';

/** The oldest and newest sample times (ISO text) of the proxies read; null when none was read. */
export function sampleRange(outcomes: readonly (ScrapeOutcome | null)[]): {
  oldestSampleAt: string | null;
  newestSampleAt: string | null;
} {
  let lo: string | null = null;
  let hi: string | null = null;
  for (const o of outcomes) {
    const at = o?.ok ? (o.sampledAt ?? null) : null;
    if (at === null) continue;
    if (lo === null || at < lo) lo = at;
    if (hi === null || at > hi) hi = at;
  }
  return { oldestSampleAt: lo, newestSampleAt: hi };
}
