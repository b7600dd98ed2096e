import type { Inventory } from '../api/inventory';
import type { Finding, FindingCatalogEntry } from './types';

/** Findings that need only the inventory: the mesh's basic health. */
export const INVENTORY_CATALOG: FindingCatalogEntry[] = [
  {
    code: 'IST0103',
    severity: 'warning',
    title: 'PodMissingProxy',
    description:
      'A pod in a namespace with sidecar injection enabled runs without an istio-proxy (injected before the label was set, or injection disabled on the pod).',
  },
  {
    code: 'MDX0001',
    severity: 'error',
    title: 'ProxyNotReady',
    description:
      'A running pod whose istio-proxy is not ready: its traffic is failing or blackholed.',
  },
  {
    code: 'MDX0301',
    severity: 'warning',
    title: 'NamespaceWithoutDefaultSidecar',
    description:
      'Meshed pods in a namespace with no default Sidecar receive the configuration of every service in the mesh.',
  },
];

export function inventoryFindings(inv: Inventory, rootNamespace = 'istio-system'): Finding[] {
  const out: Finding[] = [];
  const injected = new Set(
    inv.namespaces
      .filter((n) => n.injection === 'enabled' || n.injection === 'revision')
      .map((n) => n.name),
  );
  const rootHasDefault = inv.namespaces.some((n) => n.name === rootNamespace && n.defaultSidecar);
  for (const p of inv.pods) {
    const subject = { kind: 'Pod', namespace: p.namespace, name: p.name };
    if (p.proxy.placement === 'none' && injected.has(p.namespace) && p.phase !== 'Succeeded') {
      out.push({
        code: 'IST0103',
        severity: 'warning',
        subject,
        evidence: { namespaceInjection: 'enabled', workload: `${p.workloadKind}/${p.workload}` },
        fix: {
          why: 'Restart the workload so the injector adds the proxy.',
          yaml: `kubectl -n ${p.namespace} rollout restart ${p.workloadKind.toLowerCase()}/${p.workload}`,
        },
      });
    }
    if (p.proxy.placement !== 'none' && p.phase === 'Running' && !p.proxy.ready && !p.deleting) {
      out.push({
        code: 'MDX0001',
        severity: 'error',
        subject,
        evidence: { proxyRestarts: p.proxy.restarts, node: p.node },
      });
    }
  }
  for (const n of inv.namespaces) {
    if (n.meshedPods > 0 && !n.defaultSidecar && !rootHasDefault && n.name !== rootNamespace) {
      out.push({
        code: 'MDX0301',
        severity: 'warning',
        subject: { kind: 'Namespace', name: n.name },
        evidence: { meshedPods: n.meshedPods, services: n.services },
        fix: {
          why: "Limits the namespace's proxies to their own namespace and the control plane; add the namespaces they call.",
          yaml: `apiVersion: networking.istio.io/v1\nkind: Sidecar\nmetadata:\n  name: default\n  namespace: ${n.name}\nspec:\n  egress:\n  - hosts:\n    - "./*"\n    - "${rootNamespace}/*"\n`,
        },
      });
    }
  }
  return out;
}
