/** A finding's evidence value as the API carries it. */
export type EvidenceValue = string | number | boolean | null;

export interface EvidencePairs {
  /** `[key, value text]` in the evidence's own order, at most `limit` of them. */
  shown: [string, string][];
  /** Pairs left out by the limit. */
  more: number;
}

/**
 * The pairs a finding's evidence line shows, one rule for every view that lists findings: a
 * value the analysis could not learn (null) reads "unknown", never "null" or a blank; an empty
 * string says nothing and is left out; `limit` keeps the first few and counts the rest.
 */
export function evidencePairs(
  evidence: Readonly<Record<string, EvidenceValue>>,
  limit = Infinity,
): EvidencePairs {
  const all: [string, string][] = [];
  for (const [k, v] of Object.entries(evidence)) {
    if (v === '') continue;
    all.push([k, v === null ? 'unknown' : String(v)]);
  }
  return { shown: all.slice(0, limit), more: Math.max(0, all.length - limit) };
}
