/**
 * How long each layer takes to let go of an endpoint, modelled from the code of each layer so a
 * scenario can make any one of them slow (istio/istio pilot/pkg/xds/discovery.go `debounce`,
 * `NextVersion`, `nonce`; pilot/pkg/model/endpointshards.go; kubernetes' EndpointSlice
 * controller). Read, not copied:
 *
 * - the EndpointSlice controller writes a pod's endpoint `ready:false, terminating:true` when the
 *   deletion starts and drops it once the pod is gone, each `sliceLagMs` after the pod changed
 *   (World.syncEndpoints applies that lag);
 * - istiod's informer updates its endpoint shards at once (`/debug/endpointShardz`), then
 *   debounces: it pushes once no event came for `debounceAfterMs` (PILOT_DEBOUNCE_AFTER, 100 ms)
 *   or `debounceMaxMs` (PILOT_DEBOUNCE_MAX, 10 s) after the first event of the batch, and the
 *   push reaches the proxies `pushQueueMs` later (a full push queue, a slow push context);
 * - each proxy ACKs a push `ackMs` after it was sent (its own `ackMsByPod` when set); until then
 *   its Envoy serves the endpoints of the last push it ACKed;
 * - each ztunnel (ambient) applies a push to its workload table `ztunnelMs` after it was sent
 *   (its own `ztunnelMsByPod` when set: a ztunnel whose xDS client or proxy is busy, istio#58514):
 *   until then it holds the workloads of the last push it applied and keeps sending to a pod
 *   that push had ready, gone or not. (istiod's ambient index reads pods, not EndpointSlices; the
 *   model feeds it the same endpoint changes, so a scenario slowing ztunnel leaves sliceLagMs 0);
 * - istiod leaves endpoints that are not ready out of EDS (PILOT_SEND_UNHEALTHY_ENDPOINTS off, as
 *   before 1.31 and in 1.31 without outlierDetection.minHealthPercent).
 */
import type { EndpointSlice, Pod } from '../../../../lib/kube/types';
import { objectKey } from '../../../../lib/refs/object-ref';

export interface XdsTiming {
  sliceLagMs: number;
  debounceAfterMs: number;
  debounceMaxMs: number;
  pushQueueMs: number;
  ackMs: number;
  ackMsByPod: Readonly<Record<string, number>>;
  ztunnelMs: number;
  /** By ztunnel pod name. */
  ztunnelMsByPod: Readonly<Record<string, number>>;
}

export const DEFAULT_XDS_TIMING: XdsTiming = {
  sliceLagMs: 0,
  debounceAfterMs: 100,
  debounceMaxMs: 10_000,
  pushQueueMs: 0,
  ackMs: 50,
  ackMsByPod: {},
  ztunnelMs: 50,
  ztunnelMsByPod: {},
};

/** One endpoint in istiod's shard of a Service, as its EndpointSlice had it. */
export interface ShardEndpoint {
  address: string;
  ready: boolean;
  terminating: boolean;
  pod?: { namespace: string; name: string };
  nodeName?: string;
  /** EndpointSlice port name -> port. */
  ports: Readonly<Record<string, number>>;
}

/** One push istiod sent: its version (RFC 3339 second, counter) and the shards it carried. */
export interface XdsPush {
  at: number;
  version: string;
  shards: ReadonlyMap<string, readonly ShardEndpoint[]>;
}

/** istiod's PushVersion: `time.Now().Format(time.RFC3339) + "/" + counter`. */
function pushVersion(at: number, n: number): string {
  return `${new Date(Math.floor(at / 1000) * 1000).toISOString().replace('.000Z', 'Z')}/${n}`;
}

function shardOf(slice: EndpointSlice): ShardEndpoint[] {
  const ports: Record<string, number> = {};
  for (const p of slice.ports ?? []) if (p.port !== undefined) ports[p.name ?? ''] = p.port;
  const out: ShardEndpoint[] = [];
  for (const ep of slice.endpoints ?? []) {
    for (const address of ep.addresses ?? []) {
      out.push({
        address,
        ready: ep.conditions?.ready !== false,
        terminating: ep.conditions?.terminating === true,
        pod:
          ep.targetRef?.name !== undefined
            ? {
                namespace: ep.targetRef.namespace ?? slice.metadata.namespace ?? '',
                name: ep.targetRef.name,
              }
            : undefined,
        nodeName: ep.nodeName,
        ports,
      });
    }
  }
  return out;
}

/** The service an EndpointSlice belongs to, as `ns/name`. */
export function sliceService(slice: EndpointSlice): string | undefined {
  const svc = slice.metadata.labels?.['kubernetes.io/service-name'];
  return svc === undefined ? undefined : objectKey(slice.metadata.namespace ?? 'default', svc);
}

/**
 * istiod's endpoint shards, its debounced pushes and every proxy's ACKs on one simulated clock.
 * `schedule` runs a function when the clock reaches an instant; `proxies` lists the pods
 * connected when a push goes out.
 */
export class XdsModel {
  private readonly shards = new Map<string, ShardEndpoint[]>();
  private readonly pushes: XdsPush[] = [];
  private counter = 0;
  private batchStart: number | undefined;
  private lastEvent = 0;
  private checkAt: number | undefined;

