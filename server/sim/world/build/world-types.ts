import type { Pod } from '../../../../lib/kube/types';
import type { SimNode } from './nodes';
import type { PodTemplate } from './podspec';
import type { PodPlan } from './plan';
import type { WorkloadSpec } from './workload';

/** The namespaces a Kubernetes cluster always has. */
export const SYSTEM_NAMESPACES: readonly string[] = [
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
];

/** A Deployment's current ReplicaSet as the world knows it. */
export interface Deployment {
  namespace: string;
  spec: WorkloadSpec;
  tpl: PodTemplate;
  hash: string;
  rsName: string;
  rsUid: string;
}

/** A pod the world drives: its plan (mutable: termination is planned later) and current object. */
export interface PodEntry {
  dep: Deployment;
  plan: PodPlan;
  pod?: Pod;
  removed: boolean;
}

export interface PodStartOptions {
  node?: SimNode;
  /** Ask for this (released) IP: staged IP reuse. */
  ip?: string;
  race?: boolean;
  /** No events and no proxy log lines (scale). */
  quiet?: boolean;
}
