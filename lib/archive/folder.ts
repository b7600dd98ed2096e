import path from 'node:path';
import {
  ArchiveError,
  quotedEntry,
  type ArchiveContents,
  type ArchiveEntry,
  type ArchiveProblem,
} from './contents';
import { byteText, type ArchiveLimits } from './limits';

/** What the folder reader needs of a file system (node's `fs.promises` has it). */
export interface ArchiveFs {
  lstat(p: string): Promise<{
    isFile(): boolean;
    isDirectory(): boolean;
    isSymbolicLink(): boolean;
    size: number;
    nlink: number;
    mtime: Date;
  }>;
  readdir(p: string): Promise<string[]>;
  readFile(p: string): Promise<Buffer>;
}

/**
 * Lists an unpacked bug-report folder (what `tar xzf bug-report.tar.gz` gives) within `limits`,
 * reading no file until asked. Symbolic links and files with more than one hard link are
 * skipped and named (either could show a file from outside the folder), as are devices, sockets
 * and files over `maxEntryBytes`.
 */
export async function readArchiveFolder(
  root: string,
  fsys: ArchiveFs,
  limits: ArchiveLimits,
): Promise<ArchiveContents> {
  const entries: ArchiveEntry[] = [];
  const problems: ArchiveProblem[] = [];
  const sizes = new Map<string, number>();
  let seen = 0;
  const walk = async (rel: string): Promise<void> => {
    const names = (await fsys.readdir(rel ? path.join(root, ...rel.split('/')) : root)).sort();
    for (const n of names) {
      seen++;
      const name = rel ? `${rel}/${n}` : n;
      if (seen > limits.maxEntries)
        throw new ArchiveError(
          'too-many-entries',
          `the folder has more than ${limits.maxEntries} entries: refused`,
          name,
        );
      const st = await fsys.lstat(path.join(root, ...name.split('/')));
      const q = quotedEntry(name);
      if (st.isSymbolicLink()) {
        problems.push({
          entry: name,
          reason: 'link',
          message: `entry ${q} skipped: a symbolic link (links are never followed; istioctl writes regular files only)`,
        });
      } else if (st.isDirectory()) {
        await walk(name);
      } else if (!st.isFile()) {
        problems.push({
          entry: name,
          reason: 'not-a-file',
          message: `entry ${q} skipped: not a regular file`,
        });
      } else if (st.nlink > 1) {
        problems.push({
          entry: name,
          reason: 'link',
          message: `entry ${q} skipped: a file with ${st.nlink} hard links (it may be a file from outside the folder)`,
        });
      } else if (st.size > limits.maxEntryBytes) {
        problems.push({
          entry: name,
          reason: 'too-large',
          message: `entry ${q} skipped: ${byteText(st.size)}, over the limit of ${byteText(limits.maxEntryBytes)} per entry`,
        });
      } else {
        entries.push({ name, size: st.size, mtime: st.mtime });
        sizes.set(name, st.size);
      }
    }
  };
  try {
    await walk('');
  } catch (e) {
    if (e instanceof ArchiveError) throw e;
    throw new ArchiveError(
      'unreadable',
      `the folder could not be read: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  return {
    format: 'folder',
    entries,
    problems,
    read: async (name) => {
      if (!sizes.has(name)) throw new Error(`no entry ${quotedEntry(name)} in the folder`);
      const bytes = await fsys.readFile(path.join(root, ...name.split('/')));
      if (bytes.length > limits.maxEntryBytes)
        throw new Error(
          `entry ${quotedEntry(name)} grew to ${byteText(bytes.length)} since it was listed, over the limit of ${byteText(limits.maxEntryBytes)}`,
        );
      return bytes;
    },
  };
}
