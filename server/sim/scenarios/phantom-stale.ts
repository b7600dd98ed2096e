import type { Pod } from '../../../lib/kube/types';
import type { PodEntry, World } from '../world/build/world';
import { STALE_ENDPOINTS_ANNOTATION } from '../mesh/annotations';

/**
 * Stale EDS for the phantom-503 story: once `target` is removed, the client proxies keep its IP
 * in their /clusters host list (the `sim.meshdx.io/stale-endpoints` hook) for `forMs`, and keep
 * sending a request to it every `everyMs` (which fails: nothing is there any more).
 */
export interface StaleStage {
  target: PodEntry;
  host: string;
  port: number;
  from: number;
  until: number;
}

function withAnnotation(pod: Pod, value: string | undefined): Pod {
  const copy = structuredClone(pod);
  const annotations = { ...(copy.metadata.annotations ?? {}) };
  if (value === undefined) delete annotations[STALE_ENDPOINTS_ANNOTATION];
  else annotations[STALE_ENDPOINTS_ANNOTATION] = value;
  copy.metadata.annotations = annotations;
  return copy;
}

function annotate(world: World, clients: readonly PodEntry[], value: string | undefined): void {
  for (const c of clients) {
    if (c.removed || c.pod === undefined) continue;
    c.pod = withAnnotation(c.pod, value);
    world.ctx.store.upsert('pods', c.pod);
  }
}

/** Registers the stage: the annotation goes on at the target's removal and off `forMs` later. */
export function stageStaleEndpoint(
  world: World,
  target: PodEntry,
  clients: () => readonly PodEntry[],
  opts: { host: string; port: number; forMs: number },
): StaleStage {
  const stage: StaleStage = {
    target,
    host: opts.host,
    port: opts.port,
    from: Number.POSITIVE_INFINITY,
    until: Number.POSITIVE_INFINITY,
  };
  world.podRemovedHooks.push((e) => {
    if (e !== target) return;
    const at = world.now();
    stage.from = at;
    stage.until = at + opts.forMs;
    annotate(world, clients(), `${opts.host}:${opts.port}=${target.plan.ip}`);
    world.ctx.clock.schedule(new Date(stage.until), () => annotate(world, clients(), undefined));
  });
  return stage;
}

/** The stale IP gets a request at `at` when it is stale then and no new pod has taken the IP. */
export function staleHit(world: World, s: StaleStage, at: number, everyMs: number): boolean {
  if (at < s.from || at >= s.until) return false;
  if (world.ipam.isLive(s.target.plan.ip)) return false;
  return Math.floor((at - s.from) / 1000) % Math.max(1, Math.round(everyMs / 1000)) === 0;
}
