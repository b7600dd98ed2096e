import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureData, files, INTERVALS, type Meta } from './attribute-data';
import { ms, type BenchResult } from './support';

/**
 * Issue 6: attribute a 1,000,000-line (about 275 MB) access log against 50,000 pod intervals;
 * target at most 2.5 times `grep -c ' 503 '` on the same file in the same run, peak RSS under
 * 200 MB. The data is generated once (deterministic, seeded) into os.tmpdir() and reused.
 * Measured is the command an SRE runs, `meshdx attribute LOG --history FILE --json` in a
 * process of its own (start-up included, report written to a file), against grep's process.
 */
const root = path.resolve(import.meta.dirname, '..');

function grepMs(): { ms: number; count: number } {
  const t = process.hrtime.bigint();
  const r = spawnSync('grep', ['-c', ' 503 ', files.log], { encoding: 'utf8' });
  const took = ms(t);
  if (r.status !== 0) throw new Error(`grep failed: ${r.stderr}`);
  return { ms: took, count: Number(r.stdout.trim()) };
}

interface CliRun {
  ms: number;
  /** null where /usr/bin/time is missing */
  rssMb: number | null;
  /** CPU time of the process, all its threads (user + system), null likewise. */
  cpuMs: number | null;
  out: { requests: number; errors: number; attributions: number };
}

/**
 * One `meshdx attribute LOG --history FILE --json` run as an SRE runs it: node start-up
 * included, its report written to a file; peak RSS from /usr/bin/time (the whole process, its
 * worker threads included).
 */
function cliRun(history: string, extra: string[] = []): CliRun {
  const outFile = path.join(os.tmpdir(), `meshdx-bench-attribute-out-${process.pid}.json`);
  const fd = fs.openSync(outFile, 'w');
  const timed = fs.existsSync('/usr/bin/time');
  const cli = [path.join(root, 'bin', 'meshdx.mjs'), 'attribute', files.log];
  const args = [...cli, '--history', history, '--json', ...extra];
  const t = process.hrtime.bigint();
  const r = timed
    ? spawnSync('/usr/bin/time', ['-f', '@@RSS %M %U %S', process.execPath, ...args], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', fd, 'pipe'],
      })
    : spawnSync(process.execPath, args, {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', fd, 'pipe'],
      });
  const took = ms(t);
  fs.closeSync(fd);
  const usage = /@@RSS (\d+) ([\d.]+) ([\d.]+)/.exec(r.stderr ?? '');
  const kb = usage?.[1];
  if (r.status !== 0) throw new Error(`meshdx attribute failed (${r.status}): ${r.stderr}`);
  const parsed = JSON.parse(fs.readFileSync(outFile, 'utf8') || '{}') as {
    requests?: number;
    errors?: number;
    attributions?: unknown[];
  };
  fs.rmSync(outFile, { force: true });
  return {
    ms: took,
    rssMb: kb ? Number(kb) / 1024 : null,
    cpuMs: usage ? (Number(usage[2]) + Number(usage[3])) * 1000 : null,
    out: {
      requests: parsed.requests ?? -1,
      errors: parsed.errors ?? -1,
      attributions: parsed.attributions?.length ?? -1,
    },
  };
}

function check(what: string, r: CliRun, meta: Meta): void {
  const want = { requests: meta.lines - meta.proxyLines, errors: 0, attributions: meta.failing };
  if (JSON.stringify(r.out) !== JSON.stringify(want))
    throw new Error(`${what}: expected ${JSON.stringify(want)}, got ${JSON.stringify(r.out)}`);
}

const best = (runs: CliRun[]): CliRun => runs.reduce((a, b) => (b.ms < a.ms ? b : a));
const peak = (runs: CliRun[]): number | null =>
  runs.some((r) => r.rssMb === null) ? null : Math.max(...runs.map((r) => r.rssMb as number));
const list = (runs: CliRun[]) => runs.map((r) => Math.round(r.ms)).join(', ');
/**
 * The CPU time of each run (all threads): on a machine others load, the wall times above
 * move with their load, the CPU time much less.
 */
