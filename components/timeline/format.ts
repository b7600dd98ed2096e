/** Display helpers of the Timelines view. */
export type Tone = 'neutral' | 'good' | 'warn' | 'bad' | 'info';

/** Worst first: a race that broke the app's start, shutdown problems, then a race the app survived. */
export const VERDICT_ORDER = [
  'race-restart',
  'native-not-ready',
  'native-stuck-terminating',
  'grace-exceeded',
  'drain-too-short',
  'race',
  'unknown',
  'classic-ok',
  'held-ok',
  'native-ok',
  'native-unobserved',
  'hold-redundant',
] as const;

export const VERDICT_TONE: Record<string, Tone> = {
  race: 'warn',
  'race-restart': 'bad',
  'drain-too-short': 'warn',
  'grace-exceeded': 'warn',
  unknown: 'neutral',
  'classic-ok': 'good',
  'held-ok': 'good',
  'native-ok': 'good',
  'native-unobserved': 'info',
  'native-not-ready': 'bad',
  'native-stuck-terminating': 'bad',
  'hold-redundant': 'info',
};

export const VERDICT_HELP: Record<string, string> = {
  race: 'the app started before its proxy was ready (it survived this time)',
  'race-restart': 'the app raced the proxy and crashed or restarted',
  'drain-too-short': 'the proxy stops draining before the app has finished',
  'grace-exceeded': 'shutdown needs longer than the grace period',
  unknown: 'not enough data to judge',
  'classic-ok': 'classic sidecar, but the app started after the proxy was ready',
  'held-ok': 'the app is held until the proxy is ready',
  'native-ok': 'native sidecar: started before and stopped after the app',
  'native-unobserved': 'native sidecar from the spec; the status does not show the start order',
  'native-not-ready': 'the native proxy never got ready: the kubelet holds the app back',
  'native-stuck-terminating':
    'past its deletion deadline, the native proxy still runs (istio#51883)',
  'hold-redundant': 'holdApplicationUntilProxyStarts does nothing for a native sidecar',
};

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
