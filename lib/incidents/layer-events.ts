/**
 * What each layer that can hold a pod's IP held at one instant, and the changes between two such
 * samples: the EndpointSlices (the controller's view), istiod's endpoint shards
 * (`/debug/endpointShardz`), istiod's EDS nonces per proxy (`/debug/syncz`: sent vs ACKed), and
 * the hosts of a client's Envoy (`/clusters`, with their health), and the workload table of a
 * ztunnel (ambient: its `/config_dump` workloads, with their status). A layer not read in a sample is
 * carried over from its last read, and its problem kept: a change is dated only between two reads
 * of its own layer.
 */

/** An endpoint as the EndpointSlices give it, by IP (merged over the Services that list it). */
export interface SliceEndpoint {
  ready: boolean;
  terminating: boolean;
}

/** istiod's HealthStatus of an endpoint in its shards. */
export type ShardHealth = 'healthy' | 'unhealthy' | 'draining' | 'terminating' | 'unknown';

/** istiod's EDS nonces for one proxy (null: none sent, none ACKed). */
export interface EdsNonces {
  sent: string | null;
  acked: string | null;
}

/** A layer that could not be read in a sample, and why. */
export interface LayerProblem {
  problem: string;
}

export interface LayerSample {
  at: number;
  slices: ReadonlyMap<string, SliceEndpoint> | LayerProblem;
  shards: ReadonlyMap<string, ShardHealth> | LayerProblem;
  /** Keyed by the proxy's pod key (`ns/name`). */
  eds: ReadonlyMap<string, EdsNonces> | LayerProblem;
  /** Per client pod key: its Envoy's hosts by IP with their health (`healthy`, `/failed_outlier_check`...). */
  envoys: ReadonlyMap<string, ReadonlyMap<string, string> | LayerProblem>;
  /** Per ztunnel pod key: its workloads by IP with their status (`Healthy`, `Unhealthy`...). */
  ztunnels?: ReadonlyMap<string, ReadonlyMap<string, string> | LayerProblem>;
}

export type LayerEventKind =
  | 'slice-not-ready'
  | 'slice-dropped'
  | 'shard-unhealthy'
  | 'shard-dropped'
  | 'eds-sent'
  | 'eds-acked'
  | 'envoy-dropped'
  | 'ztunnel-dropped';

/** One change seen between two reads of a layer: after `since` (the read before), by `at`. */
export interface LayerEvent {
  kind: LayerEventKind;
  at: number;
  since: number;
  /** The endpoint's IP ('' for a proxy's nonces). */
  ip: string;
  /** The proxy's pod key for eds-*, envoy-dropped and ztunnel-dropped ('' otherwise). */
  proxy: string;
  /**
   * The nonce (eds-*), the host's last health in the Envoy (envoy-dropped), or what the ztunnel
   * holds now (ztunnel-dropped: the workload's status, `removed` when it is gone from the table).
   */
  detail: string;
}

interface Read<T> {
  at: number;
  value: T;
}

/** The last read of each layer (and its last problem): what the next sample is compared with. */
export interface LayerState {
  slices: Read<ReadonlyMap<string, SliceEndpoint>> | null;
  shards: Read<ReadonlyMap<string, ShardHealth>> | null;
  eds: Read<ReadonlyMap<string, EdsNonces>> | null;
  envoys: ReadonlyMap<string, Read<ReadonlyMap<string, string>>>;
  ztunnels?: ReadonlyMap<string, Read<ReadonlyMap<string, string>>>;
  problems: Readonly<Record<string, string>>;
}

export const EMPTY_LAYER_STATE: LayerState = {
  slices: null,
  shards: null,
  eds: null,
  envoys: new Map(),
  ztunnels: new Map(),
  problems: {},
};

const isProblem = (v: unknown): v is LayerProblem =>
  typeof v === 'object' && v !== null && 'problem' in v;

/**
 * The changes from `prev` to `sample`, and the state to compare the next sample with. The first
 * read of a layer sets its state and reports nothing (nothing was seen before it).
 */
