/**
 * The pod-IP history a command reads from a file: a meshdx store (SQLite, opened read-only) or
 * a watch capture or pod list (kubectl get pods -A -w -o json --output-watch-events), told
 * apart by the file's first bytes. What is wrong with it goes to stderr under the command's
 * name; null when nothing usable was read.
 */
import fs from 'node:fs';
import type { CliIO, InputLimits } from '../io';
import { bytesText, envName, headLooksBinary } from '../io';
import type { IpHistory } from '../../lib/ledger/ip-history';
import type { HistoryProblem } from '../../lib/ledger/events';
import type { UntimedPodIps } from '../../lib/ledger/ledger';
import { firstAndMore } from '../../lib/text-list';
import { loadCaptureTable, type LoadedCapture } from './attribute-history';
import { podKeyOf } from '../../lib/refs/pod-ref';

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** `worker`: a large capture may be read on a worker thread (not with --threads 1). */
export function loadHistory(
  io: CliIO,
  cmd: string,
  file: string,
  limits: InputLimits,
  worker: boolean,
): Promise<IpHistory | null> {
  const head = firstBytes(file, 64 * 1024);
  if (isSqlite(head)) return historyFromStore(io, cmd, file);
  const refused = refusedCapture(file, head, limits);
  if (refused) {
    io.stderr(`meshdx ${cmd}: ${refused}\n`);
    return Promise.resolve(null);
  }
  return historyFromCapture(io, cmd, file, limits, worker);
}

/**
 * Why a history that is not a store file is not read at all, before reading it: larger than
 * the limit, or binary (a NUL or bytes that are not UTF-8 in its first 64 KiB).
 */
function refusedCapture(file: string, head: Buffer, limits: InputLimits): string | null {
  const size = fs.statSync(file).size;
  if (size > limits.maxHistoryBytes)
    return `${file} is ${bytesText(size)}, more than the ${bytesText(limits.maxHistoryBytes)} meshdx reads as a history (set ${envName('maxHistoryBytes')} to raise the limit)`;
  if (head.length === 0 || head.every((b) => b === 32 || b === 9 || b === 10 || b === 13))
    return `${file} is empty: expected a pod watch capture or a meshdx store file`;
  if (headLooksBinary(head))
    return `${file} is binary data, not a pod watch capture (JSON text) nor a meshdx store file`;
  return null;
}

/**
 * A meshdx store file, opened read-only: its intervals, indexed for lookups. The store's
 * module (and SQLite's native one, about 15 ms of start-up) is loaded only for a store (in
 * `attribute`, once the log's scan threads are on their way).
 */
async function historyFromStore(io: CliIO, cmd: string, file: string): Promise<IpHistory | null> {
  try {
    const { openHistoryStore } = await import('../../server/store/history-store');
    const store = openHistoryStore(file, { readonly: true });
    try {
      const history = store.loadHistory();
      if (history.size === 0) {
        io.stderr(`meshdx ${cmd}: ${file}: no pod IP intervals in this store file\n`);
        return null;
      }
      return history;
    } finally {
      store.close();
    }
  } catch (e) {
    io.stderr(`meshdx ${cmd}: cannot read store file ${file}: ${errText(e)}\n`);
    return null;
  }
}

/** A watch capture or pod list (kubectl -w -o json ...), read on a worker thread. */
async function historyFromCapture(
  io: CliIO,
  cmd: string,
  file: string,
  limits: InputLimits,
  worker: boolean,
): Promise<IpHistory | null> {
  let loaded: LoadedCapture;
  try {
    // each JSON value is bounded (depth, size); the file as a whole is streamed
    loaded = await loadCaptureTable(
      file,
      { maxDepth: limits.maxDepth, maxValueChars: limits.maxDocumentBytes },
      worker ? {} : { workerFromBytes: Infinity },
    );
  } catch (e) {
    io.stderr(`meshdx ${cmd}: error while reading history ${file}: ${errText(e)}\n`);
    return null;
  }
  const { history, table, warning } = loaded;
  if (warning) io.stderr(`meshdx ${cmd}: warning: ${warning}\n`);
  reportHistoryProblems(
    io,
    cmd,
    file,
    history.problems,
    history.counts.events,
    history.counts.timed,
  );
  const untimedNote = describeUntimedPodIps(history.untimed);
  if (untimedNote) io.stderr(`meshdx ${cmd}: warning: ${file}: ${untimedNote}\n`);
  return history.counts.events === 0 ? null : table;
}

function firstBytes(file: string, max: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(max);
    return buf.subarray(0, fs.readSync(fd, buf, 0, max, 0));
  } finally {
    fs.closeSync(fd);
  }
}

function isSqlite(head: Buffer): boolean {
  return head.length >= 16 && head.subarray(0, 16).toString('latin1') === SQLITE_MAGIC;
}

function reportHistoryProblems(
  io: CliIO,
  cmd: string,
  file: string,
  problems: HistoryProblem[],
  events: number,
  timed: number,
): void {
  if (events === 0)
    io.stderr(
      `meshdx ${cmd}: ${file}: no pod events in this history (expected kubectl get pods -A -w -o json --output-watch-events, or a pod list)\n`,
    );
  else if (timed === 0)
    io.stderr(
      `meshdx ${cmd}: note: ${file} has no event times (kubectl captures have none): interval starts are lower bounds from pod status, and a pod is taken as gone when its last container exited (or, when the capture does not show that, at the end of its grace period)\n`,
    );
  for (const p of problems.slice(0, 10))
    io.stderr(`meshdx ${cmd}: warning: ${file}:${p.line}: ${p.reason}: ${p.message}\n`);
  if (problems.length > 10)
    io.stderr(`meshdx ${cmd}: warning: ${problems.length - 10} more problems in ${file}\n`);
}

/**
 * Pod IPs the history holds but cannot place in time (a pod object with an IP and no time at
 * all): requests to them read "no pod known", and this says which pods those were.
 */
function describeUntimedPodIps(u: UntimedPodIps): string | null {
  if (u.count === 0) return null;
  const named = u.first.map((p) => `${podKeyOf(p)} (${p.ip})`);
  const list = firstAndMore(named, named.length, u.count);
  return `${u.count} pod IP(s) left out: nothing tells when their pod held them (no event time, status.startTime, condition time or creationTimestamp), so requests to them read "no pod known": ${list}`;
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
