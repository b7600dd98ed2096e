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
  },
  malformedObject: {
    code: 'MDX0002',
    severity: 'warning',
    title: 'MalformedObject',
    description:
      'An object does not have the shape its kind requires (no spec, a field of the wrong type): meshdx leaves it out of every check and says what is wrong; the API server or the file it came from has it that way.',
  },
  incompleteObject: {
    code: 'MDX0004',
    severity: 'info',
    title: 'IncompleteObject',
    description:
      'An object lacks fields some checks read (a Pod given by metadata and labels only, as trimmed manifests and istioctl test inputs give it): it is used for the checks it supports (selectors match its labels) and left out of the others, which the evidence names.',
  },
  checkFailed: {
    code: 'MDX0003',
    severity: 'warning',
    title: 'CheckFailedOnObject',
    description:
      'A check stopped on an object it could not read; the other objects and checks still ran. The evidence names the check and the error.',
  },
});

export const CONFIG = defineCatalog('config', {
  referenceNotFound: {
    code: 'IST0101',
    severity: 'error',
    title: 'ReferencedResourceNotFound',
    description:
      'A resource being referenced does not exist: a VirtualService route to a host or a DestinationRule subset that does not exist (503 NR/UH), a Sidecar workloadSelector that matches no pod.',
  },
  hostNotInGateway: {
    code: 'IST0132',
    severity: 'warning',
    title: 'VirtualServiceHostNotFoundInGateway',
    description:
      'A VirtualService is bound to a Gateway (spec.gateways) none of whose servers or listeners serves any of its hosts: istiod binds its routes to nothing on that gateway, and requests for those hosts at the gateway get 404 NR.',
  },
  destinationPortRequired: {
    code: 'IST0112',
    severity: 'error',
    title: 'VirtualServiceDestinationPortSelectorRequired',
    description:
      'A VirtualService routes to a host that exposes several ports without naming the port: the route is ambiguous and istiod does not apply it as meant.',
  },
  podMissingProxy: {
    code: 'IST0103',
    severity: 'warning',
    title: 'PodMissingProxy',
    description:
      'A pod in a namespace with sidecar injection enabled (istio-injection=enabled or an istio.io/rev revision) runs without an istio-proxy and has not opted out: it was started before the label was set, or the injector was down.',
  },
  subsetSelectsNoPods: {
    code: 'IST0173',
    severity: 'error',
    title: 'DestinationRuleSubsetNotSelectPods',
    description:
      'A DestinationRule subset selects no pod: requests routed to it fail with 503 UH (no healthy upstream).',
  },
  unknownDestinationRuleHost: {
    code: 'IST0174',
    severity: 'warning',
    title: 'UnknownDestinationRuleHost',
    description:
      'The host of a DestinationRule matches no Service or ServiceEntry visible to it: its traffic policy and subsets apply to nothing.',
  },
});
