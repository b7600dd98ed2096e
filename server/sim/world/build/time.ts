/** Timestamps as the Kubernetes API writes them: RFC 3339, whole seconds, UTC. */
export function kubeTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** istio-proxy's own log stamp: microseconds, e.g. 2026-01-01T00:00:00.123456Z. */
export function proxyLogTime(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString(); // ...ss.mmmZ
  const micros = String(Math.floor((ms % 1) * 1000)).padStart(3, '0');
  return `${iso.slice(0, -1)}${micros}Z`;
}

/** Envoy %START_TIME%: milliseconds, e.g. 2026-01-01T00:00:00.123Z. */
export function accessLogTime(ms: number): string {
  return new Date(Math.floor(ms)).toISOString();
}

export const SECOND = 1000;
