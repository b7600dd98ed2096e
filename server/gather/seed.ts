/**
 * What `meshdx open` takes from a gathered archive before the dashboard starts on it: the pod
 * IP intervals and the recorded failing requests of its `bug-report/meshdx/` folder, written
 * into the history store of the archive's context, so its Incidents shows the failures as they
 * were attributed at capture time, and attributes what it reads against the pods that were gone
 * by then. An archive istioctl wrote has no such folder: nothing is written.
 */
import type { ArchiveIndex } from '../../lib/archive/read';
import {
  GATHER_EXTRAS_DIR,
  GATHER_FAILURES,
  GATHER_INTERVALS,
  GATHER_MANIFEST,
  readGatherExtras,
  type GatherExtras,
} from '../../lib/gather/extras';
import { ARCHIVE_ROOT } from '../../lib/archive/layout';
import { openHistoryStore } from '../store/history-store';

/** The archive's meshdx files, each read through the archive's bounded reader. */
export async function archiveGatherExtras(
  index: Pick<ArchiveIndex, 'read' | 'entries'>,
): Promise<GatherExtras> {
  const texts = new Map<string, string>();
  const unread: string[] = [];
  for (const full of [GATHER_MANIFEST, GATHER_INTERVALS, GATHER_FAILURES]) {
    const rel = full.slice(ARCHIVE_ROOT.length + 1);
    const present = index.entries.some((e) => e.name === full || e.name === rel);
    if (!present) continue;
    try {
      texts.set(full, (await index.read(rel)).toString('utf8'));
    } catch (e) {
      unread.push(`${full}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const extras = readGatherExtras((name) => texts.get(name));
  for (const u of unread)
    extras.problems.push({ file: GATHER_EXTRAS_DIR, line: null, message: `not read: ${u}` });
  return extras;
}

export interface SeedResult {
  intervals: number;
  failures: number;
  /** Records already in the store (the archive opened before): kept once. */
  duplicates: number;
}

/** Writes the extras' intervals and failures into the history store file `storeFile`. */
export function seedHistoryStore(storeFile: string, extras: GatherExtras): SeedResult {
  if (extras.intervals.length === 0 && extras.failures.length === 0)
    return { intervals: 0, failures: 0, duplicates: 0 };
  const store = openHistoryStore(storeFile);
  try {
    const intervals = store.importIntervals(extras.intervals);
    let failures = 0;
    let duplicates = 0;
    // each with the time it was recorded then (one transaction each: an archive's few thousand)
    for (const f of extras.failures) {
      const r = store.failures.record(
        [{ raw: f.raw, source: f.source, fields: f.fields, attribution: f.attribution }],
        f.recordedAt,
      );
      failures += r.added;
      duplicates += r.duplicates;
    }
    return { intervals, failures, duplicates };
  } finally {
    store.close();
  }
}
