/**
 * What the sidecar injector will do for a pod created now: istiod's ENABLE_NATIVE_SIDECARS (from
 * its pods in the watch-fed cache) and every node's kubelet version (a nodes list, cached briefly:
 * node pools change in minutes, not seconds). A failed nodes list (no RBAC on nodes, an API
 * error) is said in the view, never a failure of it.
 */
import { injectorSetting, nodeVersions } from '../../../lib/dataplane/native-sidecar';
import type { Pod } from '../../../lib/kube/types';
import type { InjectionInput } from '../../../lib/timeline/next-mode';
import { listNodes } from '../../kube/resources';
import type { KubeTransport } from '../../kube/transport';

const NODES_TTL_MS = 30_000;

type Nodes = Pick<InjectionInput, 'nodes' | 'nodesError'>;

/** The last nodes list, kept by its owner (the runtime's Timelines state). */
export interface NodesMemo {
  last: { at: number; value: Nodes } | null;
}

export function isIstiodPod(pod: Pod): boolean {
  const l = pod.metadata.labels ?? {};
  return l['app'] === 'istiod' || l['istio'] === 'pilot';
}

async function nodesOf(t: KubeTransport, memo: NodesMemo): Promise<Nodes> {
  const now = Date.now();
  const m = memo.last;
  if (m && now - m.at < NODES_TTL_MS) return m.value;
  let value: Nodes;
  try {
    const list = await listNodes(t, { timeoutMs: 10_000 });
    value = { nodes: nodeVersions(list.items), nodesError: null };
  } catch (e) {
    value = {
      nodes: [],
      nodesError: `nodes not listed: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  memo.last = { at: now, value };
  return value;
}

/**
 * The injector's inputs: istiod's setting from the live pods, the nodes from the API (a list
 * younger than NODES_TTL_MS in `memo` is used again).
 */
export async function injectionInput(
  t: KubeTransport,
  livePods: readonly Pod[],
  memo: NodesMemo,
): Promise<InjectionInput> {
  const setting = injectorSetting(livePods.filter(isIstiodPod));
  return { setting, ...(await nodesOf(t, memo)) };
}
