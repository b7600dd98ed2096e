/** Resource kinds the simulator stores, by their plural API name. */
export type SimKind =
  | 'namespaces'
  | 'pods'
  | 'services'
  | 'endpointslices'
  | 'events'
  | 'configmaps'
  | 'nodes'
  | 'sidecars'
  | 'destinationrules'
  | 'virtualservices'
  | 'serviceentries'
  | 'secrets'
  | 'nodes'
  | 'deployments'
  | 'replicasets'
  | 'statefulsets'
  | 'daemonsets'
  | 'jobs'
  | 'cronjobs'
  | 'ingresses'
  | 'mutatingwebhookconfigurations'
  | 'validatingwebhookconfigurations'
  | 'customresourcedefinitions'
  | 'gateways'
  | 'envoyfilters'
  | 'proxyconfigs'
  | 'authorizationpolicies'
  | 'peerauthentications'
  | 'requestauthentications'
  | 'telemetries'
  | 'wasmplugins'
  | 'k8sgateways'
  | 'httproutes'
  | 'grpcroutes'
  | 'gatewayclasses'
  | 'serviceaccounts'
  | 'roles'
  | 'clusterroles'
  | 'rolebindings'
  | 'clusterrolebindings';

/** How one stored kind appears on the Kubernetes API: group, versions, names, scope. */
export interface KindInfo {
  /** The store's key for the kind (unique even where two groups share a plural). */
  resource: SimKind;
  /** The resource name on the URL and in discovery ("gateways" in two groups). */
  plural: string;
  /** '' for the core group. */
  group: string;
  /** Served versions, preferred first. */
  versions: readonly string[];
  kind: string;
  singular: string;
  namespaced: boolean;
  shortNames: readonly string[];
  categories: readonly string[];
  /** Whether POST/PUT/DELETE are served. */
  writable: boolean;
  /** A kind compiled into the API server (strategic merge patch), not a custom resource. */
  builtin: boolean;
}

type KindArgs = Partial<Omit<KindInfo, 'resource' | 'kind'>> & { kind: string };

function kind(
  resource: SimKind,
  group: string,
  versions: readonly string[],
  a: KindArgs,
): KindInfo {
  return {
    resource,
    plural: a.plural ?? resource,
    group,
    versions,
    kind: a.kind,
    singular: a.singular ?? a.kind.toLowerCase(),
    namespaced: a.namespaced ?? true,
    shortNames: a.shortNames ?? [],
    categories: a.categories ?? [],
    writable: true,
    builtin: a.builtin ?? BUILTIN_GROUPS.has(group),
  };
}

/** Groups served by kube-apiserver itself; everything else is a CRD (Istio, Gateway API). */
const BUILTIN_GROUPS = new Set([
  '',
  'apps',
  'batch',
  'discovery.k8s.io',
  'networking.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'rbac.authorization.k8s.io',
]);

const ISTIO_NET = ['v1', 'v1beta1', 'v1alpha3'] as const;
const ISTIO_SEC = ['v1', 'v1beta1'] as const;
const ISTIO_CATEGORIES = ['istio-io', 'networking-istio-io'] as const;
const ISTIO_SEC_CATEGORIES = ['istio-io', 'security-istio-io'] as const;
const GATEWAY_API = ['v1', 'v1beta1'] as const;
const GATEWAY_API_CATEGORIES = ['gateway-api'] as const;
const ALL = ['all'] as const;

const core = (resource: SimKind, a: KindArgs) => kind(resource, '', ['v1'], a);
const apps = (resource: SimKind, a: KindArgs) =>
  kind(resource, 'apps', ['v1'], { categories: ALL, ...a });
const rbac = (resource: SimKind, a: KindArgs) =>
  kind(resource, 'rbac.authorization.k8s.io', ['v1'], a);
const istioNet = (resource: SimKind, a: KindArgs, versions: readonly string[] = ISTIO_NET) =>
  kind(resource, 'networking.istio.io', versions, { categories: ISTIO_CATEGORIES, ...a });
const istioSec = (resource: SimKind, a: KindArgs) =>
  kind(resource, 'security.istio.io', ISTIO_SEC, { categories: ISTIO_SEC_CATEGORIES, ...a });
const gatewayApi = (resource: SimKind, a: KindArgs) =>
  kind(resource, 'gateway.networking.k8s.io', GATEWAY_API, {
    categories: GATEWAY_API_CATEGORIES,
    ...a,
  });

/**
 * Every kind the simulator serves: what a cluster always has, plus the CRDs of an Istio install
 * (networking, security, telemetry, extensions) and of the Kubernetes Gateway API (which Istio
 * installs or requires for its gateway controller). Kinds outside this table answer 404, and
 * kubectl reports "no matches for kind" for them, as against a cluster without their CRD.
 */
