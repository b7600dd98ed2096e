/**
 * The phantom-503 story with Istio's access-log pipeline to meshdx: the MeshConfig declares an
 * `envoyOtelAls` provider (meshdx's Service in namespace meshdx, OTLP/gRPC port 4317, labels
 * naming the sending pod as Istio's docs do) and a mesh-wide Telemetry enables it for
 * `response.code >= 500`, so the checkout sidecars send their failing requests to meshdx as
 * they happen. meshdx runs outside the simulated cluster: its Service has no selector and one
 * EndpointSlice at the receiver's address (param `receiver`, default 127.0.0.1:4317), as a
 * Service for an endpoint outside the cluster is written.
 */
import type { ConfigMap, EndpointSlice, KubeObject, Service } from '../../../lib/kube/types';
import { World } from '../world/build/world';
import { buildIstioSystem, meshConfigYaml } from '../world/build/istio';
import type { Scenario } from '../world/types';
import { PHANTOM_TABLES, runPhantomStory } from './phantom-503';
import { applyTables } from './table';

export const OTEL_PROVIDER_YAML = [
  'extensionProviders:',
  '- name: meshdx-otel',
  '  envoyOtelAls:',
  '    service: meshdx.meshdx.svc.cluster.local',
  '    port: 4317',
  '    logFormat:',
  '      labels:',
  '        pod: "%ENVIRONMENT(POD_NAME)%"',
  '        namespace: "%ENVIRONMENT(POD_NAMESPACE)%"',
  '',
].join('\n');

function receiverAddress(param: string | undefined): { host: string; port: number } {
  const m = /^(\d+\.\d+\.\d+\.\d+):(\d{1,5})$/.exec(param ?? '127.0.0.1:4317');
  if (!m?.[1] || !m[2])
    throw new Error(`param receiver=${param}: expected IPv4:PORT (127.0.0.1:4317)`);
  return { host: m[1], port: Number(m[2]) };
}

export const phantomOtlp: Scenario = {
  name: 'phantom-503-otlp',
  description:
    'phantom-503 with an envoyOtelAls provider and a Telemetry (response.code >= 500): the checkout sidecars send their failing requests over OTLP/gRPC to meshdx (param receiver=IP:PORT, default 127.0.0.1:4317)',
  start(ctx) {
    const receiver = receiverAddress(ctx.params.receiver);
    const world = new World(ctx);
    buildIstioSystem(world);
    const cm = ctx.store.get<ConfigMap>('configmaps', 'istio-system', 'istio');
    if (cm)
      ctx.store.upsert('configmaps', {
        ...cm,
        data: { ...cm.data, mesh: meshConfigYaml() + OTEL_PROVIDER_YAML },
      });
    world.object('telemetries', {
      apiVersion: 'telemetry.istio.io/v1',
      kind: 'Telemetry',
      metadata: { name: 'failing-requests-to-meshdx', namespace: 'istio-system' },
      spec: {
        accessLogging: [
          { providers: [{ name: 'meshdx-otel' }], filter: { expression: 'response.code >= 500' } },
        ],
      },
    } as KubeObject);
    world.namespace('meshdx');
    const svc: Service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'meshdx', namespace: 'meshdx' },
      spec: {
        ports: [{ name: 'grpc-otlp', port: 4317, targetPort: receiver.port, protocol: 'TCP' }],
      },
    };
    world.object('services', svc);
    const slice: EndpointSlice = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'meshdx-receiver',
        namespace: 'meshdx',
        labels: { 'kubernetes.io/service-name': 'meshdx' },
      },
      addressType: 'IPv4',
      endpoints: [{ addresses: [receiver.host], conditions: { ready: true } }],
      ports: [{ name: 'grpc-otlp', port: receiver.port, protocol: 'TCP' }],
    };
    world.object('endpointslices', slice);
    const [shop] = applyTables(world, PHANTOM_TABLES);
    if (shop !== undefined) runPhantomStory(world, shop.pods, shop.deployments);
  },
};
