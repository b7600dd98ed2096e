import { parseAllDocuments } from 'yaml';
import type { Container, Pod, Service, ServicePort } from '../../../lib/kube/types';

/** Kubernetes objects of a multi-document YAML text (empty documents skipped). */
export function yamlObjects(text: string): { kind?: string; [k: string]: unknown }[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as unknown)
    .filter((o): o is { kind?: string } => o !== null && typeof o === 'object');
}

export function svc(
  name: string,
  ports: ServicePort[],
  opts: { ns?: string; selector?: Record<string, string>; type?: string } = {},
): Service {
  return {
    kind: 'Service',
    metadata: { name, namespace: opts.ns ?? 'ports' },
    spec: { selector: opts.selector ?? { app: name }, ports, type: opts.type },
  };
}

export function pod(
  name: string,
  app: string,
  containers: Container[],
  opts: {
    ns?: string;
    annotations?: Record<string, string>;
    proxyEnv?: Record<string, string>;
  } = {},
): Pod {
  const proxy: Container = {
    name: 'istio-proxy',
    image: 'proxyv2',
    env: Object.entries(opts.proxyEnv ?? {}).map(([n, value]) => ({ name: n, value })),
  };
  return {
    kind: 'Pod',
    metadata: {
      name,
      namespace: opts.ns ?? 'ports',
      labels: { app, 'pod-template-hash': 'abc12' },
      annotations: opts.annotations,
      ownerReferences: [{ kind: 'ReplicaSet', name: `${app}-abc12`, controller: true }],
    },
    spec: { containers: [...containers, proxy] },
    status: { phase: 'Running' },
  };
}
