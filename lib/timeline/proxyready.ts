/**
 * When did istio-proxy become ready? Kubernetes keeps no per-container ready timestamp, so the
 * moment is estimated from the best source available, each with a confidence:
 * 1. an observed transition (watch) of istio-proxy ready -> true;
 * 2. Envoy server.initialization_time_ms added to the proxy's startedAt;
 * 3. the last failed readiness/startup probe (Unhealthy event) of istio-proxy, plus one period;
 * 4. the ContainersReady condition (only an upper bound: all containers were ready by then).
 * The proxy's first start is always a lower bound (same kubelet clock as the app's start), and
 * so is that start plus the initialDelaySeconds of its startup and readiness probes: the kubelet
 * runs neither probe before its delay, and a container with a readiness probe is not ready
 * before one has passed ('probe-lower-bound').
 */
import type { Container, KubeEvent, Pod } from '../kube/types';
import { isNativeSidecar, type ProxyLocation } from './containers';
import { eventContainer, eventLastMs, isProbeFailure, sameNodeKubelet } from './events';
import { conditionMs, containerStatus, firstRun, transitionsFor } from './status';
import { toMs } from './time';
import type { ProxyReadyEstimate, Transition } from './types';

export interface ProxyReadyInput {
  transitions: readonly Transition[];
  events: readonly KubeEvent[];
  /** Envoy `server.initialization_time_ms` of the proxy, when scraped. */
  envoyInitMs?: number;
}

const STARTED = 'istio-proxy started';

function none(notBefore: number | null, notes: string[]): ProxyReadyEstimate {
  return {
    at: null,
    notBefore,
    notBeforeWhat: STARTED,
    notBeforeSameClock: true,
    notBeforeKind: 'proxy-start',
    source: 'none',
    confidence: 'low',
    clock: 'kubelet',
    upperBoundOnly: false,
    notes,
  };
}

/**
 * The longest initialDelaySeconds of istio-proxy's startup and readiness probes (each delays the
 * ready flag from the container start), null when there is none.
 */
export function probeDelay(c: Container): { seconds: number; what: string } | null {
  const ready = c.readinessProbe?.initialDelaySeconds ?? 0;
  const startup = c.startupProbe?.initialDelaySeconds ?? 0;
  const seconds = Math.max(ready, startup);
  if (!(seconds > 0)) return null;
  const what = startup >= ready && c.startupProbe ? 'startupProbe' : 'readinessProbe';
  return { seconds, what };
}

/** Raises notBefore to the proxy start + probe delay when that is later. */
function withProbeBound(
  est: ProxyReadyEstimate,
  start: number | null,
  c: Container,
): ProxyReadyEstimate {
  const out = { ...est, proxyStartedAt: start };
  const delay = probeDelay(c);
  if (start === null || !delay) return out;
  const bound = start + delay.seconds * 1000;
  if (est.notBefore !== null && est.notBefore >= bound) return out;
  if (est.at !== null && !est.upperBoundOnly && est.at < bound) return out; // inconsistent data
  return {
    ...out,
    notBefore: bound,
    notBeforeWhat: `istio-proxy started + its ${delay.what} initialDelaySeconds (${delay.seconds}s)`,
    notBeforeSameClock: true,
    notBeforeKind: 'probe-lower-bound',
    source: est.source === 'none' ? 'probe-lower-bound' : est.source,
    notes: [...est.notes, `not ready before start + ${delay.seconds}s (${delay.what} delay)`],
  };
}

/**
 * The earliest pod condition that implies istio-proxy was ready. ContainersReady (or Ready)
 * always does. For a native sidecar with a startupProbe, Initialized does too and is earlier
 * (about a second before ContainersReady in a real pod): the kubelet counts a restartable
 * init container as done, and starts the app containers, only once its startupProbe passed,
 * and Istio's probe is the proxy's own readiness (/healthz/ready).
 */
export function readyBound(
  pod: Pod,
  proxy: ProxyLocation,
): { at: number; what: string; why: string } | null {
  const containers = conditionMs(pod, 'ContainersReady');
  const ready = containers ?? conditionMs(pod, 'Ready');
  const what = containers !== null ? 'ContainersReady' : 'Ready';
  const initialized =
    isNativeSidecar(proxy) && proxy.container.startupProbe ? conditionMs(pod, 'Initialized') : null;
  if (initialized !== null && (ready === null || initialized <= ready))
    return {
      at: initialized,
      what: 'Initialized',
      why: 'Initialized is when the native sidecar passed its startupProbe (the app starts after it): an upper bound',
    };
  if (ready === null) return null;
  return { at: ready, what, why: `${what} is when all containers were ready: an upper bound` };
}

export function estimateProxyReady(
  pod: Pod,
  proxy: ProxyLocation,
  input: ProxyReadyInput,
): ProxyReadyEstimate {
  const cs = containerStatus(pod, proxy.container.name);
  const run = firstRun(cs, input.transitions, pod.metadata.uid ?? null, proxy.container.name);
  const start = run.upperBound ? null : run.startedAt;
  return withProbeBound(estimate(pod, proxy, input, cs, run), start, proxy.container);
}

