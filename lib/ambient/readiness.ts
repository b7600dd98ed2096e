/**
 * Ambient migration readiness of one namespace: what stops working, what must be rewritten and
 * what gets better when its pods move from sidecars to ztunnel (and waypoints).
 *
 * Field notes (istio.io ambient docs: "Migrating to ambient", "Layer 7 features", waypoints):
 * - ztunnel enforces L4 only. AuthorizationPolicy rules that need HTTP (to.operation methods,
 *   paths, hosts and their not* forms; from.source requestPrincipals; when keys under
 *   `request.`) are enforced only by a waypoint, and only when the policy is bound with
 *   `targetRefs` (kind Service, ServiceEntry or the waypoint Gateway). A policy with L7 rules
 *   that a receiving ztunnel would have to enforce (bound by `selector`) fails safe: ztunnel
 *   turns it into a DENY, so an ALLOW policy's callers start getting refused.
 * - VirtualService in ambient is alpha (waypoint only); HTTPRoute with `parentRefs` to the
 *   Service is the supported form. DestinationRule subsets become one Service per version.
 * - EnvoyFilter patches Envoy: ztunnel is not Envoy.
 * - ztunnel always speaks mTLS (HBONE) between ambient pods; PeerAuthentication DISABLE is an
 *   intent ambient does not keep (STRICT/PERMISSIVE still govern plaintext from outside).
 * - Sidecar resources scope sidecar proxies only; they stop mattering once no sidecar is left.
 */
import type { AmbientGains, NamespaceReadiness } from '../api/ambient';
import type { Finding } from '../findings/types';
import type { AuthorizationPolicy, Gateway } from '../kube/types';
import type { IstioConfig } from '../kube/istio-config';
import { parseObjectKey } from '../refs/object-ref';
import { AMBIENT } from './codes';
import { httpRouteFor, versionServices } from './rewrite';

/** One namespace's objects (its own, and the mesh's that apply to it) and pods. */
export interface ReadinessInput extends Pick<
  IstioConfig,
  | 'services'
  | 'authorizationPolicies'
  | 'peerAuthentications'
  | 'envoyFilters'
  | 'virtualServices'
  | 'destinationRules'
  | 'sidecars'
> {
  namespace: string;
  dataplane: 'ambient' | 'none';
  pods: { sidecar: number; ambient: number; none: number };
  /** The namespace's waypoint (`istio.io/use-waypoint`), when it names one. */
  waypoint: string | null;
  waypoints: readonly Gateway[];
  gains: AmbientGains;
}

const L7_OPERATION = ['methods', 'paths', 'hosts', 'notMethods', 'notPaths', 'notHosts'];
const L7_SOURCE = ['requestPrincipals', 'notRequestPrincipals'];

/** The HTTP-only parts of a policy's rules (empty: the policy is L4 and ztunnel enforces it). */
export function l7Fields(p: AuthorizationPolicy): string[] {
  const out = new Set<string>();
  for (const r of p.spec?.rules ?? []) {
    for (const t of r.to ?? []) {
      for (const k of L7_OPERATION) if (t.operation?.[k]?.length) out.add(`to.operation.${k}`);
    }
    for (const f of r.from ?? []) {
      for (const k of L7_SOURCE) if (f.source?.[k]?.length) out.add(`from.source.${k}`);
    }
    for (const w of r.when ?? []) if (w.key.startsWith('request.')) out.add(`when ${w.key}`);
  }
  // ztunnel reports `ZtunnelAccepted=False UnsupportedValue` for CUSTOM (ext-authz): waypoint only
  if (p.spec?.action === 'CUSTOM') out.add('action CUSTOM');
  return [...out].sort();
}

function subject(kind: string, o: { metadata: { name: string; namespace?: string } }) {
  return { kind, namespace: o.metadata.namespace ?? '', name: o.metadata.name };
}

function policyFinding(p: AuthorizationPolicy, input: ReadinessInput): Finding | null {
  const l7 = l7Fields(p);
  if (l7.length === 0) return null;
  const bound = (p.spec?.targetRefs?.length ?? 0) > 0 || p.spec?.targetRef !== undefined;
  const hasWaypoint = input.waypoint !== null || input.waypoints.length > 0;
  if (bound && hasWaypoint) return null;
  const wp = input.waypoint
    ? parseObjectKey(input.waypoint, 'waypoint reference').name
    : 'waypoint';
  const selector = p.spec?.selector?.matchLabels ?? {};
  const svc = input.services.find((s) => {
    const sel = s.spec.selector ?? {};
    const keys = Object.keys(selector);
    return keys.length > 0 && keys.every((k) => sel[k] === selector[k]);
  });
  const target = svc
    ? `  targetRefs:\n  - kind: Service\n    group: ""\n    name: ${svc.metadata.name}`
    : `  targetRefs:\n  - kind: Gateway\n    group: gateway.networking.k8s.io\n    name: ${wp}`;
  const waypointStep = hasWaypoint
    ? ''
    : `# 1. a waypoint for the namespace\nistioctl waypoint apply -n ${input.namespace} --enroll-namespace\n# 2. the policy bound to it\n`;
  return {
    code: AMBIENT.code.l7PolicyNeedsWaypoint,
    severity: AMBIENT.byKey.l7PolicyNeedsWaypoint.severity,
    subject: subject('AuthorizationPolicy', p),
    evidence: {
      l7: l7.join(', '),
      boundBy: bound ? 'targetRefs' : p.spec?.selector ? 'selector' : 'namespace-wide',
      waypoint: input.waypoint,
      action: p.spec?.action ?? 'ALLOW',
    },
    fix: {
      why: hasWaypoint
        ? 'bind the policy to the Service (or the waypoint) with targetRefs instead of selector: only the waypoint can enforce HTTP rules'
        : 'deploy a waypoint, then bind the policy with targetRefs instead of selector: only the waypoint can enforce HTTP rules',
      yaml: `${waypointStep}spec:\n  # remove: selector\n${target}`,
    },
  };
}

