/** The declarative description of one Deployment-like workload that scenario tables are made of. */

/**
 * How the app and the proxy start:
 * - classic: istio-proxy in spec.containers after the app (they race)
 * - hold-annotation: pod annotation proxy.istio.io/config holdApplicationUntilProxyStarts
 * - hold-injected: the injector's visible output (proxy first + postStart wait) without annotation
 * - native: istio-proxy in initContainers with restartPolicy Always
 * - wrapper: classic order, the app's command polls the proxy's readiness before exec'ing
 * - none: not injected; gateway: a standalone istio-proxy running as a router
 */
export type WorkloadStartupMode =
  'classic' | 'hold-annotation' | 'hold-injected' | 'native' | 'wrapper' | 'none' | 'gateway';

export interface AppPort {
  name?: string;
  containerPort: number;
}

export interface WorkloadSpec {
  name: string;
  replicas: number;
  version?: string;
  mode?: WorkloadStartupMode;
  ports?: AppPort[];
  /** Merged into the proxy.istio.io/config annotation and the proxy's PROXY_CONFIG env. */
  proxyConfig?: Record<string, unknown>;
  proxyEnv?: Record<string, string>;
  /** App preStop hook `sleep N` (seconds). */
  preStopSleep?: number;
  terminationGracePeriodSeconds?: number;
  /** App readiness probe (HTTP); rewritten to :15020/app-health/... unless rewriteProbes is false. */
  httpProbe?: { path: string; port: number };
  rewriteProbes?: boolean;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  image?: string;
  /** Name of the app container (defaults to the workload name). */
  containerName?: string;
  command?: string[];
  /** Classic only: the app crashes once (exit 1) because its first outbound call fails. */
  race?: boolean;
  /**
   * The app image's first pull fails (registry refused the connection) and the kubelet retries it
   * after this many seconds of back-off; meanwhile it starts the next container, istio-proxy. The
   * app then starts after the proxy is ready: a classic pod that did not race, by luck.
   */
  appPullRetrySeconds?: number;
  /**
   * The app mounts this ConfigMap, which does not exist: the kubelet cannot set up the volume, so
   * the pod stays Pending in ContainerCreating (FailedMount) and no container ever starts.
   */
  missingConfigMap?: string;
  /** Seconds from pod start until the proxy reports ready (default 2-4, seeded). */
  proxyReadySeconds?: number;
  /** Seconds relative to the clock start at which the pods start (negative: already running). */
  startAt?: number;
  /** Seconds relative to the clock start at which the first pod starts terminating. */
  deleteAt?: number;
}

export const WRAPPER_COMMAND = [
  'sh',
  '-c',
  'until curl -fsS http://localhost:15021/healthz/ready; do sleep 1; done; exec /app',
];
