/**
 * SPDY/3.1 as the kubelet speaks it to `kubectl port-forward` (the frames moby/spdystream reads
 * and writes): framing, and the name/value header blocks, compressed with zlib and the spec's
 * dictionary as one stream per direction for the whole session. Only the server's side: streams
 * are opened by the client, answered with SYN_REPLY, carried by DATA frames.
 */
import { constants, createInflate, type Inflate } from 'node:zlib';

export const SPDY_VERSION = 3;
export const FLAG_FIN = 0x01;

export const TYPE = {
  SYN_STREAM: 1,
  SYN_REPLY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PING: 6,
  GOAWAY: 7,
  HEADERS: 8,
  WINDOW_UPDATE: 9,
} as const;

/** The RST_STREAM status used here (a stream without the headers port-forward needs). */
export const RST = { PROTOCOL_ERROR: 1 } as const;

export type SpdyFrame =
  | { kind: 'control'; type: number; flags: number; payload: Buffer }
  | { kind: 'data'; streamId: number; flags: number; payload: Buffer };

/** The largest payload a frame's 24-bit length carries. */
const MAX_PAYLOAD = 0xffffff;
/** DATA frames are written in pieces of at most this size. */
const DATA_PIECE = 1 << 20;

/**
 * Cuts a byte stream into frames. A frame whose declared length is larger than `maxPayload`
 * (default: what a 24-bit length allows) is an error: the session cannot go on after it.
 */
export class SpdyFrameReader {
  private buf: Buffer = Buffer.alloc(0);

  constructor(private readonly maxPayload = MAX_PAYLOAD) {}

  push(chunk: Buffer): SpdyFrame[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: SpdyFrame[] = [];
    while (this.buf.length >= 8) {
      const length = this.buf.readUIntBE(5, 3);
      if (length > this.maxPayload) throw new Error(`SPDY frame of ${length} bytes is too large`);
      if (this.buf.length < 8 + length) break;
      const b0 = this.buf[0] as number;
      const flags = this.buf[4] as number;
      const payload = Buffer.from(this.buf.subarray(8, 8 + length));
      if (b0 & 0x80) {
        const version = this.buf.readUInt16BE(0) & 0x7fff;
        if (version !== SPDY_VERSION) throw new Error(`SPDY version ${version} is not spoken here`);
        out.push({ kind: 'control', type: this.buf.readUInt16BE(2), flags, payload });
      } else {
        out.push({ kind: 'data', streamId: this.buf.readUInt32BE(0) & 0x7fffffff, flags, payload });
      }
      this.buf = this.buf.subarray(8 + length);
    }
    return out;
  }
}

function control(type: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt8(flags, 4);
  head.writeUIntBE(payload.length, 5, 3);
  return Buffer.concat([head, payload]);
}

const u32 = (...values: number[]): Buffer => {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, 4 * i));
  return b;
};

export function synReplyFrame(streamId: number, headerBlock: Buffer, flags = 0): Buffer {
  return control(TYPE.SYN_REPLY, flags, Buffer.concat([u32(streamId & 0x7fffffff), headerBlock]));
}

export function rstStreamFrame(streamId: number, status: number): Buffer {
  return control(TYPE.RST_STREAM, 0, u32(streamId & 0x7fffffff, status));
}

export function pingFrame(id: number): Buffer {
  return control(TYPE.PING, 0, u32(id));
}

export function goAwayFrame(lastStreamId: number, status = 0): Buffer {
  return control(TYPE.GOAWAY, 0, u32(lastStreamId & 0x7fffffff, status));
}

/** DATA frames carrying `data` on a stream (none when it is empty), the last one with FIN when asked. */
export function dataFrames(streamId: number, data: Buffer, fin: boolean): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  do {
    const piece = data.subarray(at, at + DATA_PIECE);
    at += piece.length;
    if (piece.length === 0 && !fin) break;
    const head = Buffer.alloc(8);
    head.writeUInt32BE(streamId & 0x7fffffff, 0);
    head.writeUInt8(fin && at >= data.length ? FLAG_FIN : 0, 4);
    head.writeUIntBE(piece.length, 5, 3);
    out.push(Buffer.concat([head, piece]));
  } while (at < data.length);
  return out;
}

/** SYN_STREAM's fields (stream ids are 31 bits; the header block is still compressed). */
export function readSynStream(payload: Buffer): {
  streamId: number;
  associatedId: number;
  headerBlock: Buffer;
} {
  if (payload.length < 10) throw new Error('SYN_STREAM shorter than its fixed fields');
  return {
    streamId: payload.readUInt32BE(0) & 0x7fffffff,
    associatedId: payload.readUInt32BE(4) & 0x7fffffff,
    headerBlock: payload.subarray(10),
  };
}

/** A control frame's leading 31-bit stream id (RST_STREAM, HEADERS, WINDOW_UPDATE). */
export function streamIdOf(payload: Buffer): number {
  if (payload.length < 4) throw new Error('control frame shorter than its stream id');
  return payload.readUInt32BE(0) & 0x7fffffff;
}

// ---- header blocks ------------------------------------------------------------------------

