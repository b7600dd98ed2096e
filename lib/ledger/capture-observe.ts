import { normalizeIp } from '../accesslog/address';
import type { PodFields } from './capture-pod';
import type { PodObservation } from './types';

/**
 * observePod for the fields read, for one reader: it keeps one owner object per workload (its
 * pods' observations share it, as the store's intervals do), forgotten past a few thousand
 * workloads so that it never grows without bound.
 */
export class PodObserver {
  private readonly owners = new Map<string, Map<string, { kind: string; name: string }>>();
  private ownerCount = 0;

  /** observePod's result from the fields read, or null where it reports a problem. */
  observe(f: PodFields): PodObservation | null {
    if (!f.meta || f.name === null) return null;
    const ips = podIps(f);
    const ref = f.controllerRef ?? f.firstRef;
    const kind = ref?.kind;
    const ownerName = ref?.name;
    return {
      namespace: f.namespace ?? 'default',
      name: f.name,
      uid: f.uid,
      ips,
      hostNetwork: f.hostNetwork,
      node: f.node,
      owner: kind && ownerName ? this.ownerOf(kind, ownerName) : null,
      creationTimestamp: f.creation,
      startTime: f.startTime,
      firstConditionTime: f.firstCondition === Infinity ? null : f.firstCondition,
      latestTime: f.latest === -Infinity ? null : f.latest,
      exitedAt: f.statuses ? f.exitedAt : null,
      deletionTimestamp: f.deletion,
      deletionGracePeriodSeconds: f.deletionGrace,
      terminationGracePeriodSeconds: f.terminationGrace,
    };
  }

  private ownerOf(kind: string, name: string): { kind: string; name: string } {
    const owners = this.owners;
    let byName = owners.get(kind);
    if (!byName) owners.set(kind, (byName = new Map()));
    let owner = byName.get(name);
    if (!owner) {
      if (++this.ownerCount > 20_000) {
        owners.clear();
        this.ownerCount = 1;
        owners.set(kind, (byName = new Map()));
      }
      owner = { kind, name };
      byName.set(name, owner);
    }
    return owner;
  }
}

/**
 * The pod's IPs, normalised, each once, podIP first. Made at their size (a pod has one or two):
 * the ledger keeps the array of every pod's latest observation, and an array grown by push from
 * empty holds room for 17.
 */
function podIps(f: PodFields): string[] {
  const listed = f.podIPs;
  const first = f.podIP ?? (listed.length ? (listed[0] as string) : null);
  if (first === null) return [];
  const ips = [plainIpv4(first) ? first : normalizeIp(first)];
  for (let k = f.podIP === null ? 1 : 0; k < listed.length; k++) addIp(ips, listed[k] as string);
  return ips;
}

/** Adds a pod IP, normalised, unless it is there already (as a Set of them would keep them). */
function addIp(ips: string[], ip: string): void {
  const n = plainIpv4(ip) ? ip : normalizeIp(ip);
  if (!ips.includes(n)) ips.push(n);
}

/** Digits and dots only: normalizeIp would give it back as it is. */
function plainIpv4(ip: string): boolean {
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c !== 46 && (c < 48 || c > 57)) return false;
  }
  return true;
}
