import type { Container, PodSpec } from '../../../../lib/kube/types';
import {
  initContainer,
  injectionStatus,
  proxyContainer,
  proxyEnv,
  type ProxyFlavour,
} from './proxy';
import { WRAPPER_COMMAND, type WorkloadStartupMode, type WorkloadSpec } from './workload';
import { workloadNameKey } from '../../../../lib/refs/workload-ref';

/** Everything pods of one ReplicaSet share: spec (without nodeName), labels, annotations. */
export interface PodTemplate {
  spec: PodSpec;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  mode: WorkloadStartupMode;
  appContainer: string;
  /** See WorkloadSpec.appPullRetrySeconds. */
  appPullRetryMs?: number;
  /** See WorkloadSpec.missingConfigMap: the volume the kubelet cannot mount. */
  missingMount?: { volume: string; configMap: string };
}

/** The volume a workload's missingConfigMap is mounted from (PodSpec types model no volumes). */
const CONFIG_VOLUME = 'config';

function flavourOf(mode: WorkloadStartupMode): ProxyFlavour | undefined {
  switch (mode) {
    case 'none':
      return undefined;
    case 'gateway':
      return 'gateway';
    case 'native':
      return 'native';
    case 'hold-annotation':
    case 'hold-injected':
      return 'hold';
    default:
      return 'classic';
  }
}

function appContainer(w: WorkloadSpec, ns: string, proxied: boolean): Container {
  const ports = w.ports ?? [{ name: 'http', containerPort: 8080 }];
  const c: Container = {
    name: w.containerName ?? w.name,
    image: w.image ?? `registry.example.com/${workloadNameKey(ns, w.name)}:${w.version ?? 'v1'}`,
    ports: ports.map((p) => ({ ...p, protocol: 'TCP' })),
  };
  if (w.missingConfigMap !== undefined) {
    Object.assign(c, {
      volumeMounts: [{ name: CONFIG_VOLUME, mountPath: `/etc/${w.name}`, readOnly: true }],
    });
  }
  if (w.command !== undefined) c.command = w.command;
  else if (w.mode === 'wrapper') c.command = WRAPPER_COMMAND;
  if (w.preStopSleep !== undefined) {
    c.lifecycle = { preStop: { exec: { command: ['sleep', String(w.preStopSleep)] } } };
  }
  if (w.httpProbe !== undefined) {
    const rewrite = proxied && w.rewriteProbes !== false;
    c.readinessProbe = rewrite
      ? {
          httpGet: { path: `/app-health/${c.name}/readyz`, port: 15020, scheme: 'HTTP' },
          periodSeconds: 10,
        }
      : { httpGet: { ...w.httpProbe, scheme: 'HTTP' }, periodSeconds: 10 };
  }
  return c;
}

/** Build the shared template of a workload's pods in namespace `ns` with pod-template-hash `hash`. */
export function podTemplate(w: WorkloadSpec, ns: string, hash: string): PodTemplate {
  const mode = w.mode ?? 'classic';
  const flavour = flavourOf(mode);
  const proxied = flavour !== undefined && flavour !== 'gateway';
  const version = w.version ?? 'v1';
  const labels: Record<string, string> = {
    app: w.name,
    version,
    'pod-template-hash': hash,
    ...(flavour !== undefined
      ? {
          'security.istio.io/tlsMode': 'istio',
          'service.istio.io/canonical-name': w.name,
          'service.istio.io/canonical-revision': version,
        }
      : {}),
    ...w.labels,
  };
  const proxyConfig: Record<string, unknown> = { ...w.proxyConfig };
  if (mode === 'hold-annotation') proxyConfig.holdApplicationUntilProxyStarts = true;
  const annotations: Record<string, string> = {};
  if (proxied) {
    Object.assign(annotations, {
      'istio.io/rev': 'default',
      'kubectl.kubernetes.io/default-container': w.containerName ?? w.name,
      'kubectl.kubernetes.io/default-logs-container': w.containerName ?? w.name,
      'prometheus.io/path': '/stats/prometheus',
      'prometheus.io/port': '15020',
      'prometheus.io/scrape': 'true',
      'sidecar.istio.io/status': injectionStatus(flavour === 'native'),
    });
    if (Object.keys(proxyConfig).length > 0) {
      annotations['proxy.istio.io/config'] = JSON.stringify(proxyConfig);
    }
    if (flavour === 'native') annotations['sidecar.istio.io/nativeSidecar'] = 'true';
  }
  Object.assign(annotations, w.annotations);

  const app = appContainer(w, ns, proxied);
  const containers: Container[] = [];
  const initContainers: Container[] = [];
  if (flavour === 'gateway') {
    containers.push(proxyContainer('gateway', envFor(w, ns, [], {}, undefined, true)));
  } else if (flavour === undefined) {
    containers.push(app);
  } else {
    const probers =
      w.httpProbe !== undefined && w.rewriteProbes !== false
        ? JSON.stringify({
            [`/app-health/${w.containerName ?? w.name}/readyz`]: {
              httpGet: { path: w.httpProbe.path, port: w.httpProbe.port, scheme: 'HTTP' },
              timeoutSeconds: 1,
            },
          })
        : undefined;
    const proxy = proxyContainer(
      flavour,
      envFor(w, ns, [w.containerName ?? w.name], proxyConfig, probers, false),
    );
    initContainers.push(initContainer());
    if (flavour === 'native') {
      initContainers.push(proxy);
      containers.push(app);
    } else if (flavour === 'hold') {
      containers.push(proxy, app);
    } else {
      containers.push(app, proxy);
    }
  }
  const spec: PodSpec = {
    containers,
    restartPolicy: 'Always',
    serviceAccountName: w.name,
    terminationGracePeriodSeconds: w.terminationGracePeriodSeconds ?? 30,
  };
  if (initContainers.length > 0) spec.initContainers = initContainers;
  const tpl: PodTemplate = {
    spec,
    labels,
    annotations,
    mode,
    appContainer: flavour === 'gateway' ? 'istio-proxy' : (w.containerName ?? w.name),
  };
  if (w.appPullRetrySeconds !== undefined) tpl.appPullRetryMs = w.appPullRetrySeconds * 1000;
  if (w.missingConfigMap !== undefined) {
    Object.assign(spec, {
      volumes: [{ name: CONFIG_VOLUME, configMap: { name: w.missingConfigMap } }],
    });
    tpl.missingMount = { volume: CONFIG_VOLUME, configMap: w.missingConfigMap };
  }
  return tpl;
}

function envFor(
  w: WorkloadSpec,
  ns: string,
  apps: string[],
  proxyConfig: Record<string, unknown>,
  probers: string | undefined,
  gateway: boolean,
) {
  return proxyEnv({
    namespace: ns,
    workload: w.name,
    appContainers: apps,
    podPorts: gateway ? [] : (w.ports ?? [{ name: 'http', containerPort: 8080 }]),
    proxyConfig,
    extraEnv: w.proxyEnv ?? {},
    appProbers: probers,
    gateway,
  });
}
