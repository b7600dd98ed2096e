import type { KubeObject } from '../../../../lib/kube/types';
import { stableUid } from './controllers';
import type { SimNode } from './nodes';
import { kubeTime } from './time';

/** The kubelet version every simulated node reports (the API server's own is 1.31 too). */
export const KUBELET_VERSION = 'v1.31.0';

/** A Node object as the kubelet registers it: Ready, with its InternalIP and pod CIDR. */
export function nodeObject(node: SimNode, created: number, uidSalt = ''): KubeObject {
  const ts = kubeTime(created);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: node.name,
      uid: stableUid(`node/${node.name}`, uidSalt),
      creationTimestamp: ts,
      labels: {
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': node.name,
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': 'sim-standard-4',
      },
    },
    spec: { podCIDR: `10.${node.podNet}.0.0/16`, podCIDRs: [`10.${node.podNet}.0.0/16`] },
    status: {
      addresses: [
        { type: 'InternalIP', address: node.hostIP },
        { type: 'Hostname', address: node.name },
      ],
      capacity: { cpu: '4', memory: '16374584Ki', pods: '110' },
      allocatable: { cpu: '3920m', memory: '15223608Ki', pods: '110' },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: ts,
          lastTransitionTime: ts,
        },
      ],
      nodeInfo: {
        kubeletVersion: KUBELET_VERSION,
        kubeProxyVersion: KUBELET_VERSION,
        containerRuntimeVersion: 'containerd://1.7.22',
        operatingSystem: 'linux',
        architecture: 'amd64',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        kernelVersion: '6.1.0-26-amd64',
      },
    },
  } as KubeObject;
}
