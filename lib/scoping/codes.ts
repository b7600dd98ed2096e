/**
 * Finding codes of the Scoping view. istioctl's codes where its analyzer reports the same thing
 * (IST0110, IST0111; IST0101 for a Sidecar selector that matches no pod is the configuration
 * catalog's), MDX03xx for ours; MDX0301 is also what the inventory reports for a namespace
 * without a default Sidecar.
 */
import { defineCatalog } from '../findings/catalog';
import { CONFIG } from '../findings/codes';

export const SCOPING = defineCatalog('scoping', {
  namespaceWithoutDefault: {
    code: 'MDX0301',
    severity: 'warning',
    title: 'NamespaceWithoutDefaultSidecar',
    description:
      'Meshed pods in a namespace with no default Sidecar receive the configuration of every service in the mesh.',
    istio: { since: '1.1', why: "The Sidecar resource is first in Istio 1.1.0's CRDs." },
  },
  rootSelector: {
    code: 'MDX0302',
    severity: 'warning',
    title: 'RootSidecarWithWorkloadSelector',
    description:
      'A Sidecar in the root namespace that has a workloadSelector is not the mesh-wide default: it applies only to matching pods of the root namespace.',
    istio: { since: '1.1', why: "The Sidecar resource is first in Istio 1.1.0's CRDs." },
  },
  egressHostNoService: {
    code: 'MDX0303',
    severity: 'warning',
    title: 'EgressHostMatchesNoService',
    description: 'A Sidecar egress host selects no service or ServiceEntry host in the registry.',
    istio: { since: '1.1', why: "The Sidecar resource is first in Istio 1.1.0's CRDs." },
  },
  invalidEgressHost: {
    code: 'MDX0304',
    severity: 'error',
    title: 'InvalidEgressHost',
    description: 'A Sidecar egress host is not NAMESPACE/DNSNAME and selects nothing.',
    istio: { since: '1.1', why: "The Sidecar resource is first in Istio 1.1.0's CRDs." },
  },
  noneOnCallingWorkload: {
    code: 'MDX0305',
    severity: 'error',
    title: 'NoneEgressOnCallingWorkload',
    description:
      'A Sidecar with `~/*` strips all outbound config, but the workload it applies to makes outbound calls.',
    istio: { since: '1.1', why: "The Sidecar resource is first in Istio 1.1.0's CRDs." },
  },
  observedCutOff: {
    code: 'MDX0306',
    severity: 'error',
    title: 'ObservedDestinationCutOff',
    description:
      'A destination the workload was seen calling is not visible under the Sidecar that applies to it: those calls go to PassthroughCluster or fail.',
    istio: { since: '1.1', why: "The Sidecar resource is first in Istio 1.1.0's CRDs." },
  },
  windowShort: {
    code: 'MDX0307',
    severity: 'warning',
    title: 'ObservationWindowTooShort',
    description:
      'Observed destinations cover too short (or an unknown) time window: rare calls (batch jobs, failover) may be missing from generated Sidecars.',
    istio: { since: '1.1', why: "The Sidecar resource is first in Istio 1.1.0's CRDs." },
  },
  workloadUnobserved: {
    code: 'MDX0308',
    severity: 'info',
    title: 'WorkloadUnobserved',
    description:
      'No traffic source could be read for a workload: its destinations are unknown, so no Sidecar is generated from them.',
    istio: { since: '1.1', why: "The Sidecar resource is first in Istio 1.1.0's CRDs." },
  },
  virtualServiceDestination: {
    code: 'MDX0309',
    severity: 'info',
    title: 'VisibleThroughVirtualService',
    description:
      'A host no egress host selects is still visible: a VirtualService the Sidecar imports routes to it, so istiod adds its destination ports (counted in the predicted clusters).',
    istio: { since: '1.1', why: "The Sidecar resource is first in Istio 1.1.0's CRDs." },
  },
  virtualServiceNotImported: {
    code: 'MDX0310',
    severity: 'warning',
    title: 'VirtualServiceNoLongerImported',
    description:
      "A VirtualService that routes a workload's observed calls today would not be imported under the proposed Sidecar: its routing rules (retries, splits, rewrites) stop applying.",
    istio: { since: '1.1', why: "The Sidecar resource is first in Istio 1.1.0's CRDs." },
  },
  conflictingSelectors: {
    code: 'IST0110',
    severity: 'error',
    title: 'ConflictingSidecarWorkloadSelectors',
    description: 'A Sidecar resource selects the same workloads as another Sidecar resource.',
    istio: {
      since: '1.1',
      why: "The Sidecar resource is first in Istio 1.1.0's CRDs. istioctl analyze reports IST0110 since 1.4.",
    },
  },
  multipleDefaults: {
    code: 'IST0111',
    severity: 'error',
    title: 'MultipleSidecarsWithoutWorkloadSelectors',
    description: 'More than one Sidecar resource in a namespace has no workload selector.',
    istio: {
      since: '1.1',
      why: "The Sidecar resource is first in Istio 1.1.0's CRDs. istioctl analyze reports IST0111 since 1.4.",
    },
  },
});

export const SCOPING_CODES = {
  ...SCOPING.code,
  selectorMatchesNoPod: CONFIG.code.referenceNotFound,
} as const;

/** What the Scoping view explains: its own codes and the reference check it reports. */
export const SCOPING_CATALOG = [...SCOPING.entries, CONFIG.byKey.referenceNotFound].sort((a, b) =>
  a.code.localeCompare(b.code),
);
