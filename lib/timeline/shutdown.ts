/**
 * Shutdown verdicts. Classic (and hold/wrapper) sidecars get SIGTERM together with the app:
 * the proxy drains for terminationDrainDuration (default 5s) and exits, unless
 * EXIT_ON_ZERO_ACTIVE_CONNECTIONS (env on istio-proxy, or proxyMetadata in the annotation or
 * mesh config) makes it wait for connections to close. A preStop hook on istio-proxy itself
 * delays its SIGTERM, so the proxy serves for that hook plus the drain. A native sidecar is
 * stopped after the apps, so only the grace period can cut it short.
 */
import type { Pod } from '../kube/types';
import type { FindingFix } from '../findings/types';
import { appContainers, preStopSeconds } from './containers';
import { codeOf } from './codes';
import { drainFix, exitOnZeroFix, graceFix, nativeFix, type ToYaml } from './fix';
import type { ModeResult } from './mode';
import { DEFAULT_DRAIN_MS, DEFAULT_GRACE_S, DEFAULT_MIN_DRAIN_MS } from './proxyconfig';
import { containerStatus } from './status';
import { SKEW_TOLERANCE_MS, toMs } from './time';
import type { VerdictResult, Workload } from './types';
import type { TerminationFailures } from '../incidents/pod-failures';

/** Time an app is assumed to need after SIGTERM to finish in-flight work, on top of preStop. */
export const APP_SHUTDOWN_MARGIN_MS = 5000;

function finishedMs(pod: Pod, name: string): { ms: number | null; exitCode: number | null } {
  const t = containerStatus(pod, name)?.state?.terminated;
  return { ms: toMs(t?.finishedAt), exitCode: t?.exitCode ?? null };
}

/** Evidence of the failing requests recorded against the termination (absent: not measured). */
function failureEvidence(f: TerminationFailures | null): VerdictResult['evidence'] {
  if (f === null) return {};
  return {
    failedRequests: f.count,
    failedToTerminating: f.toTerminating,
    failedToGone: f.toGone,
    lastFailureAfterDeletionMs: f.lastAfterDeletionMs,
  };
}

