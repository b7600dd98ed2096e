/**
 * What to do about an instance verdict (MDX0114-0117): none of them is a sidecar problem, so none
 * patches the pod template: each fix is the command that reads the cause where it is recorded
 * (the node, the previous run's log, the pod's events), with why. They set no key, so they never
 * meet the merged patch of the object's other findings (fix-compose.ts).
 */
import type { FindingFix } from '../findings/types';
import type { Pod } from '../kube/types';
import type { PodRestartCause } from './instances';

function target(pod: Pod): { ns: string; name: string; node: string | null } {
  return {
    ns: pod.metadata.namespace ?? 'default',
    name: pod.metadata.name,
    node: pod.spec.nodeName ?? null,
  };
}

const nodeCommands = (node: string | null): string =>
  node === null
    ? '# the pod names no node (spec.nodeName): find it with kubectl get pod -o wide\n'
    : `kubectl describe node ${node}\n` +
      `kubectl get events -A --field-selector involvedObject.kind=Node,involvedObject.name=${node}\n`;

/** The restart that took app and proxy together: read its cause on the node or the pod. */
export function podRestartFix(pod: Pod, cause: PodRestartCause): FindingFix {
  const t = target(pod);
  const podEvents = `kubectl -n ${t.ns} get events --field-selector involvedObject.name=${t.name}\n`;
  switch (cause) {
    case 'oom':
      return {
        why: 'the pod ran out of memory: raise the memory limit of the container that used it (the describe output names it, with its last state OOMKilled), not a sidecar setting',
        yaml: `kubectl -n ${t.ns} describe pod ${t.name}\nkubectl -n ${t.ns} top pod ${t.name} --containers\n`,
      };
    case 'eviction':
      return {
        why: "the kubelet evicted the pod (node pressure, or a drain): the node's conditions and the pod's events say which; a PodDisruptionBudget bounds only voluntary evictions",
        yaml: podEvents + nodeCommands(t.node),
      };
    case 'node-restart':
    case 'sandbox':
      return {
        why: "the node's kubelet or container runtime restarted the pod's containers together (or re-created its sandbox): the cause is on the node, not in the pod or its sidecar",
        yaml: nodeCommands(t.node) + podEvents,
      };
  }
}

/** The app's own failure: its previous run's log says why. */
export function previousLogFix(pod: Pod, container: string, why: string): FindingFix {
  const t = target(pod);
  return { why, yaml: `kubectl -n ${t.ns} logs ${t.name} -c ${container} --previous\n` };
}

/** An exit at shutdown: a SIGTERM the app did not handle, or the SIGKILL at the deadline. */
export function shutdownExitFix(
  pod: Pod,
  container: string,
  signal: 'SIGTERM' | 'SIGKILL' | null,
  killedAtDeadline: boolean,
  graceS: number,
): FindingFix {
  const why = killedAtDeadline
    ? `the app was still shutting down at the ${graceS} s deadline: make it finish sooner after SIGTERM, or raise terminationGracePeriodSeconds above what its shutdown takes (its last log lines show how far it got)`
    : signal === 'SIGTERM'
      ? 'the app does not handle SIGTERM (exit 143): handle it, finish in-flight work and exit 0'
      : 'the app exited non-zero at shutdown: its last log lines say why';
  return previousLogFix(pod, container, why);
}
