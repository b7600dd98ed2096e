import { defineCatalog } from '../findings/catalog';

/**
 * Protocol-selection findings. IST codes where istioctl analyze reports the same thing
 * (same trigger, same subject), MDX05xx for meshdx's own.
 */
export const PROTOCOL = defineCatalog('protocol', {
  portNameConvention: {
    code: 'IST0118',
    severity: 'info',
    title: 'PortNameIsNotUnderNamingConvention',
    description:
      'A Service port has no appProtocol and its name is not <protocol>[-suffix]: Istio sniffs the protocol, which adds latency, breaks server-first protocols and multiplexed ports.',
    istio: {
      since: '1.0',
      why: "Protocol selection by port name is Istio 1.0's (appProtocol from 1.3); istioctl analyze reports IST0118 since 1.5.",
    },
  },
  externalNamePortName: {
    code: 'IST0150',
    severity: 'warning',
    title: 'ExternalNameServiceTypeInvalidPortName',
    description:
      'An ExternalName Service port named tcp or with no known protocol: the proxy may not forward its TCP traffic correctly.',
    istio: {
      since: '1.0',
      why: "istiod's Kubernetes registry reads ExternalName Services in 1.0; istioctl analyze reports IST0150 since 1.13. 1.0 is the earliest supported: no evidence of an older change in how their ports are forwarded.",
    },
  },
  multiServiceProtocol: {
    code: 'IST0116',
    severity: 'warning',
    title: 'DeploymentAssociatedToMultipleServices',
    description:
      "A workload's pods are selected by several Services that use the same port number with different protocols (TCP/UDP/SCTP).",
    istio: {
      since: '1.0',
      why: 'Services and their port protocols are read by every Istio release; istioctl analyze reports IST0116 since 1.5.',
    },
  },
  conflictingTargetPort: {
    code: 'IST0137',
    severity: 'warning',
    title: 'DeploymentConflictingPorts',
    description:
      'Service ports selecting the same workload reach the same targetPort through different port numbers.',
    istio: {
      since: '1.0',
      why: 'Service ports and targetPorts are read by every Istio release; istioctl analyze reports IST0137 since 1.10.',
    },
  },
  filterOffByDefault: {
    code: 'MDX0501',
    severity: 'info',
    title: 'ProtocolFilterOffByDefault',
    description:
      'The port declares mysql or redis: Istio treats it as plain TCP unless the protocol is enabled in istiod (PILOT_ENABLE_MYSQL_FILTER / PILOT_ENABLE_REDIS_FILTER).',
    istio: {
      since: '1.2',
      why: 'PILOT_ENABLE_MYSQL_FILTER is first in Istio 1.2.0, PILOT_ENABLE_REDIS_FILTER in 1.3.0; both are off by default through 1.31.',
    },
  },
  serverFirstSniffed: {
    code: 'MDX0502',
    severity: 'error',
    title: 'ServerFirstProtocolSniffed',
    description:
      'A server-first protocol (MySQL, PostgreSQL, Redis, MongoDB, SMTP...) sits behind a port whose protocol Istio sniffs: the proxy waits for the client to speak first, the server waits too, and the connection hangs until the sniffing timeout.',
    istio: {
      since: '1.3',
      why: 'Outbound protocol sniffing (PILOT_ENABLE_PROTOCOL_SNIFFING_FOR_OUTBOUND) is first in Istio 1.3.0; before it a port without protocol was plain TCP, not sniffed.',
    },
  },
  tcpByWellKnownPort: {
    code: 'MDX0503',
    severity: 'info',
    title: 'TcpOnlyByWellKnownPort',
    description:
      'The port carries no protocol, but Istio treats it as TCP because its number is well known (25, 53, 3306, 27017). It works, but only while the number stays; declare it.',
    istio: {
      since: '1.3',
      why: "istiod's well-known ports kept from sniffing (wellKnownPorts: 25, 53, 3306, 27017) are first in Istio 1.3.0, with sniffing.",
    },
  },
  multiplexedPort: {
    code: 'MDX0504',
    severity: 'error',
    title: 'MultiplexedTargetPort',
    description:
      'Service ports with different protocols reach the same pod port: the inbound listener can carry only one protocol per port, so one of them is handled wrongly.',
    istio: {
      since: '1.0',
      why: 'An inbound listener takes one protocol per port in every release read; 1.0 is the earliest supported, with no evidence of an older behaviour.',
    },
  },
  probeNotRewritten: {
    code: 'MDX0505',
    severity: 'warning',
    title: 'HttpProbeNotRewritten',
    description:
      'An HTTP probe of a meshed container is not rewritten to pilot-agent (rewriteAppHTTPProbers is off): under STRICT mTLS the kubelet cannot reach it in plain text and the pod never becomes ready.',
    istio: {
      since: '1.2',
      why: 'rewriteAppHTTPProbers, the setting the finding names, is first in Istio 1.2.0 (the rewrite itself, ISTIO_KUBE_APP_PROBERS, in 1.1.0).',
    },
  },
  probeRewritten: {
    code: 'MDX0506',
    severity: 'info',
    title: 'HttpProbeRewritten',
    description:
      'An HTTP probe is rewritten to pilot-agent on 15020 (/app-health/<container>/...); the original probe is in ISTIO_KUBE_APP_PROBERS.',
    istio: {
      since: '1.1',
      why: 'The probe rewrite to pilot-agent (ISTIO_KUBE_APP_PROBERS) is first in Istio 1.1.0.',
    },
  },
  externalPassthrough: {
    code: 'MDX0507',
    severity: 'warning',
    title: 'ExternalHostWithoutServiceEntry',
    description:
      'A workload calls a host outside the mesh registry: the traffic leaves through PassthroughCluster, with no telemetry by host, no policy, no retries; it breaks as soon as outboundTrafficPolicy is REGISTRY_ONLY.',
    istio: {
      since: '1.1',
      why: 'PassthroughCluster, which takes the calls to unknown hosts, is first in Istio 1.1.0.',
    },
  },
  externalBlackHole: {
    code: 'MDX0508',
    severity: 'error',
    title: 'ExternalHostBlocked',
    description:
      'A workload calls a host outside the mesh registry and outboundTrafficPolicy is REGISTRY_ONLY: the call goes to BlackHoleCluster and fails.',
    istio: {
      since: '1.0',
      why: 'outboundTrafficPolicy REGISTRY_ONLY and BlackHoleCluster are in Istio 1.0.0.',
    },
  },
});

/** Code by verdict name. */
export const CODES = PROTOCOL.code;
export const PROTOCOL_CATALOG = PROTOCOL.entries;
