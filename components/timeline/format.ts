/** Display helpers of the Timelines view; the verdicts come from lib/timeline/verdicts.ts. */
import { VERDICT_NAMES, VERDICTS, isVerdict, type Tone } from '../../lib/timeline/verdicts';

export type { Tone };

/** Worst first: a race that broke the app's start, shutdown problems, then a race the app survived. */
export const VERDICT_ORDER = VERDICT_NAMES;

export const VERDICT_TONE: Record<string, Tone> = Object.fromEntries(
  VERDICT_NAMES.map((v) => [v, VERDICTS[v].tone]),
);

export const VERDICT_HELP: Record<string, string> = Object.fromEntries(
  VERDICT_NAMES.map((v) => [v, VERDICTS[v].help]),
);

export { isVerdict };

/** Signed seconds, e.g. "-3.0s" (raced) or "+1.2s". */
export function gapText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  return `${ms >= 0 ? '+' : '−'}${(Math.abs(ms) / 1000).toFixed(1)}s`;
}

export function worstTone(verdicts: readonly string[]): Tone {
  const tones = verdicts.map((v) => VERDICT_TONE[v] ?? 'neutral');
  for (const t of ['bad', 'warn', 'good'] as const) if (tones.includes(t)) return t;
  return 'neutral';
}

/** The Stat tile tone of a verdict. */
export function statTone(verdict: string): 'neutral' | 'good' | 'warn' | 'bad' {
  const t = VERDICT_TONE[verdict] ?? 'neutral';
  return t === 'info' ? 'neutral' : t;
}