export function judgeShutdown(
  pod: Pod,
  mode: ModeResult,
  workload: Workload,
  toYaml?: ToYaml,
  /** The failing requests recorded against the pod's termination; null: not measured here. */
  failures: TerminationFailures | null = null,
): VerdictResult[] {
  if (mode.mode === 'none' || mode.mode === 'ambient' || mode.mode === 'gateway' || !mode.proxy)
    return [];
  const proxy = mode.proxy.container;
  const graceS = pod.spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_S;
  const drainMs = mode.settings.drainMs ?? DEFAULT_DRAIN_MS;
  const exitOnZero = mode.settings.exitOnZero === true;
  const minDrainMs = mode.settings.minDrainMs ?? DEFAULT_MIN_DRAIN_MS;
  // The proxy's own preStop runs before its SIGTERM: it keeps serving during the hook.
  const proxyPreStopS = proxy.lifecycle?.preStop ? preStopSeconds(proxy) : 0;
  const proxyHoldMs = (proxyPreStopS ?? 0) * 1000;
  const apps = appContainers(pod);
  const preStops = apps.map((c) => ({ name: c.name, s: preStopSeconds(c) }));
  const maxPreStop = preStops.reduce<number | null>(
    (m, p) => (p.s === null ? m : Math.max(m ?? 0, p.s)),
    null,
  );
  const deleting = pod.metadata.deletionTimestamp !== undefined;
  const evidence: VerdictResult['evidence'] = {
    mode: mode.mode,
    terminationDrainDurationMs: drainMs,
    drainSource: mode.drainSource,
    terminationGracePeriodSeconds: graceS,
    appPreStopSeconds: maxPreStop,
    exitOnZeroActiveConnections: exitOnZero,
    proxyPreStopSeconds: proxyPreStopS,
  };
  if (proxyPreStopS === null) {
    evidence.proxyPreStop = 'istio-proxy has a preStop hook of unknown length: not counted';
  }
  const out: VerdictResult[] = [];
  const native = mode.mode === 'native';

  // drain-too-short: observed (app finished after the proxy) or configured (drain < preStop).
  if (!native) {
    const proxyEnd = finishedMs(pod, proxy.name).ms;
    const lateApp = apps
      .map((c) => ({ name: c.name, end: finishedMs(pod, c.name).ms }))
      .find(
        (a) =>
          deleting && proxyEnd !== null && a.end !== null && a.end - proxyEnd > SKEW_TOLERANCE_MS,
      );
    const needMs = maxPreStop === null ? null : maxPreStop * 1000 + APP_SHUTDOWN_MARGIN_MS;
    const configured =
      !exitOnZero && maxPreStop !== null && proxyHoldMs + drainMs < maxPreStop * 1000;
    // requests failed on the pod while it terminated or after it went: the proxy stopped
    // serving before its clients had dropped the endpoint
    const failed = failures !== null && failures.count > 0;
    if (lateApp || configured || failed) {
      const clientsMs =
        failed && failures.lastAfterDeletionMs !== null
          ? Math.ceil((failures.lastAfterDeletionMs + 1000) / 1000) * 1000 - proxyHoldMs
          : failed
            ? drainMs + 1000
            : 0;
      const target = Math.max(
        (needMs ?? 0) - proxyHoldMs,
        lateApp && proxyEnd !== null ? (lateApp.end as number) - proxyEnd + drainMs : 0,
        clientsMs,
      );
      const neededGrace = Math.ceil(target / 1000) + 5;
      const fixes: FindingFix[] = [
        drainFix(pod, workload, target, graceS, toYaml),
        ...(exitOnZero ? [] : [exitOnZeroFix(pod, workload, toYaml)]),
        nativeFix(workload, toYaml),
      ];
      out.push({
        verdict: 'drain-too-short',
        code: codeOf('drain-too-short'),
        phase: 'shutdown',
        confidence: lateApp || failed ? 'high' : 'medium',
        evidence: lateApp
          ? {
              ...evidence,
              observed: true,
              appContainer: lateApp.name,
              appFinishedAfterProxyMs: (lateApp.end as number) - (proxyEnd as number),
              ...failureEvidence(failures),
            }
          : {
              ...evidence,
              observed: failed,
              ...(failed && !configured ? { basis: 'failed-requests' } : {}),
              ...failureEvidence(failures),
            },
        fixes,
        needs: {
          proxyConfig: { terminationDrainDuration: `${Math.ceil(target / 1000)}s` },
          graceSeconds: neededGrace > graceS ? neededGrace : null,
        },
      });
    }
  }

  // grace-exceeded: killed after deletion, or preStop (+ native drain) does not fit.
  const killed = [...apps.map((c) => c.name), proxy.name].find(
    (n) => deleting && finishedMs(pod, n).exitCode === 137,
  );
  const appNeedMs = maxPreStop === null ? 0 : maxPreStop * 1000;
  const proxyMs = proxyHoldMs + (exitOnZero ? minDrainMs : drainMs);
  const totalMs = native ? appNeedMs + proxyMs : Math.max(appNeedMs, proxyMs);
  const graceMs = graceS * 1000;
  const configured = (maxPreStop !== null && appNeedMs >= graceMs) || totalMs > graceMs;
  if (killed || configured) {
    const neededS = Math.ceil((totalMs + APP_SHUTDOWN_MARGIN_MS) / 1000);
    out.push({
      verdict: 'grace-exceeded',
      code: codeOf('grace-exceeded'),
      phase: 'shutdown',
      confidence: killed ? 'high' : 'medium',
      evidence: {
        ...evidence,
        killedContainer: killed ?? null,
        neededSeconds: neededS,
        ...failureEvidence(failures),
      },
      fixes: [graceFix(workload, Math.max(neededS, graceS + 1), toYaml)],
      needs: { proxyConfig: {}, graceSeconds: Math.max(neededS, graceS + 1) },
    });
  }
  return out;
}
