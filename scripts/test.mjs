#!/usr/bin/env node
// `npm test`: every check and every test, in the least wall time a small machine allows.
//
// The tests spend much of their time waiting on the servers they start, so the CPU-bound work
// that does not depend on them runs beside them at a lower CPU priority: `next build` beside the
// unit and integration tests (Vitest), then Playwright on that build beside the rest of Vitest,
// and the static checks (tsc, ESLint, Prettier, side by side) beside whatever tests run then. The tests keep the cores
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
 * returned instead of printed. `held`: its output is kept until `held.release()` is called,
 * then printed, and printed as it comes from then on (a command running beside another that
 * prints). Resolves with its exit code (1 when it could not start or was killed by a signal,
 * the signal named in its output).
 */
function run(name, command, args, { capture = false, beside = false, held = null } = {}) {
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
      stdio: capture || held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      // its own process group, so that its priority can be restored with its workers'
      detached: beside,
      // captured output is printed later, maybe not to a terminal: no colour codes in it
      env: capture && !process.env.FORCE_COLOR ? { ...process.env, NO_COLOR: '1' } : process.env,
    });
    if (held) {
      const kept = [];
      let live = false;
      const write = (d) => (live ? process.stdout.write(d) : kept.push(d));
      child.stdout?.on('data', write);
      child.stderr?.on('data', write);
      held.release = () => {
        live = true;
        for (const d of kept.splice(0)) process.stdout.write(d);
      };
    }
    if (beside && child.pid) groups.set(name, child.pid);
    const chunks = [];
    if (capture) {
      child.stdout?.on('data', (d) => chunks.push(d));
      child.stderr?.on('data', (d) => chunks.push(d));
    }
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
// Playwright starts as soon as the build is in, beside the rest of Vitest: both mostly wait on
// the servers they start (the CPU time of a whole run was about half of two cores' wall time),
// so run one after the other they left a core idle for minutes. Neither depends on the other's
// result; a failure of either fails the run.
const testing = run('vitest run', bin('vitest'), ['run']);
// its output waits for Vitest's to end, then follows live
const playwrightOutput = { release: () => {} };
const playwrighting = building.then((b) =>
  b.code === 0
    ? run('playwright test', bin('playwright'), ['test'], { held: playwrightOutput })
    : null,
);
const vitest = await testing;
restorePriority('next build');
const build = await building;
phases.push(vitest, build);
report(build);
console.log('');
playwrightOutput.release();
const playwright = await playwrighting;
if (playwright) phases.push(playwright);
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
