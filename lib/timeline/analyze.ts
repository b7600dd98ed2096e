/** One pod in, its startup mode, proxy-ready estimate, app starts and verdicts out. */
import type { ContainerStatus, KubeEvent, Namespace, Pod } from '../kube/types';
import { appContainers, isWrapped } from './containers';
import { eventLastMs, eventsForPod } from './events';
import { podLifecycle, type PodLifecycle, type PodRestart } from './instances';
import { judgeInstances } from './lifecycle-verdicts';
import { withMergedFix } from './fix-compose';
import type { TerminationFailures } from '../incidents/pod-failures';
import type { MeshSettings } from './meshconfig';
import { detectMode } from './mode';
import { estimateProxyReady } from './proxyready';
import { holdRedundant, nativeBlocked, nativeStuck } from './native';
import { judgeShutdown } from './shutdown';
import { drainOrder } from './drain-order';
import { judgeDrainOrder } from './drain-verdicts';
import { judgeStartup } from './startup';
import type { ToYaml } from './fix';
import { containerStatus, firstRun } from './status';
import type { AppStart, PodTimeline, ProxyReadyEstimate, Transition } from './types';
import { workloadOf } from '../refs/workload-ref';
import { assessApp } from './assess';
import { toIso, toMs } from './time';
import { podKey } from '../refs/pod-ref';

export interface AnalyzeContext {
  mesh?: MeshSettings;
  events?: readonly KubeEvent[];
  transitions?: readonly Transition[];
  /** Envoy server.initialization_time_ms per pod, keyed by pod uid or "namespace/name". */
  envoyInitMs?: Readonly<Record<string, number>>;
  /** How fix bodies are written as YAML: a fleet's analysis passes one memo for all its pods. */
  toYaml?: ToYaml;
  /**
   * The failing requests recorded against the pod's termination (lib/incidents), where the
   * failure store was read; absent or null: not measured.
   */
  terminationFailures?: TerminationFailures | null;
  /** The cluster's namespaces, where known: an ambient label on a pod's namespace enrols it. */
  namespaces?: readonly Namespace[];
}

function noProxy(notes: string[]): ProxyReadyEstimate {
  return {
    at: null,
    notBefore: null,
    source: 'none',
    confidence: 'low',
    clock: 'kubelet',
    upperBoundOnly: false,
    notes,
  };
}

/**
 * The pod as its current instance: after a restart that took the app and the proxy together,
 * the runs before it belong to another instance, so the start is judged on the runs after it
 * (their restart counts and earlier states left out) with the watch transitions and events of
 * that instance only.
 */
function currentInstance(
  pod: Pod,
  r: PodRestart,
  transitions: readonly Transition[],
  events: readonly KubeEvent[],
): { pod: Pod; transitions: Transition[]; events: KubeEvent[] } {
  const at = r.at ?? -Infinity;
  const strip = (cs: ContainerStatus): ContainerStatus =>
    r.containers.includes(cs.name) ? { ...cs, restartCount: 0, lastState: {} } : cs;
  const status = pod.status ?? {};
  return {
    pod: {
      ...pod,
      status: {
        ...status,
        ...(status.containerStatuses
          ? { containerStatuses: status.containerStatuses.map(strip) }
          : {}),
        ...(status.initContainerStatuses
          ? { initContainerStatuses: status.initContainerStatuses.map(strip) }
          : {}),
      },
    },
    transitions: transitions.filter((t) => (toMs(t.time) ?? Infinity) >= at),
    events: events.filter((e) => (eventLastMs(e) ?? Infinity) >= at),
  };
}

