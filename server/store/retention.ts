import type { Db } from './db';

export interface PruneResult {
  cutoff: number;
  intervals: number;
  snapshots: number;
  /** Pod specs no snapshot names any more. */
  specs: number;
  transitions: number;
  /** Layer events (layer_events): what held a pod's IP, seen longer ago than the cutoff. */
  layerEvents: number;
  events: number;
}

export const DAY_MS = 86_400_000;

/**
 * Deletes what ended before `cutoff`: intervals and snapshots of pods gone before it,
 * transitions observed before it, events last seen before it. Live pods are never pruned.
 */
export function pruneBefore(db: Db, cutoff: number): PruneResult {
  return db.transaction(() => ({
    cutoff,
    intervals: db
      .prepare('DELETE FROM pod_intervals WHERE gone_at IS NOT NULL AND gone_at < ?')
      .run(cutoff).changes,
    snapshots: db
      .prepare('DELETE FROM pod_snapshots WHERE deleted_at IS NOT NULL AND deleted_at < ?')
      .run(cutoff).changes,
    specs: db
      .prepare(
        'DELETE FROM pod_specs WHERE hash NOT IN (SELECT spec_hash FROM pod_snapshots WHERE spec_hash IS NOT NULL)',
      )
      .run().changes,
    transitions: db.prepare('DELETE FROM transitions WHERE observed_at < ?').run(cutoff).changes,
    layerEvents: db.prepare('DELETE FROM layer_events WHERE at < ?').run(cutoff).changes,
    events: db
      .prepare('DELETE FROM kube_events WHERE coalesce(last_ts, observed_at) < ?')
      .run(cutoff).changes,
  }))();
}
