/** The simulated cluster's nodes: each has a host IP and its own pod CIDR (10.40+i.0.0/16). */
export interface SimNode {
  name: string;
  hostIP: string;
  /** Second octet of the node's pod range. */
  podNet: number;
}

export const NODES: readonly SimNode[] = [
  { name: 'sim-node-1', hostIP: '10.128.0.11', podNet: 40 },
  { name: 'sim-node-2', hostIP: '10.128.0.12', podNet: 41 },
  { name: 'sim-node-3', hostIP: '10.128.0.13', podNet: 42 },
];
