/**
 * The protobuf wire format checked before a request is decoded: protobufjs skips an unknown
 * field's varint however long it is, and reads an 11-byte varint in a known field as its first
 * ten, where the format allows 10 bytes at most (the 10th holding one bit). A body that breaks
 * the format is not a request: the receiver answers 400, as a Collector would. The walk follows
 * the official schema into every message field (unknown fields are stepped over by their wire
 * type, their varints checked as well).
 */
import protobuf from 'protobufjs';
import { LOGS_REQUEST_TYPE, OtlpDecodeError } from './schema';

const MAX_DEPTH = protobuf.util.recursionLimit;

const VARINT_TYPES: ReadonlySet<string> = new Set([
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'bool',
]);

function fail(at: number, what: string): never {
  throw new OtlpDecodeError(
    `not an OTLP ExportLogsServiceRequest (protobuf): ${what} at byte ${at}`,
  );
}

/** A body broken in a way protobufjs reports itself (cut short, a bad tag): the walk stops there. */
class Stop extends Error {}

function stop(): never {
  throw new Stop();
}

/** The varint at `pos`: its value (exact below 2^53, enough for tags and lengths) and its end. */
function varint(buf: Uint8Array, pos: number, end: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 10; i++) {
    if (pos + i >= end) stop();
    const b = buf[pos + i] as number;
    if (i === 9 && b > 1) fail(pos, 'a varint longer than 64 bits');
    value += (b & 0x7f) * 2 ** (7 * i);
    if (b < 0x80) return [value, pos + i + 1];
  }
  return fail(pos, 'a varint longer than 10 bytes');
}

/** Checks one message's bytes [pos, end) (a group's up to its end tag); returns where it ended. */
function walk(
  buf: Uint8Array,
  pos: number,
  end: number,
  type: protobuf.Type | null,
  depth: number,
  group: number | null,
): number {
  if (depth > MAX_DEPTH) stop();
  while (pos < end) {
    let tag: number;
    [tag, pos] = varint(buf, pos, end);
    const field = Math.floor(tag / 8);
    const wire = tag % 8;
    if (field === 0 || field > 0x1fffffff) stop();
    switch (wire) {
      case 0:
        [, pos] = varint(buf, pos, end);
        break;
      case 1:
        pos += 8;
        break;
      case 5:
        pos += 4;
        break;
      case 2: {
        let len: number;
        [len, pos] = varint(buf, pos, end);
        if (pos + len > end) stop();
        const f = type?.fieldsById[field];
        const sub = f?.resolvedType;
        if (sub instanceof protobuf.Type) walk(buf, pos, pos + len, sub, depth + 1, null);
        else if (f && f.repeated && VARINT_TYPES.has(f.type))
          for (let p = pos; p < pos + len;) [, p] = varint(buf, p, pos + len);
        pos += len;
        break;
      }
      case 3:
        pos = walk(buf, pos, end, null, depth + 1, field);
        break;
      case 4:
        if (group !== field) stop();
        return pos;
      default:
        stop();
    }
    if (pos > end) stop();
  }
  if (group !== null) stop();
  return pos;
}

/**
 * Throws OtlpDecodeError when a varint of `bytes` is longer than the wire format allows; other
 * breaks (a body cut short, a bad tag) are left to the decoder, which names the record.
 */
export function checkWireFormat(bytes: Uint8Array, type: protobuf.Type = LOGS_REQUEST_TYPE): void {
  try {
    walk(bytes, 0, bytes.length, type, 0, null);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
  }
}
