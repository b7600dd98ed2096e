import type { ConfigMap } from '../../../../lib/kube/types';
import type { World, Deployment } from './world';

/** The `mesh` key of the istio ConfigMap: a realistic 1.24 mesh config, no hold by default. */
export function meshConfigYaml(
  opts: { hold?: boolean; accessLogEncoding?: 'TEXT' | 'JSON' } = {},
): string {
  return [
    'accessLogFile: /dev/stdout',
    `accessLogEncoding: ${opts.accessLogEncoding ?? 'TEXT'}`,
    'defaultConfig:',
    '  discoveryAddress: istiod.istio-system.svc:15012',
    ...(opts.hold === true ? ['  holdApplicationUntilProxyStarts: true'] : []),
    '  proxyMetadata: {}',
    '  tracing:',
    '    zipkin:',
    '      address: zipkin.istio-system:9411',
    'defaultProviders:',
    '  metrics:',
    '  - prometheus',
    'enablePrometheusMerge: true',
    'rootNamespace: istio-system',
    'trustDomain: cluster.local',
    '',
  ].join('\n');
}

export interface IstioSystem {
  istiod: Deployment;
  gateway: Deployment;
}

/** istio-system: namespace, istio ConfigMap, istiod and ingress gateway (services and running pods). */
export function buildIstioSystem(
  world: World,
  opts: { istiodReplicas?: number } = {},
): IstioSystem {
  const ns = 'istio-system';
  world.namespace(ns);
  const cm: ConfigMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'istio',
      namespace: ns,
      labels: { 'istio.io/rev': 'default', release: 'istio' },
    },
    data: { mesh: meshConfigYaml(), meshNetworks: 'networks: {}' },
  };
  world.object('configmaps', cm);
  world.service(ns, {
    name: 'istiod',
    labels: { istio: 'pilot', 'istio.io/rev': 'default' },
    ports: [
      { name: 'grpc-xds', port: 15010 },
      { name: 'https-dns', port: 15012 },
      { name: 'https-webhook', port: 443, targetPort: 15017 },
      { name: 'http-monitoring', port: 15014 },
    ],
  });
  world.service(ns, {
    name: 'istio-ingressgateway',
    app: 'istio-ingressgateway',
    // as Istio's gateway chart labels it (istioctl analyze leaves its ports alone)
    labels: { istio: 'ingressgateway' },
    ports: [
      { name: 'status-port', port: 15021 },
      { name: 'http2', port: 80, targetPort: 8080 },
      { name: 'https', port: 443, targetPort: 8443 },
    ],
  });
  const istiod = world.deployment(ns, {
    name: 'istiod',
    containerName: 'discovery',
    replicas: opts.istiodReplicas ?? 1,
    mode: 'none',
    image: 'docker.io/istio/pilot:1.24.2',
    labels: { istio: 'pilot', 'istio.io/rev': 'default' },
    ports: [
      { containerPort: 8080 },
      { containerPort: 15010 },
      { containerPort: 15012 },
      { containerPort: 15014, name: 'http-monitoring' },
      { containerPort: 15017 },
    ],
  });
  const gateway = world.deployment(ns, {
    name: 'istio-ingressgateway',
    replicas: 1,
    mode: 'gateway',
    labels: { istio: 'ingressgateway' },
  });
  const start = world.at(-7200);
  for (let i = 0; i < istiod.spec.replicas; i++) world.startPod(istiod, start);
  world.startPod(gateway, start + 30_000);
  return { istiod, gateway };
}
