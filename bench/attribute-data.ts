/**
 * The attribute benchmark's data: a deterministic (seeded) 1,000,000-line access log, the pod
 * history it refers to (50,000 intervals) as a kubectl watch capture and as a meshdx store,
 * generated once into os.tmpdir() and reused while complete.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Pod } from '../lib/kube/types';
import { openHistoryStore } from '../server/store/history-store';
import { SCHEMA_VERSION } from '../server/store/schema';
import { ms } from './support';
import { mulberry32 } from '../server/sim/world/build/ids';

const LINES = 1_000_000;
const SLOTS = 20_000; // distinct pod IPs; the first half is held by 3 pods in turn, the rest by 2
export const INTERVALS = (SLOTS / 2) * 3 + (SLOTS / 2) * 2;
const SEED = 20261101;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const SPAN = 24 * 3600_000;
const VERSION = 1;
// the store's schema version is in the name: data made by an older meshdx is made anew, since
// `meshdx attribute` opens the store read-only and will not migrate it
const dataDir = path.join(
  os.tmpdir(),
  `meshdx-bench-attribute-v${VERSION}-s${SCHEMA_VERSION}-${SEED}-${LINES}`,
);
export const files = {
  log: path.join(dataDir, 'access.log'),
  capture: path.join(dataDir, 'pods.watch.json'),
  store: path.join(dataDir, 'meshdx.sqlite'),
  meta: path.join(dataDir, 'meta.json'),
};

export interface Meta {
  logBytes: number;
  lines: number;
  proxyLines: number;
  failing: number;
  intervals: number;
}

const iso = (t: number) => new Date(t).toISOString();
const isoS = (t: number) => iso(t).replace(/\.\d{3}Z$/, 'Z');
const slotIp = (k: number) => `10.${16 + ((k + 1) >> 16)}.${((k + 1) >> 8) & 255}.${(k + 1) & 255}`;
const podsInSlot = (k: number) => (k < SLOTS / 2 ? 3 : 2);

interface PodSpan {
  name: string;
  ns: string;
  owner: string;
  ip: string;
  from: number;
  /** deletion requested (null: still running at the end) */
  deleteAt: number | null;
  goneAt: number | null;
}

function podSpans(): PodSpan[] {
  const rand = mulberry32(SEED ^ 0x5eed);
  const out: PodSpan[] = [];
  for (let k = 0; k < SLOTS; k++) {
    const m = podsInSlot(k);
    const len = SPAN / m;
    const svc = k % 400;
    for (let j = 0; j < m; j++) {
      const from = T0 + j * len + Math.floor(rand() * 20_000);
      const last = j === m - 1;
      const deleteAt = last ? null : T0 + (j + 1) * len - 45_000;
      out.push({
        name: `svc-${svc}-${k.toString(36)}-${j}`,
        ns: `ns-${svc % 40}`,
        owner: `svc-${svc}-7d9f${svc % 10}`,
        ip: slotIp(k),
        from,
        deleteAt,
        goneAt: deleteAt === null ? null : deleteAt + 31_000 + Math.floor(rand() * 4000),
      });
    }
  }
  return out;
}

function podObject(p: PodSpan, deleting: boolean): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.ns,
      uid: `uid-${p.name}`,
      creationTimestamp: isoS(p.from - 3000),
      ownerReferences: [{ kind: 'ReplicaSet', name: p.owner, controller: true }],
      ...(deleting && p.deleteAt !== null
        ? { deletionTimestamp: isoS(p.deleteAt + 30_000), deletionGracePeriodSeconds: 30 }
        : {}),
    },
    spec: {
      nodeName: `node-${p.name.length % 50}`,
      containers: [{ name: 'app' }, { name: 'istio-proxy' }],
      terminationGracePeriodSeconds: 30,
    },
    status: {
      phase: 'Running',
      podIP: p.ip,
      podIPs: [{ ip: p.ip }],
      startTime: isoS(p.from),
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: isoS(p.from + 2000) }],
    },
  };
}

