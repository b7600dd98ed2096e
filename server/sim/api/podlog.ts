import { podSpec } from '../store/podshape';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pod } from '../../../lib/kube/types';
import type { LogLine } from '../store/logs';
import { queryBool, type SimContext } from './context';
import { previousRunLog } from './previouslog';
import { badRequest, notFound, sendStatus } from './status';

/** Kubelet's timestamp format for `timestamps=true` (RFC3339Nano with fixed nine digits). */
export function kubeletTimestamp(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

/** Which container to read: the one asked for, or the only one; else the API server's error. */
export function pickContainer(
  pod: Pod,
  asked: string | null,
): { name: string } | { error: string } {
  const spec = podSpec(pod);
  const names = spec.containers.map((c) => c.name);
  const inits = (spec.initContainers ?? []).map((c) => c.name);
  const podName = pod.metadata.name;
  if (asked === null || asked === '') {
    if (names.length === 1 && names[0] !== undefined) return { name: names[0] };
    let msg = `a container name must be specified for pod ${podName}, choose one of: [${names.join(' ')}]`;
    if (inits.length > 0) msg += ` or one of the init containers: [${inits.join(' ')}]`;
    return { error: msg };
  }
  if (names.includes(asked) || inits.includes(asked)) return { name: asked };
  return { error: `container ${asked} is not valid for pod ${podName}` };
}

interface LogQuery {
  since?: Date;
  tailLines?: number;
  limitBytes?: number;
  timestamps: boolean;
  follow: boolean;
}

function parseLogQuery(ctx: SimContext, q: URLSearchParams): LogQuery | string {
  const out: LogQuery = {
    timestamps: queryBool(q.get('timestamps')),
    follow: queryBool(q.get('follow')),
  };
  const sinceTime = q.get('sinceTime');
  const sinceSeconds = q.get('sinceSeconds');
  if (sinceTime !== null && sinceSeconds !== null) {
    return 'at most one of `sinceTime` or `sinceSeconds` may be specified';
  }
  if (sinceTime !== null) {
    const t = Date.parse(sinceTime);
    if (!/^\d{4}-\d\d-\d\dT/.test(sinceTime) || Number.isNaN(t)) {
      return `parsing time "${sinceTime}" as RFC3339 failed`;
    }
    out.since = new Date(t);
  }
  if (sinceSeconds !== null) {
    if (!/^\d+$/.test(sinceSeconds) || Number(sinceSeconds) < 1) {
      return 'sinceSeconds: Invalid value: must be greater than 0';
    }
    out.since = new Date(ctx.clock.now().getTime() - Number(sinceSeconds) * 1000);
  }
  for (const key of ['tailLines', 'limitBytes'] as const) {
    const v = q.get(key);
    if (v === null) continue;
    if (!/^-?\d+$/.test(v)) return `${key}: Invalid value: "${v}"`;
    const n = Number(v);
    if (n < 0 && key === 'tailLines') continue; // negative = all lines, as the kubelet treats it
    if (n < 1 && key === 'limitBytes') return 'limitBytes: Invalid value: must be greater than 0';
    out[key] = n;
  }
  return out;
}

/** GET pods/NAME/log: text/plain lines, optionally stamped, optionally followed. */
export function handlePodLog(
  ctx: SimContext,
  req: IncomingMessage,
  res: ServerResponse,
  namespace: string,
  name: string,
  query: URLSearchParams,
): void {
  const pod = ctx.store.get<Pod>('pods', namespace, name);
  if (pod === undefined) return sendStatus(res, notFound('pods', name));
  const c = pickContainer(pod, query.get('container'));
  if ('error' in c) return sendStatus(res, badRequest(c.error));
  const q = parseLogQuery(ctx, query);
  if (typeof q === 'string') return sendStatus(res, badRequest(q));

  const fmt = (l: LogLine): string =>
    q.timestamps ? `${kubeletTimestamp(l.time)} ${l.line}\n` : `${l.line}\n`;
  let lines: readonly LogLine[];
  const previous = queryBool(query.get('previous'));
  if (previous) {
    const prev = previousRunLog(pod, c.name);
    if (typeof prev === 'string') return sendStatus(res, badRequest(prev));
    const since = q.since;
    const kept = since === undefined ? prev : prev.filter((l) => l.time >= since);
    lines = q.tailLines === undefined ? kept : kept.slice(Math.max(0, kept.length - q.tailLines));
    q.follow = false; // a finished run has nothing more to say
  } else {
    lines = ctx.logs.read(namespace, name, c.name, { sinceTime: q.since, tailLines: q.tailLines });
  }
  let text = lines.map(fmt).join('');
  let budget = q.limitBytes;
  if (budget !== undefined && Buffer.byteLength(text) > budget) {
    text = Buffer.from(text).subarray(0, budget).toString('utf8');
  }
  if (!q.follow || (budget !== undefined && Buffer.byteLength(text) >= budget)) {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
  res.write(text);
  if (budget !== undefined) budget -= Buffer.byteLength(text);
  const stopLogs = ctx.logs.subscribe(namespace, name, c.name, (l) => {
    let chunk = fmt(l);
    if (budget !== undefined) {
      chunk = Buffer.from(chunk).subarray(0, budget).toString('utf8');
      budget -= Buffer.byteLength(chunk);
    }
    res.write(chunk);
    if (budget !== undefined && budget <= 0) finish();
  });
  const stopStore = ctx.store.subscribe((rec) => {
    if (
      rec.kind === 'pods' &&
      rec.type === 'DELETED' &&
      rec.entry.obj.metadata.namespace === namespace &&
      rec.entry.obj.metadata.name === name
    ) {
      finish();
    }
  });
  let done = false;
  function finish(): void {
    if (done) return;
    done = true;
    stopLogs();
    stopStore();
    if (!res.writableEnded) res.end();
  }
  req.on('close', finish);
  res.on('close', finish);
}
