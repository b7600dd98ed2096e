/**
 * How much a pod's verdicts hurt, for ordering the fleet: a race that broke the app's start
 * (race-restart, or a race where the app restarted anyway) comes before shutdown problems,
 * which come before a race the app survived (the usual classic-sidecar race: benign this time),
 * then what cannot be judged, then the fine ones. Lower rank = worse.
 */
import { TIMELINE_CATALOG } from './codes';
import type { Verdict } from './types';
import { VERDICTS } from './verdicts';
import type { Severity } from '../findings/types';

export interface HarmInput {
  verdicts: readonly Verdict[];
  /** App container restarts (not the proxy's). */
  restarts: number;
}

export function harmRank(r: HarmInput): number {
  let best = 9;
  for (const v of r.verdicts) {
    const rank = v === 'race' && r.restarts > 0 ? 1 : VERDICTS[v].rank;
    if (rank < best) best = rank;
  }
  return best;
}

const ORDER: Severity[] = ['error', 'warning', 'info'];

/** The worst catalog severity of the verdicts; a race whose app restarted counts as an error. */
export function worstSeverity(r: HarmInput): Severity {
  let worst = ORDER.length - 1;
  for (const v of r.verdicts) {
    const s = v === 'race' && r.restarts > 0 ? 'error' : TIMELINE_CATALOG[v].severity;
    worst = Math.min(worst, Math.max(0, ORDER.indexOf(s)));
  }
  return r.verdicts.length ? (ORDER[worst] as Severity) : 'info';
}
