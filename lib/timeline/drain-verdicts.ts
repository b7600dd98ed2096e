/**
 * Verdicts on the drain order at deletion (drain-order.ts) where no classic drain verdict
 * applies: a native istio-proxy that began draining at the deletion while an app still served
 * (istio#60649; its outbound requests then carry `connection: close`, istio#51855), and an
 * ambient pod whose requests failed after its termination started (the pod went before every
 * ztunnel had removed the workload, istio#58514). Each is raised only on what the pod's own
 * shutdown shows: a deletion that happened, and an overlap or failures that were recorded.
 */
import type { Pod } from '../kube/types';
import type { FindingFix } from '../findings/types';
import { codeOf } from './codes';
import { appContainers } from './containers';
import type { DrainOrder } from './drain-order';
import type { ToYaml } from './fix';
import { preStopSleepFix } from './fix-prestop';
import { DEFAULT_GRACE_S } from './proxyconfig';
import { SKEW_TOLERANCE_MS } from './time';
import type { VerdictResult, Workload } from './types';
import { workloadText } from '../refs/workload-ref';

/** Seconds a preStop sleep keeps serving beyond the last failure seen after the deletion. */
export const PRESTOP_OVER_LAST_FAILURE_S = 2;

function failureEvidence(o: DrainOrder): VerdictResult['evidence'] {
  const f = o.failures;
  return f === null
    ? { failedRequests: null }
    : {
        failedRequests: f.count,
        failedToTerminating: f.toTerminating,
        failedToGone: f.toGone,
        lastFailureAfterDeletionMs: f.lastAfterDeletionMs,
      };
}

function nativeVerdict(o: DrainOrder, w: Workload): VerdictResult | null {
  if (o.drainStart !== 'native-prestop') return null;
  const deleted = o.steps.find((s) => s.what === 'deletion')?.at != null;
  if (!deleted) return null;
  const overlap = o.drainWhileAppServesMs;
  const failed = (o.failures?.toTerminating ?? 0) > 0;
  const served = overlap !== null && overlap > SKEW_TOLERANCE_MS;
  if (!failed && !served) return null;
  const fix: FindingFix = {
    why: "the drain starts with the preStop that Istio's injector gives a native istio-proxy: an injection template without it (the workaround in istio#51855) lets the proxy drain only once the kubelet stops it after the apps; the nativeSidecar annotation to 'false' instead brings back the classic start race",
    yaml:
      `# kubectl -n istio-system edit configmap istio-sidecar-injector (or the revision's)\n` +
      `# in the native istio-proxy of the template, remove:\n` +
      `#   lifecycle:\n#     preStop:\n#       exec:\n#         command: [pilot-agent, request, --debug-port=15020, POST, drain]\n` +
      `# then restart ${workloadText(w)} so that its pods are injected anew\n`,
  };
  return {
    verdict: 'native-drain-at-deletion',
    code: codeOf('native-drain-at-deletion'),
    phase: 'shutdown',
    confidence: failed ? 'high' : 'medium',
    evidence: {
      mode: 'native',
      drainStart: 'at the deletion (istio-proxy preStop: pilot-agent request POST drain)',
      drainWhileAppServesMs: overlap,
      appPreStopSeconds: o.appPreStopSeconds,
      exitOnZeroActiveConnections: o.exitOnZero,
      outboundConnectionClose:
        'a draining native istio-proxy adds connection: close to the apps outbound requests (istio#51855); meshdx does not see the headers',
      harm: failed ? 'failing requests recorded while the pod terminated' : 'exposure only',
      ...failureEvidence(o),
      issue: 'istio#60649',
      versions:
        'native sidecars are the default for eligible pods from Istio 1.27; any version whose injector adds this preStop (the pod spec shows it)',
    },
    fixes: [fix],
  };
}

function ambientVerdict(
  pod: Pod,
  o: DrainOrder,
  w: Workload,
  toYaml?: ToYaml,
): VerdictResult | null {
  if (o.drainStart !== 'ztunnel') return null;
  const f = o.failures;
  if (f === null || f.count === 0) return null;
  const graceS = pod.spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_S;
  const evidence: VerdictResult['evidence'] = {
    mode: 'ambient',
    ...failureEvidence(o),
    appPreStopSeconds: o.appPreStopSeconds,
    terminationGracePeriodSeconds: graceS,
    issue: 'istio#58514',
    versions: 'reported on Istio 1.30.1 and open: no release is known to fix it',
  };
  const base: VerdictResult = {
    verdict: 'ambient-gone-before-ztunnel',
    code: codeOf('ambient-gone-before-ztunnel'),
    phase: 'shutdown',
    confidence: 'high',
    evidence,
    fixes: [],
  };
  if (f.lastAfterDeletionMs === null) {
    evidence.fixBasis = 'no failure says how long after the deletion it came: no sleep length';
    return base;
  }
  const sleepS = Math.ceil(f.lastAfterDeletionMs / 1000) + PRESTOP_OVER_LAST_FAILURE_S;
  // a preStop of another kind (exec, httpGet) cannot take a sleep beside it: only free apps
  const free = appContainers(pod).filter(
    (c) => !c.lifecycle?.preStop || c.lifecycle.preStop.sleep !== undefined,
  );
  const sleeps = Object.fromEntries(
    free
      .filter((c) => (c.lifecycle?.preStop?.sleep?.seconds ?? 0) < sleepS)
      .map((c) => [c.name, sleepS]),
  );
  if (Object.keys(sleeps).length === 0) {
    evidence.fixBasis = 'every app has a preStop of its own kind or one already as long';
    return base;
  }
  // the grace period counts from the deletion: the sleep comes on top of the app's own time
  const needs = { proxyConfig: {}, graceSeconds: graceS + sleepS, preStopSleepSeconds: sleeps };
  return {
    ...base,
    fixes: [preStopSleepFix(pod, w, needs, toYaml)],
    needs,
  };
}

/** The drain-order verdicts of one pod. */
export function judgeDrainOrder(
  pod: Pod,
  order: DrainOrder | null,
  w: Workload,
  toYaml?: ToYaml,
): VerdictResult[] {
  if (order === null) return [];
  return [nativeVerdict(order, w), ambientVerdict(pod, order, w, toYaml)].filter(
    (v): v is VerdictResult => v !== null,
  );
}
