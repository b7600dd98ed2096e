/**
 * `tsx server/archive/main.ts --kubeconfig FILE ARCHIVE...`: serves each archive as a cluster
 * on loopback (what `meshdx open` starts) and writes the kubeconfig of their contexts. Prints
 * one line per archive: its context, capture time, proxies, and what it lacks or skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ArchiveError } from '../../lib/archive/contents';
import { archiveKubeconfig, openArchives } from './open';
import { archiveGatherExtras, seedHistoryStore } from '../gather/seed';
import { storeFileFor } from '../runtime/runtime';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      kubeconfig: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      // the dashboard's MESHDX_DB: a gathered archive's history goes into its context's store
      'data-dir': { type: 'string' },
    },
    allowPositionals: true,
  });
  if (!values.kubeconfig || positionals.length === 0) {
    process.stderr.write('usage: tsx server/archive/main.ts --kubeconfig FILE ARCHIVE...\n');
    return 2;
  }
  let opened;
  try {
    opened = await openArchives(positionals, { host: values.host });
  } catch (e) {
    const what = e instanceof ArchiveError ? e.message : e instanceof Error ? e.message : String(e);
    process.stderr.write(`meshdx open: ${what}\n`);
    return 1;
  }
  for (const o of opened) {
    const s = o.server.index;
    const captured = s.capture.time ? s.capture.time.toISOString() : 'unknown';
    process.stdout.write(
      `${o.context}: ${s.name}, captured ${captured} (${s.capture.how}); ${s.proxies.length} proxies, ${s.istiods.length} istiod; ${s.missing.length} parts missing, ${s.problems.length} entries skipped\n`,
    );
    for (const p of s.problems) process.stdout.write(`  skipped: ${p.message}\n`);
    // what only meshdx keeps (a `meshdx gather` archive): its pod history and recorded failures
    const extras = await archiveGatherExtras(s);
    for (const p of extras.problems)
      process.stdout.write(
        `  meshdx history: ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}\n`,
      );
    if (values['data-dir'] && (extras.intervals.length > 0 || extras.failures.length > 0)) {
      const seeded = seedHistoryStore(
        storeFileFor(path.resolve(values['data-dir']), o.context, false),
        extras,
      );
      process.stdout.write(
        `  meshdx history: ${seeded.intervals} pod intervals and ${seeded.failures + seeded.duplicates} recorded failures of ${extras.manifest?.window.from ?? '?'} to ${extras.manifest?.window.to ?? '?'}\n`,
      );
    }
  }
  const file = path.resolve(values.kubeconfig);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // written whole, then renamed: a reader waiting for the file never sees half of it
  fs.writeFileSync(`${file}.tmp`, archiveKubeconfig(opened), { mode: 0o600 });
  fs.renameSync(`${file}.tmp`, file);
  const stop = (): void => {
    void Promise.all(opened.map((o) => o.server.close())).then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return -1;
}

const code = await main();
if (code >= 0) process.exit(code);
