import type { Pod } from '../../../lib/kube/types';
import type { LogLine } from '../store/logs';

interface Terminated {
  startedAt?: string;
  finishedAt?: string;
  exitCode?: number;
  reason?: string;
}

function lastTerminated(pod: Pod, container: string): Terminated | undefined {
  const statuses = [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []),
  ] as { name: string; lastState?: { terminated?: Terminated } }[];
  return statuses.find((s) => s.name === container)?.lastState?.terminated;
}

/**
 * The log of a container's previous run (`?previous=true`), written from what its status says
 * about that run (`lastState.terminated`): an app that made its first call before its sidecar
 * was ready ends in a refused connection and a non-zero exit; the proxy ends in a drain. A
 * container without a previous run is the kubelet's 400.
 */
export function previousRunLog(pod: Pod, container: string): LogLine[] | string {
  const t = lastTerminated(pod, container);
  if (t === undefined) {
    return `previous terminated container "${container}" in pod "${pod.metadata.name}" not found`;
  }
  const finished = Date.parse(t.finishedAt ?? '');
  const started = Date.parse(t.startedAt ?? '');
  const end = Number.isNaN(finished) ? Date.now() : finished;
  const start = Number.isNaN(started) ? end - 2_000 : Math.min(started, end);
  const at = (f: number): Date => new Date(start + Math.round((end - start) * f));
  const code = t.exitCode ?? 0;
  if (container === 'istio-proxy') {
    return [
      { time: at(0), line: `${at(0).toISOString()}\tinfo\tFLAG: --concurrency="2"` },
      { time: at(0.1), line: `${at(0.1).toISOString()}\tinfo\tEnvoy proxy is NOT ready` },
      { time: at(0.9), line: `${at(0.9).toISOString()}\tinfo\tAgent draining Proxy` },
      {
        time: at(1),
        line: `${at(1).toISOString()}\tinfo\tAgent has successfully terminated (exit code ${code})`,
      },
    ];
  }
  const lines: LogLine[] = [
    { time: at(0), line: `starting ${container}` },
    { time: at(0.2), line: 'loading configuration from /etc/app/config.yaml' },
  ];
  if (code !== 0) {
    lines.push(
      { time: at(0.5), line: 'connecting to dependency at http://backend:8080/healthz' },
      {
        time: at(0.9),
        line: 'error: Get "http://backend:8080/healthz": dial tcp 10.96.0.20:8080: connect: connection refused',
      },
      { time: at(1), line: `fatal: dependency check failed, exiting with code ${code}` },
    );
  } else {
    lines.push({
      time: at(1),
      line: `received SIGTERM, ${container} stopped (${t.reason ?? 'Completed'})`,
    });
  }
  return lines;
}
