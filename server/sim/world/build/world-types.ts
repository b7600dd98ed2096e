import type { Pod } from '../../../../lib/kube/types';
import type { ScenarioContext } from '../types';
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

/** What the pod log writers (world-logs.ts) need of the world: its clock and its log. */
export interface WorldLog {
  now(): number;
  /** Append a container log line at `at` (now if past, else when the clock gets there). */
  log(entry: PodEntry, container: string, at: number, line: string): void;
}

/**
 * What the Deployment and ReplicaSet controllers (workloads.ts) need of the world: its store, its
 * clock, and its pods to start, stop and count.
 */
export interface WorkloadWorld {
  readonly ctx: ScenarioContext;
  readonly t0: number;
  now(): number;
  newReplicaSet(ns: string, spec: WorkloadSpec): Deployment;
  workloadPods(ns: string, name: string): readonly PodEntry[];
  syncWorkload(ns: string, name: string): void;
  startPod(dep: Deployment, t0: number, o?: PodStartOptions): PodEntry;
  stopPod(entry: PodEntry, at: number, quiet?: boolean): void;
}
