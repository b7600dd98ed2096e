/**
 * The order of a pod's shutdown at deletion: when the deletion started, when the apps got
 * SIGTERM (after their preStop), when the proxy began to drain and how (classic: SIGTERM after
 * its own preStop; native: the kubelet runs the sidecar's preStop at the start of the pod's
 * termination, Kubernetes 1.29+, and Istio's injector gives a native istio-proxy the preStop
 * `pilot-agent request POST drain`, istio#60649; without it the native proxy drains only once
 * the apps have exited; ambient: no sidecar, the node's ztunnel carries the traffic until it
 * removes the workload, istio#58514), whether EXIT_ON_ZERO_ACTIVE_CONNECTIONS holds it, when the
 * containers ended, and the last failing request recorded against the termination. Computed once
 * per pod (analyze.ts) and shown as it is by the pod page.
 */
import type { Container, Pod } from '../kube/types';
import type { TerminationFailures } from '../incidents/pod-failures';
import { appContainers, preStopSeconds } from './containers';
import type { ModeResult } from './mode';
import { DEFAULT_DRAIN_MS } from './proxyconfig';
import { containerStatus } from './status';
import { deletionStartMs } from './instances';
import { toIso, toMs } from './time';
import type { DrainOrder, DrainOrderStep, DrainStart } from './drain-order-types';

export type { DrainOrder, DrainOrderStep, DrainStart } from './drain-order-types';

/** The injector's preStop on a native istio-proxy: pilot-agent asked to drain Envoy. */
export function isDrainPreStop(c: Container): boolean {
  const cmd = (c.lifecycle?.preStop?.exec?.command ?? []).join(' ');
  return /pilot-agent/.test(cmd) && /\bdrain\b/.test(cmd);
}

function ended(pod: Pod, name: string): number | null {
  return toMs(containerStatus(pod, name)?.state?.terminated?.finishedAt);
}

function step(
  what: DrainOrderStep['what'],
  at: number | null,
  deletion: number | null,
  source: string,
  unknown: string,
): DrainOrderStep {
  return {
    what,
    at: toIso(at),
    afterDeletionMs: at !== null && deletion !== null ? at - deletion : null,
    source,
    unknown: at === null ? unknown : null,
  };
}

/** The shutdown order of one pod; null for a pod outside the mesh or a gateway. */
export function drainOrder(
  pod: Pod,
  mode: ModeResult,
  failures: TerminationFailures | null,
): DrainOrder | null {
  if (mode.mode === 'none' || mode.mode === 'gateway') return null;
  const ambient = mode.mode === 'ambient';
  if (!ambient && !mode.proxy) return null;
  // deletionTimestamp is the deadline: the deletion started a grace period before it
  const startedAt = deletionStartMs(pod);
  const noStart = 'the pod has not been deleted';
  const apps = appContainers(pod);
  const preStops = apps.map(preStopSeconds).filter((s): s is number => s !== null);
  const appPreStop = preStops.length ? Math.max(...preStops) : null;
  const sigterm = startedAt === null ? null : startedAt + (appPreStop ?? 0) * 1000;
  const appEnds = apps.map((c) => ended(pod, c.name)).filter((v): v is number => v !== null);
  const appExit = appEnds.length === apps.length && appEnds.length ? Math.max(...appEnds) : null;

  let drainStart: DrainStart;
  let why: string;
  let drainAt: number | null = null;
  let drainSource = '';
  const proxy = mode.proxy?.container;
  if (ambient || !proxy) {
    drainStart = 'ztunnel';
    why =
      "no sidecar: the node's ztunnel carries the pod's traffic until it removes the workload (istio#58514)";
  } else if (mode.mode === 'native' && isDrainPreStop(proxy)) {
    drainStart = 'native-prestop';
    why =
      "istio-proxy is a native sidecar whose preStop asks pilot-agent to drain: the kubelet runs a sidecar's preStop when the pod's termination starts (Kubernetes 1.29+), so it drains while the apps still serve (istio#60649) and adds `connection: close` to their outbound requests (istio#51855)";
    drainAt = startedAt;
    drainSource = 'the deletion start (the preStop runs then)';
  } else if (mode.mode === 'native') {
    drainStart = 'native-after-apps';
    why =
      'istio-proxy is a native sidecar without a drain preStop: the kubelet stops it after the apps';
    drainAt = appExit;
    drainSource = 'the last app exit';
  } else {
    drainStart = 'classic-sigterm';
    const hold = proxy.lifecycle?.preStop ? preStopSeconds(proxy) : 0;
    why =
      hold === null
        ? 'istio-proxy gets SIGTERM with the apps, after its own preStop hook of unknown length'
        : `istio-proxy gets SIGTERM with the apps${hold > 0 ? `, after its own ${hold} s preStop` : ''}`;
    drainAt = startedAt !== null && hold !== null ? startedAt + hold * 1000 : null;
    drainSource = hold ? "the deletion start plus istio-proxy's preStop" : 'the deletion start';
  }
  const drainMs = ambient || !proxy ? null : (mode.settings.drainMs ?? DEFAULT_DRAIN_MS);
  const proxyExit = proxy ? ended(pod, proxy.name) : null;
  const servesUntil = appExit ?? sigterm;
  const overlap =
    drainAt !== null && servesUntil !== null ? Math.max(0, servesUntil - drainAt) : null;
  const lastFailure =
    startedAt !== null && failures?.lastAfterDeletionMs != null
      ? startedAt + failures.lastAfterDeletionMs
      : null;
  const steps: DrainOrderStep[] = [
    step('deletion', startedAt, startedAt, 'deletionTimestamp minus the grace period', noStart),
    step(
      'app-sigterm',
      sigterm,
      startedAt,
      appPreStop
        ? `the deletion start plus the apps' ${appPreStop} s preStop`
        : 'the deletion start',
      noStart,
    ),
    ...(ambient || !proxy
      ? []
      : [
          step(
            'proxy-drain',
            drainAt,
            startedAt,
            drainSource,
            drainStart === 'native-after-apps' ? 'the apps have not all exited' : noStart,
          ),
        ]),
    step(
      'app-exit',
      appExit,
      startedAt,
      "the apps' finishedAt (kubelet)",
      'not every app has exited',
    ),
    ...(proxy
      ? [
          step(
            'proxy-exit',
            proxyExit,
            startedAt,
            "istio-proxy's finishedAt (kubelet)",
            'istio-proxy has not exited',
          ),
        ]
      : []),
    step(
      'last-failure',
      lastFailure,
      startedAt,
      'the last failing request recorded against the termination (successes are not recorded)',
      failures === null
        ? 'the failure store was not read'
        : failures.count === 0
          ? 'no failing request recorded against the termination'
          : noStart,
    ),
  ];
  return {
    drainStart,
    drainStartWhy: why,
    exitOnZero: ambient || !proxy ? null : mode.settings.exitOnZero === true,
    drainMs,
    appPreStopSeconds: appPreStop,
    drainWhileAppServesMs: drainStart === 'native-prestop' ? overlap : null,
    steps,
    failures,
  };
}
