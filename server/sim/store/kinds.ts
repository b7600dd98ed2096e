import type { SimKind } from '../mesh/types';

/** How one stored kind appears on the Kubernetes API: group, versions, names, scope. */
export interface KindInfo {
  resource: SimKind;
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
}

const ISTIO_VERSIONS = ['v1', 'v1beta1', 'v1alpha3'] as const;
const ISTIO_CATEGORIES = ['istio-io', 'networking-istio-io'] as const;

export const KINDS: Readonly<Record<SimKind, KindInfo>> = {
  namespaces: core('namespaces', 'Namespace', 'namespace', false, ['ns']),
  pods: core('pods', 'Pod', 'pod', true, ['po'], ['all']),
  services: core('services', 'Service', 'service', true, ['svc'], ['all']),
  events: core('events', 'Event', 'event', true, ['ev']),
  configmaps: core('configmaps', 'ConfigMap', 'configmap', true, ['cm']),
  nodes: core('nodes', 'Node', 'node', false, ['no']),
  endpointslices: {
    resource: 'endpointslices',
    group: 'discovery.k8s.io',
    versions: ['v1'],
    kind: 'EndpointSlice',
    singular: 'endpointslice',
    namespaced: true,
    shortNames: [],
    categories: [],
    writable: true,
  },
  sidecars: istio('sidecars', 'Sidecar', 'sidecar', []),
  destinationrules: istio('destinationrules', 'DestinationRule', 'destinationrule', ['dr']),
  virtualservices: istio('virtualservices', 'VirtualService', 'virtualservice', ['vs']),
  serviceentries: istio('serviceentries', 'ServiceEntry', 'serviceentry', ['se']),
};

function core(
  resource: SimKind,
  kind: string,
  singular: string,
  namespaced: boolean,
  shortNames: string[],
  categories: string[] = [],
): KindInfo {
  return {
    resource,
    group: '',
    versions: ['v1'],
    kind,
    singular,
    namespaced,
    shortNames,
    categories,
    writable: true,
  };
}

function istio(resource: SimKind, kind: string, singular: string, shortNames: string[]): KindInfo {
  return {
    resource,
    group: 'networking.istio.io',
    versions: ISTIO_VERSIONS,
    kind,
    singular,
    namespaced: true,
    shortNames,
    categories: ISTIO_CATEGORIES,
    writable: true,
  };
}

export const ALL_KINDS: readonly SimKind[] = Object.keys(KINDS) as SimKind[];

/** `apiVersion` string for a group and version ("v1" for core). */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** The kind served at group/version/resource, if any. */
export function findKind(group: string, version: string, resource: string): KindInfo | undefined {
  for (const info of Object.values(KINDS)) {
    if (info.group === group && info.resource === resource && info.versions.includes(version)) {
      return info;
    }
  }
  return undefined;
}

/** Every API group (other than core) with its versions, preferred first. */
export function apiGroups(): { name: string; versions: readonly string[] }[] {
  const out = new Map<string, readonly string[]>();
  for (const info of Object.values(KINDS)) {
    if (info.group !== '' && !out.has(info.group)) out.set(info.group, info.versions);
  }
  return [...out].map(([name, versions]) => ({ name, versions }));
}
