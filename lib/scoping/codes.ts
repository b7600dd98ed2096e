/**
 * Finding codes of the Scoping view. istioctl's codes where its analyzer reports the same thing
 * (IST0101 for a Sidecar selector that matches no pod, IST0110, IST0111), MDX03xx for ours;
 * MDX0301 keeps the meaning it has in lib/findings/inventory.ts.
 */
import type { FindingCatalogEntry } from '../findings/types';

export const SCOPING_CODES = {
  namespaceWithoutDefault: 'MDX0301',
  rootSelector: 'MDX0302',
  egressHostNoService: 'MDX0303',
  invalidEgressHost: 'MDX0304',
  noneOnCallingWorkload: 'MDX0305',
  observedCutOff: 'MDX0306',
  windowShort: 'MDX0307',
  workloadUnobserved: 'MDX0308',
  virtualServiceDestination: 'MDX0309',
  virtualServiceNotImported: 'MDX0310',
  selectorMatchesNoPod: 'IST0101',
  conflictingSelectors: 'IST0110',
  multipleDefaults: 'IST0111',
} as const;

export const SCOPING_CATALOG: FindingCatalogEntry[] = [
  {
    code: 'MDX0301',
    severity: 'warning',
    title: 'NamespaceWithoutDefaultSidecar',
    description:
      'Meshed pods in a namespace with no default Sidecar receive the configuration of every service in the mesh.',
  },
  {
    code: 'MDX0302',
    severity: 'warning',
    title: 'RootSidecarWithWorkloadSelector',
    description:
      'A Sidecar in the root namespace that has a workloadSelector is not the mesh-wide default: it applies only to matching pods of the root namespace.',
  },
  {
    code: 'MDX0303',
    severity: 'warning',
    title: 'EgressHostMatchesNoService',
    description: 'A Sidecar egress host selects no service or ServiceEntry host in the registry.',
  },
  {
    code: 'MDX0304',
    severity: 'error',
    title: 'InvalidEgressHost',
    description: 'A Sidecar egress host is not NAMESPACE/DNSNAME and selects nothing.',
  },
  {
    code: 'MDX0305',
    severity: 'error',
    title: 'NoneEgressOnCallingWorkload',
    description:
      'A Sidecar with `~/*` strips all outbound config, but the workload it applies to makes outbound calls.',
  },
  {
    code: 'MDX0306',
    severity: 'error',
    title: 'ObservedDestinationCutOff',
    description:
      'A destination the workload was seen calling is not visible under the Sidecar that applies to it: those calls go to PassthroughCluster or fail.',
  },
  {
    code: 'MDX0307',
    severity: 'warning',
    title: 'ObservationWindowTooShort',
    description:
      'Observed destinations cover too short (or an unknown) time window: rare calls (batch jobs, failover) may be missing from generated Sidecars.',
  },
  {
    code: 'MDX0308',
    severity: 'info',
    title: 'WorkloadUnobserved',
    description:
      'No traffic source could be read for a workload: its destinations are unknown, so no Sidecar is generated from them.',
  },
  {
    code: 'MDX0309',
    severity: 'info',
    title: 'VisibleThroughVirtualService',
    description:
      'A host no egress host selects is still visible: a VirtualService the Sidecar imports routes to it, so istiod adds its destination ports (counted in the predicted clusters).',
  },
  {
    code: 'MDX0310',
    severity: 'warning',
    title: 'VirtualServiceNoLongerImported',
    description:
      "A VirtualService that routes a workload's observed calls today would not be imported under the proposed Sidecar: its routing rules (retries, splits, rewrites) stop applying.",
  },
  {
    code: 'IST0101',
    severity: 'error',
    title: 'ReferencedResourceNotFound',
    description: 'A Sidecar workloadSelector matches no pod in its namespace.',
  },
  {
    code: 'IST0110',
    severity: 'error',
    title: 'ConflictingSidecarWorkloadSelectors',
    description: 'A Sidecar resource selects the same workloads as another Sidecar resource.',
  },
  {
    code: 'IST0111',
    severity: 'error',
    title: 'MultipleSidecarsWithoutWorkloadSelectors',
    description: 'More than one Sidecar resource in a namespace has no workload selector.',
  },
];
