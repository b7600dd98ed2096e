/**
 * The layer that held a deleted pod's IP: for each failing IP and client proxy, when the
 * EndpointSlice marked the endpoint not ready, when istiod pushed the change to that client
 * (its EDS nonce sent), when the client ACKed it and its Envoy dropped the host (or, when the
 * client is a ztunnel, when that ztunnel dropped the workload from its table), the delay each
 * layer added after the one before, and which of those spans the failures fell in. Each instant
 * is the first read that saw the change (layer-events.ts), so it is late by at most one sampling
 * period; a layer not seen is unknown with its reason, never 0.
 */
import type { LayerEvent } from './layer-events';
import { layerSentence } from './layer-sentence';
import { nonceSentAt } from '../proxies/staleness';
import type {
  HoldingLayer,
  LayerHolder,
  LayerInputs,
  LayerStep,
  LayerTimeline,
  ZtunnelDrop,
} from './layer-types';

export type {
  HoldingLayer,
  LayerFailure,
  LayerHolder,
  LayerInputs,
  LayerStep,
  LayerTimeline,
} from './layer-types';

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

/** The client's own last layer (its Envoy or its ztunnel), and the push that carried the change to it. */
interface LastLayer {
  pushed: LayerEvent | undefined;
  at: number | null;
  /** The push was not seen carried to this client: the first one after the EndpointSlice changed. */
  inferred: boolean;
  /** What the client's layer held last (its Envoy's host health, the ztunnel's status). */
  detail: string | null;
  /** The client's own layer was not read, its instant from syncz alone. */
  fromSyncz: boolean;
  /** The time between the two reads that dated `at` (null: not dated). */
  gapMs: number | null;
}

const gapOf = (e: LayerEvent | undefined): number | null =>
  e === undefined ? null : e.at - e.since;

/**
 * When a push no read saw sent was made: its nonce names it (istiod's PushVersion, RFC 3339 to
 * the second), and it carried the EndpointSlice's change, so not before the read that saw that
 * change; a nonce that names no time leaves its ACK, the latest it can have been sent.
 */
function namedPush(acked: LayerEvent, slice: LayerEvent | undefined): LayerEvent {
  const named = nonceSentAt(acked.detail);
  if (named === null || named > acked.at) return acked;
  const at = Math.max(named, Math.min(slice?.at ?? named, acked.at));
  return { ...acked, kind: 'eds-sent', at, since: Math.min(named, at) };
}

/** A client that is an Envoy: when it ACKed the push that removed the host, or its read without it. */
function envoyPath(
  ev: readonly LayerEvent[],
  client: string,
  ip: string,
  from: number,
  slice: LayerEvent | undefined,
): LastLayer {
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
    // a push no read saw sent (sent and ACKed, or sent and superseded, between two reads)
    pushed =
      acked !== undefined
        ? (last(
            ev,
            (e) => e.kind === 'eds-sent' && e.proxy === client && e.detail === acked?.detail,
            acked.at,
          ) ?? namedPush(acked, slice))
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

  return {
    pushed,
    at: envoyAt,
    inferred,
    detail: dropped?.detail || null,
    fromSyncz: dropped === undefined && envoyAt !== null,
    gapMs: envoyAt === null ? null : envoyAt === acked?.at ? gapOf(acked) : gapOf(dropped),
  };
}

/**
 * A client that is a ztunnel: when it dropped the workload (or stopped calling it Healthy). One
 * debounced push goes to every proxy connected to istiod, so the push that carried the change is
 * the first syncz shows sent to any proxy after the EndpointSlice changed.
 */
function ztunnelPath(
  ev: readonly LayerEvent[],
  client: string,
  ip: string,
  from: number,
  slice: LayerEvent | undefined,
): LastLayer {
  const own = first(
    ev,
    (e) => e.kind === 'ztunnel-dropped' && e.proxy === client && e.ip === ip,
    from,
  );
  const pushed =
    slice !== undefined ? first(ev, (e) => e.kind === 'eds-sent', slice.at) : undefined;
  const late = pushed !== undefined && own !== undefined && pushed.at > own.at;
  return {
    pushed: late ? undefined : pushed,
    at: own?.at ?? null,
    inferred: pushed !== undefined && !late,
    detail: own?.detail ?? null,
    fromSyncz: false,
    gapMs: gapOf(own),
  };
}

/** Every ztunnel seen dropping the IP's workload after `from`, with its delay after the push. */
function ztunnelDrops(
  ev: readonly LayerEvent[],
  ip: string,
  from: number,
  pushAt: number | null,
): ZtunnelDrop[] {
  const byZ = new Map<string, LayerEvent>();
  for (const e of ev)
    if (e.kind === 'ztunnel-dropped' && e.ip === ip && e.at >= from) {
      const was = byZ.get(e.proxy);
      if (was === undefined || e.at < was.at) byZ.set(e.proxy, e);
    }
  return [...byZ.values()]
    .sort((x, y) => x.at - y.at || x.proxy.localeCompare(y.proxy))
    .map((e) => ({
      ztunnel: e.proxy,
      at: e.at,
      delayMs: pushAt !== null ? e.at - pushAt : null,
      status: e.detail,
    }));
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
  const viaZtunnel = inputs.ztunnels?.includes(client) === true;
  const last = (viaZtunnel ? ztunnelPath : envoyPath)(ev, client, ip, from, slice);
  const pushed = last.pushed;
  const envoyAt = last.at;
  const lastLayer: HoldingLayer = viaZtunnel ? 'ztunnel' : 'envoy';
  const lastProblem = `${lastLayer} ${client}`;
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
        last.inferred && pushAt !== null
          ? viaZtunnel
            ? 'the first push syncz shows after the EndpointSlice changed (one push goes to every proxy)'
            : "the first push after the EndpointSlice changed (the client's Envoy was not read)"
          : null,
    },
    {
      layer: lastLayer,
      at: envoyAt,
      delayMs: span(pushAt, envoyAt),
      unknown:
        envoyAt === null
          ? notSeen(inputs, lastProblem, d)
          : pushAt === null
            ? "istiod's push was not seen"
            : null,
      failures: inSpan(pushAt, envoyAt),
      note: last.fromSyncz ? 'its ACK in syncz (its Envoy was not read)' : null,
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
  const gaps = [gapOf(slice), gapOf(pushed), last.gapMs].filter((g): g is number => g !== null);
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
    health: viaZtunnel ? null : last.detail,
    ztunnels: ztunnelDrops(ev, ip, from, pushAt),
    failures: fails.length,
    after: end === null ? 0 : fails.filter((x) => x >= end).length,
    before: d === null ? 0 : fails.filter((x) => x < d).length,
    readGapMs: gaps.length > 0 ? Math.max(...gaps) : null,
    sentence: '',
  };
  return { ...t, sentence: layerSentence(t, inputs.samplingMs) };
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
