/**
 * When did istio-proxy become ready? Kubernetes keeps no per-container ready timestamp, so the
 * moment is estimated from the best source available, each with a confidence:
 * 1. an observed transition (watch) of istio-proxy ready -> true;
 * 2. Envoy server.initialization_time_ms added to the proxy's startedAt;
 * 3. the last failed readiness/startup probe (Unhealthy event) of istio-proxy, plus one period;
 * 4. the ContainersReady condition (only an upper bound: all containers were ready by then).
 * The proxy's first start is always a lower bound (same kubelet clock as the app's start).
 */
import type { KubeEvent, Pod } from '../kube/types';
import type { ProxyLocation } from './containers';
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
    source: 'none',
    confidence: 'low',
    clock: 'kubelet',
    upperBoundOnly: false,
    notes,
  };
}

export function estimateProxyReady(
  pod: Pod,
  proxy: ProxyLocation,
  input: ProxyReadyInput,
): ProxyReadyEstimate {
  const uid = pod.metadata.uid ?? null;
  const cs = containerStatus(pod, proxy.container.name);
  const run = firstRun(cs, input.transitions, uid, proxy.container.name);
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
        source: 'envoy-init',
        confidence: 'medium',
        clock: 'kubelet',
        upperBoundOnly: false,
        notes: [...notes, 'startedAt has 1 s resolution'],
      };
    }
    notes.push('envoy init time ignored: the proxy restarted, startedAt is not its first run');
  }

  const containersReady = conditionMs(pod, 'ContainersReady') ?? conditionMs(pod, 'Ready');
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

  if (containersReady !== null) {
    if (run.restarts > 0) notes.push('ContainersReady may reflect a later proxy run');
    return {
      at: containersReady,
      notBefore: start,
      notBeforeWhat: STARTED,
      notBeforeSameClock: true,
      source: 'containers-ready',
      confidence: 'low',
      clock: 'kubelet',
      upperBoundOnly: true,
      notes: [...notes, 'ContainersReady is when all containers were ready: an upper bound'],
    };
  }
  if (!pod.status || !cs) notes.push('no istio-proxy container status');
  else
    notes.push(
      'no ready time for istio-proxy (no transition, events, Envoy init time or ContainersReady)',
    );
  return none(start, notes);
}
