import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { extract } from 'tar-stream';

/** Every entry of a `.tar.gz` by name, with its type and bytes (tests read small archives). */
export async function tarGzEntries(
  file: string,
): Promise<Map<string, { type: string; bytes: Buffer }>> {
  const entries = new Map<string, { type: string; bytes: Buffer }>();
  const ex = extract();
  ex.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => chunks.push(c as Buffer));
    stream.on('end', () => {
      if (entries.has(header.name)) throw new Error(`duplicate entry ${header.name}`);
      entries.set(header.name, { type: header.type ?? 'file', bytes: Buffer.concat(chunks) });
      next();
    });
    stream.resume();
  });
  await pipeline(fs.createReadStream(file), zlib.createGunzip(), ex);
  return entries;
}
