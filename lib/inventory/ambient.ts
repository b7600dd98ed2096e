/**
 * The ambient part of the inventory: ztunnel pods per node and waypoints with the pods that use
 * them. Which pod is ambient and which waypoint it names is lib/dataplane/mode.ts's rule.
 */
import type { Inventory, PodRow } from '../api/inventory';
import { isWaypointPod, isZtunnelPod, waypointRefOf, WAYPOINT_CLASS } from '../dataplane/mode';
import type { Gateway, Pod } from '../kube/types';
import { objectKey, type ObjectRef } from '../refs/object-ref';

function ready(p: Pod): boolean {
  return p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export function ambientSummary(
  pods: readonly Pod[],
  rows: readonly PodRow[],
  gateways: readonly Gateway[],
  gatewaysNote: string | null,
): Inventory['ambient'] {
  const ambientByNode = new Map<string, number>();
  const usedBy = new Map<string, number>();
  for (const r of rows) {
    if (r.dataplane.mode !== 'ambient') continue;
    if (r.node) ambientByNode.set(r.node, (ambientByNode.get(r.node) ?? 0) + 1);
    if (r.dataplane.waypoint)
      usedBy.set(r.dataplane.waypoint, (usedBy.get(r.dataplane.waypoint) ?? 0) + 1);
  }
  const ztunnels = pods
    .filter((p) => isZtunnelPod(p))
    .map((p) => ({
      name: p.metadata.name,
      node: p.spec?.nodeName ?? null,
      ready: ready(p),
      podIP: p.status?.podIP ?? null,
      ambientPods: p.spec?.nodeName ? (ambientByNode.get(p.spec.nodeName) ?? 0) : 0,
    }))
    .sort((a, b) => (a.node ?? '').localeCompare(b.node ?? '') || a.name.localeCompare(b.name));
  const waypoints = new Map<string, Inventory['ambient']['waypoints'][number]>();
  const entry = ({ namespace, name }: ObjectRef) => {
    const key = objectKey(namespace, name);
    let w = waypoints.get(key);
    if (!w) {
      w = { namespace, name, gateway: false, pods: 0, readyPods: 0, usedBy: usedBy.get(key) ?? 0 };
      waypoints.set(key, w);
    }
    return w;
  };
  for (const g of gateways) {
    if (g.spec?.gatewayClassName !== WAYPOINT_CLASS) continue;
    entry({ namespace: g.metadata.namespace ?? '', name: g.metadata.name }).gateway = true;
  }
  for (const p of pods) {
    if (!isWaypointPod(p)) continue;
    const w = entry(waypointRefOf(p));
    w.pods++;
    if (ready(p)) w.readyPods++;
  }
  return {
    ztunnels,
    waypoints: [...waypoints.values()].sort(
      (a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name),
    ),
    gatewaysNote,
  };
}
