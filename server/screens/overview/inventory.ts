import type { Inventory, PodList } from '../../../lib/api/inventory';
import { podListPage, type PodListQuery } from '../../../lib/inventory/pod-list';
import { buildInventory } from '../../../lib/inventory/build';
import { requireName } from '../../../lib/kube/names';
import { listGateways, listIstioConfig, listNamespaces, listServices } from '../../kube/resources';
import { runtimeFor } from '../../runtime/registry';
import type { ClusterRuntime } from '../../runtime/runtime';
import { lastReads, podsSoFar, viewDeadline } from '../deadline';
import type { RequestScope } from '../../auth/identity';

/**
 * Namespaces, pods (with their proxy) and services: the common ground of every view. Pods come
 * from the runtime's pod watch (no list of every pod per view); the other lists are small. By the
 * view's deadline, or a 503 naming what is still being read.
 */
export async function inventoryOf(
  rt: ClusterRuntime,
  namespace?: string | null,
): Promise<Inventory> {
  if (namespace) requireName('namespace', namespace);
  const t = rt.transport;
  const deadline = viewDeadline(rt, 'Overview');
  const reads = lastReads(rt);
  rt.start();
  const [namespaces, , services, istio, gateways, rootNamespace] = await Promise.all([
    deadline.needOrLast('namespaces', reads, 'namespaces', listNamespaces(t)),
    podsSoFar(rt, deadline),
    deadline.needOrLast('services', reads, 'services', listServices(t)),
    deadline.needOrLast('Istio config', reads, 'istio-config', listIstioConfig(t)),
    deadline.needOrLast('gateways', reads, 'gateways', listGateways(t)),
    deadline.needOrLast('mesh config', reads, 'root-namespace', rt.rootNamespace()),
  ]);
  // the rows of every pod stay here: the screen asks GET /api/pods for the pods it shows
  const { pods: _rows, ...inventory } = buildInventory({
    namespaces: namespaces.items,
    pods: rt.cache.livePods(),
    services: services.items,
    sidecars: istio.sidecars,
    destinationRules: istio.destinationRules.length,
    virtualServices: istio.virtualServices.length,
    serviceEntries: istio.serviceEntries.length,
    gateways: gateways.items,
    gatewaysNote: gateways.note,
    namespace: namespace ?? null,
    rootNamespace,
    now: t.clusterNow(),
  });
  return deadline.late.length > 0 ? { ...inventory, late: [...deadline.late] } : inventory;
}

/** The pods a screen asked for, filtered and capped on the server (`GET /api/pods`). */
export async function podListOf(rt: ClusterRuntime, query: PodListQuery): Promise<PodList> {
  const deadline = viewDeadline(rt, 'Pods');
  rt.start();
  const [namespaces] = await Promise.all([
    deadline.needOrLast('namespaces', lastReads(rt), 'namespaces', listNamespaces(rt.transport)),
    podsSoFar(rt, deadline),
  ]);
  const list = podListPage(rt.cache.livePods(), namespaces.items, query, rt.transport.clusterNow());
  return deadline.late.length > 0 ? { ...list, late: [...deadline.late] } : list;
}

export function getPodList(scope: RequestScope, query: PodListQuery): Promise<PodList> {
  return podListOf(runtimeFor(scope), query);
}

export function getInventory(scope: RequestScope, namespace?: string | null): Promise<Inventory> {
  return inventoryOf(runtimeFor(scope), namespace);
}
