import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import {
  ArchiveError,
  quotedEntry,
  type ArchiveContents,
  type ArchiveEntry,
  type ArchiveProblem,
} from './contents';
import { byteText, type ArchiveLimits } from './limits';
import { entryNameProblem, normalEntryName } from './names';

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * Reads a gzip'd tar (`istioctl bug-report`'s `bug-report.tar.gz`, older `.tgz`) from its bytes,
 * keeping regular files in memory within `limits`. Never writes anything anywhere.
 *
 * - Refused as a whole (ArchiveError): a stream that is not gzip, one that expands past
 *   `maxExpandedBytes` or past `maxRatio` (a gzip bomb), more than `maxEntries` entries.
 * - Skipped and named (problems): `..` or absolute names, symbolic and hard links, devices and
 *   other non-files, an entry larger than `maxEntryBytes` (its bytes are drained, never kept), a
 *   second entry of the same name (the first is kept), entries past `maxStoredBytes`.
 * - A tar or gzip stream cut short keeps the entries read whole before the cut and names the
 *   entry it cut (`truncated`).
 */
export function readTarGz(
  source: AsyncIterable<Uint8Array>,
  limits: ArchiveLimits,
): Promise<ArchiveContents> {
  const entries: ArchiveEntry[] = [];
  const problems: ArchiveProblem[] = [];
  const stored = new Map<string, Buffer>();
  let storedBytes = 0;
  let seen = 0;
  let current: string | null = null;
  let compressed = 0;
  let expanded = 0;

  return new Promise<ArchiveContents>((resolve, reject) => {
    let settled = false;
    const tar = extract();
    const gunzip = createGunzip();
    const done = (): void => {
      if (settled) return;
      settled = true;
      resolve({
        format: 'tar.gz',
        entries,
        problems,
        read: (name) => {
          const b = stored.get(name);
          return b
            ? Promise.resolve(b)
            : Promise.reject(new Error(`no entry ${quotedEntry(name)} in the archive`));
        },
      });
    };
    const fail = (e: ArchiveError): void => {
      if (settled) return;
      settled = true;
      gunzip.destroy();
      tar.destroy();
      reject(e);
    };
    const truncated = (why: string): void => {
      if (settled) return;
      problems.push({
        entry: current,
        reason: 'truncated',
        message: current
          ? `the archive ends inside entry ${quotedEntry(current)} (${why}): that entry and any after it are missing`
          : `the archive ends early (${why}): entries after the last one read are missing`,
      });
      gunzip.destroy();
      tar.destroy();
      done();
    };

    const skip = (
      stream: { on(e: 'end', f: () => void): unknown; resume(): unknown },
      next: () => void,
      problem: ArchiveProblem,
    ): void => {
      problems.push(problem);
      stream.on('end', () => next());
      stream.resume();
    };

    tar.on('entry', (header, stream, next) => {
      // a cut archive errors the entry's stream and the extractor both: the extractor's error
      // is the one handled (truncated), this one is the same event
      stream.on('error', () => undefined);
      seen++;
      if (seen > limits.maxEntries) {
        fail(
          new ArchiveError(
            'too-many-entries',
            `the archive has more than ${limits.maxEntries} entries: refused (a bug-report of a large mesh has some tens of thousands)`,
            header.name,
          ),
        );
        return;
      }
      current = header.name;
      const raw = header.name;
      const q = quotedEntry(raw);
      const pathProblem = entryNameProblem(raw);
      if (pathProblem) {
        skip(stream, next, {
          entry: raw,
          reason: 'unsafe-path',
          message: `entry ${q} skipped: ${pathProblem}`,
        });
        return;
      }
      if (header.type === 'symlink' || header.type === 'link') {
        const kind = header.type === 'symlink' ? 'a symbolic link' : 'a hard link';
        skip(stream, next, {
          entry: raw,
          reason: 'link',
          message: `entry ${q} skipped: ${kind} to ${quotedEntry(header.linkname)} (links are never followed; istioctl writes regular files only)`,
        });
        return;
      }
      if (header.type === 'directory') {
        stream.on('end', () => next());
        stream.resume();
        return;
      }
      if (header.type !== 'file' && header.type !== 'contiguous-file') {
        skip(stream, next, {
          entry: raw,
          reason: 'not-a-file',
          message: `entry ${q} skipped: a ${header.type}, not a regular file`,
        });
        return;
      }
      const name = normalEntryName(raw);
      if (stored.has(name)) {
        skip(stream, next, {
          entry: raw,
          reason: 'duplicate',
          message: `entry ${q} skipped: a second entry of that name (the first one is kept)`,
        });
        return;
      }
      if (header.size > limits.maxEntryBytes) {
        skip(stream, next, {
          entry: raw,
          reason: 'too-large',
          message: `entry ${q} skipped: ${byteText(header.size)}, over the limit of ${byteText(limits.maxEntryBytes)} per entry`,
        });
        return;
      }
      if (storedBytes + header.size > limits.maxStoredBytes) {
        skip(stream, next, {
          entry: raw,
          reason: 'store-full',
          message: `entry ${q} skipped: the entries before it already hold ${byteText(storedBytes)} of the ${byteText(limits.maxStoredBytes)} meshdx keeps of one archive`,
        });
        return;
      }
      // the chunks that arrive, never the size a header claims: a cut archive allocates what it holds
      const chunks: Buffer[] = [];
      let at = 0;
      stream.on('data', (chunk: unknown) => {
        if (!Buffer.isBuffer(chunk)) return;
        chunks.push(chunk);
        at += chunk.length;
      });
      stream.on('end', () => {
        stored.set(name, Buffer.concat(chunks, at));
        storedBytes += at;
        entries.push({ name, size: at, mtime: validDate(header.mtime) });
        current = null;
        next();
      });
    });
    tar.on('finish', done);
    tar.on('error', (e: Error) => truncated(e.message));

    const bound = new Transform({
      transform(chunk: Buffer, _enc, cb: TransformCallback) {
        expanded += chunk.length;
        if (expanded > limits.maxExpandedBytes) {
          fail(
            new ArchiveError(
              'gzip-bomb',
              `the archive expands past ${byteText(limits.maxExpandedBytes)} (from ${byteText(compressed)} read): refused as a gzip bomb`,
              current,
            ),
          );
          cb();
          return;
        }
        if (
          expanded > limits.ratioAfterBytes &&
          expanded / Math.max(1, compressed) > limits.maxRatio
        ) {
          fail(
            new ArchiveError(
              'gzip-bomb',
              `the archive expands ${Math.round(expanded / Math.max(1, compressed))} times (${byteText(expanded)} from ${byteText(compressed)}), over the limit of ${limits.maxRatio}: refused as a gzip bomb`,
              current,
            ),
          );
          cb();
          return;
        }
        cb(null, chunk);
      },
    });
    gunzip.on('error', (e: Error & { code?: string }) => {
      if (e.code === 'Z_BUF_ERROR' || /unexpected end/i.test(e.message)) truncated(e.message);
      else truncated(`gzip: ${e.message}`);
    });
    gunzip.pipe(bound);
    bound.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (!tar.write(chunk)) {
        bound.pause();
        tar.once('drain', () => bound.resume());
      }
    });
    bound.on('end', () => {
      // streamx's end takes an optional last chunk; its types make it required
      if (!settled) tar.end(undefined);
    });

    void (async () => {
      let first = true;
      try {
        for await (const chunk of source) {
          if (settled) return;
          const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          if (first && buf.length > 0) {
            first = false;
            if (buf[0] !== GZIP_MAGIC[0] || (buf.length > 1 && buf[1] !== GZIP_MAGIC[1])) {
              fail(
                new ArchiveError(
                  'not-gzip',
                  `not a gzip file (it starts with ${JSON.stringify(buf.subarray(0, 8).toString('latin1'))}): an istioctl bug-report is a .tar.gz; give that file or the folder it unpacks to`,
                ),
              );
              return;
            }
          }
          compressed += buf.length;
          if (!gunzip.write(buf))
            await new Promise<void>((r) => {
              gunzip.once('drain', () => r());
            });
        }
        if (first) {
          fail(new ArchiveError('not-gzip', 'the file is empty: not a gzip archive'));
          return;
        }
        gunzip.end();
      } catch (e) {
        fail(
          new ArchiveError(
            'unreadable',
            `the archive could not be read: ${e instanceof Error ? e.message : String(e)}`,
          ),
        );
      }
    })();
  });
}

function validDate(d: Date | undefined): Date | null {
  return d instanceof Date && !Number.isNaN(d.getTime()) && d.getTime() > 0 ? d : null;
}
