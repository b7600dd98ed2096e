import type { Finding } from '../findings/types';
import type { Container, Pod, Probe } from '../kube/types';
import { CODES } from './codes';
import { hasProxy, proxyContainer } from '../dataplane/proxy-container';
import { groupWorkloads, PROXY_NAME } from './select';

export const REWRITE_ANNOTATION = 'sidecar.istio.io/rewriteAppHTTPProbers';
export const PROBERS_ENV = 'ISTIO_KUBE_APP_PROBERS';
const AGENT_PORT = 15020;
/** Ports of the proxy itself: probes on them are the proxy's, never rewritten. */
const PROXY_PORTS: ReadonlySet<number> = new Set([15020, 15021, 15090, 15000]);

export type ProbeKind = 'readiness' | 'liveness' | 'startup';

const KINDS: readonly [ProbeKind, keyof Container][] = [
  ['readiness', 'readinessProbe'],
  ['liveness', 'livenessProbe'],
  ['startup', 'startupProbe'],
];

export interface DecodedProbers {
  /** Original probe by rewritten path (/app-health/<ctr>/readyz ...). */
  byPath: Map<string, string>;
  error: string | null;
}

function describeProbe(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const o = v as Record<string, unknown>;
  const pick = (k: string): Record<string, unknown> | undefined => {
    const x = o[k];
    return x !== null && typeof x === 'object' ? (x as Record<string, unknown>) : undefined;
  };
  const http = pick('httpGet');
  if (http !== undefined) {
    const scheme = typeof http.scheme === 'string' ? http.scheme : 'HTTP';
    const host = typeof http.host === 'string' ? http.host : '';
    const path = typeof http.path === 'string' ? http.path : '/';
    return `${scheme} GET ${host}:${String(http.port)}${path}`;
  }
  const tcp = pick('tcpSocket');
  if (tcp !== undefined) return `TCP :${String(tcp.port)}`;
  const grpc = pick('grpc');
  if (grpc !== undefined) {
    return `gRPC :${String(grpc.port)}${typeof grpc.service === 'string' ? ` ${grpc.service}` : ''}`;
  }
  return JSON.stringify(v);
}

/** Decode the proxy's ISTIO_KUBE_APP_PROBERS JSON (rewritten path -> original probe). */
export function decodeAppProbers(value: string | undefined): DecodedProbers {
  const byPath = new Map<string, string>();
  if (value === undefined || value === '') return { byPath, error: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (e) {
    return { byPath, error: `${PROBERS_ENV} is not JSON: ${(e as Error).message}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { byPath, error: `${PROBERS_ENV} is not a JSON object` };
  }
  for (const [path, probe] of Object.entries(parsed)) byPath.set(path, describeProbe(probe));
  return { byPath, error: null };
}

function probesOf(c: Container): { kind: ProbeKind; probe: Probe }[] {
  const out: { kind: ProbeKind; probe: Probe }[] = [];
  for (const [kind, key] of KINDS) {
    const p = c[key] as Probe | undefined;
    if (p !== undefined) out.push({ kind, probe: p });
  }
  return out;
}

const isRewritten = (p: Probe): boolean =>
  p.httpGet !== undefined &&
  Number(p.httpGet.port) === AGENT_PORT &&
  (p.httpGet.path ?? '').startsWith('/app-health/');

/** App containers, including native sidecars (initContainers that keep running). */
function probedContainers(pod: Pod): Container[] {
  const inits = (pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  return [...pod.spec.containers, ...inits].filter((c) => c.name !== PROXY_NAME);
}

/** HTTP probes of meshed workloads: not rewritten (MDX0505) or rewritten, with the original (MDX0506). */
export function probeFindings(pods: readonly Pod[]): Finding[] {
  const out: Finding[] = [];
  for (const w of groupWorkloads(pods.filter(hasProxy))) {
    const pod = w.pod;
    const subject = { kind: w.kind, namespace: w.namespace, name: w.name };
    const annotation = pod.metadata.annotations?.[REWRITE_ANNOTATION] ?? null;
    const env = proxyContainer(pod)?.env?.find((e) => e.name === PROBERS_ENV)?.value;
    const decoded = decodeAppProbers(env);
    for (const c of probedContainers(pod)) {
      for (const { kind, probe } of probesOf(c)) {
        const http = probe.httpGet;
        if (http === undefined) continue;
        if (isRewritten(probe)) {
          const path = http.path ?? '';
          out.push({
            code: CODES.probeRewritten,
            severity: 'info',
            subject,
            part: { kind: 'probe', name: `${c.name}/${kind}` },
            evidence: {
              container: c.name,
              probe: kind,
              rewrittenTo: `:${AGENT_PORT}${path}`,
              original: decoded.byPath.get(path) ?? null,
              decodeError:
                decoded.error ??
                (decoded.byPath.has(path) ? null : `${path} not in ${PROBERS_ENV}`),
            },
          });
          continue;
        }
        if (PROXY_PORTS.has(Number(http.port))) continue;
        out.push({
          code: CODES.probeNotRewritten,
          severity: 'warning',
          subject,
          part: { kind: 'probe', name: `${c.name}/${kind}` },
          evidence: {
            container: c.name,
            probe: kind,
            target: `${http.scheme ?? 'HTTP'} GET :${String(http.port)}${http.path ?? '/'}`,
            annotation: annotation === null ? null : `${REWRITE_ANNOTATION}=${annotation}`,
            pods: w.pods,
          },
          fix: {
            why: 'With rewriting, pilot-agent runs the probe inside the pod, so STRICT mTLS cannot reject the kubelet. Remove the opt-out (or set it to "true") in the pod template and restart.',
            yaml: `spec:\n  template:\n    metadata:\n      annotations:\n        ${REWRITE_ANNOTATION}: "true"\n`,
          },
        });
      }
    }
  }
  return out;
}
