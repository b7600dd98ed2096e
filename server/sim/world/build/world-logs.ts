/** The log lines and annotations the world writes for a pod, apart from its life cycle. */
import { PROXY_INIT_ANNOTATION } from '../../mesh/annotations';
import { appStartLines } from './applog';
import type { PodPlan } from './plan';
import { proxyStartLines } from './proxylog';
import type { PodEntry, WorldLog } from './world-types';

/** The app containers of a pod that write app logs (not istio-proxy, not Istio's own images). */
export function appRuns(entry: PodEntry) {
  return entry.plan.containers.filter(
    (c) => !c.isProxy && c.kind === 'app' && !c.image.startsWith('docker.io/istio/'),
  );
}

/**
 * Each app container's start-up lines. `kubectl logs` shows the current run: for an app that
 * already crashed and restarted that is the restarted run (the crashed one is `--previous`);
 * a crash still to come is written as it happens.
 */
export function appLogs(world: WorldLog, entry: PodEntry): void {
  if (entry.plan.blocked !== undefined) return;
  const now = world.now();
  for (const app of appRuns(entry)) {
    const spec = entry.dep.tpl.spec.containers.find((c) => c.name === app.name);
    const restarted = app.crash !== undefined && app.crash.restartAt <= now;
    const lines = appStartLines({
      plan: entry.plan,
      app,
      port: spec?.ports?.[0]?.containerPort ?? 8080,
      wrapped: entry.dep.tpl.mode === 'wrapper',
      from: restarted && app.crash !== undefined ? app.crash.restartAt : -Infinity,
    });
    for (const l of lines) world.log(entry, app.name, l.at, l.line);
  }
}

/** istio-proxy's start-up lines, up to Envoy's readiness. */
export function proxyLogs(world: WorldLog, entry: PodEntry): void {
  const proxy = [...entry.plan.inits, ...entry.plan.containers].find((c) => c.isProxy);
  const envoyReady = proxy?.envoyReadyAt ?? proxy?.readyAt;
  if (proxy === undefined || envoyReady === undefined) return;
  const id = `${entry.plan.name}.${entry.plan.namespace}`;
  for (const l of proxyStartLines(proxy.startAt, envoyReady, entry.plan.ip, id)) {
    world.log(entry, 'istio-proxy', l.at, l.line);
  }
}

/**
 * The pod's annotations, plus the Envoy start-to-LIVE time of its plan for the mesh emulator, so
 * that the server.initialization_time_ms its :15090 reports agrees with when the readiness
 * probes begin to pass (meshdx reads both).
 */
export function withProxyInit(
  annotations: Record<string, string>,
  plan: PodPlan,
): Record<string, string> {
  const proxy = [...plan.inits, ...plan.containers].find((c) => c.isProxy);
  if (proxy?.envoyReadyAt === undefined) return annotations;
  return { ...annotations, [PROXY_INIT_ANNOTATION]: String(proxy.envoyReadyAt - proxy.startAt) };
}
