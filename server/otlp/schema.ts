/**
 * The OTLP logs wire formats, read and written by protobufjs from the official schema
 * (proto/): ExportLogsServiceRequest as protobuf (gRPC and OTLP/HTTP) or as OTLP/JSON, the
 * response, and google.rpc.Status for refusals. Nothing here decodes bytes by hand.
 */
import protobuf from 'protobufjs';
import protojson from 'protobufjs/ext/protojson.js';
import { countLogRecords } from '../../lib/otlp/map';
import type {
  OtlpLogRecord,
  OtlpLogsRequest,
  OtlpLogsSource,
  OtlpResourceLogsSource,
} from '../../lib/otlp/types';
import { GOOGLE_RPC_PROTO } from './proto/google-rpc';
import {
  COMMON_PROTO,
  LOGS_PROTO,
  LOGS_SERVICE_PROTO,
  RESOURCE_PROTO,
} from './proto/opentelemetry';

function buildRoot(): protobuf.Root {
  const root = new protobuf.Root();
  for (const name of ['google/protobuf/any.proto', 'google/protobuf/duration.proto']) {
    const common = protobuf.common.get(name);
    if (!common) throw new Error(`protobufjs does not carry ${name}`);
    root.addJSON(common.nested ?? {});
  }
  for (const text of [
    COMMON_PROTO,
    RESOURCE_PROTO,
    LOGS_PROTO,
    LOGS_SERVICE_PROTO,
    GOOGLE_RPC_PROTO,
  ])
    protobuf.parse(text, root, { keepCase: false });
  root.resolveAll();
  return root;
}

const root = buildRoot();
const RequestType = root.lookupType(
  'opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest',
);
/** The official request type (its fields and nested types), for the wire check (wire.ts). */
export const LOGS_REQUEST_TYPE: protobuf.Type = RequestType;
const ResponseType = root.lookupType(
  'opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse',
);
const StatusType = root.lookupType('google.rpc.Status');
const RetryInfoType = root.lookupType('google.rpc.RetryInfo');

export const OTLP_LOGS_SERVICE = 'opentelemetry.proto.collector.logs.v1.LogsService';

export class OtlpDecodeError extends Error {
  override name = 'OtlpDecodeError';
}

/**
 * int64 and fixed64 as JS numbers: a request time in nanoseconds loses its last few hundred
 * nanoseconds as a double, far below the millisecond meshdx keeps (and 4x faster than strings).
 */
const CONVERSION: protobuf.IConversionOptions = {
  longs: Number,
  bytes: String,
  defaults: false,
  arrays: true,
  oneofs: false,
};

/**
 * The request's containers as protobufjs types derived from the official ones: the same fields,
 * except that the repeated message field `lazy` is kept as its encoded bytes (an embedded
 * message and `bytes` share wire type 2). Decoding the envelope does not decode the log records:
 * each is decoded when it is read, so a request's records are not all alive at once.
 */
function envelopeOf(official: protobuf.Type, lazy: string): protobuf.Type {
  const envelope = new protobuf.Type(`${official.name}Envelope`);
  for (const f of official.fieldsArray) {
    if (f.name === lazy && !(f.repeated && f.resolvedType instanceof protobuf.Type))
      throw new Error(`${official.fullName}.${lazy} is not a repeated message field`);
    envelope.add(
      new protobuf.Field(
        f.name,
        f.id,
        f.name === lazy ? 'bytes' : f.type,
        f.repeated ? 'repeated' : undefined,
      ),
    );
  }
  if (!official.parent) throw new Error(`${official.fullName} has no namespace`);
  official.parent.add(envelope);
  return envelope;
}

const LOGS = 'opentelemetry.proto.logs.v1';
const RequestEnvelope = envelopeOf(RequestType, 'resourceLogs');
const ResourceLogsEnvelope = envelopeOf(root.lookupType(`${LOGS}.ResourceLogs`), 'scopeLogs');
const ScopeLogsEnvelope = envelopeOf(root.lookupType(`${LOGS}.ScopeLogs`), 'logRecords');
const LogRecordType = root.lookupType(`${LOGS}.LogRecord`);
const ResourceType = root.lookupType('opentelemetry.proto.resource.v1.Resource');
root.resolveAll();

function decodeError(what: string, e: unknown): OtlpDecodeError {
  return new OtlpDecodeError(
    `not an OTLP ExportLogsServiceRequest (protobuf): ${what}${e instanceof Error ? e.message : String(e)}`,
  );
}

/** A decoded request: how many log records it holds, and the records to read once. */
export interface DecodedLogs {
  records: number;
  /**
   * The request's resources and scopes; each log record is decoded as it is iterated, and one
   * that cannot be throws OtlpDecodeError (the reader then refuses the whole request).
   */
  request: OtlpLogsSource;
}

interface Decoded {
  [field: string]: unknown;
}

/** The log records of one ScopeLogs, each decoded (to plain values) when it is reached. */
function* logRecords(encoded: readonly Uint8Array[], first: number): Generator<OtlpLogRecord> {
  let index = first;
  for (const bytes of encoded) {
    let message: protobuf.Message;
    try {
      message = LogRecordType.decode(bytes);
    } catch (e) {
      throw decodeError(`log record ${index}: `, e);
    }
    index++;
    yield LogRecordType.toObject(message, CONVERSION) as OtlpLogRecord;
  }
}

