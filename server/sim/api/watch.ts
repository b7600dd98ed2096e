import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderEntry, type StoredEntry } from '../store/entry';
import { apiVersionOf, type KindInfo } from '../store/kinds';
import type { ChangeRecord } from '../store/store';
import type { SimFaults } from '../world/types';
import { queryBool, type SimContext } from './context';
import { requestFilter, type ObjectFilter } from './filter';
import {
  minimumResourceVersion,
  tooLargeResourceVersion,
  waitForResourceVersion,
} from './freshness';
import type { ResourcePath } from './paths';
import { badRequest, failure, sendStatus } from './status';

interface ActiveWatch {
  startedAt: number;
  end(): void;
}

/**
 * Open watches, so that the dropWatchesAfterMs fault (read live from SimFaults, which tests may
 * change at any time) and server shutdown can end them.
 */
export class WatchRegistry {
  private readonly active = new Set<ActiveWatch>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly faults: SimFaults,
    private readonly pollMs = 20,
  ) {}

  get size(): number {
    return this.active.size;
  }

  add(w: ActiveWatch): void {
    this.active.add(w);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.enforce(), this.pollMs);
      this.timer.unref();
    }
  }

  delete(w: ActiveWatch): void {
    this.active.delete(w);
    if (this.active.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** End watches older than the fault allows. */
  enforce(now = Date.now()): void {
    const limit = this.faults.dropWatchesAfterMs;
    if (limit <= 0) return;
    for (const w of [...this.active]) if (now - w.startedAt >= limit) w.end();
  }

  endAll(): void {
    for (const w of [...this.active]) w.end();
  }
}

type Line = { type: 'ADDED' | 'MODIFIED' | 'DELETED'; entry: StoredEntry };

/** What a filtered watcher sees of one change (objects leaving the selection are DELETED). */
function project(rec: ChangeRecord, filter: ObjectFilter): Line | undefined {
  const now = filter(rec.entry.obj);
  if (rec.type !== 'MODIFIED') return now ? { type: rec.type, entry: rec.entry } : undefined;
  const before = rec.prev !== undefined && filter(rec.prev.obj);
  if (now) return { type: before ? 'MODIFIED' : 'ADDED', entry: rec.entry };
  return before ? { type: 'DELETED', entry: rec.entry } : undefined;
}

/** GET a collection with ?watch=true: newline-delimited watch events over a chunked response. */
export async function handleWatch(
  ctx: SimContext,
  watches: WatchRegistry,
  req: IncomingMessage,
  res: ServerResponse,
  info: KindInfo,
  path: ResourcePath,
  query: URLSearchParams,
): Promise<void> {
  const f = requestFilter(info, path.namespace, query);
  if (!f.ok) return sendStatus(res, f.status);
  const filter = f.filter;
  const rvParam = query.get('resourceVersion') ?? '';
  if (rvParam !== '' && !/^\d+$/.test(rvParam)) {
    return sendStatus(res, badRequest(`invalid resource version "${rvParam}"`));
  }
  const timeoutParam = query.get('timeoutSeconds');
  let timeoutMs = ctx.options.defaultWatchTimeoutMs;
  if (timeoutParam !== null) {
    if (!/^\d+$/.test(timeoutParam)) return sendStatus(res, badRequest('invalid timeoutSeconds'));
    timeoutMs = Number(timeoutParam) * 1000;
  }
  const name = path.name;
  const apiVersion = apiVersionOf(info.group, path.version);
  const matches: ObjectFilter = (o) =>
    (name === undefined || o.metadata.name === name) && filter(o);

  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();
  const write = (type: string, objectJson: string): void => {
    if (!res.writableEnded) res.write(`{"type":"${type}","object":${objectJson}}\n`);
  };
  const minRv = minimumResourceVersion(rvParam);
  if (minRv !== undefined && !(await waitForResourceVersion(ctx, minRv))) {
    write('ERROR', JSON.stringify(tooLargeResourceVersion(minRv, ctx.store.resourceVersion())));
    res.end();
    return;
  }

  if (rvParam !== '' && rvParam !== '0') {
    const since = ctx.store.changesSince(Number(rvParam));
    if (since === 'expired') {
      const s = failure(
        410,
        'Expired',
        `too old resource version: ${rvParam} (${ctx.store.resourceVersion()})`,
      );
      write('ERROR', JSON.stringify(s));
      res.end();
      return;
    }
    for (const rec of since) {
      if (rec.kind !== info.resource) continue;
      const line = project(rec, matches);
      if (line !== undefined) write(line.type, renderEntry(line.entry, apiVersion));
    }
  } else {
    for (const e of ctx.store.entries(info.resource)) {
      if (matches(e.obj)) write('ADDED', renderEntry(e, apiVersion));
    }
  }

  const unsubscribe = ctx.store.subscribe((rec) => {
    if (rec.kind !== info.resource) return;
    const line = project(rec, matches);
    if (line !== undefined) write(line.type, renderEntry(line.entry, apiVersion));
  });

  const bookmark = (): void =>
    write(
      'BOOKMARK',
      JSON.stringify({
        kind: info.kind,
        apiVersion,
        metadata: { resourceVersion: String(ctx.store.resourceVersion()) },
      }),
    );
  const bookmarks = queryBool(query.get('allowWatchBookmarks'))
    ? setInterval(bookmark, ctx.options.bookmarkIntervalMs)
    : undefined;
  bookmarks?.unref();

  const w: ActiveWatch = { startedAt: Date.now(), end: () => finish() };
  const timeout = setTimeout(() => finish(), timeoutMs);
  timeout.unref();
  let done = false;
  function finish(): void {
    if (done) return;
    done = true;
    unsubscribe();
    clearTimeout(timeout);
    if (bookmarks !== undefined) clearInterval(bookmarks);
    watches.delete(w);
    if (!res.writableEnded) res.end();
  }
  watches.add(w);
  req.on('close', finish);
  res.on('close', finish);
  watches.enforce();
}
