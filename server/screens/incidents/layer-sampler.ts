/**
 * Reads every layer that can hold a pod's IP, periodically, within the runtime's request budget:
 * per sample one list of EndpointSlices, per istiod replica its `/debug/syncz` and
 * `/debug/endpointShardz` (port-forward to :15014), and the `/clusters` of the few client
 * proxies whose EDS istiod shows unacknowledged (they are the ones that may still hold a gone
 * host), and while an endpoint the EndpointSlices let go of is followed, the `/config_dump` of
 * the ztunnels on the nodes of its namespace's ambient pods (ambient: each holds every workload
 * of the cluster, and sends to a gone pod until it drops it); never a call per proxy of the fleet. The changes go to the history store, so an
 * incident's link shows them after the pods are gone.
 */
import type { EndpointSlice, Pod } from '../../../lib/kube/types';
import {
  EMPTY_LAYER_STATE,
  observeLayers,
  parseEndpointShardz,
  type EdsNonces,
  type LayerEvent,
  type LayerProblem,
  type LayerSample,
  type LayerState,
  type ShardHealth,
  type SliceEndpoint,
} from '../../../lib/incidents/layer-events';
import { parseClustersJson } from '../../../lib/incidents/stale';
import { parseSynczNonces } from '../../../lib/proxies/staleness';
import { parsePodKey } from '../../../lib/refs/pod-ref';
import { NO_READER, readZtunnelConfig } from '../../../lib/ambient/ztunnel-reader';

/** How the sampler reads the cluster (the runtime's transport and port-forwards in production). */
export interface LayerReads {
  slices(): Promise<readonly EndpointSlice[]>;
  istiods(): Promise<readonly Pod[]>;
  /** GET on an istiod pod's :15014, the body as text; throws naming why it could not. */
  istiod(pod: Pod, path: string): Promise<string>;
  /** A client's Envoy `/clusters?format=json`. */
  clusters(namespace: string, pod: string): Promise<string>;
  /** Pod keys of the running meshed pods of a namespace: the likely clients of its endpoints. */
  meshedPods(namespace: string): readonly string[];
  /** Pod keys of the ztunnels on the nodes of a namespace's running ambient pods (its clients'). */
  ztunnels?(namespace: string): readonly string[];
  /** A ztunnel's admin `/config_dump` (its workload table). */
  ztunnelDump?(namespace: string, pod: string): Promise<string>;
}

/** Client Envoys read in one sample at most (the stale ones first, then those asked for). */
export const MAX_ENVOYS_PER_SAMPLE = 10;
/** ztunnels read in one sample at most (a dump holds every workload of the cluster). */
export const MAX_ZTUNNELS_PER_SAMPLE = 6;
/** A client stays watched this many samples after its EDS was last seen unacknowledged. */
const WATCH_SAMPLES = 3;
/** An endpoint the EndpointSlices let go of is followed in the clients' Envoys this long at most. */
export const PENDING_MS = 10 * 60_000;

const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

function sliceEndpoints(
  slices: readonly EndpointSlice[],
  nsOf: Map<string, string>,
): Map<string, SliceEndpoint> {
  const out = new Map<string, SliceEndpoint>();
  for (const s of slices)
    for (const ep of s.endpoints ?? [])
      for (const ip of ep.addresses ?? []) {
        nsOf.set(ip, s.metadata.namespace ?? 'default');
        const now = {
          ready: ep.conditions?.ready !== false,
          terminating: ep.conditions?.terminating === true,
        };
        const was = out.get(ip);
        out.set(
          ip,
          was
            ? { ready: was.ready && now.ready, terminating: was.terminating || now.terminating }
            : now,
        );
      }
  return out;
}

/** A ztunnel's workloads by IP with their status (`Healthy` when the dump says none), or why not. */
export function ztunnelTable(text: string): Map<string, string> | LayerProblem {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (e) {
    return { problem: `/config_dump is not JSON: ${why(e)}` };
  }
  if (!readZtunnelConfig) return { problem: NO_READER };
  const { config, errors } = readZtunnelConfig(root);
  const fatal = errors.find((e) => e.reason === 'not-ztunnel-dump');
  if (fatal) return { problem: fatal.message };
  const table = new Map<string, string>();
  for (const w of config.workloads) for (const ip of w.ips) table.set(ip, w.status ?? 'Healthy');
  return table;
}

export interface SamplerStore {
  recordLayerEvents(events: readonly LayerEvent[]): void;
}

