import type { LayerEvent, LayerEventKind } from '../../lib/incidents/layer-events';
import type { Db } from './db';

const KINDS: ReadonlySet<string> = new Set<LayerEventKind>([
  'slice-not-ready',
  'slice-dropped',
  'shard-unhealthy',
  'shard-dropped',
  'eds-sent',
  'eds-acked',
  'envoy-dropped',
  'ztunnel-dropped',
]);

interface Row {
  kind: string;
  at: number;
  since: number;
  ip: string;
  proxy: string;
  detail: string;
}

/** The layer events the sampler saw, in the history store: an incident's layers after the pods are gone. */
export class SqliteLayerEvents {
  constructor(
    private readonly db: Db,
    private readonly readonly = false,
  ) {}

  record(events: readonly LayerEvent[]): void {
    if (this.readonly || events.length === 0) return;
    const insert = this.db.prepare(
      'INSERT INTO layer_events (kind, at, since, ip, proxy, detail) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      for (const e of events) insert.run(e.kind, e.at, e.since, e.ip, e.proxy, e.detail);
    })();
  }

  /** Events seen from `fromMs` to `toMs`, oldest first; a row of an unknown kind is counted, not returned. */
  between(fromMs: number, toMs: number): { events: LayerEvent[]; unreadable: number } {
    const rows = this.db
      .prepare(
        'SELECT kind, at, since, ip, proxy, detail FROM layer_events WHERE at >= ? AND at <= ? ORDER BY at, id',
      )
      .all(fromMs, toMs) as Row[];
    const events: LayerEvent[] = [];
    let unreadable = 0;
    for (const r of rows) {
      if (!KINDS.has(r.kind)) {
        unreadable++;
        continue;
      }
      events.push({ ...r, kind: r.kind as LayerEventKind });
    }
    return { events, unreadable };
  }
}
