/**
 * Platform (MDX00xx) and configuration-reference findings: what meshdx can say about any object
 * it reads (malformed, a check that could not run on it) and the references istioctl analyze
 * checks (a pod missing its proxy, a route or a DestinationRule that points at nothing).
 */
import { defineCatalog } from './catalog';

export const PLATFORM = defineCatalog('platform', {
  proxyNotReady: {
    code: 'MDX0001',
    severity: 'error',
    title: 'ProxyNotReady',
    description:
      'A running pod whose istio-proxy is not ready: its traffic is failing or blackholed.',
    istio: {
      since: '1.0',
      why: 'Not tied to an Istio release: a running pod whose istio-proxy is not ready fails its traffic on any Istio.',
    },
  },
  malformedObject: {
    code: 'MDX0002',
    severity: 'warning',
    title: 'MalformedObject',
    description:
      'An object does not have the shape its kind requires (no spec, a field of the wrong type): meshdx leaves it out of every check and says what is wrong; the API server or the file it came from has it that way.',
    istio: {
      since: '1.0',
      why: 'Not tied to an Istio release: it is about how meshdx reads the objects, on any Istio.',
    },
  },
  incompleteObject: {
    code: 'MDX0004',
    severity: 'info',
    title: 'IncompleteObject',
    description:
      'An object lacks fields some checks read (a Pod given by metadata and labels only, as trimmed manifests and istioctl test inputs give it): it is used for the checks it supports (selectors match its labels) and left out of the others, which the evidence names.',
    istio: {
      since: '1.0',
      why: 'Not tied to an Istio release: it is about how meshdx reads the objects, on any Istio.',
    },
  },
  checkFailed: {
    code: 'MDX0003',
    severity: 'warning',
    title: 'CheckFailedOnObject',
    description:
      'A check stopped on an object it could not read; the other objects and checks still ran. The evidence names the check and the error.',
    istio: {
      since: '1.0',
      why: 'Not tied to an Istio release: it is about how meshdx reads the objects, on any Istio.',
    },
  },
});

export const CONFIG = defineCatalog('config', {
  referenceNotFound: {
    code: 'IST0101',
    severity: 'error',
    title: 'ReferencedResourceNotFound',
    description:
      'A resource being referenced does not exist: a VirtualService route to a host or a DestinationRule subset that does not exist (503 NR/UH), a Sidecar workloadSelector that matches no pod.',
    istio: {
      since: '1.0',
      why: "VirtualService routes and DestinationRule subsets are in Istio 1.0's CRDs (Sidecar workloadSelector from 1.1); istioctl analyze reports IST0101 since 1.4.",
    },
  },
  hostNotInGateway: {
    code: 'IST0132',
    severity: 'warning',
    title: 'VirtualServiceHostNotFoundInGateway',
    description:
      'A VirtualService is bound to a Gateway (spec.gateways) none of whose servers or listeners serves any of its hosts: istiod binds its routes to nothing on that gateway, and requests for those hosts at the gateway get 404 NR.',
    istio: {
      since: '1.0',
      why: "Gateways and VirtualService spec.gateways are in Istio 1.0's CRDs; istioctl analyze reports IST0132 since 1.9.",
    },
  },
  destinationPortRequired: {
    code: 'IST0112',
    severity: 'error',
    title: 'VirtualServiceDestinationPortSelectorRequired',
    description:
      'A VirtualService routes to a host that exposes several ports without naming the port: the route is ambiguous and istiod does not apply it as meant.',
    istio: {
      since: '1.0',
      why: "VirtualService destinations by host and port are Istio 1.0's; istioctl analyze reports IST0112 since 1.4.",
    },
  },
  podMissingProxy: {
    code: 'IST0103',
    severity: 'warning',
    title: 'PodMissingProxy',
    description:
      'A pod in a namespace with sidecar injection enabled (istio-injection=enabled or an istio.io/rev revision) runs without an istio-proxy and has not opted out: it was started before the label was set, or the injector was down.',
    istio: {
      since: '1.0',
      why: "The istio-injection label and the injector are Istio 1.0's (istio.io/rev revisions from 1.5); istioctl analyze reports IST0103 since 1.4.",
    },
  },
  subsetSelectsNoPods: {
    code: 'IST0173',
    severity: 'error',
    title: 'DestinationRuleSubsetNotSelectPods',
    description:
      'A DestinationRule subset selects no pod: requests routed to it fail with 503 UH (no healthy upstream).',
    istio: {
      since: '1.0',
      why: "DestinationRule subsets are in Istio 1.0's CRDs and one that selects no pod fails the same way since; istioctl analyze reports IST0173 only since 1.27.",
    },
  },
  unknownDestinationRuleHost: {
    code: 'IST0174',
    severity: 'warning',
    title: 'UnknownDestinationRuleHost',
    description:
      'The host of a DestinationRule matches no Service or ServiceEntry visible to it: its traffic policy and subsets apply to nothing.',
    istio: {
      since: '1.0',
      why: "DestinationRule hosts are in Istio 1.0's CRDs; istioctl analyze reports IST0174 only since 1.27.",
    },
  },
});
