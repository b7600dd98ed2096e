#!/usr/bin/env node
// `npm test`: every check and every test, in the least wall time a small machine allows.
//
// The tests spend much of their time waiting on the servers they start, so the CPU-bound work
// that does not depend on them runs beside them at a lower CPU priority: `next build` beside the
// unit and integration tests (Vitest), since Playwright needs it next, then the static checks
// (tsc, ESLint, Prettier, side by side) beside whatever tests run then. The tests keep the cores
// whenever they want them, and the rest fills the gaps. Any failure fails the run; the output of what ran beside the tests is printed after
// theirs, one block per command, then the time of each phase.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
/** The niceness of what runs beside the tests: it gets the cores the tests leave idle. */
const BESIDE = 10;
/** Process groups of the commands running beside the tests (each command leads its own). */
const groups = new Map();

/**
 * Gives a command running beside the tests its normal priority back: the build once Vitest is
 * done (Playwright waits for it), the checks once every test is done. On a machine shared with
 * other work they would otherwise crawl. Raising priority needs privileges an ordinary user may
 * lack; then it keeps the idle cores only.
 */
function restorePriority(name) {
  const pgid = groups.get(name);
  if (pgid === undefined) return;
  // -g: every thread of every process in the group (next build's workers among them)
  const r = spawnSync('renice', ['-n', '0', '-g', String(pgid)], { encoding: 'utf8' });
  if (r.status !== 0)
    console.warn(
      `meshdx test: could not restore priority: ${(r.stderr || r.error?.message || '').trim()}`,
    );
}

// Ctrl-C or a CI timeout: the commands in their own process groups stop too
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const pgid of groups.values())
      try {
        process.kill(-pgid, signal);
      } catch {
        // already gone
      }
    process.exit(130);
  });

/** Whole seconds and tenths, for the phase table. */
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs one command. `capture`: its output is kept (stdout and stderr in the order written) and
 * returned instead of printed. Resolves with its exit code (1 when it could not start or was
 * killed by a signal, the signal named in its output).
 */
function run(name, command, args, { capture = false, beside = false } = {}) {
  const started = Date.now();
  const niceness = beside ? BESIDE : 0;
  return new Promise((resolve) => {
    // `nice` sets it before the command starts, so every thread and worker it makes inherits it
    // (Linux keeps a niceness per thread: one set from outside later misses the running ones)
    const [file, argv] =
      niceness && process.platform !== 'win32'
        ? ['nice', ['-n', String(niceness), command, ...args]]
        : [command, args];
    const child = spawn(file, argv, {
      cwd: root,
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      // its own process group, so that its priority can be restored with its workers'
      detached: beside,
      // captured output is printed later, maybe not to a terminal: no colour codes in it
      env: capture && !process.env.FORCE_COLOR ? { ...process.env, NO_COLOR: '1' } : process.env,
    });
    if (beside && child.pid) groups.set(name, child.pid);
    const chunks = [];
    child.stdout?.on('data', (d) => chunks.push(d));
    child.stderr?.on('data', (d) => chunks.push(d));
    const done = (code, why) => {
      groups.delete(name);
      if (why) chunks.push(Buffer.from(`\nmeshdx test: ${name} ${why}\n`));
      resolve({ name, code, ms: Date.now() - started, output: Buffer.concat(chunks).toString() });
    };
    child.on('error', (e) => done(1, `could not start: ${e.message}`));
    child.on('close', (code, signal) =>
      signal ? done(1, `was killed by ${signal}`) : done(code ?? 1),
    );
  });
}

const phases = [];
const startedAll = Date.now();
const CHECKS = ['tsc --noEmit', 'eslint .', 'prettier --check .'];

/** The output of a command that ran beside the tests: its failures and the build's routes. */
function report(r) {
  const status = r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`;
  console.log(`\n── ${r.name}: ${status} in ${secs(r.ms)} ${'─'.repeat(20)}`);
  // a passing check says little (Prettier lists nothing, tsc nothing): the build's routes and
  // every failure are worth reading
  if (r.code !== 0 || r.name === 'next build') process.stdout.write(r.output.trimEnd() + '\n');
}

const building = run('next build', bin('next'), ['build'], { capture: true, beside: true });
// the static checks start once the build is done (whether or not it passed: their errors say
// more than the build's), beside whichever tests run then
const checking = building.then(() =>
  Promise.all([
    run(CHECKS[0], bin('tsc'), ['--noEmit'], { capture: true, beside: true }),
    run(CHECKS[1], bin('eslint'), ['.'], { capture: true, beside: true }),
    run(CHECKS[2], bin('prettier'), ['--check', '.'], { capture: true, beside: true }),
  ]),
);
const vitest = await run('vitest run', bin('vitest'), ['run']);
restorePriority('next build');
const build = await building;
phases.push(vitest, build);
report(build);

let playwright = null;
if (vitest.code === 0 && build.code === 0) {
  console.log('');
  playwright = await run('playwright test', bin('playwright'), ['test']);
  phases.push(playwright);
}
for (const name of CHECKS) restorePriority(name);
const checks = await checking;
phases.push(...checks);
for (const r of checks) report(r);

const besideTests = new Set([build, ...checks]);
console.log('\nmeshdx test: wall time of each command');
for (const p of phases) {
  const status = p.code === 0 ? 'ok    ' : 'FAILED';
  const note = besideTests.has(p) ? '  (beside the tests, lower priority)' : '';
  console.log(`  ${secs(p.ms).padStart(8)}  ${status}  ${p.name}${note}`);
}
console.log(`  ${secs(Date.now() - startedAll).padStart(8)}  total`);
const failed = phases.filter((p) => p.code !== 0);
if (failed.length > 0) {
  console.error(`\nmeshdx test: failed: ${failed.map((p) => p.name).join(', ')}`);
  process.exit(1);
}
