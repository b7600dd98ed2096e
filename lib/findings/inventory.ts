import type { InventoryWithPods } from '../inventory/build';
import { SCOPING } from '../scoping/codes';
import { PLATFORM } from './codes';
import { defaultSidecarYaml } from './sidecar-fix';
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

/**
 * `rootNamespace` holds the mesh-wide default Sidecar; `istioNamespace` is istiod's (the control
 * plane a namespace's Sidecar keeps in its egress). MDX0301 here is the fallback of Scoping's:
 * it has no traffic, so its Sidecar cannot name the namespaces the workloads call, and says so.
 */
export function inventoryFindings(
  inv: InventoryWithPods,
  rootNamespace = 'istio-system',
  istioNamespace = rootNamespace,
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
        evidence: { sidecarPods: n.sidecarPods, services: n.services, traffic: 'not measured' },
        fix: {
          why: "Limits the namespace's proxies to their own namespace and the control plane. The namespaces these workloads call were not measured (see Scoping): add each to the egress hosts before applying, or calls to them fail with 503 NR.",
          yaml: defaultSidecarYaml(n.name, istioNamespace),
        },
      });
    }
  }
  return out;
}