export function observeLayers(
  prev: LayerState,
  sample: LayerSample,
): { state: LayerState; events: LayerEvent[] } {
  const events: LayerEvent[] = [];
  const at = sample.at;
  const problems: Record<string, string> = { ...prev.problems };
  const push = (kind: LayerEventKind, since: number, ip: string, proxy: string, detail = '') =>
    events.push({ kind, at, since, ip, proxy, detail });

  let slices = prev.slices;
  if (isProblem(sample.slices)) problems.endpointslice = sample.slices.problem;
  else {
    delete problems.endpointslice;
    if (slices) {
      for (const [ip, was] of slices.value) {
        const now = sample.slices.get(ip);
        if (was.ready && (now === undefined || !now.ready))
          push('slice-not-ready', slices.at, ip, '');
        if (now === undefined) push('slice-dropped', slices.at, ip, '');
      }
    }
    slices = { at, value: sample.slices };
  }

  let shards = prev.shards;
  if (isProblem(sample.shards)) problems.istiod = sample.shards.problem;
  else {
    delete problems.istiod;
    if (shards) {
      for (const [ip, was] of shards.value) {
        const now = sample.shards.get(ip);
        if (was === 'healthy' && now !== 'healthy') push('shard-unhealthy', shards.at, ip, '');
        if (now === undefined) push('shard-dropped', shards.at, ip, '');
      }
    }
    shards = { at, value: sample.shards };
  }

  let eds = prev.eds;
  if (isProblem(sample.eds)) problems.syncz = sample.eds.problem;
  else {
    delete problems.syncz;
    if (eds) {
      for (const [proxy, now] of sample.eds) {
        const was = eds.value.get(proxy);
        if (was === undefined) continue;
        if (now.sent !== null && now.sent !== was.sent)
          push('eds-sent', eds.at, '', proxy, now.sent);
        if (now.acked !== null && now.acked !== was.acked)
          push('eds-acked', eds.at, '', proxy, now.acked);
      }
    }
    eds = { at, value: sample.eds };
  }

  const envoys = new Map(prev.envoys);
  // an Envoy's problem stands for the sample that met it: one not read again is not a problem now
  for (const k of Object.keys(problems)) if (k.startsWith('envoy ')) delete problems[k];
  for (const [proxy, hosts] of sample.envoys) {
    const key = `envoy ${proxy}`;
    if (isProblem(hosts)) {
      problems[key] = hosts.problem;
      continue;
    }
    delete problems[key];
    const was = envoys.get(proxy);
    if (was) {
      for (const [ip, health] of was.value)
        if (!hosts.has(ip)) push('envoy-dropped', was.at, ip, proxy, health);
    }
    envoys.set(proxy, { at, value: hosts });
  }

  // a ztunnel lets go of a workload when it removes it or stops calling it Healthy (it sends
  // only to healthy workloads): the first read without a Healthy entry for an IP it had
  const ztunnels = new Map(prev.ztunnels ?? []);
  for (const k of Object.keys(problems)) if (k.startsWith('ztunnel ')) delete problems[k];
  for (const [proxy, table] of sample.ztunnels ?? []) {
    const key = `ztunnel ${proxy}`;
    if (isProblem(table)) {
      problems[key] = table.problem;
      continue;
    }
    delete problems[key];
    const was = ztunnels.get(proxy);
    if (was) {
      for (const [ip, status] of was.value) {
        const now = table.get(ip);
        if (status === 'Healthy' && now !== 'Healthy')
          push('ztunnel-dropped', was.at, ip, proxy, now ?? 'removed');
      }
    }
    ztunnels.set(proxy, { at, value: table });
  }
  return { state: { slices, shards, eds, envoys, ztunnels, problems }, events };
}

/** Istio's HealthStatus (pilot/pkg/model/service.go): 1 Healthy, 2 UnHealthy, 3 Draining, 4 Terminating; or its name. */
function shardHealth(v: unknown): ShardHealth {
  if (v === undefined || v === null || v === 0 || v === 1 || v === 'Healthy') return 'healthy';
  if (v === 2 || v === 'UnHealthy') return 'unhealthy';
  if (v === 3 || v === 'Draining') return 'draining';
  if (v === 4 || v === 'Terminating') return 'terminating';
  return 'unknown';
}

const RANK: Record<ShardHealth, number> = {
  healthy: 0,
  unknown: 1,
  draining: 2,
  unhealthy: 3,
  terminating: 4,
};

/**
 * istiod's `/debug/endpointShardz`: `{hostname: {namespace: {Shards: {shardKey: [IstioEndpoint]}}}}`.
 * An endpoint's address is `Addresses[0]` (dual stack, 1.23 on) or `Address` (before); its
 * health the `HealthStatus` number (absent before 1.12: healthy). By IP, the worst health over
 * the Services and ports that list it.
 */
export function parseEndpointShardz(text: string): {
  byIp: Map<string, ShardHealth>;
  problem: string | null;
} {
  const byIp = new Map<string, ShardHealth>();
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (e) {
    return { byIp, problem: `endpointShardz is not JSON: ${(e as Error).message}` };
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root))
    return { byIp, problem: 'endpointShardz is not an object of services' };
  let bad = 0;
  for (const byNs of Object.values(root as Record<string, unknown>)) {
    if (typeof byNs !== 'object' || byNs === null) {
      bad++;
      continue;
    }
    for (const shardsOf of Object.values(byNs as Record<string, unknown>)) {
      const shards = (shardsOf as { Shards?: unknown } | null)?.Shards;
      if (typeof shards !== 'object' || shards === null) {
        bad++;
        continue;
      }
      for (const list of Object.values(shards as Record<string, unknown>)) {
        if (!Array.isArray(list)) {
          bad++;
          continue;
        }
        for (const raw of list) {
          const ep = raw as { Addresses?: unknown; Address?: unknown; HealthStatus?: unknown };
          const address = Array.isArray(ep?.Addresses) ? ep.Addresses[0] : ep?.Address;
          if (typeof address !== 'string' || address === '') {
            bad++;
            continue;
          }
          const h = shardHealth(ep.HealthStatus);
          const was = byIp.get(address);
          if (was === undefined || RANK[h] > RANK[was]) byIp.set(address, h);
        }
      }
    }
  }
  return {
    byIp,
    problem: bad > 0 ? `endpointShardz: ${bad} entries without a readable address or shards` : null,
  };
}
