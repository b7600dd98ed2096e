import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { BenchResult } from './support';

/**
 * `npm run bench [-- NAME...]`: runs each bench/*.bench.ts in its own process (so peak RSS is
 * that benchmark's alone), prints the numbers against their targets, and writes them to
 * bench/results/latest.json. Exits 1 when a number misses its target.
 */
const dir = import.meta.dirname;
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));

if (process.env.MESHDX_BENCH_CHILD) {
  const mod = (await import(path.join(dir, `${process.env.MESHDX_BENCH_CHILD}.bench.ts`))) as {
    run: () => Promise<BenchResult[]>;
  };
  const results = await mod.run();
  process.stdout.write(`@@RESULTS ${JSON.stringify(results)}\n`);
  process.exit(0);
}

const benches = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .filter((n) => wanted.length === 0 || wanted.includes(n))
  .sort();

const all: (BenchResult & { bench: string })[] = [];
let failed = false;
for (const bench of benches) {
  console.log(`\n== ${bench}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, 'run.ts')], {
    env: { ...process.env, MESHDX_BENCH_CHILD: bench },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('@@RESULTS '));
  process.stdout.write(
    r.stdout
      .split('\n')
      .filter((l) => !l.startsWith('@@RESULTS '))
      .join('\n'),
  );
  if (r.status !== 0 || !line) {
    console.log(`  FAILED (exit ${r.status})`);
    failed = true;
    continue;
  }
  for (const res of JSON.parse(line.slice('@@RESULTS '.length)) as BenchResult[]) {
    const miss =
      (res.target !== undefined && res.value > res.target) ||
      (res.min !== undefined && res.value < res.min);
    if (miss) failed = true;
    all.push({ ...res, bench });
    const target =
      res.target !== undefined
        ? `  (target <= ${res.target} ${res.unit}${miss ? ', MISSED' : ''})`
        : res.min !== undefined
          ? `  (target >= ${res.min} ${res.unit}${miss ? ', MISSED' : ''})`
          : '';
    console.log(
      `  ${res.name.padEnd(48)} ${String(res.value).padStart(8)} ${res.unit}${target}${res.note ? `  ${res.note}` : ''}`,
    );
  }
}
// A run of some benchmarks replaces those benchmarks' results and keeps the others' (each result
// carries the time it was measured), so latest.json always holds every benchmark's last numbers.
const file = path.join(dir, 'results', 'latest.json');
const at = new Date().toISOString();
const ran = new Set(benches);
let kept: (BenchResult & { bench: string; at?: string })[] = [];
if (fs.existsSync(file)) {
  const prev = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    at?: string;
    results?: (BenchResult & { bench: string; at?: string })[];
  };
  kept = (prev.results ?? [])
    .filter((r) => !ran.has(r.bench))
    .map((r) => ({ ...r, at: r.at ?? prev.at }));
}
const results = [...kept, ...all.map((r) => ({ ...r, at }))].sort((a, b) =>
  a.bench === b.bench ? 0 : a.bench < b.bench ? -1 : 1,
);
fs.mkdirSync(path.join(dir, 'results'), { recursive: true });
fs.writeFileSync(file, JSON.stringify({ at, results }, null, 2) + '\n');
process.exit(failed ? 1 : 0);
