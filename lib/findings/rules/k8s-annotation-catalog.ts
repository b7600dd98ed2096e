/**
 * The Istio annotations istioctl's analyzers know, with the facts they judge by: the feature
 * status, whether it is deprecated, and the kinds of resource it belongs on ('Any': every kind).
 * Taken from istio/api annotation/annotations.gen.go (the list of AllResourceAnnotations) at
 * commit b8f8791d9653b2edc77a071d48887e582cfe84bf (2026-07-21; its last change to the
 * annotations is 66634fdd1, "well-known labels and annotation for weighted waypoint canary"),
 * the annotation catalog Istio 1.31's istioctl is built with.
 */
import type { KubeObject } from '../../kube/types';
import type { Finding } from '../types';

export type IstioFeatureStatus = 'alpha' | 'beta' | 'stable';

export interface IstioAnnotationFacts {
  status: IstioFeatureStatus;
  /** The kinds it belongs on, as istioctl names them; 'Any' for every kind. */
  on: readonly string[];
  deprecated?: true;
}

export const ISTIO_ANNOTATIONS: ReadonlyMap<string, IstioAnnotationFacts> = new Map<
  string,
  IstioAnnotationFacts
>([
  [
    'alpha.istio.io/canonical-serviceaccounts',
    { status: 'alpha', on: ['Service'], deprecated: true },
  ],
  [
    'alpha.istio.io/kubernetes-serviceaccounts',
    { status: 'alpha', on: ['Service'], deprecated: true },
  ],
  ['ambient.istio.io/bypass-inbound-capture', { status: 'alpha', on: ['Pod'] }],
  ['ambient.istio.io/dns-capture', { status: 'alpha', on: ['Pod'] }],
  ['ambient.istio.io/redirection', { status: 'beta', on: ['Pod'] }],
  [
    'ambient.istio.io/waypoint-inbound-binding',
    { status: 'alpha', on: ['GatewayClass', 'Gateway'] },
  ],
  ['galley.istio.io/analyze-suppress', { status: 'alpha', on: ['Any'] }],
  ['gateway.istio.io/controller-version', { status: 'alpha', on: ['Any'] }],
  ['gateway.istio.io/name-override', { status: 'alpha', on: ['Gateway'] }],
  ['gateway.istio.io/service-account', { status: 'alpha', on: ['Gateway'] }],
  ['inject.istio.io/templates', { status: 'alpha', on: ['Pod'] }],
  ['istio.io/autoRegistrationGroup', { status: 'alpha', on: ['WorkloadEntry'] }],
  ['istio.io/connectedAt', { status: 'alpha', on: ['WorkloadEntry'] }],
  ['istio.io/disconnectedAt', { status: 'alpha', on: ['WorkloadEntry'] }],
  ['istio.io/dry-run', { status: 'alpha', on: ['AuthorizationPolicy'] }],
  ['istio.io/reroute-virtual-interfaces', { status: 'alpha', on: ['Pod'] }],
  ['istio.io/rev', { status: 'alpha', on: ['Pod'] }],
  [
    'istio.io/use-waypoint-canary-weight',
    { status: 'alpha', on: ['Service', 'ServiceEntry', 'Namespace'] },
  ],
  ['istio.io/workloadController', { status: 'alpha', on: ['WorkloadEntry'] }],
  ['kubernetes.io/ingress.class', { status: 'stable', on: ['Ingress'] }],
  ['networking.istio.io/exportTo', { status: 'alpha', on: ['Service'] }],
  ['networking.istio.io/service-type', { status: 'alpha', on: ['Gateway'] }],
  [
    'networking.istio.io/traffic-distribution',
    { status: 'alpha', on: ['Namespace', 'Service', 'ServiceEntry'] },
  ],
  ['prometheus.istio.io/merge-metrics', { status: 'alpha', on: ['Pod'] }],
  ['proxy.istio.io/config', { status: 'beta', on: ['Pod'] }],
  ['proxy.istio.io/overrides', { status: 'alpha', on: ['Pod'] }],
  ['readiness.status.sidecar.istio.io/applicationPorts', { status: 'alpha', on: ['Pod'] }],
  ['readiness.status.sidecar.istio.io/failureThreshold', { status: 'alpha', on: ['Pod'] }],
  ['readiness.status.sidecar.istio.io/initialDelaySeconds', { status: 'alpha', on: ['Pod'] }],
  ['readiness.status.sidecar.istio.io/periodSeconds', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/agentLogLevel', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/bootstrapOverride', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/componentLogLevel', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/discoveryAddress', { status: 'alpha', on: ['Pod'], deprecated: true }],
  ['sidecar.istio.io/extraStatTags', { status: 'alpha', on: ['Pod'], deprecated: true }],
  ['sidecar.istio.io/inject', { status: 'beta', on: ['Pod'], deprecated: true }],
  ['sidecar.istio.io/interceptionMode', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/logLevel', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/nativeSidecar', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/proxyCPU', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/proxyCPULimit', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/proxyImage', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/proxyImageType', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/proxyMemory', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/proxyMemoryLimit', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/rewriteAppHTTPProbers', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/statsCompression', { status: 'alpha', on: ['Pod'], deprecated: true }],
  ['sidecar.istio.io/statsEvictionInterval', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/statsFlushInterval', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/statsHistogramBins', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/statsHistogramBuckets', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/statsInclusionPrefixes', { status: 'alpha', on: ['Pod'], deprecated: true }],
  ['sidecar.istio.io/statsInclusionRegexps', { status: 'alpha', on: ['Pod'], deprecated: true }],
  ['sidecar.istio.io/statsInclusionSuffixes', { status: 'alpha', on: ['Pod'], deprecated: true }],
  ['sidecar.istio.io/status', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/userVolume', { status: 'alpha', on: ['Pod'] }],
  ['sidecar.istio.io/userVolumeMount', { status: 'alpha', on: ['Pod'] }],
  ['status.sidecar.istio.io/port', { status: 'alpha', on: ['Pod'] }],
  ['topology.istio.io/controlPlaneClusters', { status: 'alpha', on: ['Namespace'] }],
  ['traffic.istio.io/nodeSelector', { status: 'stable', on: ['Service'] }],
  ['traffic.sidecar.istio.io/excludeInboundPorts', { status: 'alpha', on: ['Pod'] }],
  ['traffic.sidecar.istio.io/excludeInterfaces', { status: 'alpha', on: ['Pod'] }],
  ['traffic.sidecar.istio.io/excludeOutboundIPRanges', { status: 'alpha', on: ['Pod'] }],
  ['traffic.sidecar.istio.io/excludeOutboundPorts', { status: 'alpha', on: ['Pod'] }],
  ['traffic.sidecar.istio.io/includeInboundPorts', { status: 'alpha', on: ['Pod'] }],
  ['traffic.sidecar.istio.io/includeOutboundIPRanges', { status: 'alpha', on: ['Pod'] }],
  ['traffic.sidecar.istio.io/includeOutboundPorts', { status: 'alpha', on: ['Pod'] }],
  [
    'traffic.sidecar.istio.io/kubevirtInterfaces',
    { status: 'alpha', on: ['Pod'], deprecated: true },
  ],
]);

/** An annotation in Istio's namespace (a `*istio.io` prefix), or the Ingress class Istio documents. */
export function isIstioAnnotationKey(key: string): boolean {
  if (key === 'kubernetes.io/ingress.class') return true;
  return (key.split('/')[0] ?? '').endsWith('istio.io');
}

/**
 * Annotations Istio's own components write (the injector's status, the gateway controller's
 * version, the revision): istioctl never reports them.
 */
export const ISTIO_WRITTEN_ANNOTATIONS: ReadonlySet<string> = new Set([
  'sidecar.istio.io/status',
  'gateway.istio.io/controller-version',
  'istio.io/rev',
]);

/** The kinds whose annotations istioctl's annotation analyzers read. */
export const ANNOTATED_KINDS = ['Namespace', 'Service', 'Pod', 'Deployment'] as const;

/** The string-valued annotations of an object's metadata (read defensively). */
export function annotationsOf(o: KubeObject): [string, string][] {
  const a: unknown = o.metadata.annotations;
  if (a === null || typeof a !== 'object' || Array.isArray(a)) return [];
  return Object.entries(a as Record<string, unknown>).flatMap(([k, v]) =>
    typeof v === 'string' ? [[k, v] as [string, string]] : [],
  );
}

/** A finding's subject as istioctl names the resource: kind, namespace when it has one, name. */
export function annotatedSubject(o: KubeObject, kind: string): Finding['subject'] {
  const subject: Finding['subject'] = { kind, name: o.metadata.name };
  if (o.metadata.namespace !== undefined) subject.namespace = o.metadata.namespace;
  return subject;
}
