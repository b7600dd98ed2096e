/**
 * The Gateway API resources that replace sidecar-era routing in ambient: an HTTPRoute per
 * VirtualService (parentRefs the Service, as waypoints read them) and a Service per
 * DestinationRule subset (HTTPRoute backendRefs name Services, not subsets). YAML text to copy,
 * written by hand so that lib/ stays free of a YAML writer.
 */
import type { DestinationRule, Service, VirtualService } from '../kube/types';

/** `reviews`, `reviews.shop`, `reviews.shop.svc.cluster.local` -> `reviews`. */
export function shortHost(host: string): string {
  return host.split('.')[0] ?? host;
}

export function subsetServiceName(host: string, subset: string): string {
  return `${shortHost(host)}-${subset}`;
}

export function httpRouteFor(vs: VirtualService, namespace: string): string {
  const hosts = (vs.spec.hosts ?? []).filter((h) => !h.includes('*'));
  const lines = [
    'apiVersion: gateway.networking.k8s.io/v1',
    'kind: HTTPRoute',
    'metadata:',
    `  name: ${vs.metadata.name}`,
    `  namespace: ${namespace}`,
    'spec:',
    '  parentRefs:',
    ...hosts.flatMap((h) => ['  - group: ""', '    kind: Service', `    name: ${shortHost(h)}`]),
    '  rules:',
  ];
  for (const http of vs.spec.http ?? []) {
    lines.push('  - backendRefs:');
    for (const r of http.route ?? []) {
      const d = r.destination;
      if (!d) continue;
      const name = d.subset ? subsetServiceName(d.host, d.subset) : shortHost(d.host);
      lines.push(`    - name: ${name}`);
      if (d.port?.number) lines.push(`      port: ${d.port.number}`);
      if (r.weight !== undefined) lines.push(`      weight: ${r.weight}`);
    }
    if (http.timeout) lines.push('    timeouts:', `      request: ${http.timeout}`);
    if (http.retries?.attempts !== undefined) {
      lines.push('    retry:', `      attempts: ${http.retries.attempts}`);
    }
  }
  return lines.join('\n');
}

export function versionServices(
  dr: DestinationRule,
  services: readonly Service[],
  namespace: string,
): string {
  const base = services.find((s) => s.metadata.name === shortHost(dr.spec.host));
  const ports = base?.spec.ports ?? [{ name: 'http', port: 80 }];
  const docs = (dr.spec.subsets ?? []).map((sub) => {
    const selector = { ...(base?.spec.selector ?? {}), ...(sub.labels ?? {}) };
    return [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      `  name: ${subsetServiceName(dr.spec.host, sub.name)}`,
      `  namespace: ${namespace}`,
      'spec:',
      '  selector:',
      ...Object.entries(selector).map(([k, v]) => `    ${k}: ${v}`),
      '  ports:',
      ...ports.flatMap((p) => [
        `  - name: ${p.name ?? `port-${p.port}`}`,
        `    port: ${p.port}`,
        ...(p.targetPort !== undefined ? [`    targetPort: ${p.targetPort}`] : []),
      ]),
    ].join('\n');
  });
  return docs.join('\n---\n');
}
