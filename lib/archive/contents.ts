/**
 * What an archive holds once read: its entries (name, size, time), what was skipped or refused
 * and why, and a way to read an entry's bytes. The same for a packed `.tar.gz` (entries kept in
 * memory, bounded) and an unpacked folder (read where they lie, on demand).
 */

/** Why an entry was left out, as a stable code. */
export type ArchiveProblemReason =
  | 'unsafe-path'
  | 'link'
  | 'not-a-file'
  | 'too-large'
  | 'duplicate'
  | 'store-full'
  | 'truncated'
  | 'unreadable';

export interface ArchiveProblem {
  /** The entry's name as the archive gives it (escaped by whoever prints it), or null for the whole archive. */
  entry: string | null;
  reason: ArchiveProblemReason;
  message: string;
}

export interface ArchiveEntry {
  /** Relative, `/`-separated, normalised (lib/archive/names). */
  name: string;
  size: number;
  /** The entry's modification time (istioctl writes each file as it gathers it), if given. */
  mtime: Date | null;
}

export interface ArchiveContents {
  format: 'tar.gz' | 'folder';
  entries: ArchiveEntry[];
  problems: ArchiveProblem[];
  /** An entry's bytes; rejects for a name that is not among `entries`. */
  read(name: string): Promise<Buffer>;
}

/** Why an archive as a whole is refused (not gzip, a gzip bomb, too many entries...). */
export class ArchiveError extends Error {
  constructor(
    readonly reason:
      'not-gzip' | 'gzip-bomb' | 'too-many-entries' | 'not-an-archive' | 'unreadable',
    message: string,
    readonly entry: string | null = null,
  ) {
    super(message);
    this.name = 'ArchiveError';
  }
}

/** An entry name quoted for a message: JSON quoting escapes control bytes and quotes. */
export function quotedEntry(name: string): string {
  return JSON.stringify(name.length > 200 ? `${name.slice(0, 199)}…` : name);
}
