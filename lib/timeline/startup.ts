/** The startup verdict of a pod: race, race-restart, held-ok, native-ok, classic-ok or unknown. */
import type { Pod } from '../kube/types';
import { assessApp, type Assessment } from './assess';
import { codeOf } from './codes';
import { holdFix, meshHoldFix, nativeFix, restartFix, type ToYaml } from './fix';
import type { ModeResult } from './mode';
import { minConfidence, toIso } from './time';
import type {
  AppStart,
  Confidence,
  ProxyReadyEstimate,
  Verdict,
  VerdictResult,
  Workload,
} from './types';
import type { FindingFix } from '../findings/types';

export interface StartupInput {
  pod: Pod;
  mode: ModeResult;
  ready: ProxyReadyEstimate;
  apps: AppStart[];
  workload: Workload;
  /** How fix bodies are written as YAML (a memo over a fleet's analysis). */
  toYaml?: ToYaml;
}

const REINJECT =
  'hold is applied at injection: pods created before the setting keep the racing order until they are recreated';

function raceFixes(input: StartupInput): FindingFix[] {
  const { pod, mode, workload, toYaml } = input;
  // holdApplicationUntilProxyStarts is already on but this pod was injected without it.
  const configured = mode.settings.hold === true && !mode.holdVisible;
  if (mode.mode === 'classic') {
    return configured
      ? [restartFix(workload, REINJECT), nativeFix(workload, toYaml)]
      : [holdFix(pod, workload, toYaml), nativeFix(workload, toYaml), meshHoldFix()];
  }
  if (mode.mode === 'hold') {
    return configured
      ? [restartFix(workload, REINJECT), nativeFix(workload, toYaml)]
      : [nativeFix(workload, toYaml)];
  }
  if (mode.mode === 'wrapper') return [holdFix(pod, workload, toYaml), nativeFix(workload, toYaml)];
  return [];
}

function okVerdict(mode: ModeResult['mode']): Verdict {
  if (mode === 'native') return 'native-ok';
  if (mode === 'hold' || mode === 'wrapper') return 'held-ok';
  return 'classic-ok';
}

const HOLD_NEEDS = { proxyConfig: { holdApplicationUntilProxyStarts: true }, graceSeconds: null };

function result(
  verdict: Verdict,
  confidence: Confidence,
  evidence: VerdictResult['evidence'],
  fixes: FindingFix[],
  input?: StartupInput,
): VerdictResult {
  const out: VerdictResult = {
    verdict,
    code: codeOf(verdict),
    phase: 'startup',
    confidence,
    evidence,
    fixes,
  };
  // the hold annotation first: what it sets is merged with the pod's other fixes
  if (input && fixes[0] !== undefined && holdFirst(input)) out.needs = HOLD_NEEDS;
  return out;
}

function holdFirst(input: StartupInput): boolean {
  const { mode } = input;
  const configured = mode.settings.hold === true && !mode.holdVisible;
  return (mode.mode === 'classic' && !configured) || mode.mode === 'wrapper';
}

export function judgeStartup(input: StartupInput): VerdictResult | null {
  const { mode, ready, apps } = input;
  if (mode.mode === 'none' || mode.mode === 'ambient' || mode.mode === 'gateway') return null;
  const base: VerdictResult['evidence'] = {
    mode: mode.mode,
    proxyReadySource: ready.source,
    proxyReadyAt: toIso(ready.at),
    proxyReadyConfidence: ready.confidence,
    proxyReadyClock: ready.clock,
  };
  if (mode.holdIgnored) base.holdIgnored = mode.holdIgnored;
  if (apps.length === 0) {
    return result('unknown', 'low', { ...base, reason: 'no app containers' }, []);
  }
  const rows = apps.map((app) => ({ app, a: assessApp(app, ready) }));
  const evidenceOf = (app: AppStart, a: Assessment): VerdictResult['evidence'] => ({
    ...base,
    container: app.container,
    appStartedAt: toIso(app.startedAt),
    appStartSource: app.source,
    gapMs: a.gapMs,
    restarts: app.restarts,
    exitCode: app.exitCode,
    reason: a.reason,
    ...(a.basis ? { raceBasis: a.basis } : {}),
  });
  const raced = rows.filter((r) => r.a.state === 'raced');
  const unguarded = raced.filter((r) => !r.app.guarded);
  if (unguarded.length > 0) {
    const failed = unguarded.find((r) => r.app.earlyFailure);
    const worst =
      failed ?? unguarded.reduce((x, y) => ((y.a.gapMs ?? 0) < (x.a.gapMs ?? 0) ? y : x));
    return result(
      failed ? 'race-restart' : 'race',
      worst.a.confidence,
      evidenceOf(worst.app, worst.a),
      raceFixes(input),
      input,
    );
  }
  const unknown = rows.filter((r) => r.a.state === 'unknown');
  // A guarded app that started before the proxy was ready is held by its command (the spec),
  // not by anything the timestamps show: no better than medium.
  const conf = rows.reduce<Confidence>(
    (c, r) => minConfidence(c, r.a.state === 'raced' ? 'medium' : r.a.confidence),
    'high',
  );
  const first = rows.reduce((x, y) =>
    (y.app.startedAt ?? Infinity) < (x.app.startedAt ?? Infinity) ? y : x,
  );
  if (unknown.length === 0) {
    const v = okVerdict(mode.mode);
    return result(
      v,
      conf,
      evidenceOf(first.app, first.a),
      v === 'classic-ok' ? raceFixes(input) : [],
      input,
    );
  }
  // Structure alone guarantees the order for native sidecars and a visible postStart hold.
  const structural = mode.mode === 'native' || mode.mode === 'wrapper' || mode.holdVisible;
  const u = unknown[0] as (typeof unknown)[number];
  if (!input.pod.status?.containerStatuses?.length) {
    u.a.reason = 'pod has no container statuses (spec only): start order not visible';
  }
  if (structural) {
    // native-ok is claimed only when the status shows the order; from the spec alone a native
    // sidecar is "native, not observed"
    return result(
      mode.mode === 'native' ? 'native-unobserved' : okVerdict(mode.mode),
      'medium',
      { ...evidenceOf(u.app, u.a), judgedFrom: 'spec' },
      [],
    );
  }
  return result('unknown', 'low', evidenceOf(u.app, u.a), raceFixes(input), input);
}
