/**
 * The simulated nodes as Node objects with their kubelet versions (status.nodeInfo), for the
 * scenarios where the injector's native-sidecar decision depends on them. The world places pods
 * on NODES; this only makes those nodes visible on the API, as `kubectl get nodes` shows them.
 */
import type { KubeObject } from '../../../lib/kube/types';
import { NODES } from '../world/build/nodes';
import type { World } from '../world/build/world';

export function writeNodes(world: World, kubelet: Readonly<Record<string, string>>): void {
  for (const n of NODES) {
    const version = kubelet[n.name] ?? 'v1.33.2';
    const node: KubeObject & { spec: object; status: object } = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: n.name,
        labels: { 'kubernetes.io/hostname': n.name, 'kubernetes.io/os': 'linux' },
      },
      spec: { podCIDR: `10.${n.podNet}.0.0/16` },
      status: {
        addresses: [
          { type: 'InternalIP', address: n.hostIP },
          { type: 'Hostname', address: n.name },
        ],
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
        nodeInfo: {
          kubeletVersion: version,
          kubeProxyVersion: version,
          containerRuntimeVersion: 'containerd://1.7.22',
          osImage: 'Debian GNU/Linux 12 (bookworm)',
          architecture: 'amd64',
          operatingSystem: 'linux',
        },
      },
    };
    world.object('nodes', node);
  }
}
