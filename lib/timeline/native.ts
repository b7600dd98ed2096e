/**
 * The native sidecar's own verdicts: what the kubelet's ordering promises, and how it fails.
 *
 * Field notes (Kubernetes KEP-753, istio/istio injection template, istio#51883):
 * - A native sidecar is an init container with `restartPolicy: Always`; the kubelet starts the
 *   next init container / the app containers only once it is *started*, which for istio-proxy
 *   means its startupProbe (`/healthz/ready` on 15021) passed: the proxy is ready before the app.
 *   A proxy that never passes it keeps every app container waiting (PodInitializing) for as
 *   long as the probe allows, then restarts: the app is blocked, not racing.
 * - At deletion the kubelet stops app containers first and sidecars after them. A native
 *   istio-proxy that does not exit keeps the pod in Terminating past its deadline (istio#51883):
 *   shown only when meshdx saw the pod alive after `deletionTimestamp` with its apps gone and the
 *   proxy still running.
 * - holdApplicationUntilProxyStarts adds a postStart `pilot-agent wait` only to a classic
 *   sidecar; for a native one the start order already holds it, the setting does nothing.
 */
import type { Pod } from '../kube/types';
import { codeOf } from './codes';
import { containerStatus } from './status';
import type { ModeResult } from './mode';
import type { AppStart, Transition, VerdictResult } from './types';

const SLACK_MS = 5_000;

function ms(s: string | undefined | null): number | null {
  const v = s ? Date.parse(s) : NaN;
  return Number.isNaN(v) ? null : v;
}

/** The proxy never got ready and no app container has ever run: the kubelet is holding them. */
export function nativeBlocked(
  pod: Pod,
  mode: ModeResult,
  apps: readonly AppStart[],
): VerdictResult | null {
  if (mode.mode !== 'native' || !mode.proxy || pod.metadata.deletionTimestamp) return null;
  const st = mode.proxy.status;
  // `started` turns true when the startupProbe passes (for istio-proxy that is /healthz/ready):
  // not ready while no app ever ran means the proxy is what the apps wait for
  if (!st || st.ready) return null;
  const appRan = apps.some((a) => a.startedAt !== null);
  if (appRan || apps.length === 0) return null;
  const waiting = apps
    .map((a) => containerStatus(pod, a.container)?.state?.waiting?.reason)
    .find((r) => r !== undefined);
  return {
    verdict: 'native-not-ready',
    code: codeOf('native-not-ready'),
    phase: 'startup',
    confidence: st.restartCount > 0 || st.started === false ? 'high' : 'medium',
    evidence: {
      mode: 'native',
      proxyStarted: st.started ?? null,
      proxyReady: st.ready,
      proxyRestarts: st.restartCount,
      proxyStartedAt: st.state?.running?.startedAt ?? null,
      proxyWaiting: st.state?.waiting?.reason ?? null,
      appsWaiting: waiting ?? 'no app container status',
    },
    fixes: [
      {
        why: 'find why istio-proxy does not get ready: its log (xDS, certificates) and istiod reachability; the app starts as soon as the startupProbe passes',
        yaml: `kubectl -n ${pod.metadata.namespace ?? 'default'} logs ${pod.metadata.name} -c istio-proxy --tail=50`,
      },
    ],
  };
}

/** Seen alive past the deletion deadline with the apps gone and the native proxy still running. */
export function nativeStuck(
  pod: Pod,
  mode: ModeResult,
  transitions: readonly Transition[],
): VerdictResult | null {
  if (mode.mode !== 'native' || !mode.proxy) return null;
  const deadline = ms(pod.metadata.deletionTimestamp);
  if (deadline === null) return null;
  const proxyRunning = mode.proxy.status?.state?.running !== undefined;
  const apps = (pod.spec?.containers ?? []).map((c) => containerStatus(pod, c.name));
  const appsDone = apps.length > 0 && apps.every((s) => s?.state?.terminated !== undefined);
  if (!proxyRunning || !appsDone) return null;
  const seen = Math.max(
    ...transitions.map((t) => ms(t.time) ?? 0),
    ...apps.map((s) => ms(s?.state?.terminated?.finishedAt) ?? 0),
  );
  if (seen < deadline + SLACK_MS) return null;
  return {
    verdict: 'native-stuck-terminating',
    code: codeOf('native-stuck-terminating'),
    phase: 'shutdown',
    confidence: 'high',
    evidence: {
      mode: 'native',
      deletionDeadline: pod.metadata.deletionTimestamp ?? null,
      lastSeenAt: new Date(seen).toISOString(),
      pastDeadlineMs: seen - deadline,
      proxyRunningSince: mode.proxy.status?.state?.running?.startedAt ?? null,
    },
    fixes: [
      {
        why: 'upgrade Istio past the fix of istio#51883; meanwhile EXIT_ON_ZERO_ACTIVE_CONNECTIONS lets the proxy exit once idle',
        yaml: `spec:\n  template:\n    metadata:\n      annotations:\n        proxy.istio.io/config: |\n          proxyMetadata:\n            EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "true"`,
      },
    ],
  };
}

/** holdApplicationUntilProxyStarts configured for a pod whose native sidecar makes it moot. */
export function holdRedundant(pod: Pod, mode: ModeResult): VerdictResult | null {
  if (mode.mode !== 'native' || mode.settings.hold !== true) return null;
  const fromAnnotation =
    pod.metadata.annotations?.['proxy.istio.io/config']?.includes('hold') ?? false;
  return {
    verdict: 'hold-redundant',
    code: codeOf('hold-redundant'),
    phase: 'startup',
    confidence: 'high',
    evidence: {
      mode: 'native',
      holdFrom: fromAnnotation ? 'annotation proxy.istio.io/config' : 'mesh defaultConfig',
    },
    fixes: fromAnnotation
      ? [
          {
            why: 'drop holdApplicationUntilProxyStarts from the pod template: the native sidecar already orders the start (keep it only while some nodes still get classic sidecars)',
          },
        ]
      : [],
  };
}
