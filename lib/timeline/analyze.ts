/** One pod in, its startup mode, proxy-ready estimate, app starts and verdicts out. */
import type { KubeEvent, Namespace, Pod } from '../kube/types';
import { appContainers, isWrapped } from './containers';
import { eventsForPod } from './events';
import type { MeshSettings } from './meshconfig';
import { detectMode } from './mode';
import { estimateProxyReady } from './proxyready';
import { holdRedundant, nativeBlocked, nativeStuck } from './native';
import { judgeShutdown } from './shutdown';
import { judgeStartup } from './startup';
import type { ToYaml } from './fix';
import { containerStatus, firstRun } from './status';
import type { AppStart, PodTimeline, ProxyReadyEstimate, Transition } from './types';
import { workloadOf } from '../refs/workload-ref';
import { assessApp } from './assess';
import { podKey } from '../refs/pod-ref';

export interface AnalyzeContext {
  mesh?: MeshSettings;
  events?: readonly KubeEvent[];
  transitions?: readonly Transition[];
  /** Envoy server.initialization_time_ms per pod, keyed by pod uid or "namespace/name". */
  envoyInitMs?: Readonly<Record<string, number>>;
  /** How fix bodies are written as YAML: a fleet's analysis passes one memo for all its pods. */
  toYaml?: ToYaml;
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

export function analyzePod(pod: Pod, ctx: AnalyzeContext = {}): PodTimeline {
  const uid = pod.metadata.uid ?? null;
  const namespace = pod.metadata.namespace ?? 'default';
  const transitions = ctx.transitions ?? [];
  const events = eventsForPod(pod, ctx.events ?? []);
  const ns = ctx.namespaces?.find((n) => n.metadata.name === namespace);
  const mode = detectMode(pod, ctx.mesh, ns);
  const workload = workloadOf(pod);
  const initMs =
    ctx.envoyInitMs?.[uid ?? ''] ?? ctx.envoyInitMs?.[podKey(namespace, pod.metadata.name)];
  const ready = mode.proxy
    ? estimateProxyReady(pod, mode.proxy, { transitions, events, envoyInitMs: initMs })
    : noProxy([
        mode.mode === 'ambient' ? 'no sidecar: ztunnel carries its traffic' : 'no istio-proxy',
      ]);
  const apps: AppStart[] = appContainers(pod).map((c) => {
    const run = firstRun(containerStatus(pod, c.name), transitions, uid, c.name);
    const notes: string[] = [];
    if (run.upperBound) notes.push(`first of ${run.restarts + 1} runs not visible`);
    if (!containerStatus(pod, c.name)) notes.push('no container status');
    return {
      container: c.name,
      startedAt: run.startedAt,
      source: run.source,
      restarts: run.restarts,
      upperBound: run.upperBound,
      exitCode: run.exitCode,
      earlyFailure: run.earlyFailure,
      firstRunEndedAt: run.finishedAt,
      guarded: isWrapped(c),
      notes,
    };
  });
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
  const verdicts = [
    blocked ?? judgeStartup({ pod, mode, ready, apps, workload, ...toYamlOf(ctx) }),
    holdRedundant(pod, mode),
    ...judgeShutdown(pod, mode, workload, ctx.toYaml),
    nativeStuck(pod, mode, transitions),
  ].filter((v): v is NonNullable<typeof v> => v !== null);
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
    restarts: apps.reduce((n, a) => n + a.restarts, 0),
    proxyRestarts: proxyStatus?.restartCount ?? 0,
    verdicts,
    notes: [...mode.notes, ...ready.notes],
  };
}

function toYamlOf(ctx: AnalyzeContext): { toYaml?: ToYaml } {
  return ctx.toYaml ? { toYaml: ctx.toYaml } : {};
}

export function analyzePods(pods: readonly Pod[], ctx: AnalyzeContext = {}): PodTimeline[] {
  return pods.map((p) => analyzePod(p, ctx));
}