export const KINDS: Readonly<Record<SimKind, KindInfo>> = {
  namespaces: core('namespaces', { kind: 'Namespace', namespaced: false, shortNames: ['ns'] }),
  pods: core('pods', { kind: 'Pod', shortNames: ['po'], categories: ALL }),
  services: core('services', { kind: 'Service', shortNames: ['svc'], categories: ALL }),
  events: core('events', { kind: 'Event', shortNames: ['ev'] }),
  configmaps: core('configmaps', { kind: 'ConfigMap', shortNames: ['cm'] }),
  secrets: core('secrets', { kind: 'Secret' }),
  nodes: core('nodes', { kind: 'Node', namespaced: false, shortNames: ['no'] }),
  endpointslices: kind('endpointslices', 'discovery.k8s.io', ['v1'], { kind: 'EndpointSlice' }),
  deployments: apps('deployments', { kind: 'Deployment', shortNames: ['deploy'] }),
  replicasets: apps('replicasets', { kind: 'ReplicaSet', shortNames: ['rs'] }),
  statefulsets: apps('statefulsets', { kind: 'StatefulSet', shortNames: ['sts'] }),
  daemonsets: apps('daemonsets', { kind: 'DaemonSet', shortNames: ['ds'] }),
  jobs: kind('jobs', 'batch', ['v1'], { kind: 'Job', categories: ALL }),
  cronjobs: kind('cronjobs', 'batch', ['v1'], {
    kind: 'CronJob',
    shortNames: ['cj'],
    categories: ALL,
  }),
  ingresses: kind('ingresses', 'networking.k8s.io', ['v1'], {
    kind: 'Ingress',
    shortNames: ['ing'],
  }),
  mutatingwebhookconfigurations: kind(
    'mutatingwebhookconfigurations',
    'admissionregistration.k8s.io',
    ['v1'],
    { kind: 'MutatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'] },
  ),
  validatingwebhookconfigurations: kind(
    'validatingwebhookconfigurations',
    'admissionregistration.k8s.io',
    ['v1'],
    { kind: 'ValidatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'] },
  ),
  customresourcedefinitions: kind('customresourcedefinitions', 'apiextensions.k8s.io', ['v1'], {
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
  }),
  sidecars: istioNet('sidecars', { kind: 'Sidecar' }),
  destinationrules: istioNet('destinationrules', { kind: 'DestinationRule', shortNames: ['dr'] }),
  virtualservices: istioNet('virtualservices', { kind: 'VirtualService', shortNames: ['vs'] }),
  serviceentries: istioNet('serviceentries', { kind: 'ServiceEntry', shortNames: ['se'] }),
  gateways: istioNet('gateways', { kind: 'Gateway', shortNames: ['gw'] }),
  envoyfilters: istioNet('envoyfilters', { kind: 'EnvoyFilter' }, ['v1alpha3']),
  proxyconfigs: istioNet('proxyconfigs', { kind: 'ProxyConfig' }, ['v1beta1']),
  authorizationpolicies: istioSec('authorizationpolicies', {
    kind: 'AuthorizationPolicy',
    shortNames: ['ap'],
  }),
  peerauthentications: istioSec('peerauthentications', {
    kind: 'PeerAuthentication',
    shortNames: ['pa'],
  }),
  requestauthentications: istioSec('requestauthentications', {
    kind: 'RequestAuthentication',
    shortNames: ['ra'],
  }),
  telemetries: kind('telemetries', 'telemetry.istio.io', ['v1', 'v1alpha1'], {
    kind: 'Telemetry',
    shortNames: ['telemetry'],
    categories: ['istio-io', 'telemetry-istio-io'],
  }),
  wasmplugins: kind('wasmplugins', 'extensions.istio.io', ['v1alpha1'], {
    kind: 'WasmPlugin',
    categories: ['istio-io', 'extensions-istio-io'],
  }),
  k8sgateways: gatewayApi('k8sgateways', {
    kind: 'Gateway',
    plural: 'gateways',
    shortNames: ['gtw'],
  }),
  httproutes: gatewayApi('httproutes', { kind: 'HTTPRoute' }),
  grpcroutes: gatewayApi('grpcroutes', { kind: 'GRPCRoute' }),
  gatewayclasses: gatewayApi('gatewayclasses', {
    kind: 'GatewayClass',
    namespaced: false,
    shortNames: ['gc'],
  }),
  // who may do what: what the RBAC authorizer (api/rbac.ts) evaluates
  serviceaccounts: core('serviceaccounts', { kind: 'ServiceAccount', shortNames: ['sa'] }),
  roles: rbac('roles', { kind: 'Role' }),
  clusterroles: rbac('clusterroles', { kind: 'ClusterRole', namespaced: false }),
  rolebindings: rbac('rolebindings', { kind: 'RoleBinding' }),
  clusterrolebindings: rbac('clusterrolebindings', {
    kind: 'ClusterRoleBinding',
    namespaced: false,
  }),
};

export const ALL_KINDS: readonly SimKind[] = Object.keys(KINDS) as SimKind[];

/** `apiVersion` string for a group and version ("v1" for core). */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** The kind served at group/version/resource, if any. */
export function findKind(group: string, version: string, resource: string): KindInfo | undefined {
  for (const info of Object.values(KINDS)) {
    if (info.group === group && info.plural === resource && info.versions.includes(version)) {
      return info;
    }
  }
  return undefined;
}

/** Every API group (other than core) with the union of its kinds' versions, preferred first. */
export function apiGroups(): { name: string; versions: readonly string[] }[] {
  const out = new Map<string, string[]>();
  for (const info of Object.values(KINDS)) {
    if (info.group === '') continue;
    const vs = out.get(info.group) ?? [];
    for (const v of info.versions) if (!vs.includes(v)) vs.push(v);
    out.set(info.group, vs);
  }
  return [...out].map(([name, versions]) => ({ name, versions }));
}
