/**
 * The shapes of a layer timeline (layers.ts builds them, layer-sentence.ts says them): for one
 * failing IP and client proxy, when each layer that could hold the deleted pod's IP let go.
 */
import type { LayerEvent } from './layer-events';

/** The client's last layer is its Envoy (a sidecar or gateway) or, in ambient, its node's ztunnel. */
export type HoldingLayer = 'endpointslice' | 'istiod' | 'envoy' | 'ztunnel';

/** The pod that held the IP, from the IP history. */
export interface LayerHolder {
  pod: string;
  deletionStartedAt: number | null;
  goneAt: number | null;
}

/** A failing request to an IP from a client proxy (pod key), and the pod that held the IP then. */
export interface LayerFailure {
  time: number;
  client: string;
  ip: string;
  holder: LayerHolder;
}

export interface LayerInputs {
  events: readonly LayerEvent[];
  failures: readonly LayerFailure[];
  /**
   * Pod keys of the ztunnels (ambient): a failure whose client is one went through that ztunnel,
   * whose workload table is its last layer (absent: no client is a ztunnel).
   */
  ztunnels?: readonly string[];
  /** Why a layer was not read, by layer (`endpointslice`, `istiod`, `syncz`, `envoy NS/POD`, `ztunnel NS/POD`). */
  problems: Readonly<Record<string, string>>;
  /** When the layers were first read (null: never), and how often. */
  firstSampleAt: number | null;
  samplingMs: number | null;
}

export interface LayerStep {
  layer: HoldingLayer;
  /** When this layer let go (first read that saw it), null when unknown. */
  at: number | null;
  /** How long after the layer before it (the deletion start for the EndpointSlice). */
  delayMs: number | null;
  /** Why `at` is unknown. */
  unknown: string | null;
  /** Failing requests that fell between the layer before letting go and this one. */
  failures: number;
  /** How `at` was found when not read directly (the client's Envoy not read: from syncz alone). */
  note: string | null;
}

/** One ztunnel that dropped the workload (or stopped calling it Healthy), and when. */
export interface ZtunnelDrop {
  ztunnel: string;
  at: number;
  /** After istiod's push (null when the push was not seen). */
  delayMs: number | null;
  /** What the ztunnel holds now: the workload's status, `removed` when it left the table. */
  status: string;
}

export interface LayerTimeline {
  ip: string;
  pod: string;
  client: string;
  deletionStartedAt: number | null;
  goneAt: number | null;
  /** istiod's shards marked the endpoint not healthy or dropped it (null: not seen). */
  shardsAt: number | null;
  steps: LayerStep[];
  /** The layer that added the longest delay, null when none was measured. */
  held: HoldingLayer | null;
  heldMs: number | null;
  /** The host's health in the client's Envoy when it was last seen there. */
  health: string | null;
  /** Every ztunnel seen dropping this IP's workload (ambient), the client's own among them. */
  ztunnels: ZtunnelDrop[];
  failures: number;
  /** Failing requests after the client's Envoy let go, and before the deletion started. */
  after: number;
  before: number;
  /**
   * The longest time between the two reads that dated one of this timeline's instants: how late
   * each may be (null: none dated). The sampler's period is what it tries; this is what it did.
   */
  readGapMs: number | null;
  sentence: string;
}
