import type { Pod } from '../../../lib/kube/types';
import type { LayerInputs } from '../../../lib/incidents/layers';
import { istiodPods } from '../../envoy/istiod';
import { hasProxy } from '../../../lib/dataplane/proxy-container';
import { AMBIENT_REDIRECTION_ANNOTATION, isZtunnelPod } from '../../../lib/dataplane/mode';
import { podKeyOfObject } from '../../../lib/refs/pod-ref';
import { envoyAdminGet, portForwardGet } from '../../kube/podports';
import { listEndpointSlices } from '../../kube/resources';
import { defineScreen, type ClusterRuntime } from '../../runtime/runtime';
import { LayerSampler, PENDING_MS, type LayerReads } from './layer-sampler';

/** A ztunnel dump holds every workload of the cluster: a few MB at scale. */
const MAX_ZTUNNEL_DUMP_BYTES = 64 * 1024 * 1024;

/** The runtime's reads of the layers: its transport, its pod watch, port-forwards in its budget. */
export function runtimeLayerReads(rt: ClusterRuntime): LayerReads {
  const timeoutMs = rt.settings.MESHDX_PROXY_TIMEOUT_MS;
  return {
    slices: async () => (await listEndpointSlices(rt.transport)).items,
    istiods: async () => istiodPods(rt.cache.livePods(), rt.settings.MESHDX_ISTIO_NAMESPACE),
    istiod: async (p: Pod, path: string) => {
      const ns = p.metadata.namespace ?? rt.settings.MESHDX_ISTIO_NAMESPACE;
      const res = await portForwardGet(rt.kc, ns, p.metadata.name, 15014, path, { timeoutMs });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      return res.body;
    },
    meshedPods: (ns) =>
      rt.cache
        .livePods()
        .filter(
          (p) =>
            p.metadata.namespace === ns &&
            !p.metadata.deletionTimestamp &&
            p.status?.phase === 'Running' &&
            hasProxy(p),
        )
        .map(podKeyOfObject),
    ztunnels: (ns) => {
      const pods = rt.cache.livePods();
      // the pods ztunnel captured (the CNI marks them): their nodes' ztunnels are their clients'
      const nodes = new Set(
        pods
          .filter(
            (p) =>
              p.metadata.namespace === ns &&
              p.status?.phase === 'Running' &&
              p.metadata.annotations?.[AMBIENT_REDIRECTION_ANNOTATION] === 'enabled',
          )
          .map((p) => p.spec?.nodeName),
      );
      return pods
        .filter(
          (p) =>
            isZtunnelPod(p, rt.settings.MESHDX_ISTIO_NAMESPACE) &&
            p.status?.phase === 'Running' &&
            nodes.has(p.spec?.nodeName),
        )
        .map(podKeyOfObject);
    },
    ztunnelDump: async (ns, pod) => {
      const res = await envoyAdminGet(rt.kc, ns, pod, '/config_dump', {
        timeoutMs,
        maxBytes: MAX_ZTUNNEL_DUMP_BYTES,
      });
      if (res.status !== 200) throw new Error(`ztunnel admin /config_dump answered ${res.status}`);
      return res.body;
    },
    clusters: async (ns, pod) => {
      const res = await envoyAdminGet(rt.kc, ns, pod, '/clusters?format=json', { timeoutMs });
      if (res.status !== 200) throw new Error(`Envoy admin /clusters answered ${res.status}`);
      return res.body;
    },
  };
}

/**
 * The runtime's layer sampler, started on first use every MESHDX_LAYER_SAMPLE_MS (null when
 * that is 0); it stops with its runtime.
 */
export const layerSamplerScreen = defineScreen<LayerSampler | null>('incident-layers', (rt) => {
  const period = rt.settings.MESHDX_LAYER_SAMPLE_MS;
  if (period <= 0 || !rt.ownsHistory) return null;
  const sampler = new LayerSampler(
    runtimeLayerReads(rt),
    { recordLayerEvents: (e) => rt.store.layers.record(e) },
    period,
  );
  return sampler.start(
    () => rt.now().getTime(),
    () => !rt.isStopped,
  );
});

/** What Incidents shows of the layers in a window: the stored events and how they were read. */
export function layerInputsFor(
  rt: ClusterRuntime,
  sampler: LayerSampler | null,
  window: { fromMs: number; toMs: number },
): { layers?: Omit<LayerInputs, 'failures'>; layersNote: string | null } {
  // a layer lets go after the failures began: events up to PENDING_MS past the window count
  const { events, unreadable } = rt.store.layers.between(
    window.fromMs - 60_000,
    window.toMs + PENDING_MS,
  );
  if (sampler === null && events.length === 0)
    return {
      layersNote: rt.ownsHistory
        ? 'the layers are not read (MESHDX_LAYER_SAMPLE_MS=0)'
        : "the layers are read by meshdx's own runtime: none recorded in this window",
    };
  const problems = sampler?.problems() ?? {};
  const notes: string[] = [];
  if (unreadable > 0) notes.push(`${unreadable} stored layer events of an unknown kind not read`);
  const failing = Object.entries(problems).map(([k, v]) => `${k}: ${v}`);
  if (failing.length > 0) notes.push(`not read at the last sample: ${failing.join('; ')}`);
  return {
    layers: {
      events,
      ztunnels: ztunnelKeys(rt, events),
      problems,
      firstSampleAt: sampler?.firstSampleAt ?? events[0]?.since ?? null,
      samplingMs: sampler?.maxGapMs ?? sampler?.periodMs ?? null,
    },
    layersNote: notes.length > 0 ? notes.join('; ') : null,
  };
}

/** The ztunnels a failure's client may be: the live ztunnel pods and those whose drops were recorded. */
function ztunnelKeys(rt: ClusterRuntime, events: readonly { kind: string; proxy: string }[]) {
  const keys = new Set(
    rt.cache
      .livePods()
      .filter((p) => isZtunnelPod(p, rt.settings.MESHDX_ISTIO_NAMESPACE))
      .map(podKeyOfObject),
  );
  for (const e of events) if (e.kind === 'ztunnel-dropped') keys.add(e.proxy);
  return [...keys];
}
