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
    istio: {
      since: '1.24',
      why: 'Advice on moving a namespace to ambient: ambient is GA in Istio 1.24 (alpha from 1.18, beta from 1.22, which brought istio.io/use-waypoint and targetRefs); earlier releases are not advised on.',
    },
  },
  virtualService: {
    code: 'MDX0602',
    severity: 'warning',
    title: 'VirtualService is alpha in ambient',
    description:
      'Ambient applies VirtualServices only through a waypoint and only as an alpha feature; the supported form is a Gateway API HTTPRoute whose parentRefs is the Service.',
    istio: {
      since: '1.24',
      why: 'Advice on moving a namespace to ambient: ambient is GA in Istio 1.24 (alpha from 1.18, beta from 1.22, which brought istio.io/use-waypoint and targetRefs); earlier releases are not advised on.',
    },
  },
  envoyFilter: {
    code: 'MDX0603',
    severity: 'error',
    title: 'EnvoyFilter does not apply to ztunnel',
    description:
      'ztunnel is not Envoy: EnvoyFilters that patch sidecars stop applying. Only a waypoint (Envoy) could take them, and patching waypoints is unsupported.',
    istio: {
      since: '1.24',
      why: 'Advice on moving a namespace to ambient: ambient is GA in Istio 1.24 (alpha from 1.18, beta from 1.22, which brought istio.io/use-waypoint and targetRefs); earlier releases are not advised on.',
    },
  },
  peerAuthDisable: {
    code: 'MDX0604',
    severity: 'warning',
    title: 'PeerAuthentication disables mTLS',
    description:
      'ztunnel always uses mTLS (HBONE) between ambient pods; PERMISSIVE/DISABLE only matter for plaintext from outside the mesh. A PeerAuthentication that disables mTLS expresses an intent ambient does not keep.',
    istio: {
      since: '1.24',
      why: 'Advice on moving a namespace to ambient: ambient is GA in Istio 1.24 (alpha from 1.18, beta from 1.22, which brought istio.io/use-waypoint and targetRefs); earlier releases are not advised on.',
    },
  },
  subsetNeedsService: {
    code: 'MDX0605',
    severity: 'warning',
    title: 'DestinationRule subsets need a Service per version',
    description:
      'Routing to DestinationRule subsets needs a waypoint; the Gateway API way is one Service per version (selector with the version label) and an HTTPRoute with weighted backendRefs.',
    istio: {
      since: '1.24',
      why: 'Advice on moving a namespace to ambient: ambient is GA in Istio 1.24 (alpha from 1.18, beta from 1.22, which brought istio.io/use-waypoint and targetRefs); earlier releases are not advised on.',
    },
  },
  sidecarResource: {
    code: 'MDX0606',
    severity: 'info',
    title: 'Sidecar resource stops mattering',
    description:
      'Sidecar resources scope the configuration of sidecar proxies; ztunnel and waypoints ignore them. They can go once the namespace has no sidecars left.',
    istio: {
      since: '1.24',
      why: 'Advice on moving a namespace to ambient: ambient is GA in Istio 1.24 (alpha from 1.18, beta from 1.22, which brought istio.io/use-waypoint and targetRefs); earlier releases are not advised on.',
    },
  },
  mixedNamespace: {
    code: 'MDX0607',
    severity: 'warning',
    title: 'Namespace is mid-migration',
    description:
      'The namespace is labelled for ambient but some pods still carry sidecars (they keep them until restarted without injection): two data planes, two policy engines.',
    istio: {
      since: '1.18',
      why: 'istio.io/dataplane-mode is first in Istio 1.18.0 (ambient alpha; GA in 1.24): a namespace labelled for ambient whose pods keep sidecars runs two data planes on any ambient release.',
    },
  },
  staleWorkload: {
    code: 'MDX0608',
    severity: 'warning',
    title: 'ztunnel holds a workload that no longer exists',
    description:
      "A workload in a ztunnel's configuration has an IP no live pod holds (or another pod holds now): connections to it fail or reach the wrong pod, like stale EDS in a sidecar.",
    istio: {
      since: '1.18',
      why: "ztunnel is first in Istio 1.18.0 (GA in 1.24); the finding is made from a ztunnel's own configuration.",
    },
  },
});
