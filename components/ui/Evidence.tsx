import { evidencePairs } from '../../lib/findings/evidence-text';
import type { EvidenceValue } from '../../lib/findings/types';

/**
 * A finding's evidence as `key=value` pairs that wrap between pairs (a long value breaks); with
 * `limit`, the first few and how many more there are.
 */
export function Evidence({
  evidence,
  limit,
  className = 'text-xs text-slate-500',
}: {
  evidence: Readonly<Record<string, EvidenceValue>>;
  limit?: number;
  className?: string;
}) {
  const { shown, more } = evidencePairs(evidence, limit);
  if (shown.length === 0) return null;
  return (
    <span className={`inline-flex flex-wrap gap-x-3 ${className}`} data-testid="evidence">
      {shown.map(([k, v]) => (
        <span key={k} className="min-w-0 break-words">
          {k}=<span className="font-mono">{v}</span>
        </span>
      ))}
      {more > 0 && <span>+{more} more</span>}
    </span>
  );
}