/**
 * An ExportLogsServiceRequest in protobuf: its resources and scopes are decoded now (a body
 * that is not one throws OtlpDecodeError), its log records as they are read.
 */
export function decodeLogsRequest(bytes: Uint8Array): DecodedLogs {
  let records = 0;
  const resourceLogs: OtlpResourceLogsSource[] = [];
  try {
    const req = RequestEnvelope.decode(bytes) as unknown as Decoded;
    for (const rlBytes of (req.resourceLogs as Uint8Array[] | undefined) ?? []) {
      const rl = ResourceLogsEnvelope.decode(rlBytes) as unknown as Decoded;
      const scopeLogs: { logRecords: Iterable<OtlpLogRecord> }[] = [];
      for (const slBytes of (rl.scopeLogs as Uint8Array[] | undefined) ?? []) {
        const sl = ScopeLogsEnvelope.decode(slBytes) as unknown as Decoded;
        const encoded = (sl.logRecords as Uint8Array[] | undefined) ?? [];
        const first = records;
        records += encoded.length;
        scopeLogs.push({ logRecords: { [Symbol.iterator]: () => logRecords(encoded, first) } });
      }
      const resource = rl.resource
        ? (ResourceType.toObject(
            rl.resource as protobuf.Message,
            CONVERSION,
          ) as OtlpResourceLogsSource['resource'])
        : undefined;
      resourceLogs.push({ resource, scopeLogs });
    }
  } catch (e) {
    throw decodeError('', e);
  }
  return { records, request: { resourceLogs } };
}

/** OTLP/JSON ids are hex, where ProtoJSON bytes are base64. */
function hexIdsToBase64(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hexIdsToBase64);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const isId = k === 'traceId' || k === 'spanId' || k === 'trace_id' || k === 'span_id';
    out[k] =
      isId && typeof v === 'string' && /^([0-9a-fA-F]{2})*$/.test(v)
        ? Buffer.from(v, 'hex').toString('base64')
        : hexIdsToBase64(v);
  }
  return out;
}

/** An ExportLogsServiceRequest in OTLP/JSON text; throws OtlpDecodeError. */
export function decodeLogsRequestJson(text: string): DecodedLogs {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new OtlpDecodeError(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new OtlpDecodeError('an OTLP/JSON ExportLogsServiceRequest must be a JSON object');
  let message: protobuf.Message;
  try {
    message = protojson.fromJson(RequestType, hexIdsToBase64(parsed), {
      ignoreUnknownFields: true,
    });
  } catch (e) {
    throw new OtlpDecodeError(
      `not an OTLP ExportLogsServiceRequest (JSON): ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const request = RequestType.toObject(message, CONVERSION) as OtlpLogsRequest;
  return { records: countLogRecords(request), request };
}

export interface PartialSuccess {
  rejectedLogRecords: number;
  errorMessage: string;
}

function responseObject(partial: PartialSuccess | null): Record<string, unknown> {
  return partial && partial.rejectedLogRecords > 0 ? { partialSuccess: partial } : {};
}

export function encodeLogsResponse(partial: PartialSuccess | null): Uint8Array {
  return ResponseType.encode(ResponseType.fromObject(responseObject(partial))).finish();
}

export function logsResponseJson(partial: PartialSuccess | null): string {
  return JSON.stringify(
    protojson.toJson(ResponseType, ResponseType.fromObject(responseObject(partial))),
  );
}

/** A google.rpc.RetryInfo packed as an Any, for a Status' details. */
function retryDetail(retryAfterMs: number) {
  const seconds = Math.floor(retryAfterMs / 1000);
  const nanos = (retryAfterMs % 1000) * 1_000_000;
  return {
    type_url: 'type.googleapis.com/google.rpc.RetryInfo',
    value: RetryInfoType.encode(
      RetryInfoType.fromObject({ retryDelay: { seconds, nanos } }),
    ).finish(),
  };
}

export interface RpcStatus {
  /** gRPC status code (google.rpc.Code). */
  code: number;
  message: string;
  /** Adds a RetryInfo detail. */
  retryAfterMs?: number;
}

function statusMessage(s: RpcStatus): protobuf.Message {
  return StatusType.fromObject({
    code: s.code,
    message: s.message,
    details: s.retryAfterMs !== undefined ? [retryDetail(s.retryAfterMs)] : [],
  });
}

/** google.rpc.Status in protobuf (the OTLP/HTTP error body, gRPC's grpc-status-details-bin). */
export function encodeStatus(s: RpcStatus): Uint8Array {
  return StatusType.encode(statusMessage(s)).finish();
}

/** google.rpc.Status in OTLP/JSON. */
export function statusJson(s: RpcStatus): string {
  return JSON.stringify(protojson.toJson(StatusType, statusMessage(s)));
}

/** For tests and the simulator's sender: a request from plain values, in protobuf. */
export function encodeLogsRequest(request: OtlpLogsRequest): Uint8Array {
  return RequestType.encode(RequestType.fromObject(request)).finish();
}

/** Reads a google.rpc.Status (for tests of refusals). */
export function decodeStatus(bytes: Uint8Array): {
  code: number;
  message: string;
  details: { typeUrl: string }[];
} {
  return StatusType.toObject(StatusType.decode(bytes), CONVERSION) as {
    code: number;
    message: string;
    details: { typeUrl: string }[];
  };
}