export function analyzePod(pod: Pod, ctx: AnalyzeContext = {}): PodTimeline {
  const uid = pod.metadata.uid ?? null;
  const namespace = pod.metadata.namespace ?? 'default';
  const ns = ctx.namespaces?.find((n) => n.metadata.name === namespace);
  const mode = detectMode(pod, ctx.mesh, ns);
  const workload = workloadOf(pod);
  const lifecycle = podLifecycle(pod, mode.proxy?.container.name ?? null);
  const restart = lifecycle.podRestart?.at != null ? lifecycle.podRestart : null;
  // gaps are measured within one instance of the pod: after a restart of app and proxy
  // together, the current one
  const allEvents = eventsForPod(pod, ctx.events ?? []);
  const cur = restart
    ? currentInstance(pod, restart, ctx.transitions ?? [], allEvents)
    : { pod, transitions: [...(ctx.transitions ?? [])], events: allEvents };
  const { transitions, events } = cur;
  const initMs =
    ctx.envoyInitMs?.[uid ?? ''] ?? ctx.envoyInitMs?.[podKey(namespace, pod.metadata.name)];
  const ready = mode.proxy
    ? estimateProxyReady(cur.pod, mode.proxy, { transitions, events, envoyInitMs: initMs })
    : noProxy([
        mode.mode === 'ambient' ? 'no sidecar: ztunnel carries its traffic' : 'no istio-proxy',
      ]);
  const curLifecycle = restart ? podLifecycle(cur.pod, mode.proxy?.container.name ?? null) : null;
  const apps: AppStart[] = appContainers(pod).map((c) =>
    appStart(cur.pod, c, transitions, uid, curLifecycle ?? lifecycle),
  );
  const excluded =
    mode.mode === 'ambient'
      ? 'in the ambient mesh (ztunnel): no sidecar to race'
      : mode.mode === 'none'
        ? 'no istio-proxy: not in the mesh'
        : mode.mode === 'gateway'
          ? 'gateway: the proxy is the workload, there is no app to race'
          : null;
  // a native proxy that never got ready blocks the app: that, not the start order, is the verdict
  const blocked = nativeBlocked(pod, mode, apps);
  const order = drainOrder(pod, mode, ctx.terminationFailures ?? null);
  const judged = [
    instanceNote(
      blocked ?? judgeStartup({ pod: cur.pod, mode, ready, apps, workload, ...toYamlOf(ctx) }),
      restart,
    ),
    holdRedundant(pod, mode),
    ...judgeShutdown(pod, mode, workload, ctx.toYaml, ctx.terminationFailures ?? null),
    nativeStuck(pod, mode, ctx.transitions ?? []),
    ...judgeDrainOrder(pod, order, workload, ctx.toYaml),
    ...judgeInstances(pod, lifecycle),
  ].filter((v): v is NonNullable<typeof v> => v !== null);
  // one fix per pod: the fixes of its findings merged into one patch
  const { verdicts } = withMergedFix(pod, workload, judged, ctx.toYaml);
  const starts = apps.map((a) => a.startedAt).filter((v): v is number => v !== null);
  const gaps = mode.proxy
    ? apps.map((a) => assessApp(a, ready).gapMs).filter((v): v is number => v !== null)
    : [];
  const proxyStatus = mode.proxy ? containerStatus(pod, mode.proxy.container.name) : undefined;
  return {
    namespace,
    name: pod.metadata.name,
    uid,
    workload,
    mode: mode.mode,
    modeReasons: mode.reasons,
    excluded,
    proxyReady: ready,
    apps,
    appStartedAt: starts.length ? Math.min(...starts) : null,
    gapMs: gaps.length ? Math.min(...gaps) : null,
    restarts: appContainers(pod).reduce(
      (n, c) => n + (containerStatus(pod, c.name)?.restartCount ?? 0),
      0,
    ),
    proxyRestarts: proxyStatus?.restartCount ?? 0,
    instances: lifecycle.instances,
    podRestart: lifecycle.podRestart,
    drainOrder: order,
    verdicts,
    notes: [...mode.notes, ...ready.notes],
  };
}

function appStart(
  pod: Pod,
  c: ReturnType<typeof appContainers>[number],
  transitions: readonly Transition[],
  uid: string | null,
  lc: PodLifecycle,
): AppStart {
  const run = firstRun(containerStatus(pod, c.name), transitions, uid, c.name);
  const notes: string[] = [];
  if (run.upperBound) notes.push(`first of ${run.restarts + 1} runs not visible`);
  if (!containerStatus(pod, c.name)) notes.push('no container status');
  // the run that ended is an early failure only when its instance ended as one: not at
  // shutdown, not with a pod restart, not a crash after its first seconds
  const ended = lc.instances.find(
    (i) => i.container === c.name && i.finishedAt !== null && i.finishedAt === run.finishedAt,
  );
  return {
    container: c.name,
    startedAt: run.startedAt,
    source: run.source,
    restarts: run.restarts,
    upperBound: run.upperBound,
    exitCode: run.exitCode,
    earlyFailure: ended ? ended.end === 'early-exit' : run.earlyFailure,
    firstRunEndedAt: run.finishedAt,
    guarded: isWrapped(c),
    notes,
  };
}

/** A startup verdict judged on the instance after a pod restart says so. */
function instanceNote<T extends { evidence: PodTimeline['verdicts'][number]['evidence'] } | null>(
  v: T,
  restart: PodRestart | null,
): T {
  if (v === null || restart === null) return v;
  v.evidence.judgedInstance = 'after the pod restart';
  v.evidence.podRestartAt = toIso(restart.at);
  return v;
}

function toYamlOf(ctx: AnalyzeContext): { toYaml?: ToYaml } {
  return ctx.toYaml ? { toYaml: ctx.toYaml } : {};
}

export function analyzePods(pods: readonly Pod[], ctx: AnalyzeContext = {}): PodTimeline[] {
  return pods.map((p) => analyzePod(p, ctx));
}
