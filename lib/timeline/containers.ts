/** Which container is the proxy, which are apps, and what their commands say. */
import { PROXY_CONTAINER, podProxy, type PodProxy } from '../dataplane/proxy-container';
import type { Container, Pod } from '../kube/types';

export const PROXY_NAME = PROXY_CONTAINER;

export type ProxyLocation = PodProxy;

/** The pod's proxy (lib/dataplane/proxy-container.ts). */
export function findProxy(pod: Pod): ProxyLocation | null {
  return podProxy(pod);
}

/** The proxy runs as a native sidecar: an init container the kubelet keeps running. */
export function isNativeSidecar(loc: ProxyLocation): boolean {
  return loc.placement === 'native-sidecar';
}

/** Injected with hold: postStart runs `pilot-agent wait`, which the kubelet blocks on. */
export function hasPostStartWait(c: Container): boolean {
  const cmd = c.lifecycle?.postStart?.exec?.command ?? [];
  const text = cmd.join(' ');
  return /pilot-agent/.test(text) && /\bwait\b/.test(text);
}

export function appContainers(pod: Pod): Container[] {
  return (pod.spec.containers ?? []).filter((c) => c.name !== PROXY_NAME);
}

/**
 * App containers listed before istio-proxy in `containers`: the kubelet starts containers in
 * order and blocks only on the postStart hooks of earlier ones, so these are started before the
 * proxy whatever hook the proxy carries. Empty for a proxy in initContainers.
 */
export function appsBeforeProxy(pod: Pod, proxy: ProxyLocation): string[] {
  if (proxy.where !== 'containers') return [];
  return (pod.spec.containers ?? []).slice(0, proxy.index).map((c) => c.name);
}

const PROXY_POLL =
  /(?:localhost|127\.0\.0\.1|\[::1\])?:(?:15000\b|15020\/healthz\/ready|15021\/healthz\/ready)/;
const POLL_TOOL = /\b(?:curl|wget|nc|until|while|pilot-agent\s+wait)\b/;

/** The app's command/args poll the proxy (admin :15000 or /healthz/ready) before the app starts. */
export function isWrapped(c: Container): boolean {
  const text = [...(c.command ?? []), ...(c.args ?? [])].join(' ');
  if (/pilot-agent\s+wait/.test(text)) return true;
  return PROXY_POLL.test(text) && POLL_TOOL.test(text);
}

/** Seconds the app's preStop holds it before SIGTERM: `sleep: {seconds}` or an exec `sleep N`. */
export function preStopSeconds(c: Container): number | null {
  const pre = c.lifecycle?.preStop;
  if (!pre) return null;
  if (pre.sleep && typeof pre.sleep.seconds === 'number') return pre.sleep.seconds;
  const text = (pre.exec?.command ?? []).join(' ');
  const m = /\bsleep\s+(\d+(?:\.\d+)?)(s|m)?\b/.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  return m[2] === 'm' ? n * 60 : n;
}
