import type { InventoryWithPods } from '../inventory/build';
import { SCOPING } from '../scoping/codes';
import { PLATFORM } from './codes';
import type { Finding, FindingCatalogEntry } from './types';

/**
 * Findings that need only the inventory: proxies that are not ready, namespaces without a
 * default Sidecar. (A pod missing its proxy needs the pods' own labels and annotations: see
 * injection.ts.)
 */
export const INVENTORY_CATALOG: readonly FindingCatalogEntry[] = [
  PLATFORM.byKey.proxyNotReady,
  SCOPING.byKey.namespaceWithoutDefault,
];

export function inventoryFindings(
  inv: InventoryWithPods,
  rootNamespace = 'istio-system',
): Finding[] {
  const out: Finding[] = [];
  const rootHasDefault = inv.namespaces.some((n) => n.name === rootNamespace && n.defaultSidecar);
  for (const p of inv.pods) {
    const subject = { kind: 'Pod', namespace: p.namespace, name: p.name };
    if (p.proxy.placement !== 'none' && p.phase === 'Running' && !p.proxy.ready && !p.deleting) {
      out.push({
        code: PLATFORM.code.proxyNotReady,
        severity: PLATFORM.byKey.proxyNotReady.severity,
        subject,
        evidence: { proxyRestarts: p.proxy.restarts, node: p.node },
      });
    }
  }
  for (const n of inv.namespaces) {
    // a namespace of gateways or waypoints only: no Sidecar resource applies to them
    if (n.sidecarPods > 0 && !n.defaultSidecar && !rootHasDefault && n.name !== rootNamespace) {
      out.push({
        code: SCOPING.code.namespaceWithoutDefault,
        severity: SCOPING.byKey.namespaceWithoutDefault.severity,
        subject: { kind: 'Namespace', name: n.name },
        evidence: { sidecarPods: n.sidecarPods, services: n.services },
        fix: {
          why: "Limits the namespace's proxies to their own namespace and the control plane; add the namespaces they call.",
          yaml: `apiVersion: networking.istio.io/v1\nkind: Sidecar\nmetadata:\n  name: default\n  namespace: ${n.name}\nspec:\n  egress:\n  - hosts:\n    - "./*"\n    - "${rootNamespace}/*"\n`,
        },
      });
    }
  }
  return out;
}
