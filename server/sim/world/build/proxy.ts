import type { Container, EnvVar, Probe } from '../../../../lib/kube/types';
import { PROXY_CONTAINER } from '../../mesh/istio-model/wire';

/** What an Istio sidecar injector (1.2x) writes into a pod, as far as meshdx reads it. */

export const PROXY_IMAGE = 'docker.io/istio/proxyv2:1.24.2';
// the injector and the simulated proxies name the container alike: one wire fact
export { PROXY_CONTAINER };
export const INIT_CONTAINER = 'istio-init';

const fieldRef = (name: string, fieldPath: string): EnvVar => ({
  name,
  valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } },
});

export interface ProxyEnvInput {
  namespace: string;
  workload: string;
  appContainers: string[];
  podPorts: { name?: string; containerPort: number }[];
  proxyConfig: Record<string, unknown>;
  extraEnv: Record<string, string>;
  appProbers?: string;
  gateway: boolean;
}

export function proxyEnv(i: ProxyEnvInput): EnvVar[] {
  const env: EnvVar[] = [
    { name: 'PILOT_CERT_PROVIDER', value: 'istiod' },
    { name: 'CA_ADDR', value: 'istiod.istio-system.svc:15012' },
    fieldRef('POD_NAME', 'metadata.name'),
    fieldRef('POD_NAMESPACE', 'metadata.namespace'),
    fieldRef('INSTANCE_IP', 'status.podIP'),
    fieldRef('SERVICE_ACCOUNT', 'spec.serviceAccountName'),
    fieldRef('HOST_IP', 'status.hostIP'),
    {
      name: 'ISTIO_CPU_LIMIT',
      valueFrom: { resourceFieldRef: { divisor: '1', resource: 'limits.cpu' } },
    },
    { name: 'PROXY_CONFIG', value: `${JSON.stringify(i.proxyConfig)}\n` },
    { name: 'ISTIO_META_POD_PORTS', value: JSON.stringify(i.podPorts) },
    { name: 'ISTIO_META_APP_CONTAINERS', value: i.appContainers.join(',') },
    { name: 'ISTIO_META_CLUSTER_ID', value: 'Kubernetes' },
    fieldRef('ISTIO_META_NODE_NAME', 'spec.nodeName'),
    { name: 'ISTIO_META_INTERCEPTION_MODE', value: 'REDIRECT' },
    { name: 'ISTIO_META_WORKLOAD_NAME', value: i.workload },
    {
      name: 'ISTIO_META_OWNER',
      value: `kubernetes://apis/apps/v1/namespaces/${i.namespace}/deployments/${i.workload}`,
    },
    { name: 'ISTIO_META_MESH_ID', value: 'cluster.local' },
    { name: 'TRUST_DOMAIN', value: 'cluster.local' },
  ];
  if (i.appProbers !== undefined) env.push({ name: 'ISTIO_KUBE_APP_PROBERS', value: i.appProbers });
  for (const [name, value] of Object.entries(i.extraEnv)) env.push({ name, value });
  return env;
}

const readyProbe = (native: boolean): Probe =>
  native
    ? {
        httpGet: { path: '/healthz/ready', port: 15021 },
        periodSeconds: 15,
        failureThreshold: 4,
        timeoutSeconds: 3,
      }
    : {
        httpGet: { path: '/healthz/ready', port: 15021, scheme: 'HTTP' },
        initialDelaySeconds: 1,
        periodSeconds: 2,
        failureThreshold: 30,
        timeoutSeconds: 3,
      };

export type ProxyFlavour = 'classic' | 'hold' | 'native' | 'gateway';

/** The istio-proxy container as the injector writes it for each flavour. */
export function proxyContainer(flavour: ProxyFlavour, env: EnvVar[]): Container {
  const gateway = flavour === 'gateway';
  const native = flavour === 'native';
  const c: Container = {
    name: PROXY_CONTAINER,
    image: PROXY_IMAGE,
    args: [
      'proxy',
      gateway ? 'router' : 'sidecar',
      '--domain',
      '$(POD_NAMESPACE).svc.cluster.local',
      '--proxyLogLevel=warning',
      '--proxyComponentLogLevel=misc:error',
      '--log_output_level=default:info',
    ],
    env,
    ports: gateway
      ? [
          { name: 'status-port', containerPort: 15021, protocol: 'TCP' },
          { name: 'http2', containerPort: 8080, protocol: 'TCP' },
          { name: 'https', containerPort: 8443, protocol: 'TCP' },
          { name: 'http-envoy-prom', containerPort: 15090, protocol: 'TCP' },
        ]
      : [{ name: 'http-envoy-prom', containerPort: 15090, protocol: 'TCP' }],
    readinessProbe: readyProbe(native),
  };
  if (native) {
    c.restartPolicy = 'Always';
    c.startupProbe = {
      httpGet: { path: '/healthz/ready', port: 15021 },
      periodSeconds: 1,
      failureThreshold: 600,
      timeoutSeconds: 3,
    };
    c.lifecycle = {
      preStop: {
        exec: { command: ['pilot-agent', 'request', '--debug-port=15020', 'POST', 'drain'] },
      },
    };
  }
  if (flavour === 'hold')
    c.lifecycle = { postStart: { exec: { command: ['pilot-agent', 'wait'] } } };
  return c;
}

/** The istio-init container (iptables setup), present whenever the CNI plugin is not used. */
export function initContainer(): Container {
  return {
    name: INIT_CONTAINER,
    image: PROXY_IMAGE,
    args: [
      'istio-iptables',
      '-p',
      '15001',
      '-z',
      '15006',
      '-u',
      '1337',
      '-m',
      'REDIRECT',
      '-i',
      '*',
      '-x',
      '',
      '-b',
      '*',
      '-d',
      '15090,15021,15020',
      '--log_output_level=default:info',
    ],
  };
}

/** The sidecar.istio.io/status annotation the injector leaves behind. */
export function injectionStatus(native: boolean): string {
  return JSON.stringify({
    initContainers: native ? [INIT_CONTAINER, PROXY_CONTAINER] : [INIT_CONTAINER],
    containers: native ? null : [PROXY_CONTAINER],
    volumes: [
      'workload-socket',
      'credential-socket',
      'workload-certs',
      'istio-envoy',
      'istio-data',
      'istio-podinfo',
      'istio-token',
      'istiod-ca-cert',
    ],
    imagePullSecrets: null,
    revision: 'default',
  });
}