export class LayerSampler {
  private state: LayerState = EMPTY_LAYER_STATE;
  private readonly watching = new Map<string, number>();
  /** Endpoints the EndpointSlices let go of: the clients still to see drop them, until when. */
  private readonly pending = new Map<
    string,
    { clients: Set<string>; ztunnels: Set<string>; until: number }
  >();
  private readonly nsOf = new Map<string, string>();
  firstSampleAt: number | null = null;
  lastSampleAt: number | null = null;
  /** The longest time between two samples so far: how late a change can be dated (null: one sample). */
  maxGapMs: number | null = null;
  samples = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<LayerEvent[]> | null = null;

  constructor(
    private readonly reads: LayerReads,
    private readonly store: SamplerStore,
    readonly periodMs: number,
  ) {}

  /** Why each layer was last not readable (empty when all were). */
  problems(): Readonly<Record<string, string>> {
    return this.state.problems;
  }

  /** One read of every layer at `now`; `clients` are Envoys to read beside the stale ones. */
  sample(now: number, clients: readonly string[] = []): Promise<LayerEvent[]> {
    // one sample at a time: a slow read is not stacked under the next period's
    this.running ??= this.read(now, clients).finally(() => (this.running = null));
    return this.running;
  }

  private async read(now: number, clients: readonly string[]): Promise<LayerEvent[]> {
    const slicesP = this.reads.slices().then(
      (s): LayerSample['slices'] => sliceEndpoints(s, this.nsOf),
      (e): LayerProblem => ({ problem: `EndpointSlices not listed: ${why(e)}` }),
    );
    const istiodP = this.readIstiod();
    const [slices, { shards, eds }] = await Promise.all([slicesP, istiodP]);
    if (!('problem' in eds))
      for (const [proxy, n] of eds)
        if (n.sent !== null && n.sent !== n.acked)
          this.watching.set(proxy, this.samples + WATCH_SAMPLES);
    for (const c of clients) if (!this.watching.has(c)) this.watching.set(c, this.samples + 1);
    this.notePending(slices, now);
    const envoyKeys = [...this.watching.keys()];
    for (const { clients: waiting } of this.pending.values())
      for (const c of waiting) if (!envoyKeys.includes(c)) envoyKeys.push(c);
    envoyKeys.splice(MAX_ENVOYS_PER_SAMPLE);
    const envoys = new Map<string, ReadonlyMap<string, string> | LayerProblem>();
    await Promise.all(
      envoyKeys.map(async (key) => {
        try {
          const { namespace, name } = parsePodKey(key);
          const parsed = parseClustersJson(await this.reads.clusters(namespace, name));
          if (parsed.problem) {
            envoys.set(key, { problem: parsed.problem });
            return;
          }
          const hosts = new Map<string, string>();
          for (const h of parsed.hosts)
            hosts.set(
              h.ip,
              h.failedOutlierCheck ? '/failed_outlier_check' : (h.eds ?? 'HEALTHY').toLowerCase(),
            );
          envoys.set(key, hosts);
        } catch (e) {
          envoys.set(key, { problem: `/clusters not read: ${why(e)}` });
          // a client that cannot be read (gone, or no admin) is not waited for again
          for (const p of this.pending.values()) p.clients.delete(key);
        }
      }),
    );
    const ztunnels = await this.readZtunnels();
    for (const [k, until] of this.watching) if (until <= this.samples) this.watching.delete(k);
    // a client whose Envoy no longer has a pending endpoint has let go of it
    for (const [ip, p] of this.pending) {
      for (const c of p.clients) {
        const hosts = envoys.get(c);
        if (hosts !== undefined && !('problem' in hosts) && !(hosts as Map<string, string>).has(ip))
          p.clients.delete(c);
      }
      for (const z of p.ztunnels) {
        const table = ztunnels.get(z);
        if (table !== undefined && !('problem' in table) && table.get(ip) !== 'Healthy')
          p.ztunnels.delete(z);
      }
      if ((p.clients.size === 0 && p.ztunnels.size === 0) || p.until <= now)
        this.pending.delete(ip);
    }
    const { state, events } = observeLayers(this.state, {
      at: now,
      slices,
      shards,
      eds,
      envoys,
      ztunnels,
    });
    this.state = state;
    this.samples += 1;
    this.firstSampleAt ??= now;
    if (this.lastSampleAt !== null)
      this.maxGapMs = Math.max(this.maxGapMs ?? 0, now - this.lastSampleAt);
    this.lastSampleAt = now;
    if (events.length > 0) this.store.recordLayerEvents(events);
    return events;
  }

