/**
 * A `.tar.gz` written as it is filled: entries go through tar-stream's pack into gzip and onto
 * disk one at a time, a large one spooled to a temporary file first (a tar header needs the
 * size) and streamed from there, so no more than one proxy answer is held at once. The archive
 * is written beside its name and renamed into place when complete: a failed capture leaves no
 * half archive under the name asked for.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { pack as tarPack, type Pack } from 'tar-stream';

export class ArchiveOut {
  private readonly pack: Pack = tarPack();
  private readonly partial: string;
  private readonly done: Promise<void>;
  private queue: Promise<void> = Promise.resolve();
  private readonly spoolDir: string;
  private spools = 0;
  entries = 0;

  /** `now`: each entry's time, when it is written (the API server's clock, as istioctl's files carry theirs). */
  constructor(
    readonly file: string,
    private readonly now: () => Date,
  ) {
    this.partial = `${file}.partial-${process.pid}`;
    this.spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-gather-'));
    this.done = pipeline(
      this.pack,
      zlib.createGzip(),
      fs.createWriteStream(this.partial, { mode: 0o600 }),
    );
    // a failure is reported by finish(); until then it must not be an unhandled rejection
    this.done.catch(() => undefined);
  }

  /** Adds one entry (entries are written in the order they are added). */
  add(name: string, body: string | Buffer): Promise<void> {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    return this.enqueue(
      () =>
        new Promise<void>((resolve, reject) => {
          this.pack.entry(
            { name, size: bytes.length, mtime: this.now(), mode: 0o644 },
            bytes,
            (e) => (e ? reject(e) : resolve()),
          );
        }),
    );
  }

  /**
   * Adds one entry whose text `write` produces a piece at a time (a cluster's YAML): spooled to
   * a temporary file, then streamed into the archive.
   */
  async addSpooled<T>(
    name: string,
    write: (put: (text: string) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    const spool = path.join(this.spoolDir, `entry-${this.spools++}`);
    const out = fs.createWriteStream(spool, { mode: 0o600 });
    // events.once waits for the drain and rejects on an error, leaving no listener behind
    const put = async (text: string): Promise<void> => {
      if (!out.write(text, 'utf8')) await once(out, 'drain');
    };
    try {
      const result = await write(put);
      await new Promise<void>((resolve, reject) => {
        out.end((e?: Error | null) => (e ? reject(e) : resolve()));
      });
      const size = fs.statSync(spool).size;
      await this.enqueue(async () => {
        const entry = this.pack.entry({ name, size, mtime: this.now(), mode: 0o644 });
        await pipeline(fs.createReadStream(spool), entry);
      });
      return result;
    } finally {
      out.destroy();
      fs.rmSync(spool, { force: true });
    }
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.queue.then(step).then(() => {
      this.entries++;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Ends the archive and moves it to its name; returns its size in bytes. */
  async finish(): Promise<number> {
    await this.queue;
    this.pack.finalize();
    try {
      await this.done;
      fs.renameSync(this.partial, this.file);
    } finally {
      this.cleanup();
    }
    return fs.statSync(this.file).size;
  }

  /** Gives the archive up: nothing is left under its name or beside it. */
  abort(): void {
    this.pack.destroy();
    this.cleanup();
  }

  private cleanup(): void {
    fs.rmSync(this.partial, { force: true });
    fs.rmSync(this.spoolDir, { recursive: true, force: true });
  }
}