  constructor(
    readonly timing: XdsTiming,
    private readonly now: () => number,
    private readonly schedule: (at: number, fn: () => void) => void,
  ) {}

  /** istiod's informer saw an EndpointSlice written, deleted when `gone`. */
  onSlice(slice: EndpointSlice, gone: boolean): void {
    const key = sliceService(slice);
    if (key === undefined) return;
    if (gone) this.shards.delete(key);
    else this.shards.set(key, shardOf(slice));
    this.event();
  }

  /** The shards as istiod holds them now (its /debug/endpointShardz). */
  shardz(): ReadonlyMap<string, readonly ShardEndpoint[]> {
    return this.shards;
  }

  /** Pushes sent so far, oldest first. */
  history(): readonly XdsPush[] {
    return this.pushes;
  }

  private event(): void {
    const at = this.now();
    this.batchStart ??= at;
    this.lastEvent = at;
    this.arm(at + this.timing.debounceAfterMs);
  }

  private arm(at: number): void {
    if (this.checkAt !== undefined && this.checkAt <= at) return;
    this.checkAt = at;
    this.schedule(at, () => this.check(at));
  }

  /** The debounce timer fired: push when quiet long enough or the batch is old enough. */
  private check(at: number): void {
    if (this.checkAt !== at) return;
    this.checkAt = undefined;
    const start = this.batchStart;
    if (start === undefined) return;
    const quiet = at - this.lastEvent;
    const age = at - start;
    if (quiet >= this.timing.debounceAfterMs || age >= this.timing.debounceMaxMs) {
      this.batchStart = undefined;
      const snapshot = new Map<string, ShardEndpoint[]>();
      for (const [k, v] of this.shards)
        snapshot.set(
          k,
          v.map((e) => ({ ...e })),
        );
      const sendAt = at + this.timing.pushQueueMs;
      this.schedule(sendAt, () => {
        this.counter += 1;
        this.pushes.push({
          at: sendAt,
          version: pushVersion(sendAt, this.counter),
          shards: snapshot,
        });
      });
      return;
    }
    this.arm(
      Math.min(this.lastEvent + this.timing.debounceAfterMs, start + this.timing.debounceMaxMs),
    );
  }

  ackMsOf(podName: string): number {
    return this.timing.ackMsByPod[podName] ?? this.timing.ackMs;
  }

  /** The last push sent to the proxy by `at`, and the last one it ACKed by then. */
  stateOf(pod: Pod, at: number): { sent: XdsPush | undefined; acked: XdsPush | undefined } {
    const ack = this.ackMsOf(pod.metadata.name);
    let sent: XdsPush | undefined;
    let acked: XdsPush | undefined;
    for (const p of this.pushes) {
      if (p.at > at) break;
      sent = p;
      if (p.at + ack <= at) acked = p;
    }
    return { sent, acked };
  }

  /** The nonce istiod sent with a push to one proxy (`version` + a UUID, stable per proxy). */
  nonceOf(push: XdsPush, proxyKey: string, uuid: (seed: string) => string): string {
    return push.version + uuid(`${push.version}|${proxyKey}|eds`);
  }

  ztunnelMsOf(podName: string): number {
    return this.timing.ztunnelMsByPod[podName] ?? this.timing.ztunnelMs;
  }

  /** The last push a ztunnel applied to its workload table by `at`, undefined when none. */
  ztunnelApplied(ztunnel: Pod, at: number): XdsPush | undefined {
    const delay = this.ztunnelMsOf(ztunnel.metadata.name);
    let applied: XdsPush | undefined;
    for (const p of this.pushes) {
      if (p.at + delay > at) break;
      applied = p;
    }
    return applied;
  }

  /** The endpoints of a Service a proxy's Envoy has from its last ACKed push, undefined when none. */
  ackedEndpoints(pod: Pod, service: string, at: number): readonly ShardEndpoint[] | undefined {
    const { acked } = this.stateOf(pod, at);
    if (acked === undefined) return undefined;
    return (acked.shards.get(service) ?? []).filter((e) => e.ready);
  }
}

/** Reads scenario parameters for the layer delays (`sliceLagMs=5000`...), refusing bad ones. */
export function xdsTimingFrom(
  params: Readonly<Record<string, string>>,
  base: XdsTiming = DEFAULT_XDS_TIMING,
): XdsTiming {
  const t: XdsTiming = {
    ...base,
    ackMsByPod: { ...base.ackMsByPod },
    ztunnelMsByPod: { ...base.ztunnelMsByPod },
  };
  const num = (k: keyof Omit<XdsTiming, 'ackMsByPod' | 'ztunnelMsByPod'>) => {
    const raw = params[k];
    if (raw === undefined) return;
    const v = Number(raw);
    if (!Number.isFinite(v) || v < 0)
      throw new Error(`scenario parameter ${k}=${raw}: expected a number of milliseconds >= 0`);
    t[k] = v;
  };
  num('sliceLagMs');
  num('debounceAfterMs');
  num('debounceMaxMs');
  num('pushQueueMs');
  num('ackMs');
  num('ztunnelMs');
  return t;
}
