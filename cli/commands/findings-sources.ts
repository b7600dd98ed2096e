/**
 * The files `meshdx findings PATH...` reads: a file as named, the manifests under a folder
 * (recursive, sorted, links followed once), an archive refused here (it is read whole, by
 * findings-archive.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { archiveInputKind, archiveRefusal } from './archive-input';

const EXTENSIONS = ['.yaml', '.yml', '.json'];

/** A path that names nothing findings can read: its message names the path. */
export class FindingsInputError extends Error {}

export interface FindingsSource {
  /** What the user named, or the file found under a folder. */
  file: string;
  size: number;
}

/** Files to read for one PATH: the file itself, or manifests under a folder (recursive, sorted). */
export function expand(p: string, cwd: string): FindingsSource[] {
  const abs = path.resolve(cwd, p);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new FindingsInputError(
      `${p}: ${code === 'ENOENT' ? 'no such file or folder' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`,
    );
  }
  const archive = archiveInputKind(abs);
  if (archive)
    throw new FindingsInputError(
      archiveRefusal('findings', p, archive, 'manifests')
        .replace(/^meshdx findings: /, '')
        .trimEnd(),
    );
  if (st.isFile()) return [{ file: p, size: st.size }];
  if (!st.isDirectory()) throw new FindingsInputError(`${p}: not a file or folder`);
  const out: FindingsSource[] = [];
  const seen = new Set<string>();
  const walk = (dir: string, shown: string) => {
    const real = fs.realpathSync(dir);
    if (seen.has(real)) return;
    seen.add(real);
    const entries = fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name));
    for (const d of entries) {
      if (d.name.startsWith('.')) continue;
      const full = path.join(dir, d.name);
      const rel = path.join(shown, d.name);
      let isDir = d.isDirectory();
      let isFile = d.isFile();
      let size = 0;
      if (d.isSymbolicLink()) {
        try {
          const t = fs.statSync(full);
          isDir = t.isDirectory();
          isFile = t.isFile();
        } catch {
          continue; // a dangling link names nothing to read
        }
      }
      if (isDir) walk(full, rel);
      else if (isFile && EXTENSIONS.some((x) => d.name.toLowerCase().endsWith(x))) {
        size = fs.statSync(full).size;
        out.push({ file: rel, size });
      }
    }
  };
  walk(abs, p);
  return out;
}

export function readFile(file: string, cwd: string): string {
  try {
    return fs.readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (e) {
    throw new FindingsInputError(`${file}: ${(e as Error).message}`);
  }
}
