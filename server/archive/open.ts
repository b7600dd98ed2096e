/**
 * Opens archives as clusters: each `istioctl bug-report` archive read (lib/archive, bounded)
 * and served by its own loopback API server, with one kubeconfig whose contexts are the
 * archives (`archive-<file name>`), for the dashboard to read beside the live contexts.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '../../lib/archive/limits';
import { readArchive, type ArchiveFileSystem } from '../../lib/archive/read';
import { startArchiveApiServer, type ArchiveApiServer } from './api';

const nodeFs: ArchiveFileSystem = {
  lstat: (p) => fs.promises.lstat(p),
  readdir: (p) => fs.promises.readdir(p),
  readFile: (p) => fs.promises.readFile(p),
  createReadStream: (p) => fs.createReadStream(p),
};

/**
 * The context name of an archive: `archive-`, its file name without `.tar.gz`/`.tgz`, and a
 * short hash of where it is, its size and time. The context's history store is named after it:
 * another `bug-report.tar.gz` must not read the pods this one recorded, and the same file
 * reopened finds its own again.
 */
export function archiveContextName(file: string, taken: Set<string>): string {
  const abs = path.resolve(file);
  const base = path
    .basename(abs)
    .replace(/\.(tar\.gz|tgz)$/i, '')
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .slice(0, 60);
  const st = fs.statSync(abs);
  const id = createHash('sha256')
    .update(`${abs}\0${st.size}\0${st.mtimeMs}`)
    .digest('hex')
    .slice(0, 6);
  let name = `archive-${base || 'bug-report'}-${id}`;
  for (let i = 2; taken.has(name); i++) name = `archive-${base}-${i}`;
  taken.add(name);
  return name;
}

export interface OpenedArchive {
  context: string;
  file: string;
  server: ArchiveApiServer;
}

export async function openArchives(
  files: string[],
  opts: { limits?: ArchiveLimits; host?: string } = {},
): Promise<OpenedArchive[]> {
  const taken = new Set<string>();
  const opened: OpenedArchive[] = [];
  try {
    for (const file of files) {
      const index = await readArchive(file, opts.limits ?? DEFAULT_ARCHIVE_LIMITS, nodeFs);
      const server = await startArchiveApiServer(index, { host: opts.host });
      opened.push({ context: archiveContextName(file, taken), file, server });
    }
  } catch (e) {
    await Promise.all(opened.map((o) => o.server.close()));
    throw e;
  }
  return opened;
}

/** One kubeconfig of every opened archive (the first one current), as kubectl merges them. */
export function archiveKubeconfig(opened: OpenedArchive[]): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: opened.map((o) => ({
      name: o.context,
      cluster: { server: o.server.url, 'insecure-skip-tls-verify': true },
    })),
    users: opened.map((o) => ({ name: o.context, user: { token: 'archive-read-only' } })),
    contexts: opened.map((o) => ({
      name: o.context,
      context: { cluster: o.context, user: o.context },
    })),
    'current-context': opened[0]?.context ?? '',
    preferences: {},
  });
}
