/**
 * Where the API server serves each kind meshdx reads: its group, its resource (plural), whether
 * it is namespaced, and the versions to ask for, newest first (a CRD installed at an older
 * version answers 404 at a newer one). One table for the readers of a live cluster and for the
 * API server an archive is served by.
 */
export interface KindResource {
  /** '' for the core group. */
  group: string;
  plural: string;
  namespaced: boolean;
  /** Newest first; the first one served is used. */
  versions: readonly string[];
  /** Served by a CustomResourceDefinition (Istio's, Gateway API's): absent where not installed. */
  crd: boolean;
}

const core = (plural: string, namespaced = true): KindResource => ({
  group: '',
  plural,
  namespaced,
  versions: ['v1'],
  crd: false,
});
const at = (
  group: string,
  plural: string,
  versions: readonly string[],
  namespaced = true,
): KindResource => ({
  group,
  plural,
  namespaced,
  versions,
  crd: group.endsWith('.istio.io') || group === 'gateway.networking.k8s.io',
});

/** Istio's networking CRDs serve v1 from 1.22, v1beta1 and v1alpha3 before. */
const NETWORKING = ['v1', 'v1beta1', 'v1alpha3'] as const;
const SECURITY = ['v1', 'v1beta1'] as const;
const GATEWAY_API = ['v1', 'v1beta1', 'v1alpha2'] as const;

export const KIND_RESOURCES: Readonly<Record<string, KindResource>> = {
  Pod: core('pods'),
  Service: core('services'),
  Endpoints: core('endpoints'),
  ConfigMap: core('configmaps'),
  Event: core('events'),
  Namespace: core('namespaces', false),
  Node: core('nodes', false),
  Secret: core('secrets'),
  ServiceAccount: core('serviceaccounts'),
  Deployment: at('apps', 'deployments', ['v1']),
  ReplicaSet: at('apps', 'replicasets', ['v1']),
  StatefulSet: at('apps', 'statefulsets', ['v1']),
  DaemonSet: at('apps', 'daemonsets', ['v1']),
  Job: at('batch', 'jobs', ['v1']),
  CronJob: at('batch', 'cronjobs', ['v1']),
  EndpointSlice: at('discovery.k8s.io', 'endpointslices', ['v1']),
  Ingress: at('networking.k8s.io', 'ingresses', ['v1']),
  NetworkPolicy: at('networking.k8s.io', 'networkpolicies', ['v1']),
  HorizontalPodAutoscaler: at('autoscaling', 'horizontalpodautoscalers', ['v2', 'v1']),
  MutatingWebhookConfiguration: at(
    'admissionregistration.k8s.io',
    'mutatingwebhookconfigurations',
    ['v1'],
    false,
  ),
  ValidatingWebhookConfiguration: at(
    'admissionregistration.k8s.io',
    'validatingwebhookconfigurations',
    ['v1'],
    false,
  ),
  CustomResourceDefinition: at('apiextensions.k8s.io', 'customresourcedefinitions', ['v1'], false),
  Sidecar: at('networking.istio.io', 'sidecars', NETWORKING),
  DestinationRule: at('networking.istio.io', 'destinationrules', NETWORKING),
  VirtualService: at('networking.istio.io', 'virtualservices', NETWORKING),
  ServiceEntry: at('networking.istio.io', 'serviceentries', NETWORKING),
  WorkloadEntry: at('networking.istio.io', 'workloadentries', NETWORKING),
  WorkloadGroup: at('networking.istio.io', 'workloadgroups', NETWORKING),
  EnvoyFilter: at('networking.istio.io', 'envoyfilters', ['v1alpha3']),
  ProxyConfig: at('networking.istio.io', 'proxyconfigs', ['v1beta1']),
  AuthorizationPolicy: at('security.istio.io', 'authorizationpolicies', SECURITY),
  PeerAuthentication: at('security.istio.io', 'peerauthentications', SECURITY),
  RequestAuthentication: at('security.istio.io', 'requestauthentications', SECURITY),
  Telemetry: at('telemetry.istio.io', 'telemetries', ['v1', 'v1alpha1']),
  WasmPlugin: at('extensions.istio.io', 'wasmplugins', ['v1alpha1']),
  IstioOperator: at('install.istio.io', 'istiooperators', ['v1alpha1']),
  GatewayClass: at('gateway.networking.k8s.io', 'gatewayclasses', GATEWAY_API, false),
  HTTPRoute: at('gateway.networking.k8s.io', 'httproutes', GATEWAY_API),
  GRPCRoute: at('gateway.networking.k8s.io', 'grpcroutes', GATEWAY_API),
  TCPRoute: at('gateway.networking.k8s.io', 'tcproutes', ['v1alpha2']),
  TLSRoute: at('gateway.networking.k8s.io', 'tlsroutes', ['v1alpha2']),
  ReferenceGrant: at('gateway.networking.k8s.io', 'referencegrants', ['v1beta1', 'v1alpha2']),
};

/**
 * The resource of a kind; `group` tells the two Gateways apart (networking.istio.io's and
 * Gateway API's), which share the name.
 */
export function kindResource(kind: string, group?: string): KindResource | null {
  if (kind === 'Gateway') {
    return group === 'gateway.networking.k8s.io'
      ? at(group, 'gateways', GATEWAY_API)
      : at('networking.istio.io', 'gateways', NETWORKING);
  }
  return KIND_RESOURCES[kind] ?? null;
}