const cpuList = (runs: CliRun[]) =>
  runs.some((r) => r.cpuMs === null)
    ? ''
    : `; CPU ${runs.map((r) => Math.round(r.cpuMs as number)).join(', ')} ms`;

export async function run(): Promise<BenchResult[]> {
  const meta = ensureData();
  if (meta.intervals !== INTERVALS)
    throw new Error(`expected ${INTERVALS} intervals, made ${meta.intervals}`);
  const mb = meta.logBytes / 1024 / 1024;
  grepMs(); // warm the page cache
  const greps = [grepMs(), grepMs(), grepMs()];
  const grep = Math.min(...greps.map((g) => g.ms));
  check('warm-up (builds the command line bundle when stale)', cliRun(files.store), meta);
  const store = [cliRun(files.store), cliRun(files.store), cliRun(files.store)];
  for (const r of store) check('store history', r, meta);
  const one = [cliRun(files.store, ['--threads', '1']), cliRun(files.store, ['--threads', '1'])];
  for (const r of one) check('store history, one thread', r, meta);
  const captures = [cliRun(files.capture), cliRun(files.capture)];
  for (const r of captures) check('capture history', r, meta);
  const capture = best(captures);
  const captureRss = peak(captures);
  const captureMb = fs.statSync(files.capture).size / 1024 / 1024;
  const fast = best(store);
  const rss = peak(store);
  const results: BenchResult[] = [
    {
      name: 'attribute.grep-c-503',
      value: Math.round(grep),
      unit: 'ms',
      note: `best of 3 (after a warm-up run): ${greps.map((g) => Math.round(g.ms)).join(', ')} ms; ${greps[0]?.count} matches, ${meta.lines} lines, ${mb.toFixed(0)} MB`,
    },
    {
      name: 'attribute.cli-store-history',
      value: Math.round(fast.ms),
      unit: 'ms',
      note: `meshdx attribute LOG --history STORE --json, node start-up included, best of 3 (${list(store)} ms${cpuList(store)}); ${INTERVALS} intervals (SQLite), ${fast.out.attributions} attributed`,
    },
    {
      name: 'attribute.ratio-to-grep',
      value: Number((fast.ms / grep).toFixed(2)),
      unit: 'x',
      target: 2.5,
      note: 'best meshdx attribute / best grep, both measured in this run',
    },
    ...(rss === null
      ? []
      : [
          {
            name: 'attribute.peak-rss',
            value: Math.round(rss),
            unit: 'MB',
            target: 200,
            note: 'largest of the 3 runs, worker threads included (/usr/bin/time)',
          },
        ]),
    {
      name: 'attribute.cli-one-thread',
      value: Math.round(best(one).ms),
      unit: 'ms',
      note: `--threads 1, best of 2 (${list(one)} ms${cpuList(one)}); ratio ${(best(one).ms / grep).toFixed(2)}x; peak RSS ${peak(one)?.toFixed(0) ?? 'not measured'} MB`,
    },
    {
      name: 'attribute.cli-capture-history',
      value: Math.round(capture.ms),
      unit: 'ms',
      note: `meshdx attribute LOG --history CAPTURE --json, the history as a kubectl watch capture (${captureMb.toFixed(0)} MB), best of 2 (${list(captures)} ms${cpuList(captures)})`,
    },
    {
      name: 'attribute.capture-ratio-to-grep',
      value: Number((capture.ms / grep).toFixed(2)),
      unit: 'x',
      target: 3.0,
      note: 'best meshdx attribute with the capture history / best grep, both measured in this run',
    },
    ...(captureRss === null
      ? []
      : [
          {
            name: 'attribute.capture-peak-rss',
            value: Math.round(captureRss),
            unit: 'MB',
            target: 200,
            note: 'largest of the 2 capture runs, worker threads included (/usr/bin/time)',
          },
        ]),
  ];
  return results;
}
