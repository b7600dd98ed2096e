import { gzipSync } from 'node:zlib';
import { pack, type Header } from 'tar-stream';

/** One entry of a test archive: a file by default; links and other types as tar holds them. */
export interface TestEntry {
  name: string;
  body?: string | Buffer;
  type?: Header['type'];
  linkname?: string;
  mtime?: Date;
}

/** The tar (not gzip'd) of these entries, written by tar-stream as any tar writer would. */
export async function packTar(entries: TestEntry[]): Promise<Buffer> {
  const p = pack();
  const chunks: Buffer[] = [];
  p.on('data', (c: unknown) => {
    if (Buffer.isBuffer(c)) chunks.push(c);
  });
  const ended = new Promise<void>((resolve, reject) => {
    p.on('end', () => resolve());
    p.on('error', reject);
  });
  for (const e of entries) {
    const header: Partial<Header> & { name: string } = {
      name: e.name,
      type: e.type ?? 'file',
      mtime: e.mtime ?? new Date('2026-03-04T05:06:07Z'),
      ...(e.linkname !== undefined ? { linkname: e.linkname } : {}),
    };
    await new Promise<void>((resolve, reject) => {
      if (header.type === 'file')
        p.entry(header, e.body ?? '', (err) => (err ? reject(err) : resolve()));
      else p.entry(header, (err) => (err ? reject(err) : resolve())).end(undefined);
    });
  }
  p.finalize();
  await ended;
  return Buffer.concat(chunks);
}

export async function packTarGz(entries: TestEntry[]): Promise<Buffer> {
  return gzipSync(await packTar(entries));
}

/**
 * A tar whose header of `name` claims `size` bytes (base-256, as GNU tar writes sizes past 8 GiB)
 * while the bytes that follow are those of the real, small body: a "10 GB entry" without 10 GB.
 */
export function claimSize(tar: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(tar);
  for (let at = 0; at + 512 <= out.length; at += 512) {
    const n = out
      .subarray(at, at + 100)
      .toString('latin1')
      .replace(/\0.*$/s, '');
    if (n !== name) continue;
    const field = out.subarray(at + 124, at + 136);
    field.fill(0);
    field[0] = 0x80;
    let v = BigInt(size);
    for (let i = 11; i >= 1; i--) {
      field[i] = Number(v & 0xffn);
      v >>= 8n;
    }
    out.fill(0x20, at + 148, at + 156);
    let sum = 0;
    for (let i = at; i < at + 512; i++) sum += out[i] ?? 0;
    out.write(`${sum.toString(8).padStart(6, '0')}\0 `, at + 148, 'latin1');
    return out;
  }
  throw new Error(`no header named ${name}`);
}

/** An async source of the bytes, in chunks as a file stream gives them. */
export async function* chunksOf(b: Buffer, size = 64 * 1024): AsyncIterable<Uint8Array> {
  for (let at = 0; at < b.length; at += size) yield b.subarray(at, at + size);
}
