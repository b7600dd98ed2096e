/**
 * The startup/shutdown verdicts, defined once: their display order (worst first), how much
 * each hurts (the fleet's harm rank), the tone and the one-line help the UI shows. The type,
 * the API schema (lib/api/timelines.ts), the harm ranking and the Timelines UI all derive from
 * this table, so a new verdict is one entry here (and its catalog code in codes.ts).
 */

/** Display tone of a verdict. */
export type Tone = 'neutral' | 'good' | 'warn' | 'bad' | 'info';

interface VerdictInfo {
  /** Lower is worse (a race that broke the app's start is 0). */
  rank: number;
  tone: Tone;
  help: string;
}

/** Worst first: the order of this table is the order the UI lists verdicts in. */
export const VERDICTS = {
  'race-restart': {
    rank: 0,
    tone: 'bad',
    help: 'the app raced the proxy and crashed or restarted',
  },
  'native-not-ready': {
    rank: 0,
    tone: 'bad',
    help: 'the native proxy never got ready: the kubelet holds the app back',
  },
  'init-failed': {
    rank: 1,
    tone: 'bad',
    help: 'an init container failed: the pod cannot start',
  },
  'native-stuck-terminating': {
    rank: 2,
    tone: 'bad',
    help: 'past its deletion deadline, the native proxy still runs (istio#51883)',
  },
  'grace-exceeded': {
    rank: 2,
    tone: 'warn',
    help: 'shutdown needs longer than the grace period',
  },
  'drain-too-short': {
    rank: 3,
    tone: 'warn',
    help: 'the proxy stops draining before the app has finished',
  },
  'ambient-gone-before-ztunnel': {
    rank: 2,
    tone: 'warn',
    help: 'requests failed after the ambient pod terminated: a ztunnel still sent to it (istio#58514)',
  },
  'native-drain-at-deletion': {
    rank: 3,
    tone: 'warn',
    help: 'the native proxy began draining at the deletion while the app still served (istio#60649)',
  },
  'app-crash': {
    rank: 3,
    tone: 'warn',
    help: 'the app alone crashed after its start: not a race with the proxy',
  },
  'pod-restart': {
    rank: 3,
    tone: 'warn',
    help: 'app and proxy restarted together (node restart, OOM, new sandbox, eviction): not a race',
  },
  race: {
    rank: 4,
    tone: 'warn',
    help: 'the app started before its proxy was ready (it survived this time)',
  },
  'exit-at-shutdown': {
    rank: 5,
    tone: 'info',
    help: 'the app exited non-zero at shutdown (a signal after the deletion): not a race',
  },
  unknown: { rank: 5, tone: 'neutral', help: 'not enough data to judge' },
  'classic-ok': {
    rank: 6,
    tone: 'good',
    help: 'classic sidecar, but the app started after the proxy was ready',
  },
  'held-ok': { rank: 7, tone: 'good', help: 'the app is held until the proxy is ready' },
  'native-ok': {
    rank: 8,
    tone: 'good',
    help: 'native sidecar: started before and stopped after the app',
  },
  'native-unobserved': {
    rank: 8,
    tone: 'info',
    help: 'native sidecar from the spec; the status does not show the start order',
  },
  'hold-redundant': {
    rank: 7,
    tone: 'info',
    help: 'holdApplicationUntilProxyStarts does nothing for a native sidecar',
  },
} as const satisfies Record<string, VerdictInfo>;

export type Verdict = keyof typeof VERDICTS;

/** Every verdict, worst first (a tuple, for zod's enum). */
export const VERDICT_NAMES = Object.keys(VERDICTS) as [Verdict, ...Verdict[]];

export function isVerdict(v: string): v is Verdict {
  return Object.hasOwn(VERDICTS, v);
}
