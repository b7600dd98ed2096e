/**
 * An archive given to a command that reads it (`meshdx clusters`, `meshdx accesslog`): read
 * through lib/archive (bounded, hostile entries skipped and named), its layout's files handed
 * one by one to the reader of their kind. What the archive is, and what it lacks, is said first.
 */
import fs from 'node:fs';
import type { CliIO } from '../io';
import { ArchiveError } from '../../lib/archive/contents';
import { DEFAULT_ARCHIVE_LIMITS } from '../../lib/archive/limits';
import { readArchive, type ArchiveFileSystem, type ArchiveIndex } from '../../lib/archive/read';
import { counted } from '../../lib/text-list';

const nodeArchiveFs: ArchiveFileSystem = {
  lstat: (p) => fs.promises.lstat(p),
  readdir: (p) => fs.promises.readdir(p),
  readFile: (p) => fs.promises.readFile(p),
  createReadStream: (p) => fs.createReadStream(p),
};

/** Reads an archive for a command; null (the reason written) when it cannot be read at all. */
export async function readArchiveInput(
  io: CliIO,
  command: string,
  file: string,
): Promise<ArchiveIndex | null> {
  try {
    return await readArchive(file, DEFAULT_ARCHIVE_LIMITS, nodeArchiveFs);
  } catch (e) {
    const why = e instanceof ArchiveError || e instanceof Error ? e.message : String(e);
    io.stderr(`meshdx ${command}: ${file}: cannot read the archive: ${why}\n`);
    return null;
  }
}

/** The lines that say what an archive is and what it lacks (for stderr). */
export function archiveLines(command: string, file: string, ix: ArchiveIndex): string {
  const when = ix.capture.time ? ix.capture.time.toISOString() : 'at an unknown time';
  const lines = [
    `meshdx ${command}: ${file}: an istioctl bug-report archive (${ix.format}, ${counted(ix.entries.length, 'entry', 'entries')}, ${counted(ix.proxies.length, 'proxy', 'proxies')}), captured ${when} (${ix.capture.how})`,
  ];
  for (const p of ix.problems.slice(0, 10))
    lines.push(`  skipped ${p.entry ?? 'the archive'}: ${p.message}`);
  if (ix.problems.length > 10) lines.push(`  ... and ${ix.problems.length - 10} more skipped`);
  return `${lines.join('\n')}\n`;
}

/** What the archive lacks among the parts a command reads (`part` names starting with `prefix`). */
export function missingLines(ix: ArchiveIndex, test: (part: string) => boolean): string[] {
  return ix.missing.filter((m) => test(m.part)).map((m) => `  ${m.part}: ${m.reason}`);
}
