/**
 * Stable finding codes for the incidents domain (MDX04xx). Codes never change meaning; new
 * verdicts get new codes.
 */
import { defineCatalog } from '../findings/catalog';

export type IncidentVerdict =
  | 'sent-to-gone-pod'
  | 'sent-to-terminating-pod'
  | 'no-outlier-detection'
  | 'outlier-detection-weak'
  | 'retries-miss-conditions'
  | 'drain-too-short'
  | 'stale-endpoints'
  | 'unattributed';

export const INCIDENTS = defineCatalog<IncidentVerdict>('incidents', {
  'sent-to-gone-pod': {
    code: 'MDX0401',
    severity: 'error',
    title: 'Requests were sent to pods that no longer existed',
    description:
      'Clients kept sending requests to an IP after the pod that held it was deleted (stale endpoints in the client proxy): the phantom-pod 503.',
    istio: {
      since: '1.0',
      why: "Not tied to an Istio release: clients of every Istio release keep an endpoint until EDS removes it; the fix's note says what this istiod does with not-ready endpoints (1.31 sends them as unhealthy).",
    },
  },
  'sent-to-terminating-pod': {
    code: 'MDX0402',
    severity: 'warning',
    title: 'Requests failed on pods that were shutting down',
    description:
      'Failing requests reached pods whose deletion had started: the server side stopped serving before clients stopped sending.',
    istio: {
      since: '1.0',
      why: 'Not tied to an Istio release: failures on pods whose deletion had started, on any Istio.',
    },
  },
  'no-outlier-detection': {
    code: 'MDX0403',
    severity: 'warning',
    title: 'No outlier detection for a service that failed on dead endpoints',
    description:
      'Without outlierDetection a client proxy keeps picking a dead endpoint until EDS removes it; consecutive 5xx ejection takes it out after a few failures.',
    istio: {
      since: '1.5',
      why: 'The advice writes outlierDetection.consecutive5xxErrors, first in Istio 1.5.0 (consecutiveErrors before).',
    },
  },
  'outlier-detection-weak': {
    code: 'MDX0404',
    severity: 'warning',
    title: 'Outlier detection cannot eject the failing hosts',
    description:
      'The DestinationRule outlierDetection needs more consecutive errors than a dead host produced, or maxEjectionPercent cannot eject as many hosts as were dying at once.',
    istio: {
      since: '1.5',
      why: 'The finding judges outlierDetection.consecutive5xxErrors and maxEjectionPercent; consecutive5xxErrors is first in Istio 1.5.0.',
    },
  },
  'retries-miss-conditions': {
    code: 'MDX0405',
    severity: 'warning',
    title: 'Retries do not cover the failures seen',
    description:
      "The route's retry policy (Istio's default: 2 attempts on connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes) does not retry the failure seen, e.g. UC (upstream connection termination) needs `reset`.",
    istio: {
      since: '1.6',
      why: "Istio's default route retry the finding judges against (2 attempts on connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes) is first in Istio 1.6.0.",
    },
  },
  'drain-too-short': {
    code: 'MDX0406',
    severity: 'warning',
    title: '503s cluster at the terminations of the server pods',
    description:
      'The failures start when server pods begin terminating: the proxy stops accepting before clients have dropped the endpoint. A longer terminationDrainDuration keeps the server proxy serving while EDS catches up.',
    istio: {
      since: '1.1',
      why: "The proxy's terminationDrainDuration, which the advice lengthens, is first in Istio 1.1.0.",
    },
  },
  'stale-endpoints': {
    code: 'MDX0407',
    severity: 'error',
    title: 'Client proxy still holds endpoints that are in no EndpointSlice',
    description:
      "An upstream host in the client Envoy's /clusters is not in any EndpointSlice any more: the proxy's EDS is stale and requests to it fail.",
    istio: {
      since: '1.0',
      why: "Not tied to an Istio release: a client Envoy's endpoints against the EndpointSlices, on any Istio.",
    },
  },
  unattributed: {
    code: 'MDX0408',
    severity: 'info',
    title: 'Failing requests could not be tied to a pod',
    description:
      'No pod IP history covers these requests (meshdx was not recording then, or the IP is outside the cluster): record history longer or add Prometheus with kube-state-metrics.',
    istio: { since: '1.0', why: "Not tied to an Istio release: meshdx's own pod IP history." },
  },
});

/** Entry by verdict. */
export const INCIDENT_CATALOG = INCIDENTS.byKey;

export function incidentCode(v: IncidentVerdict): string {
  return INCIDENTS.code[v];
}