/** SPDY/3's header dictionary: length-prefixed names and values, then a run of plain text. */
const DICTIONARY_WORDS = [
  'options',
  'head',
  'post',
  'put',
  'delete',
  'trace',
  'accept',
  'accept-charset',
  'accept-encoding',
  'accept-language',
  'accept-ranges',
  'age',
  'allow',
  'authorization',
  'cache-control',
  'connection',
  'content-base',
  'content-encoding',
  'content-language',
  'content-length',
  'content-location',
  'content-md5',
  'content-range',
  'content-type',
  'date',
  'etag',
  'expect',
  'expires',
  'from',
  'host',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-range',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'pragma',
  'proxy-authenticate',
  'proxy-authorization',
  'range',
  'referer',
  'retry-after',
  'server',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'user-agent',
  'vary',
  'via',
  'warning',
  'www-authenticate',
  'method',
  'get',
  'status',
  '200 OK',
  'version',
  'HTTP/1.1',
  'url',
  'public',
  'set-cookie',
  'keep-alive',
  'origin',
];
const DICTIONARY_TEXT =
  '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505' +
  '203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request' +
  '401 Unauthorized403 Forbidden404 Not Found500 Internal Server Error501 Not Implemented' +
  '503 Service UnavailableJan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 ' +
  'Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMTchunked,text/html,image/png,image/jpg,image/gif,' +
  'application/xml,application/xhtml+xml,text/plain,text/javascript,publicprivatemax-age=' +
  'gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.';

export const SPDY3_DICTIONARY: Buffer = Buffer.concat([
  ...DICTIONARY_WORDS.flatMap((w) => [u32(w.length), Buffer.from(w, 'latin1')]),
  Buffer.from(DICTIONARY_TEXT, 'latin1'),
]);

function adler32(b: Buffer): number {
  let a = 1;
  let s = 0;
  for (const c of b) {
    a = (a + c) % 65521;
    s = (s + a) % 65521;
  }
  return ((s << 16) | a) >>> 0;
}

/** The name/value block's plain bytes: count, then each name and value with its length. */
export function encodeHeaderPairs(headers: readonly (readonly [string, string])[]): Buffer {
  const parts: Buffer[] = [u32(headers.length)];
  for (const [name, value] of headers) {
    const n = Buffer.from(name.toLowerCase(), 'utf8');
    const v = Buffer.from(value, 'utf8');
    parts.push(u32(n.length), n, u32(v.length), v);
  }
  return Buffer.concat(parts);
}

/** Reads a plain name/value block; a value with NULs is several values of one name. */
export function decodeHeaderPairs(plain: Buffer): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let p = 0;
  const take = (): Buffer => {
    if (p + 4 > plain.length) throw new Error('header block ends inside a length');
    const n = plain.readUInt32BE(p);
    p += 4;
    if (p + n > plain.length) throw new Error('header block ends inside a name or value');
    const b = plain.subarray(p, p + n);
    p += n;
    return b;
  };
  if (plain.length < 4) throw new Error('header block shorter than its count');
  const count = plain.readUInt32BE(0);
  p = 4;
  for (let i = 0; i < count; i++) {
    const name = take().toString('utf8').toLowerCase();
    const values = take().toString('utf8').split('\u0000');
    out.set(name, [...(out.get(name) ?? []), ...values]);
  }
  if (p !== plain.length) throw new Error('header block has bytes after its last value');
  return out;
}

/**
 * Writes this side's header blocks as one zlib stream that the peer inflates with the SPDY
 * dictionary: the zlib header (dictionary id) once, then each block as stored deflate blocks,
 * which need no compression state here, each block ended by an empty stored block (the marker
 * a zlib sync flush writes). Without that marker Go's inflater, having copied a stored block,
 * reads on for the next block header, finds the frame's end and fails the stream for good.
 */
export class HeaderBlockWriter {
  private started = false;

  write(headers: readonly (readonly [string, string])[]): Buffer {
    const plain = encodeHeaderPairs(headers);
    const parts: Buffer[] = [];
    if (!this.started) {
      // CMF 0x78 (deflate, 32K window), FLG 0x20 (FDICT, FCHECK 0: 0x7820 % 31 === 0)
      parts.push(Buffer.from([0x78, 0x20]), u32(adler32(SPDY3_DICTIONARY)));
      this.started = true;
    }
    for (let at = 0; at < plain.length; at += 0xffff)
      parts.push(storedBlock(plain.subarray(at, at + 0xffff)));
    parts.push(storedBlock(Buffer.alloc(0)));
    return Buffer.concat(parts);
  }
}

/** A non-final stored deflate block (BFINAL 0, BTYPE 00, padded to the byte, LEN, NLEN). */
function storedBlock(data: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt16LE(data.length, 1);
  head.writeUInt16LE(~data.length & 0xffff, 3);
  return Buffer.concat([head, data]);
}

/**
 * Reads the peer's header blocks: one inflate stream (with the SPDY dictionary) for the whole
 * session, each block flushed out in order. Blocks must be read one at a time, in the order
 * their frames came.
 */
export class HeaderBlockReader {
  private readonly inflate: Inflate = createInflate({ dictionary: SPDY3_DICTIONARY });
  private failed: Error | null = null;

  constructor() {
    this.inflate.on('error', (e: Error) => (this.failed = e));
  }

  read(block: Buffer): Promise<Map<string, string[]>> {
    // a failed inflate stream stays failed: every later block of the session is unreadable
    if (this.failed) return Promise.reject(new Error(`SPDY header block: ${this.failed.message}`));
    return new Promise((resolve, reject) => {
      const onError = (e: Error) => reject(new Error(`SPDY header block: ${e.message}`));
      this.inflate.once('error', onError);
      this.inflate.write(block);
      // the write's output is buffered by the time the flush is done: read it from there
      this.inflate.flush(constants.Z_SYNC_FLUSH, () => {
        this.inflate.off('error', onError);
        if (this.failed) return reject(new Error(`SPDY header block: ${this.failed.message}`));
        const chunks: Buffer[] = [];
        for (let c: unknown = this.inflate.read(); c !== null; c = this.inflate.read())
          chunks.push(c as Buffer);
        try {
          resolve(decodeHeaderPairs(Buffer.concat(chunks)));
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
    });
  }

  close(): void {
    this.inflate.destroy();
  }
}
