/**
 * Verdicts on how a pod's container instances ended, apart from the start race: a restart that
 * took the app and the proxy together (node restart, OOM, a new sandbox, an eviction), a crash
 * of the app alone after its first seconds, a failed init container, and an app that exited
 * non-zero at shutdown (a signal after the deletion). Each says what the status shows; none of
 * them is a race, and none offers a sidecar fix.
 */
import type { Pod } from '../kube/types';
import { codeOf } from './codes';
import { RESTART_TEXT, type ContainerInstance, type PodLifecycle } from './instances';
import { toIso } from './time';
import { podRestartFix, previousLogFix, shutdownExitFix } from './fix-lifecycle';
import type { VerdictResult } from './types';

const seconds = (i: ContainerInstance): number | null =>
  i.startedAt === null || i.finishedAt === null
    ? null
    : Math.round((i.finishedAt - i.startedAt) / 1000);

function podRestartVerdict(pod: Pod, lc: PodLifecycle): VerdictResult | null {
  const r = lc.podRestart;
  if (!r) return null;
  return {
    verdict: 'pod-restart',
    code: codeOf('pod-restart'),
    phase: 'shutdown',
    confidence: r.cause === 'sandbox' ? 'medium' : 'high',
    evidence: {
      cause: r.cause,
      what: RESTART_TEXT[r.cause],
      endedAt: toIso(r.at),
      containers: r.containers.join(' '),
      exitCodes: r.exitCodes,
      reasons: r.reasons,
      initReran: r.initReran,
      judgedInstance: 'the start after this restart (the earlier runs belong to another instance)',
    },
    fixes: [podRestartFix(pod, r.cause)],
  };
}

function crashVerdict(pod: Pod, lc: PodLifecycle): VerdictResult | null {
  const crash = lc.instances.find((i) => i.role === 'app' && i.end === 'crash');
  if (!crash) return null;
  return {
    verdict: 'app-crash',
    code: codeOf('app-crash'),
    phase: 'shutdown',
    confidence: 'high',
    evidence: {
      container: crash.container,
      run: crash.run,
      exitCode: crash.exitCode,
      reason: crash.reason,
      ranSeconds: seconds(crash),
      finishedAt: toIso(crash.finishedAt),
      proxyRestartedWithIt: false,
    },
    fixes: [
      previousLogFix(
        pod,
        crash.container,
        crash.reason === 'OOMKilled'
          ? 'the app ran out of memory: raise its memory limit (its last log lines show what it was doing)'
          : "the app's own failure: its previous run's log says why it exited",
      ),
    ],
  };
}

const INIT_WAITING = /CrashLoopBackOff|Error/;

function initVerdict(pod: Pod, lc: PodLifecycle): VerdictResult | null {
  const failed = lc.instances.find(
    (i) =>
      i.role === 'init' &&
      ((i.exitCode !== null && i.exitCode !== 0) ||
        (i.end === 'waiting' && INIT_WAITING.test(i.reason ?? ''))),
  );
  if (!failed) return null;
  const runs = lc.instances.filter((i) => i.container === failed.container);
  const last = runs.find((i) => i.exitCode !== null && i.exitCode !== 0) ?? failed;
  return {
    verdict: 'init-failed',
    code: codeOf('init-failed'),
    phase: 'startup',
    confidence: 'high',
    evidence: {
      container: failed.container,
      exitCode: last.exitCode,
      reason: last.reason,
      restarts: Math.max(...runs.map((i) => i.run)),
      finishedAt: toIso(last.finishedAt),
    },
    fixes: [
      previousLogFix(
        pod,
        failed.container,
        failed.container === 'istio-init'
          ? "istio-init could not set up the traffic redirection (iptables, NET_ADMIN, or the node's kernel): its log says which; the Istio CNI node agent removes the init container"
          : 'the init container failed: its log says why',
      ),
    ],
  };
}

function shutdownExitVerdict(pod: Pod, lc: PodLifecycle): VerdictResult | null {
  const exits = lc.instances.filter(
    (i) => i.role === 'app' && i.end === 'shutdown' && i.exitCode !== null && i.exitCode !== 0,
  );
  // the one killed at the deadline first: it is the one that lost work
  const x = exits.find((i) => i.signal === 'SIGKILL') ?? exits[0];
  if (!x) return null;
  const grace =
    pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
  const after =
    x.finishedAt === null || lc.deletionStartedAt === null
      ? null
      : x.finishedAt - lc.deletionStartedAt;
  const killedAtDeadline = x.signal === 'SIGKILL' && after !== null && after >= grace * 1000 - 2000;
  return {
    verdict: 'exit-at-shutdown',
    code: codeOf('exit-at-shutdown'),
    phase: 'shutdown',
    confidence: 'high',
    evidence: {
      container: x.container,
      exitCode: x.exitCode,
      signal: x.signal,
      reason: x.reason,
      ranSeconds: seconds(x),
      deletionStartedAt: toIso(lc.deletionStartedAt),
      finishedAfterDeletionMs: after,
      terminationGracePeriodSeconds: grace,
      killedAtDeadline,
    },
    fixes: [shutdownExitFix(pod, x.container, x.signal, killedAtDeadline, grace)],
  };
}

/** The instance verdicts of one pod, worst first. */
export function judgeInstances(pod: Pod, lc: PodLifecycle): VerdictResult[] {
  return [
    initVerdict(pod, lc),
    podRestartVerdict(pod, lc),
    crashVerdict(pod, lc),
    shutdownExitVerdict(pod, lc),
  ].filter((v): v is VerdictResult => v !== null);
}
