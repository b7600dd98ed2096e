/**
 * The layer that held a deleted pod's IP: for each failing IP and client proxy, when the
 * EndpointSlice marked the endpoint not ready, when istiod pushed the change to that client
 * (its EDS nonce sent), when the client ACKed it and its Envoy dropped the host, the delay each
 * layer added after the one before, and which of those spans the failures fell in. Each instant
 * is the first read that saw the change (layer-events.ts), so it is late by at most one sampling
 * period; a layer not seen is unknown with its reason, never 0.
 */
import type { LayerEvent } from './layer-events';

export type HoldingLayer = 'endpointslice' | 'istiod' | 'envoy';

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
  /** Why a layer was not read, by layer (`endpointslice`, `istiod`, `syncz`, `envoy NS/POD`). */
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
  failures: number;
  /** Failing requests after the client's Envoy let go, and before the deletion started. */
  after: number;
  before: number;
  sentence: string;
}

const LAYER_NAME: Record<HoldingLayer, string> = {
  endpointslice: 'the EndpointSlice',
  istiod: "istiod's push",
  envoy: "the client's Envoy",
};

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const shortName = (podKey: string) => podKey.slice(podKey.indexOf('/') + 1);

function first(
  events: readonly LayerEvent[],
  pred: (e: LayerEvent) => boolean,
  from: number,
): LayerEvent | undefined {
  let best: LayerEvent | undefined;
  for (const e of events)
    if (e.at >= from && pred(e) && (best === undefined || e.at < best.at)) best = e;
  return best;
}

function last(
  events: readonly LayerEvent[],
  pred: (e: LayerEvent) => boolean,
  until: number,
): LayerEvent | undefined {
  let best: LayerEvent | undefined;
  for (const e of events)
    if (e.at <= until && pred(e) && (best === undefined || e.at >= best.at)) best = e;
  return best;
}

function notSeen(inputs: LayerInputs, layer: string, since: number | null): string {
  const p = inputs.problems[layer];
  if (p !== undefined) return `not read: ${p}`;
  if (inputs.firstSampleAt === null) return 'the layers were never read';
  if (since !== null && inputs.firstSampleAt > since)
    return 'the layers were first read after the deletion started';
  return 'no change seen for this IP';
}

/** One IP and client: the layers' instants, delays and the failures in each span. */
function timelineOf(
  ip: string,
  client: string,
  holder: LayerHolder,
  fails: readonly number[],
  inputs: LayerInputs,
): LayerTimeline {
  const ev = inputs.events;
  const d = holder.deletionStartedAt;
  const from = d ?? Math.min(...fails);
  const slice = first(ev, (e) => e.kind === 'slice-not-ready' && e.ip === ip, from);
  const shard = first(
    ev,
    (e) => (e.kind === 'shard-unhealthy' || e.kind === 'shard-dropped') && e.ip === ip,
    from,
  );
  const dropped = first(
    ev,
    (e) => e.kind === 'envoy-dropped' && e.proxy === client && e.ip === ip,
    from,
  );
  // the push that carried the change is the one the client had ACKed when its Envoy let go of
  // the host; without a read of its Envoy, the first push after the EndpointSlice changed
  let pushed: LayerEvent | undefined;
  let acked: LayerEvent | undefined;
  let inferred = false;
  if (dropped !== undefined) {
    // the first ACK after the last read that still showed the host: the one that removed it
    // (an earlier one left it there; a later one came after it was gone)
    const since = dropped.since;
    acked =
      first(
        ev,
        (e) => e.kind === 'eds-acked' && e.proxy === client && e.at > since && e.at <= dropped.at,
        since,
      ) ?? last(ev, (e) => e.kind === 'eds-acked' && e.proxy === client, dropped.at);
    // a push sent and ACKed between two reads shows only as its ACK: it was sent by then
    pushed =
      acked !== undefined
        ? (last(
            ev,
            (e) => e.kind === 'eds-sent' && e.proxy === client && e.detail === acked?.detail,
            acked.at,
          ) ?? acked)
        : undefined;
  } else if (slice !== undefined) {
    inferred = true;
    pushed = first(ev, (e) => e.kind === 'eds-sent' && e.proxy === client, slice.at);
    const nonce = pushed?.detail;
    acked =
      pushed !== undefined
        ? first(
            ev,
            (e) => e.kind === 'eds-acked' && e.proxy === client && e.detail === nonce,
            pushed.at,
          )
        : undefined;
  }
  if (pushed !== undefined && slice !== undefined && pushed.at < slice.at) pushed = undefined;
  // the host went between the Envoy's last read with it and the read without it; the ACK that
  // removed it, when seen in that span, dates it closer than a late read of the Envoy
  const envoyAt =
    dropped !== undefined
      ? acked !== undefined && acked.at > dropped.since && acked.at <= dropped.at
        ? acked.at
        : dropped.at
      : (acked?.at ?? null);

  const sliceAt = slice?.at ?? null;
  const pushAt = pushed?.at ?? null;
  const span = (a: number | null, b: number | null) => (a !== null && b !== null ? b - a : null);
  const inSpan = (a: number | null, b: number | null) =>
    a === null || b === null ? 0 : fails.filter((t) => t >= a && t < b).length;
  const steps: LayerStep[] = [
    {
      layer: 'endpointslice',
      at: sliceAt,
      delayMs: span(d, sliceAt),
      unknown:
        sliceAt === null
          ? notSeen(inputs, 'endpointslice', d)
          : d === null
            ? "the pod's deletion start was not recorded"
            : null,
      failures: inSpan(d, sliceAt),
      note: null,
    },
    {
      layer: 'istiod',
      at: pushAt,
      delayMs: span(sliceAt, pushAt),
      unknown:
        pushAt === null
          ? sliceAt === null
            ? 'the EndpointSlice change was not seen'
            : notSeen(inputs, 'syncz', d)
          : null,
      failures: inSpan(sliceAt, pushAt),
      note:
        inferred && pushAt !== null
          ? "the first push after the EndpointSlice changed (the client's Envoy was not read)"
          : null,
    },
    {
      layer: 'envoy',
      at: envoyAt,
      delayMs: span(pushAt, envoyAt),
      unknown:
        envoyAt === null
          ? notSeen(inputs, `envoy ${client}`, d)
          : pushAt === null
            ? "istiod's push was not seen"
            : null,
      failures: inSpan(pushAt, envoyAt),
      note:
        dropped === undefined && envoyAt !== null
          ? 'its ACK in syncz (its Envoy was not read)'
          : null,
    },
  ];
  let held: HoldingLayer | null = null;
  let heldMs: number | null = null;
  for (const s of steps)
    if (s.delayMs !== null && (heldMs === null || s.delayMs > heldMs)) {
      held = s.layer;
      heldMs = s.delayMs;
    }
  const end = envoyAt;
  const t: LayerTimeline = {
    ip,
    pod: holder.pod,
    client,
    deletionStartedAt: d,
    goneAt: holder.goneAt,
    shardsAt: shard?.at ?? null,
    steps,
    held,
    heldMs,
    health: dropped?.detail || null,
    failures: fails.length,
    after: end === null ? 0 : fails.filter((x) => x >= end).length,
    before: d === null ? 0 : fails.filter((x) => x < d).length,
    sentence: '',
  };
  return { ...t, sentence: layerSentence(t, inputs.samplingMs) };
}

