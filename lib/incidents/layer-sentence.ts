/**
 * The sentence an SRE can paste about one layer timeline (layers.ts builds the timeline).
 */
import type { HoldingLayer, LayerStep, LayerTimeline } from './layer-types';

const LAYER_NAME: Record<HoldingLayer, string> = {
  endpointslice: 'the EndpointSlice',
  istiod: "istiod's push",
  envoy: "the client's Envoy",
  ztunnel: "the client's ztunnel",
};

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const shortName = (podKey: string) => podKey.slice(podKey.indexOf('/') + 1);

/** The client's own last layer: its Envoy's ACK, or its ztunnel dropping the workload. */
function clientPart(t: LayerTimeline, last: LayerStep): string {
  const client = shortName(t.client);
  if (last.layer === 'ztunnel') {
    const own = t.ztunnels.find((z) => z.ztunnel === t.client);
    const status = own !== undefined ? ` (${own.status})` : '';
    return last.delayMs !== null
      ? `${client} dropped the workload ${secs(last.delayMs)} after the push${status}`
      : `${client}'s workload table: unknown (${last.unknown ?? 'not measured'})`;
  }
  const health = t.health !== null ? `, health ${t.health}` : '';
  const kept = last.note === null ? `: its Envoy kept the host${health}` : ' (its Envoy not read)';
  return last.delayMs !== null
    ? `${client} ACKed ${secs(last.delayMs)} later${kept}`
    : `${client}'s Envoy: unknown (${last.unknown ?? 'not measured'})`;
}

/**
 * "payments-7d9 (10.0.1.5): the EndpointSlice marked it not ready 5.0 s after its deletion
 * started; istiod pushed 0.1 s after the EndpointSlice; checkout-7f9 ACKed 20.0 s later: its
 * Envoy kept the host, health healthy. Held longest by the client's Envoy (20.0 s): 19 of 21
 * failures fell there." A ztunnel client says when it dropped the workload; other ztunnels seen
 * dropping it are listed after.
 */
export function layerSentence(t: LayerTimeline, samplingMs: number | null): string {
  const [slice, push, last] = t.steps as [LayerStep, LayerStep, LayerStep];
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
  parts.push(clientPart(t, last));
  let text = `${shortName(t.pod)} (${t.ip}): ${parts.join('; ')}.`;
  const others = t.ztunnels.filter((z) => z.ztunnel !== t.client);
  if (others.length > 0) {
    const list = others.map(
      (z) =>
        `${shortName(z.ztunnel)} ${z.delayMs !== null ? `${secs(z.delayMs)} after the push` : `at ${new Date(z.at).toISOString()}`}`,
    );
    text += ` ztunnels that dropped the workload: ${list.join(', ')}.`;
  }
  if (t.held !== null && t.heldMs !== null) {
    const inHeld = t.steps.find((s) => s.layer === t.held)?.failures ?? 0;
    text += ` Held longest by ${LAYER_NAME[t.held]} (${secs(t.heldMs)}): ${inHeld} of ${t.failures} failures fell there.`;
  }
  // how often the layers were read around these changes (a sampler slowed down elsewhere in its
  // life does not make these instants less precise), else how often it reads
  const every = t.readGapMs ?? samplingMs;
  if (every !== null) text += ` Layers read every ${secs(every)}.`;
  return text;
}