/** The estimate from the proxy's status and first run (read once by the caller). */
function estimate(
  pod: Pod,
  proxy: ProxyLocation,
  input: ProxyReadyInput,
  cs: ReturnType<typeof containerStatus>,
  run: ReturnType<typeof firstRun>,
): ProxyReadyEstimate {
  const uid = pod.metadata.uid ?? null;
  const start = run.upperBound ? null : run.startedAt;
  const notes: string[] = [];
  if (run.restarts > 0) notes.push(`istio-proxy restarted ${run.restarts}x`);

  const ready = transitionsFor(input.transitions, uid, proxy.container.name, 'ready').find(
    (t) => t.value === true,
  );
  const readyMs = ready ? toMs(ready.time) : null;
  if (ready && readyMs !== null) {
    const src = ready.timeSource ?? 'observed';
    const bound = toMs(ready.notBefore);
    const lower = [start, bound].filter((v): v is number => v !== null);
    if (src === 'observed')
      notes.push('ready time is the watcher clock; app start is the kubelet clock');
    const nb = lower.length ? Math.max(...lower) : null;
    return {
      at: readyMs,
      notBefore: nb,
      notBeforeWhat: nb !== null && nb === start ? STARTED : 'the last status before ready',
      notBeforeSameClock: true,
      notBeforeKind: nb !== null && nb === start ? 'proxy-start' : 'status',
      source: 'transition',
      confidence: src === 'bounded' ? 'low' : 'high',
      clock: src === 'observed' ? 'observer' : 'kubelet',
      upperBoundOnly: false,
      notes: [...notes, `watch transition (${src})`],
    };
  }

  if (input.envoyInitMs !== undefined && Number.isFinite(input.envoyInitMs)) {
    if (start !== null && run.restarts === 0) {
      return {
        at: start + input.envoyInitMs,
        notBefore: start,
        notBeforeWhat: STARTED,
        notBeforeSameClock: true,
        notBeforeKind: 'proxy-start',
        source: 'envoy-init',
        confidence: 'medium',
        clock: 'kubelet',
        upperBoundOnly: false,
        notes: [...notes, 'startedAt has 1 s resolution'],
      };
    }
    notes.push('envoy init time ignored: the proxy restarted, startedAt is not its first run');
  }

  const bound = readyBound(pod, proxy);
  const containersReady = bound?.at ?? null;
  const probeKinds =
    proxy.where === 'initContainers' ? ['Startup', 'Readiness'] : ['Readiness', 'Startup'];
  const failures = input.events
    .filter((e) => eventContainer(e) === proxy.container.name && isProbeFailure(e, probeKinds))
    .map((e) => ({ e, ms: eventLastMs(e) }))
    .filter((x): x is { e: KubeEvent; ms: number } => x.ms !== null)
    .filter((x) => containersReady === null || x.ms <= containersReady);
  if (failures.length > 0) {
    const last = failures.reduce((a, b) => (b.ms > a.ms ? b : a));
    const probe = proxy.where === 'initContainers' ? proxy.container.startupProbe : undefined;
    const period = (probe ?? proxy.container.readinessProbe)?.periodSeconds ?? 10;
    const crossClock = !sameNodeKubelet(last.e, pod);
    if (crossClock) notes.push("Unhealthy event not from this node's kubelet: clocks may differ");
    if (containersReady === null)
      notes.push('no ContainersReady time: later probe failures may be included');
    const at = last.ms + period * 1000;
    return {
      at: containersReady !== null ? Math.min(at, Math.max(containersReady, last.ms)) : at,
      notBefore: Math.max(last.ms, start ?? last.ms),
      notBeforeWhat:
        start !== null && start > last.ms
          ? STARTED
          : `istio-proxy failed a ${last.e.message?.split(' ')[0]?.toLowerCase() ?? 'readiness'} probe`,
      notBeforeSameClock: !crossClock || (start !== null && start > last.ms),
      notBeforeKind: start !== null && start > last.ms ? 'proxy-start' : 'probe-failure',
      source: 'unhealthy-events',
      confidence: 'low',
      clock: crossClock ? 'event' : 'kubelet',
      upperBoundOnly: false,
      notes: [
        ...notes,
        `last ${last.e.message?.split(':')[0] ?? 'probe failure'} + ${period}s period`,
      ],
    };
  }

  if (containersReady !== null && bound) {
    if (run.restarts > 0) notes.push(`${bound.what} may reflect a later proxy run`);
    return {
      at: containersReady,
      notBefore: start,
      notBeforeWhat: STARTED,
      notBeforeSameClock: true,
      notBeforeKind: 'proxy-start',
      source: 'containers-ready',
      confidence: 'low',
      clock: 'kubelet',
      upperBoundOnly: true,
      notes: [...notes, bound.why],
    };
  }
  if (!pod.status || !cs) notes.push('no istio-proxy container status');
  else
    notes.push(
      'no ready time for istio-proxy (no transition, events, Envoy init time or ContainersReady)',
    );
  return none(start, notes);
}