/**
 * The sentence an SRE can paste: "payments-7d9 (10.0.1.5): the EndpointSlice marked it not
 * ready 5.0 s after its deletion started; istiod pushed 0.1 s after the EndpointSlice;
 * checkout-7f9 ACKed 20.0 s later: its Envoy kept the host, health healthy. Held longest by the
 * client's Envoy (20.0 s): 19 of 21 failures fell there."
 */
export function layerSentence(t: LayerTimeline, samplingMs: number | null): string {
  const [slice, push, envoy] = t.steps as [LayerStep, LayerStep, LayerStep];
  const client = shortName(t.client);
  const parts: string[] = [];
  parts.push(
    slice.delayMs !== null
      ? `the EndpointSlice marked it not ready ${secs(slice.delayMs)} after its deletion started`
      : `the EndpointSlice: unknown (${slice.unknown ?? 'not measured'})`,
  );
  parts.push(
    push.delayMs !== null
      ? `istiod pushed ${secs(push.delayMs)} after the EndpointSlice`
      : `istiod's push: unknown (${push.unknown ?? 'not measured'})`,
  );
  const health = t.health !== null ? `, health ${t.health}` : '';
  const kept = envoy.note === null ? `: its Envoy kept the host${health}` : ' (its Envoy not read)';
  parts.push(
    envoy.delayMs !== null
      ? `${client} ACKed ${secs(envoy.delayMs)} later${kept}`
      : `${client}'s Envoy: unknown (${envoy.unknown ?? 'not measured'})`,
  );
  let text = `${shortName(t.pod)} (${t.ip}): ${parts.join('; ')}.`;
  if (t.held !== null && t.heldMs !== null) {
    const inHeld = t.steps.find((s) => s.layer === t.held)?.failures ?? 0;
    text += ` Held longest by ${LAYER_NAME[t.held]} (${secs(t.heldMs)}): ${inHeld} of ${t.failures} failures fell there.`;
  }
  if (samplingMs !== null) text += ` Layers read every ${secs(samplingMs)}.`;
  return text;
}

/** A timeline per failing IP and client proxy, the longest-held first. */
export function layerTimelines(inputs: LayerInputs): LayerTimeline[] {
  const groups = new Map<
    string,
    { ip: string; client: string; holder: LayerHolder; times: number[] }
  >();
  for (const f of inputs.failures) {
    const holder = f.holder;
    const key = [f.ip, f.client, holder.pod].join(' ');
    const g = groups.get(key) ?? { ip: f.ip, client: f.client, holder, times: [] };
    g.times.push(f.time);
    groups.set(key, g);
  }
  const out = [...groups.values()].map((g) =>
    timelineOf(
      g.ip,
      g.client,
      g.holder,
      g.times.sort((a, b) => a - b),
      inputs,
    ),
  );
  return out.sort(
    (a, b) =>
      (b.heldMs ?? -1) - (a.heldMs ?? -1) ||
      a.ip.localeCompare(b.ip) ||
      a.client.localeCompare(b.client),
  );
}
