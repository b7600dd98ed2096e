import { faultKey, withGaugeOverrides } from '../store/faults';
import { podSpec } from '../store/podshape';
import type { Pod } from '../../../lib/kube/types';
import type { PodHttpResponse } from '../mesh/types';
import { sleep, type SimContext } from './context';
import { httpResponse, splitTarget, type FeedResult } from './httpreq';

/** "name", "name:port" or "scheme:name:port" (the pods/proxy name forms). */
export function splitProxyName(raw: string): { name: string; port?: string } {
  const parts = raw.split(':');
  if (parts.length === 3) return { name: parts[1] ?? '', port: parts[2] };
  if (parts.length === 2) return { name: parts[0] ?? '', port: parts[1] };
  return { name: raw };
}

/** A numeric port, a named container port, or (none given) the first container port / 80. */
export function resolvePort(pod: Pod, port: string | undefined): number | undefined {
  const spec = podSpec(pod);
  const all = [...spec.containers, ...(spec.initContainers ?? [])].flatMap((c) => c.ports ?? []);
  if (port === undefined || port === '') return all[0]?.containerPort ?? 80;
  if (/^\d+$/.test(port)) {
    const n = Number(port);
    return n >= 1 && n <= 65535 ? n : undefined;
  }
  return all.find((p) => p.name === port)?.containerPort;
}

/** Why the pod's network cannot be reached at all (not running, no IP), or undefined. */
export function podNotReachable(pod: Pod): string | undefined {
  const phase = pod.status?.phase ?? 'Unknown';
  if (pod.status?.podIP === undefined || pod.status.podIP === '') {
    return `pod ${pod.metadata.name} has no IP address (phase ${phase})`;
  }
  // A real API server proxies to the pod IP whatever the phase: a Pending pod with an IP has a
  // sandbox, and a native sidecar may already answer in it while the app has not started.
  // Only a pod whose containers have all ended has nothing left to answer.
  if (phase === 'Succeeded' || phase === 'Failed')
    return `pod ${pod.metadata.name} is not running (phase ${phase})`;
  return undefined;
}

/** Call the mesh emulator without letting its bugs take the server down. */
export function askMesh(
  ctx: SimContext,
  pod: Pod,
  port: number,
  path: string,
  query: URLSearchParams,
): PodHttpResponse {
  try {
    const a = ctx.mesh.podHttp(pod, port, path, query);
    const over = ctx.faults.gaugeOverrides.get(faultKey(pod));
    return over && a.status === 200 && path.endsWith('/stats/prometheus')
      ? { ...a, body: withGaugeOverrides(a.body, over) }
      : a;
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return { status: 500, contentType: 'text/plain', body: `mesh emulator failed: ${msg}\n` };
  }
}

/**
 * The mesh emulator's answer for a port nothing listens on (a dial error, "connection refused"),
 * or undefined when the pod answered. The API server reports such a dial as a 503 Status, the
 * kubelet's port-forward as text on the error channel.
 */
export function refusedDial(a: PodHttpResponse): string | undefined {
  if (a.status !== 502 && a.status !== 503) return undefined;
  const first = a.body.trim();
  return first.startsWith('error trying to reach service:') && first.includes('dial tcp')
    ? first
    : undefined;
}

/** What a pod's port gives for one request: its answer's bytes, or the kubelet's dial error. */
export type PortAnswer = { data: Buffer } | { error: string };

const refusedText = (pod: Pod, port: number): string =>
  `error forwarding port ${port} to pod ${faultKey(pod)}, uid ${pod.metadata.uid ?? ''}: failed to connect to localhost:${port} inside namespace: connect: connection refused`;

/**
 * One request to a pod's port through the kubelet's port-forward, as every transport of it
 * (websocket channels, SPDY) carries it: the mesh emulator's HTTP answer, or, where nothing
 * listens (or the pod is made unreachable), the kubelet's dial error and no bytes.
 */
export async function answerPortRequest(
  ctx: SimContext,
  pod: Pod,
  port: number,
  r: Exclude<FeedResult, { state: 'more' }>,
): Promise<PortAnswer> {
  if (ctx.faults.unreachablePods.has(faultKey(pod))) return { error: refusedText(pod, port) };
  const slow = ctx.faults.slowPods.get(faultKey(pod)) ?? 0;
  if (slow > 0) await sleep(slow);
  if (r.state === 'error')
    return { data: httpResponse(400, 'text/plain', `${r.error}\n`, ctx.clock.now()) };
  if (r.request.method !== 'GET')
    return { data: httpResponse(405, 'text/plain', 'only GET is served\n', ctx.clock.now()) };
  const { path, query } = splitTarget(r.request.target);
  const a = askMesh(ctx, pod, port, path, query);
  // nothing listens there: the kubelet says so on the error stream, no bytes on data
  if (refusedDial(a) !== undefined) return { error: refusedText(pod, port) };
  return { data: httpResponse(a.status, a.contentType, a.body, ctx.clock.now()) };
}