type Ev = { type: 'ADDED' | 'MODIFIED' | 'DELETED'; at: number; pod: PodSpan };

function historyEvents(spans: PodSpan[]): Ev[] {
  const evs: Ev[] = [];
  for (const p of spans) {
    evs.push({ type: 'ADDED', at: p.from, pod: p });
    if (p.deleteAt !== null && p.goneAt !== null) {
      evs.push({ type: 'MODIFIED', at: p.deleteAt, pod: p });
      evs.push({ type: 'DELETED', at: p.goneAt, pod: p });
    }
  }
  return evs.sort((a, b) => a.at - b.at);
}

function writeCapture(evs: Ev[]): void {
  const fd = fs.openSync(`${files.capture}.tmp`, 'w');
  let buf: string[] = [];
  for (const e of evs) {
    const obj = podObject(e.pod, e.type !== 'ADDED');
    buf.push(JSON.stringify({ type: e.type, time: iso(e.at), object: obj }));
    if (buf.length >= 5000) {
      fs.writeSync(fd, `${buf.join('\n')}\n`);
      buf = [];
    }
  }
  fs.writeSync(fd, buf.length ? `${buf.join('\n')}\n` : '');
  fs.closeSync(fd);
  fs.renameSync(`${files.capture}.tmp`, files.capture);
}

function writeStore(evs: Ev[]): void {
  fs.rmSync(`${files.store}.tmp`, { force: true });
  const store = openHistoryStore(`${files.store}.tmp`, { flushIntervalMs: 0, batchSize: 5000 });
  for (const e of evs)
    store.recordPodEvent({
      type: e.type,
      object: podObject(e.pod, e.type !== 'ADDED'),
      observedAt: new Date(e.at),
      via: 'watch',
    });
  store.close();
  for (const ext of ['-wal', '-shm']) fs.rmSync(`${files.store}.tmp${ext}`, { force: true });
  fs.renameSync(`${files.store}.tmp`, files.store);
}

const PATHS = [
  '/api/v1/orders',
  '/api/v1/payments/authorize',
  '/healthz',
  '/productpage',
  '/reviews/0',
  '/api/v2/catalog/items?page=3&size=50',
  '/static/js/main.4f9a1c.js',
  '/grpc.health.v1.Health/Check',
];
const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  'curl/8.5.0',
  'Go-http-client/1.1',
  'okhttp/4.12.0',
  'grpc-go/1.60.1',
  'python-requests/2.31.0',
];
/** Code, flags and whether the request reached an upstream, with their share of lines. */
const OUTCOMES: [number, string, number, boolean][] = [
  [200, '-', 0.8, true],
  [201, '-', 0.04, true],
  [204, '-', 0.02, true],
  [304, '-', 0.02, true],
  [404, '-', 0.03, true],
  [401, '-', 0.01, true],
  [404, 'NR', 0.003, false],
  [503, 'UC', 0.02, true],
  [503, 'UF,URX', 0.008, true],
  [503, 'UH', 0.004, false],
  [500, '-', 0.01, true],
  [504, 'UT', 0.004, true],
  [0, 'DC', 0.003, true],
  [502, '-', 0.002, true],
];

function hex(rand: () => number, n: number): string {
  let s = '';
  while (s.length < n)
    s += Math.floor(rand() * 0xffffffff)
      .toString(16)
      .padStart(8, '0');
  return s.slice(0, n);
}

function proxyLine(rand: () => number, t: number): string {
  if (rand() < 0.5)
    return `${new Date(t).toISOString().replace('Z', '000Z')}\tinfo\txdsproxy\tconnected to upstream XDS server: istiod.istio-system.svc:15012`;
  return `[${iso(t).replace('T', ' ').replace('Z', '')}][${20 + Math.floor(rand() * 10)}][warning][config] [source/common/config/grpc_stream.h:201] StreamAggregatedResources gRPC config stream to xds-grpc closed: 13,`;
}

