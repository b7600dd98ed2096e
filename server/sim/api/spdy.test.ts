import { constants, createDeflate, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  dataFrames,
  decodeHeaderPairs,
  encodeHeaderPairs,
  FLAG_FIN,
  HeaderBlockReader,
  HeaderBlockWriter,
  pingFrame,
  readSynStream,
  SPDY3_DICTIONARY,
  SpdyFrameReader,
  synReplyFrame,
  TYPE,
} from './spdy';

/** Header blocks as a zlib peer writes them: one deflate stream, sync-flushed per block. */
function peerBlocks(): (headers: [string, string][]) => Promise<Buffer> {
  const d = createDeflate({ dictionary: SPDY3_DICTIONARY });
  return (headers) =>
    new Promise((resolve) => {
      d.write(encodeHeaderPairs(headers));
      d.flush(constants.Z_SYNC_FLUSH, () => {
        const out: Buffer[] = [];
        for (let c: unknown = d.read(); c !== null; c = d.read()) out.push(c as Buffer);
        resolve(Buffer.concat(out));
      });
    });
}

function synStream(streamId: number, block: Buffer): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt32BE(streamId, 0);
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8003, 0);
  head.writeUInt16BE(TYPE.SYN_STREAM, 2);
  head.writeUIntBE(fixed.length + block.length, 5, 3);
  return Buffer.concat([head, fixed, block]);
}

describe('SPDY/3.1 framing', () => {
  it('cuts frames from bytes that arrive in any pieces', async () => {
    const block = await peerBlocks()([['streamType', 'data']]);
    const bytes = Buffer.concat([
      synStream(3, block),
      ...dataFrames(3, Buffer.from('GET /'), true),
    ]);
    const reader = new SpdyFrameReader();
    const frames = [...bytes].flatMap((b) => reader.push(Buffer.from([b])));
    expect(frames.map((f) => f.kind)).toEqual(['control', 'data']);
    const [syn, data] = frames;
    if (syn?.kind !== 'control' || data?.kind !== 'data') throw new Error('unexpected frames');
    expect(syn.type).toBe(TYPE.SYN_STREAM);
    expect(readSynStream(syn.payload).streamId).toBe(3);
    expect(data).toMatchObject({ streamId: 3, flags: FLAG_FIN });
    expect(data.payload.toString()).toBe('GET /');
  });

  it('refuses another SPDY version and a frame longer than allowed', () => {
    const v2 = Buffer.from(pingFrame(1));
    v2.writeUInt16BE(0x8002, 0);
    expect(() => new SpdyFrameReader().push(v2)).toThrow(/version 2/);
    expect(() => new SpdyFrameReader(16).push(synReplyFrame(1, Buffer.alloc(32)))).toThrow(
      /too large/,
    );
  });

  it('writes a large answer as several DATA frames, FIN on the last only; an empty FIN alone', () => {
    const frames = dataFrames(5, Buffer.alloc(2.5 * 1024 * 1024, 1), true);
    const read = new SpdyFrameReader().push(Buffer.concat(frames));
    expect(read.map((f) => [f.payload.length, f.flags])).toEqual([
      [1 << 20, 0],
      [1 << 20, 0],
      [1 << 19, FLAG_FIN],
    ]);
    expect(dataFrames(5, Buffer.alloc(0), false)).toEqual([]);
    expect(new SpdyFrameReader().push(Buffer.concat(dataFrames(5, Buffer.alloc(0), true)))).toEqual(
      [{ kind: 'data', streamId: 5, flags: FLAG_FIN, payload: Buffer.alloc(0) }],
    );
  });
});

describe('SPDY/3 header blocks', () => {
  it("reads a peer's blocks in order from one inflate stream with the SPDY dictionary", async () => {
    const block = peerBlocks();
    const reader = new HeaderBlockReader();
    for (const id of ['0', '1', '2']) {
      const got = await reader.read(
        await block([
          ['streamType', 'error'],
          ['port', '15000'],
          ['requestID', id],
        ]),
      );
      expect(Object.fromEntries(got)).toEqual({
        streamtype: ['error'],
        port: ['15000'],
        requestid: [id],
      });
    }
    reader.close();
  });

  it('writes blocks any zlib inflater with the dictionary reads, each ending in a sync marker', () => {
    const w = new HeaderBlockWriter();
    const first = w.write([]);
    const second = w.write([['a', 'b\u0000c']]);
    expect(first.subarray(0, 2)).toEqual(Buffer.from([0x78, 0x20]));
    expect(second.subarray(-5)).toEqual(Buffer.from([0, 0, 0, 0xff, 0xff]));
    const plain = inflateSync(Buffer.concat([first, second]), {
      dictionary: SPDY3_DICTIONARY,
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    expect(decodeHeaderPairs(plain.subarray(0, 4))).toEqual(new Map());
    expect(decodeHeaderPairs(plain.subarray(4))).toEqual(new Map([['a', ['b', 'c']]]));
  });

  it('names a block cut short or with bytes left over', () => {
    const whole = encodeHeaderPairs([['port', '15000']]);
    expect(() => decodeHeaderPairs(whole.subarray(0, whole.length - 2))).toThrow(/ends inside/);
    expect(() => decodeHeaderPairs(Buffer.concat([whole, Buffer.from([0])]))).toThrow(
      /after its last value/,
    );
  });

  it('names a header block that is no zlib stream, and every block after it', async () => {
    const reader = new HeaderBlockReader();
    await expect(reader.read(Buffer.from('not zlib at all'))).rejects.toThrow(/SPDY header block/);
    await expect(reader.read(Buffer.alloc(4))).rejects.toThrow(/SPDY header block/);
  });
});
