import type { Inventory } from '../../../lib/api/inventory';
import { buildInventory } from '../../../lib/inventory/build';
import { requireName } from '../../../lib/kube/names';
import {
  listGateways,
  listIstioConfig,
  listNamespaces,
  listPods,
  listServices,
} from '../../kube/resources';
import { runtimeFor } from '../../runtime/registry';
import type { ClusterRuntime } from '../../runtime/runtime';

/** Namespaces, pods (with their proxy) and services: the common ground of every view. */
export async function inventoryOf(
  rt: ClusterRuntime,
  namespace?: string | null,
): Promise<Inventory> {
  if (namespace) requireName('namespace', namespace);
  const t = rt.transport;
  const [namespaces, pods, services, istio, gateways] = await Promise.all([
    listNamespaces(t),
    listPods(t),
    listServices(t),
    listIstioConfig(t),
    listGateways(t),
  ]);
  return buildInventory({
    namespaces: namespaces.items,
    pods: pods.items,
    services: services.items,
    sidecars: istio.sidecars,
    destinationRules: istio.destinationRules.length,
    virtualServices: istio.virtualServices.length,
    serviceEntries: istio.serviceEntries.length,
    gateways: gateways.items,
    gatewaysNote: gateways.note,
    namespace: namespace ?? null,
    now: t.clusterNow(),
  });
}

export function getInventory(
  context: string | null,
  namespace?: string | null,
): Promise<Inventory> {
  return inventoryOf(runtimeFor(context), namespace);
}
