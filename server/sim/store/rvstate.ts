import fs from 'node:fs';
import path from 'node:path';

/**
 * The simulator's state file: the highest resourceVersion it may have handed out, so that a
 * restart continues above it (clients compare resourceVersions they saw before the restart with
 * the new ones; going backwards would make a watch resume from the future or an informer keep a
 * stale object). Like etcd's revision, it is reserved in blocks: the file is written when the
 * counter passes the reserved ceiling (and exactly on close), so even a killed simulator restarts
 * above every resourceVersion it ever served.
 */
export interface RvState {
  /** The resourceVersion to continue from (0 for a fresh file). */
  readonly start: number;
  /** Called with each new resourceVersion; reserves the next block when needed. */
  advance(rv: number): void;
  /** Record the exact last resourceVersion (clean shutdown). */
  close(rv: number): void;
}

export const RV_BLOCK = 1000;

interface StateFile {
  resourceVersion: number;
}

/** The saved resourceVersion of a state file; 0 when it does not exist; throws when unreadable. */
export function readStateFile(file: string): number {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
  const parsed: unknown = JSON.parse(text);
  const rv = (parsed as Partial<StateFile> | null)?.resourceVersion;
  if (typeof rv !== 'number' || !Number.isSafeInteger(rv) || rv < 0) {
    throw new Error(`${file}: resourceVersion must be a non-negative integer`);
  }
  return rv;
}

function writeStateFile(file: string, rv: number): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const body: StateFile = { resourceVersion: rv };
  fs.writeFileSync(tmp, `${JSON.stringify(body)}\n`);
  fs.renameSync(tmp, file);
}

export function fileRvState(file: string, block = RV_BLOCK): RvState {
  const start = readStateFile(file);
  let ceiling = start;
  const reserve = (rv: number) => {
    ceiling = rv + block;
    writeStateFile(file, ceiling);
  };
  reserve(start);
  return {
    start,
    advance(rv) {
      if (rv > ceiling) reserve(rv);
    },
    close(rv) {
      writeStateFile(file, Math.max(rv, start));
    },
  };
}
