/**
 * Kubernetes objects as they travel on the wire (kubectl -o json, the API server's JSON),
 * modelled only as far as meshdx reads them. Timestamps are RFC 3339 strings, exactly as
 * the API sends them; every field that the API may omit is optional.
 *
 * These types are shared by the pure analysis in lib/, the cluster adapter in server/kube
 * and the simulator in server/sim, so that all three agree on one shape.
 */

export interface OwnerReference {
  apiVersion?: string;
  kind: string;
  name: string;
  uid?: string;
  controller?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  generateName?: string;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: unknown;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: string;
}

export interface ExecAction {
  command?: string[];
}

export interface HttpGetAction {
  path?: string;
  port: number | string;
  scheme?: string;
}

export interface LifecycleHandler {
  exec?: ExecAction;
  httpGet?: HttpGetAction;
  sleep?: { seconds: number };
}

export interface Probe {
  httpGet?: HttpGetAction;
  exec?: ExecAction;
  tcpSocket?: { port: number | string };
  initialDelaySeconds?: number;
  periodSeconds?: number;
  failureThreshold?: number;
  timeoutSeconds?: number;
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  ports?: ContainerPort[];
  restartPolicy?: string;
  lifecycle?: { postStart?: LifecycleHandler; preStop?: LifecycleHandler };
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
}

export interface PodSpec {
  nodeName?: string;
  hostNetwork?: boolean;
  containers: Container[];
  initContainers?: Container[];
  terminationGracePeriodSeconds?: number;
  restartPolicy?: string;
  serviceAccountName?: string;
}

export interface ContainerStateRunning {
  startedAt?: string;
}

export interface ContainerStateTerminated {
  exitCode: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  signal?: number;
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}

export interface ContainerState {
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
  waiting?: ContainerStateWaiting;
}

export interface ContainerStatus {
  name: string;
  ready: boolean;
  started?: boolean;
  restartCount: number;
  image?: string;
  imageID?: string;
  containerID?: string;
  state?: ContainerState;
  lastState?: ContainerState;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | string;
  lastTransitionTime?: string;
  lastProbeTime?: string | null;
  reason?: string;
  message?: string;
}

export interface PodStatus {
  phase?: string;
  podIP?: string;
  podIPs?: { ip: string }[];
  hostIP?: string;
  startTime?: string;
  conditions?: PodCondition[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  reason?: string;
  message?: string;
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}

export interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
  protocol?: string;
  appProtocol?: string;
}

export interface Service extends KubeObject {
  spec: {
    type?: string;
    clusterIP?: string;
    selector?: Record<string, string>;
    ports?: ServicePort[];
    externalName?: string;
  };
}

export interface EndpointSliceEndpoint {
  addresses: string[];
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
  nodeName?: string;
  targetRef?: { kind?: string; name?: string; namespace?: string; uid?: string };
}

export interface EndpointSlice extends KubeObject {
  addressType: string;
  endpoints?: EndpointSliceEndpoint[];
  ports?: { name?: string; port?: number; protocol?: string; appProtocol?: string }[];
}

export interface KubeEvent extends KubeObject {
  involvedObject: {
    kind?: string;
    name?: string;
    namespace?: string;
    uid?: string;
    fieldPath?: string;
  };
  reason?: string;
  message?: string;
  type?: string;
  count?: number;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  source?: { component?: string; host?: string };
}

export interface Namespace extends KubeObject {
  status?: { phase?: string };
}

/** A node, as far as meshdx reads it: the kubelet version decides native-sidecar injection. */
export interface Node extends KubeObject {
  status?: { nodeInfo?: { kubeletVersion?: string } };
}

export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

/** networking.istio.io Sidecar */
export interface Sidecar extends KubeObject {
  spec: {
    workloadSelector?: { labels?: Record<string, string> };
    egress?: { hosts: string[]; port?: { number?: number; protocol?: string; name?: string } }[];
    ingress?: unknown[];
    outboundTrafficPolicy?: { mode?: string };
  };
}

export interface OutlierDetection {
  consecutive5xxErrors?: number;
  consecutiveGatewayErrors?: number;
  interval?: string;
  baseEjectionTime?: string;
  maxEjectionPercent?: number;
}

export interface TrafficPolicy {
  outlierDetection?: OutlierDetection;
  connectionPool?: unknown;
  loadBalancer?: unknown;
  tls?: unknown;
}

/** networking.istio.io DestinationRule */
export interface DestinationRule extends KubeObject {
  spec: {
    host: string;
    trafficPolicy?: TrafficPolicy;
    subsets?: { name: string; labels?: Record<string, string>; trafficPolicy?: TrafficPolicy }[];
    exportTo?: string[];
  };
}

export interface HttpRetry {
  attempts?: number;
  perTryTimeout?: string;
  retryOn?: string;
}

/** networking.istio.io VirtualService */
export interface VirtualService extends KubeObject {
  spec: {
    hosts?: string[];
    gateways?: string[];
    exportTo?: string[];
    http?: {
      name?: string;
      retries?: HttpRetry;
      timeout?: string;
      route?: {
        destination?: { host: string; subset?: string; port?: { number?: number } };
        weight?: number;
      }[];
    }[];
  };
}

/** networking.istio.io ServiceEntry */
export interface ServiceEntry extends KubeObject {
  spec: {
    hosts: string[];
    addresses?: string[];
    ports?: { number: number; name?: string; protocol?: string; targetPort?: number }[];
    location?: string;
    resolution?: string;
    exportTo?: string[];
  };
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
}

/** A policy target (Gateway API style): `targetRefs` of AuthorizationPolicy and friends. */
export interface PolicyTargetRef {
  group?: string;
  kind: string;
  name: string;
}

/** security.istio.io AuthorizationPolicy, the fields the ambient readiness reads. */
export interface AuthorizationPolicy extends KubeObject {
  spec?: {
    selector?: LabelSelector;
    targetRef?: PolicyTargetRef;
    targetRefs?: PolicyTargetRef[];
    action?: string;
    rules?: {
      from?: { source?: Record<string, string[] | undefined> }[];
      to?: { operation?: Record<string, string[] | undefined> }[];
      when?: { key: string; values?: string[]; notValues?: string[] }[];
    }[];
  };
}

/** security.istio.io PeerAuthentication. */
export interface PeerAuthentication extends KubeObject {
  spec?: {
    selector?: LabelSelector;
    mtls?: { mode?: string };
    portLevelMtls?: Record<string, { mode?: string }>;
  };
}

/** networking.istio.io EnvoyFilter. */
export interface EnvoyFilter extends KubeObject {
  spec?: {
    workloadSelector?: { labels?: Record<string, string> };
    targetRefs?: PolicyTargetRef[];
    configPatches?: unknown[];
  };
}

/** gateway.networking.k8s.io Gateway (waypoints are of class istio-waypoint). */
export interface Gateway extends KubeObject {
  spec?: {
    gatewayClassName?: string;
    listeners?: { name?: string; port?: number; protocol?: string }[];
  };
  status?: { addresses?: { type?: string; value?: string }[] };
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: WatchEventType;
  object: T;
}

export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata?: { resourceVersion?: string; continue?: string };
  items: T[];
}
