/**
 * An input that is an archive: a gzip or tar file (`istioctl bug-report` writes
 * `bug-report.tar.gz`), or the folder such an archive unpacks to (istioctl's layout:
 * `cluster/`, `proxies/`, `istio/`, `analyze/`, under `bug-report/` or at the top). Told from
 * the first bytes (gzip's magic 1f 8b, tar's `ustar` at 257) or the folder's names, never from
 * the file's name, so that a command names it as an archive instead of reading its bytes as
 * text.
 */
import fs from 'node:fs';
import path from 'node:path';

export type ArchiveInputKind = 'gzip' | 'tar' | 'folder';

/** The folders of istioctl's layout at least two of which make a folder an unpacked archive. */
const LAYOUT_DIRS = ['cluster', 'proxies', 'istio', 'analyze'];

function isLayout(dir: string): boolean {
  try {
    const names = new Set(fs.readdirSync(dir));
    return LAYOUT_DIRS.filter((d) => names.has(d)).length >= 2;
  } catch {
    return false;
  }
}

/** Whether a path is an archive, and which kind; null for anything else (or a pipe). */
export function archiveInputKind(file: string): ArchiveInputKind | null {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return null;
  }
  if (st.isDirectory())
    return isLayout(file) || isLayout(path.join(file, 'bug-report')) ? 'folder' : null;
  if (!st.isFile()) return null;
  const head = Buffer.alloc(512);
  let n = 0;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      n = fs.readSync(fd, head, 0, head.length, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  if (n >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (n >= 262 && head.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
  return null;
}

const KIND_TEXT: Record<ArchiveInputKind, string> = {
  gzip: 'a gzip archive (an `istioctl bug-report` .tar.gz?)',
  tar: 'a tar archive',
  folder: 'an unpacked `istioctl bug-report` archive (its cluster/, proxies/, istio/ folders)',
};

/** What a command says of an archive it does not read itself: what it is, what opens it. */
export function archiveRefusal(
  command: string,
  file: string,
  kind: ArchiveInputKind,
  instead: string,
): string {
  return `meshdx ${command}: ${file} is ${KIND_TEXT[kind]}, not ${instead}: \`meshdx open ${file}\` serves an archive as a cluster in every view; meshdx ${command} reads one file of it (${kind === 'folder' ? 'name a file in the folder' : 'unpack it and name the file'})\n`;
}

/** The sentence naming an archive's kind (for a command that reads it). */
export function archiveKindText(kind: ArchiveInputKind): string {
  return KIND_TEXT[kind];
}
