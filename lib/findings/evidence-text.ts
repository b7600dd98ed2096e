import type { EvidenceValue } from './types';

export interface EvidencePairs {
  /** `[key, value text]` in the evidence's own order, at most `limit` of them. */
  shown: [string, string][];
  /** Pairs left out by the limit. */
  more: number;
}

/**
 * The pairs a finding's evidence line shows, one rule for every view that lists findings: a
 * null or empty value is left out (null means "none" for some keys, such as a probe's
 * decodeError, and "not known" for others, so no one word fits both); `limit` keeps the first
 * few and counts the rest.
 */
export function evidencePairs(
  evidence: Readonly<Record<string, EvidenceValue>>,
  limit = Infinity,
): EvidencePairs {
  const all: [string, string][] = [];
  for (const [k, v] of Object.entries(evidence)) {
    if (v === '' || v === null) continue;
    all.push([k, String(v)]);
  }
  return { shown: all.slice(0, limit), more: Math.max(0, all.length - limit) };
}