function modeDisables(mode: string | undefined): boolean {
  return mode === 'DISABLE';
}

/** The namespace's readiness findings and status. */
export function namespaceReadiness(input: ReadinessInput): NamespaceReadiness {
  const findings: Finding[] = [];
  for (const p of input.authorizationPolicies) {
    const f = policyFinding(p, input);
    if (f) findings.push(f);
  }
  for (const vs of input.virtualServices) {
    if ((vs.spec.gateways ?? []).some((g) => g !== 'mesh')) continue; // ingress routes stay
    findings.push({
      code: AMBIENT.code.virtualService,
      severity: AMBIENT.byKey.virtualService.severity,
      subject: subject('VirtualService', vs),
      evidence: { hosts: (vs.spec.hosts ?? []).join(', '), routes: vs.spec.http?.length ?? 0 },
      fix: {
        why: 'write the routing as a Gateway API HTTPRoute on the Service',
        yaml: httpRouteFor(vs, input.namespace),
      },
    });
  }
  for (const ef of input.envoyFilters) {
    findings.push({
      code: AMBIENT.code.envoyFilter,
      severity: AMBIENT.byKey.envoyFilter.severity,
      subject: subject('EnvoyFilter', ef),
      evidence: {
        patches: ef.spec?.configPatches?.length ?? 0,
        selector:
          Object.entries(ef.spec?.workloadSelector?.labels ?? {})
            .map(([k, v]) => `${k}=${v}`)
            .join(',') || null,
      },
      fix: {
        why: 'find a supported replacement (Telemetry, WasmPlugin on a waypoint, an HTTPRoute filter) or keep these workloads on sidecars',
      },
    });
  }
  for (const pa of input.peerAuthentications) {
    const ports = Object.entries(pa.spec?.portLevelMtls ?? {})
      .filter(([, m]) => modeDisables(m.mode))
      .map(([p]) => p);
    if (!modeDisables(pa.spec?.mtls?.mode) && ports.length === 0) continue;
    findings.push({
      code: AMBIENT.code.peerAuthDisable,
      severity: AMBIENT.byKey.peerAuthDisable.severity,
      subject: subject('PeerAuthentication', pa),
      evidence: { mode: pa.spec?.mtls?.mode ?? null, disabledPorts: ports.join(',') || null },
      fix: {
        why: 'find the plaintext client this was for: between ambient pods traffic is mTLS regardless; keep the workload out of ambient if it must stay plaintext',
      },
    });
  }
  for (const dr of input.destinationRules) {
    if (!dr.spec.subsets?.length) continue;
    findings.push({
      code: AMBIENT.code.subsetNeedsService,
      severity: AMBIENT.byKey.subsetNeedsService.severity,
      subject: subject('DestinationRule', dr),
      evidence: { host: dr.spec.host, subsets: dr.spec.subsets.map((s) => s.name).join(', ') },
      fix: {
        why: 'one Service per version, for HTTPRoute backendRefs',
        yaml: versionServices(dr, input.services, input.namespace),
      },
    });
  }
  for (const sc of input.sidecars) {
    findings.push({
      code: AMBIENT.code.sidecarResource,
      severity: AMBIENT.byKey.sidecarResource.severity,
      subject: subject('Sidecar', sc),
      evidence: { egressHosts: (sc.spec.egress ?? []).flatMap((e) => e.hosts).length },
      fix: { why: 'delete it once no sidecar pod is left in the namespace' },
    });
  }
  const mid = input.dataplane === 'ambient' && input.pods.sidecar > 0;
  if (mid) {
    findings.push({
      code: AMBIENT.code.mixedNamespace,
      severity: AMBIENT.byKey.mixedNamespace.severity,
      subject: { kind: 'Namespace', name: input.namespace },
      evidence: { sidecarPods: input.pods.sidecar, ambientPods: input.pods.ambient },
      fix: {
        why: 'turn injection off for the namespace and restart its workloads so they come back without sidecars',
        yaml: `kubectl label namespace ${input.namespace} istio-injection- istio.io/rev-\nkubectl -n ${input.namespace} rollout restart deployment`,
      },
    });
  }
  const status: NamespaceReadiness['status'] =
    input.dataplane === 'ambient'
      ? mid
        ? 'mid-migration'
        : 'migrated'
      : findings.some((f) => f.severity === 'error')
        ? 'blocked'
        : findings.some((f) => f.severity === 'warning')
          ? 'needs-work'
          : 'ready';
  return {
    namespace: input.namespace,
    dataplane: input.dataplane,
    pods: input.pods,
    waypoint: input.waypoint,
    status,
    findings,
    gains: input.gains,
  };
}
