/**
 * Hooks scenarios set on pods to steer what the simulated proxy reports. All of them are parsed
 * leniently: bad entries are skipped and counted in `errors`, never thrown.
 *
 * - `sim.meshdx.io/calls` (client pod): comma-separated `FQDN:PORT` or `FQDN:PORT=COUNT`, the
 *   upstreams the pod really calls. Their clusters get non-zero `upstream_rq_total` /
 *   `upstream_cx_total` in /stats (a stable made-up count unless COUNT is given); all others stay 0.
 * - `sim.meshdx.io/stale-endpoints` (client pod): comma-separated `HOST=IP` or `HOST:PORT=IP`
 *   (repeat an entry for several IPs). The proxy keeps these IPs in /clusters (and the EDS dump)
 *   for every outbound cluster of HOST (or only of HOST:PORT), in addition to the live endpoints:
 *   a deliberately stale EDS view, e.g. a pod that has been deleted but is still in the client's
 *   host list (the phantom-503 story).
 * - `sim.meshdx.io/proxy-init-ms` (any proxied pod): server.initialization_time_ms to report.
 * - `sim.meshdx.io/xds-stale` (any proxied pod): comma list of cds,lds,rds,eds whose last nonce
 *   the proxy has not ACKed (istiod /debug/syncz shows sent != acked).
 */
import type { Pod } from '../../../lib/kube/types';

export const CALLS_ANNOTATION = 'sim.meshdx.io/calls';
export const STALE_ENDPOINTS_ANNOTATION = 'sim.meshdx.io/stale-endpoints';
export const PROXY_INIT_ANNOTATION = 'sim.meshdx.io/proxy-init-ms';
export const XDS_STALE_ANNOTATION = 'sim.meshdx.io/xds-stale';

export interface AnnotationError {
  annotation: string;
  entry: string;
  message: string;
}

function entries(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** `host:port` -> call count. */
export function parseCalls(pod: Pod): {
  calls: Map<string, number | undefined>;
  errors: AnnotationError[];
} {
  const calls = new Map<string, number | undefined>();
  const errors: AnnotationError[] = [];
  for (const entry of entries(pod.metadata.annotations?.[CALLS_ANNOTATION])) {
    const m = /^([^:=\s]+):(\d+)(?:=(\d+))?$/.exec(entry);
    if (!m) {
      errors.push({ annotation: CALLS_ANNOTATION, entry, message: 'expected FQDN:PORT[=COUNT]' });
      continue;
    }
    calls.set(`${m[1]?.toLowerCase()}:${m[2]}`, m[3] !== undefined ? Number(m[3]) : undefined);
  }
  return { calls, errors };
}

export interface StaleEndpoint {
  host: string;
  port?: number;
  ip: string;
}

export function parseStaleEndpoints(pod: Pod): {
  stale: StaleEndpoint[];
  errors: AnnotationError[];
} {
  const stale: StaleEndpoint[] = [];
  const errors: AnnotationError[] = [];
  for (const entry of entries(pod.metadata.annotations?.[STALE_ENDPOINTS_ANNOTATION])) {
    const m = /^([^:=\s]+)(?::(\d+))?=([0-9a-fA-F.:]+)$/.exec(entry);
    if (!m || !m[1] || !m[3]) {
      errors.push({
        annotation: STALE_ENDPOINTS_ANNOTATION,
        entry,
        message: 'expected HOST[:PORT]=IP',
      });
      continue;
    }
    stale.push({ host: m[1].toLowerCase(), port: m[2] ? Number(m[2]) : undefined, ip: m[3] });
  }
  return { stale, errors };
}

export function staleXdsTypes(pod: Pod): Set<string> {
  return new Set(
    entries(pod.metadata.annotations?.[XDS_STALE_ANNOTATION]).map((s) => s.toLowerCase()),
  );
}

export function proxyInitMs(pod: Pod): number | undefined {
  const v = Number(pod.metadata.annotations?.[PROXY_INIT_ANNOTATION]);
  return Number.isFinite(v) && v >= 0 ? v : undefined;
}