  /** Endpoints the EndpointSlices just marked not ready or dropped: follow them in their namespace's Envoys. */
  private notePending(slices: LayerSample['slices'], now: number): void {
    const prev = this.state.slices?.value;
    if (prev === undefined || 'problem' in slices) return;
    for (const [ip, was] of prev) {
      const cur = slices.get(ip);
      if (!was.ready || (cur !== undefined && cur.ready) || this.pending.has(ip)) continue;
      const ns = this.nsOf.get(ip);
      if (ns === undefined) continue;
      this.pending.set(ip, {
        clients: new Set(this.reads.meshedPods(ns)),
        ztunnels: new Set(this.reads.ztunnels?.(ns) ?? []),
        until: now + PENDING_MS,
      });
    }
  }

  /**
   * The ztunnels still to see let go of a followed endpoint, each read once. A ztunnel is read
   * from the sample its endpoint is first followed in: the read before its drop is what dates it.
   */
  private async readZtunnels(): Promise<Map<string, ReadonlyMap<string, string> | LayerProblem>> {
    const out = new Map<string, ReadonlyMap<string, string> | LayerProblem>();
    const dump = this.reads.ztunnelDump?.bind(this.reads);
    if (dump === undefined) return out;
    const keys: string[] = [];
    for (const p of this.pending.values())
      for (const z of p.ztunnels) if (!keys.includes(z)) keys.push(z);
    keys.splice(MAX_ZTUNNELS_PER_SAMPLE);
    await Promise.all(
      keys.map(async (key) => {
        try {
          const { namespace, name } = parsePodKey(key);
          out.set(key, ztunnelTable(await dump(namespace, name)));
        } catch (e) {
          out.set(key, { problem: `/config_dump not read: ${why(e)}` });
          for (const p of this.pending.values()) p.ztunnels.delete(key);
        }
      }),
    );
    return out;
  }

  private async readIstiod(): Promise<{
    shards: LayerSample['shards'];
    eds: LayerSample['eds'];
  }> {
    let pods: readonly Pod[];
    try {
      pods = await this.reads.istiods();
    } catch (e) {
      const problem = `istiod pods not listed: ${why(e)}`;
      return { shards: { problem }, eds: { problem } };
    }
    if (pods.length === 0) {
      const problem = 'no running istiod pod';
      return { shards: { problem }, eds: { problem } };
    }
    const shards = new Map<string, ShardHealth>();
    const eds = new Map<string, EdsNonces>();
    const problems: string[] = [];
    await Promise.all(
      pods.map(async (p) => {
        const name = p.metadata.name;
        const [z, s] = await Promise.allSettled([
          this.reads.istiod(p, '/debug/endpointShardz'),
          this.reads.istiod(p, '/debug/syncz'),
        ]);
        if (z.status === 'fulfilled') {
          const parsed = parseEndpointShardz(z.value);
          if (parsed.problem && parsed.byIp.size === 0) problems.push(`${name}: ${parsed.problem}`);
          for (const [ip, h] of parsed.byIp) shards.set(ip, h);
        } else problems.push(`${name} /debug/endpointShardz: ${why(z.reason)}`);
        if (s.status === 'fulfilled') {
          const parsed = parseSynczNonces(name, s.value);
          problems.push(...parsed.errors.slice(0, 3));
          for (const r of parsed.rows) eds.set(r.proxy, r.types.EDS);
        } else problems.push(`${name} /debug/syncz: ${why(s.reason)}`);
      }),
    );
    // a replica that could not be read leaves its proxies' and shards' changes unseen: the
    // layer counts as not read (its last read stays) rather than as having dropped everything
    const problem = problems.length > 0 ? problems.join('; ') : null;
    return {
      shards: problem !== null && shards.size === 0 ? { problem } : shards,
      eds: problem !== null && eds.size === 0 ? { problem } : eds,
    };
  }

  /** Samples every `periodMs` on the runtime's clock until stopped. */
  start(now: () => number, alive: () => boolean = () => true): this {
    if (this.timer !== null) return this;
    this.timer = setInterval(() => {
      if (!alive()) {
        this.stop();
        return;
      }
      this.sample(now()).catch((e: unknown) =>
        console.error('meshdx: reading the layers that hold pod IPs failed:', why(e)),
      );
    }, this.periodMs);
    this.timer.unref();
    return this;
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
