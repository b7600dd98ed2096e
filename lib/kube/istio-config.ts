import type {
  AuthorizationPolicy,
  DestinationRule,
  EnvoyFilter,
  Gateway,
  Namespace,
  PeerAuthentication,
  Service,
  ServiceEntry,
  Sidecar,
  VirtualService,
} from './types';

/**
 * The mesh's configuration objects as meshdx's analyzers take them: the Istio resources that
 * shape what a proxy gets (and what ambient keeps of them), and the Kubernetes Namespaces and
 * Services they are resolved against. Declared once: an analyzer that reads only some of them
 * takes `Pick<IstioConfig, ...>`.
 */
export interface IstioConfig {
  namespaces: readonly Namespace[];
  services: readonly Service[];
  sidecars: readonly Sidecar[];
  destinationRules: readonly DestinationRule[];
  virtualServices: readonly VirtualService[];
  serviceEntries: readonly ServiceEntry[];
  gateways: readonly Gateway[];
  authorizationPolicies: readonly AuthorizationPolicy[];
  peerAuthentications: readonly PeerAuthentication[];
  envoyFilters: readonly EnvoyFilter[];
}
