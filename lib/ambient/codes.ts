/**
 * Finding codes of ambient mode (MDX06xx): what blocks or changes when a namespace moves from
 * sidecars to ztunnel (and waypoints), and what a ztunnel holds that no longer exists.
 */
import { defineCatalog } from '../findings/catalog';

export const AMBIENT = defineCatalog('ambient', {
  l7PolicyNeedsWaypoint: {
    code: 'MDX0601',
    severity: 'error',
    title: 'L7 AuthorizationPolicy needs a waypoint',
    description:
      'ztunnel enforces only L4 (identities, namespaces, ports). An AuthorizationPolicy with HTTP rules (methods, paths, headers, request principals) bound by `selector` is not enforced in ambient: deploy a waypoint and bind the policy with `targetRefs` to the Service or the waypoint Gateway.',
  },
  virtualService: {
    code: 'MDX0602',
    severity: 'warning',
    title: 'VirtualService is alpha in ambient',
    description:
      'Ambient applies VirtualServices only through a waypoint and only as an alpha feature; the supported form is a Gateway API HTTPRoute whose parentRefs is the Service.',
  },
  envoyFilter: {
    code: 'MDX0603',
    severity: 'error',
    title: 'EnvoyFilter does not apply to ztunnel',
    description:
      'ztunnel is not Envoy: EnvoyFilters that patch sidecars stop applying. Only a waypoint (Envoy) could take them, and patching waypoints is unsupported.',
  },
  peerAuthDisable: {
    code: 'MDX0604',
    severity: 'warning',
    title: 'PeerAuthentication disables mTLS',
    description:
      'ztunnel always uses mTLS (HBONE) between ambient pods; PERMISSIVE/DISABLE only matter for plaintext from outside the mesh. A PeerAuthentication that disables mTLS expresses an intent ambient does not keep.',
  },
  subsetNeedsService: {
    code: 'MDX0605',
    severity: 'warning',
    title: 'DestinationRule subsets need a Service per version',
    description:
      'Routing to DestinationRule subsets needs a waypoint; the Gateway API way is one Service per version (selector with the version label) and an HTTPRoute with weighted backendRefs.',
  },
  sidecarResource: {
    code: 'MDX0606',
    severity: 'info',
    title: 'Sidecar resource stops mattering',
    description:
      'Sidecar resources scope the configuration of sidecar proxies; ztunnel and waypoints ignore them. They can go once the namespace has no sidecars left.',
  },
  mixedNamespace: {
    code: 'MDX0607',
    severity: 'warning',
    title: 'Namespace is mid-migration',
    description:
      'The namespace is labelled for ambient but some pods still carry sidecars (they keep them until restarted without injection): two data planes, two policy engines.',
  },
  staleWorkload: {
    code: 'MDX0608',
    severity: 'warning',
    title: 'ztunnel holds a workload that no longer exists',
    description:
      "A workload in a ztunnel's configuration has an IP no live pod holds (or another pod holds now): connections to it fail or reach the wrong pod, like stale EDS in a sidecar.",
  },
});
