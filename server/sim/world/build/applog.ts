/**
 * What an app container writes to stdout, as `kubectl logs POD -c APP` shows it: a start-up
 * banner, its first call to a dependency and its listener. An app that started before its
 * sidecar was ready sees that first call refused (outbound traffic is redirected to a proxy that
 * is not listening yet): it either retries until the proxy is ready, or (when its plan says it
 * crashed) exits 1 the way the simulator's `?previous=true` log of that run tells it. A wrapper
 * command prints curl's failures until the proxy's /healthz/ready answers.
 */
import type { ContainerRun, PodPlan } from './plan';

export interface AppLogLine {
  at: number;
  line: string;
}

const DEPENDENCY = 'http://backend:8080/healthz';
const REFUSED = `error: Get "${DEPENDENCY}": dial tcp 10.96.0.20:8080: connect: connection refused`;

export interface AppLogInput {
  plan: PodPlan;
  app: ContainerRun;
  /** The container's first port (what it listens on). */
  port: number;
  /** Its command polls the proxy before exec'ing the app (wrapper mode). */
  wrapped: boolean;
  /** Only lines at or after this instant are written (the current run of a restarted app). */
  from: number;
}

/** The proxy's Envoy-ready moment, undefined without a proxy. */
function proxyReadyAt(plan: PodPlan): number | undefined {
  const proxy = [...plan.inits, ...plan.containers].find((c) => c.isProxy);
  return proxy?.envoyReadyAt ?? proxy?.readyAt;
}

function banner(name: string, at: number): AppLogLine[] {
  return [
    { at, line: `starting ${name}` },
    { at: at + 200, line: 'loading configuration from /etc/app/config.yaml' },
  ];
}

/** A run whose first call (0.5 s in) is refused, retried each second, until the proxy is `ready`. */
function healthyRun(name: string, start: number, port: number, ready?: number): AppLogLine[] {
  const out = banner(name, start);
  let at = start + 500;
  out.push({ at, line: `connecting to dependency at ${DEPENDENCY}` });
  while (ready !== undefined && at < ready) {
    out.push({ at: at + 20, line: `${REFUSED}; retrying in 1s` });
    at += 1000;
  }
  out.push({ at: at + 50, line: `connected to dependency at ${DEPENDENCY}` });
  out.push({ at: at + 100, line: `listening on :${port}` });
  return out;
}

/** The first run of an app that raced its sidecar and exited: same lines and times as ?previous. */
function crashedRun(name: string, start: number, end: number, code: number): AppLogLine[] {
  const at = (f: number) => start + Math.round((end - start) * f);
  return [
    { at: at(0), line: `starting ${name}` },
    { at: at(0.2), line: 'loading configuration from /etc/app/config.yaml' },
    { at: at(0.5), line: `connecting to dependency at ${DEPENDENCY}` },
    { at: at(0.9), line: REFUSED },
    { at: at(1), line: `fatal: dependency check failed, exiting with code ${code}` },
  ];
}

/** curl's complaints from a wrapper that polls :15021 every second until the proxy is ready. */
function wrapperPolls(start: number, ready: number): AppLogLine[] {
  const out: AppLogLine[] = [];
  for (let at = start + 50; at < ready; at += 1000) {
    out.push({
      at,
      line: "curl: (7) Failed to connect to localhost port 15021 after 0 ms: Couldn't connect to server",
    });
  }
  return out;
}

/** Every line the app writes during its start (both runs when it crashed), from `from` on. */
export function appStartLines(input: AppLogInput): AppLogLine[] {
  const { plan, app, port, wrapped, from } = input;
  const ready = proxyReadyAt(plan);
  const out: AppLogLine[] = [];
  if (app.crash !== undefined) {
    out.push(...crashedRun(app.name, app.startAt, app.crash.at, app.crash.exitCode));
    out.push(...healthyRun(app.name, app.crash.restartAt, port, ready));
  } else if (wrapped && ready !== undefined) {
    out.push(...wrapperPolls(app.startAt, ready));
    out.push(...healthyRun(app.name, Math.max(app.startAt, ready) + 100, port));
  } else {
    out.push(...healthyRun(app.name, app.startAt, port, ready));
  }
  return out.filter((l) => l.at >= from);
}

/** What the app writes when it is stopped: SIGTERM after its preStop, and a clean exit if it got one. */
export function appStopLines(app: ContainerRun, termAt: number): AppLogLine[] {
  const out: AppLogLine[] = [{ at: termAt, line: 'received SIGTERM, shutting down' }];
  if (app.exitAt !== undefined && app.exitCode === 0 && app.exitAt >= termAt) {
    out.push({ at: app.exitAt, line: `${app.name} stopped` });
  }
  return out;
}
