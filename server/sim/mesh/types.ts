import type { KubeObject, Pod } from '../../../lib/kube/types';
import type { SimKind } from '../store/kinds';
import type { XdsModel } from './istio-model/xds-push';

export type { SimKind };

/**
 * Kinds the mesh emulator may read. Never Secrets: everything it computes is served through
 * pods/proxy and port-forward, which meshdx reads, and meshdx must not receive secrets.
 */
export type MeshKind = Exclude<SimKind, 'secrets'>;

/** What the mesh emulator may read of the simulated cluster: the current objects and the clock. */
export interface MeshWorld {
  now(): Date;
  /** The objects of a kind: an array never changed in place (a change makes a new one). */
  list(kind: MeshKind): readonly KubeObject[];
  /** The layer-delay model when the scenario turned it on (istio-model/xds-push.ts). */
  xds?(): XdsModel | undefined;
}

export interface PodHttpResponse {
  status: number;
  contentType: string;
  body: string;
}

/**
 * The simulated data plane and control plane: answers HTTP GETs to a pod's Istio ports
 * (15000 Envoy admin, 15020 pilot-agent, 15021 health, 15090 Envoy prometheus, 15014 istiod)
 * with payloads shaped like the real ones, computed from the objects in the world by Istio's
 * visibility rules (every service/port/subset unless a Sidecar narrows it).
 */
export interface MeshEmulator {
  podHttp(pod: Pod, port: number, path: string, query: URLSearchParams): PodHttpResponse;
  /**
   * Builds the state a running control plane already holds when anyone first asks (istiod's
   * per-proxy sync rows, kept from its pushes), so that a first request does not pay for it.
   */
  warm?(): void;
}
