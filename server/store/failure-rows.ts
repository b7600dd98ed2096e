/**
 * A failing request as a row of the `failures` table and back. The row's key is the request's
 * identity (lib/incidents/failure-identity.ts) hashed to 16 bytes: the same request is one row
 * whether it was read from the proxy's log or sent to the receiver. The unique index that holds
 * it leads with the request's time, so a batch of new requests adds to the end of the index
 * rather than to pages all over it.
 */
import { hash } from 'node:crypto';
import { failureIdentity } from '../../lib/incidents/failure-identity';
import {
  ATTRIBUTED_STATES,
  FAILURE_READS,
  type AttributedState,
  type FailureInput,
  type FailureRead,
  type StoredFailure,
} from '../../lib/incidents/failure-store';

/** What a row costs besides its raw line (fields, keys, index entries): an estimate. */
export const ROW_OVERHEAD_BYTES = 240;

export const READ_BIT: Record<FailureRead, number> = {
  view: 1,
  live: 2,
  upload: 4,
  otlp: 8,
  deletion: 16,
};

export interface FailureRow {
  id: number;
  proxy: string;
  proxy_uid: string | null;
  read: string;
  recorded_at: number;
  time: number | null;
  code: number | null;
  flags: string;
  method: string | null;
  authority: string | null;
  path: string | null;
  duration_ms: number | null;
  upstream_host: string | null;
  upstream_cluster: string | null;
  downstream_remote: string | null;
  request_id: string | null;
  details: string | null;
  upstream_ip: string | null;
  pod_namespace: string | null;
  pod_name: string | null;
  pod_uid: string | null;
  owner_kind: string | null;
  owner_name: string | null;
  state: string;
  deletion_started_at: number | null;
  gone_at: number | null;
  after_termination_ms: number | null;
  reason: string;
  raw: string;
}

/** The 16-byte key of a request (its identity, hashed). */
export function failureKey(f: FailureInput): Buffer {
  return writeFailureKey(f, Buffer.alloc(16));
}

/**
 * failureKey written into `into` (16 bytes), which is returned: a batch keys every record into
 * one buffer. The digest comes back as a 'binary' (latin1) string, one character per byte, and is copied
 * into place: a Buffer per digest (its own backing store, freed by the collector) cost a
 * receiver storing thousands of records a second more than the hash itself.
 */
export function writeFailureKey(f: FailureInput, into: Buffer): Buffer {
  const digest = hash('sha256', failureIdentity(f.source.proxy, f.fields, f.raw), 'binary');
  into.write(digest, 0, 16, 'latin1');
  return into;
}

/**
 * The same key from a stored row's columns (flags comma-joined), for a migration that re-keys
 * rows written before the identity key: SQL function `failure_key`.
 */
export function failureKeyOfColumns(
  proxy: string,
  time: number | null,
  method: string | null,
  authority: string | null,
  path: string | null,
  code: number | null,
  flags: string,
  durationMs: number | null,
  upstreamHost: string | null,
  requestId: string | null,
  raw: string,
): Buffer {
  const id = failureIdentity(
    proxy,
    {
      time,
      method,
      authority,
      path,
      code,
      flags: flags === '' ? [] : flags.split(','),
      durationMs,
      upstreamHost,
      requestId,
    },
    raw,
  );
  return hash('sha256', id, 'buffer').subarray(0, 16);
}

/** The columns INSERT_SQL binds, in order. */
export const INSERT_COLUMNS =
  'proxy, hash, proxy_uid, read, reads, recorded_at, at, time, code, flags, method, authority, path, duration_ms, upstream_host, upstream_cluster, downstream_remote, request_id, details, upstream_ip, pod_namespace, pod_name, pod_uid, owner_kind, owner_name, state, deletion_started_at, gone_at, after_termination_ms, reason, raw, bytes';

export type RowValues = (string | number | Buffer | null)[];

/** A failure as the positional values of INSERT_COLUMNS (the last one is its bytes). */
export function rowValues(f: FailureInput, recordedAt: number, key: Buffer): RowValues {
  const a = f.attribution;
  const x = f.fields;
  const pod = a.pod;
  const owner = a.owner;
  return [
    f.source.proxy,
    key,
    f.source.proxyUid,
    f.source.read,
    READ_BIT[f.source.read],
    recordedAt,
    x.time ?? recordedAt,
    x.time,
    x.code,
    x.flags.length === 1 ? (x.flags[0] as string) : x.flags.join(','),
    x.method,
    x.authority,
    x.path,
    x.durationMs,
    x.upstreamHost,
    x.upstreamCluster,
    x.downstreamRemote,
    x.requestId,
    x.details,
    a.upstreamIp,
    pod ? pod.namespace : null,
    pod ? pod.name : null,
    pod ? (pod.uid ?? null) : null,
    owner ? owner.kind : null,
    owner ? owner.name : null,
    a.state,
    a.deletionStartedAt,
    a.goneAt,
    a.afterTerminationMs,
    a.reason,
    f.raw,
    Buffer.byteLength(f.raw) + ROW_OVERHEAD_BYTES,
  ];
}

function asRead(s: string): FailureRead {
  return (FAILURE_READS as readonly string[]).includes(s) ? (s as FailureRead) : 'view';
}
function asState(s: string): AttributedState {
  return (ATTRIBUTED_STATES as readonly string[]).includes(s) ? (s as AttributedState) : 'unknown';
}

export { asRead };

export function toStored(r: FailureRow): StoredFailure {
  return {
    id: r.id,
    recordedAt: r.recorded_at,
    raw: r.raw,
    source: { read: asRead(r.read), proxy: r.proxy, proxyUid: r.proxy_uid },
    fields: {
      time: r.time,
      code: r.code,
      flags: r.flags === '' ? [] : r.flags.split(','),
      method: r.method,
      authority: r.authority,
      path: r.path,
      durationMs: r.duration_ms,
      upstreamHost: r.upstream_host,
      upstreamCluster: r.upstream_cluster,
      downstreamRemote: r.downstream_remote,
      requestId: r.request_id,
      details: r.details,
    },
    attribution: {
      upstreamIp: r.upstream_ip,
      pod:
        r.pod_namespace !== null && r.pod_name !== null
          ? { namespace: r.pod_namespace, name: r.pod_name, uid: r.pod_uid }
          : null,
      owner:
        r.owner_kind !== null && r.owner_name !== null
          ? { kind: r.owner_kind, name: r.owner_name }
          : null,
      state: asState(r.state),
      deletionStartedAt: r.deletion_started_at,
      goneAt: r.gone_at,
      afterTerminationMs: r.after_termination_ms,
      reason: r.reason,
    },
  };
}