function writeLog(): Omit<Meta, 'intervals'> {
  const rand = mulberry32(SEED);
  const cum: number[] = [];
  let acc = 0;
  for (const o of OUTCOMES) cum.push((acc += o[2]));
  const fd = fs.openSync(`${files.log}.tmp`, 'w');
  let buf: string[] = [];
  let bytes = 0;
  let proxyLines = 0;
  let failing = 0;
  for (let i = 0; i < LINES; i++) {
    const t = T0 + Math.floor((i * SPAN) / LINES);
    let line: string;
    if (rand() < 0.01) {
      line = proxyLine(rand, t);
      proxyLines++;
    } else {
      const r = rand() * acc;
      let o = OUTCOMES[0] as (typeof OUTCOMES)[number];
      for (let k = 0; k < cum.length; k++)
        if (r < (cum[k] as number)) {
          o = OUTCOMES[k] as (typeof OUTCOMES)[number];
          break;
        }
      const [code, flags, , reached] = o;
      if (code >= 500 || flags !== '-') failing++;
      const k = Math.floor(rand() * SLOTS);
      const svc = k % 400;
      const host = `svc-${svc}.ns-${svc % 40}.svc.cluster.local`;
      const client = slotIp(Math.floor(rand() * SLOTS));
      const method = rand() < 0.7 ? 'GET' : 'POST';
      const p = PATHS[Math.floor(rand() * PATHS.length)] as string;
      const ua = AGENTS[Math.floor(rand() * AGENTS.length)] as string;
      const rid = `${hex(rand, 8)}-${hex(rand, 4)}-${hex(rand, 4)}-${hex(rand, 4)}-${hex(rand, 12)}`;
      const dur = Math.floor(rand() * 900);
      const upstream = reached ? `${slotIp(k)}:8080` : '-';
      const cluster = flags === 'NR' ? '-' : `outbound|8080||${host}`;
      const details =
        flags === '-'
          ? 'via_upstream'
          : flags === 'NR'
            ? 'route_not_found'
            : 'upstream_reset_before_response_started{connection_termination}';
      const port = 30000 + Math.floor(rand() * 30000);
      line =
        `[${iso(t)}] "${method} ${p} HTTP/1.1" ${code} ${flags} ${details} - "-" ` +
        `${method === 'POST' ? 120 + (dur % 500) : 0} ${code === 204 ? 0 : 200 + dur * 7} ${dur} ${reached ? Math.max(0, dur - 2) : '-'} ` +
        `"-" "${ua}" "${rid}" "${host}:8080" "${upstream}" ${cluster} ` +
        `${reached ? `${client}:${port + 1}` : '-'} ${slotIp(k)}:8080 ${client}:${port} ${host.length > 0 ? '-' : ''} default`;
    }
    buf.push(line);
    bytes += Buffer.byteLength(line) + 1;
    if (buf.length >= 10_000) {
      fs.writeSync(fd, `${buf.join('\n')}\n`);
      buf = [];
    }
  }
  if (buf.length) fs.writeSync(fd, `${buf.join('\n')}\n`);
  fs.closeSync(fd);
  fs.renameSync(`${files.log}.tmp`, files.log);
  return { logBytes: bytes, lines: LINES, proxyLines, failing };
}

/** Generates the data unless a complete set with the same size and seed is already there. */
export function ensureData(): Meta {
  try {
    const meta = JSON.parse(fs.readFileSync(files.meta, 'utf8')) as Meta;
    if (
      fs.statSync(files.log).size === meta.logBytes &&
      fs.existsSync(files.capture) &&
      fs.existsSync(files.store)
    )
      return meta;
  } catch {
    // not there yet, or incomplete: generate
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const t = process.hrtime.bigint();
  const spans = podSpans();
  const evs = historyEvents(spans);
  writeCapture(evs);
  writeStore(evs);
  const meta: Meta = { ...writeLog(), intervals: spans.length };
  fs.writeFileSync(files.meta, JSON.stringify(meta));
  console.log(`  generated ${dataDir} in ${Math.round(ms(t))} ms`);
  return meta;
}
