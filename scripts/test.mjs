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
import fs from 'node:fs';
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

/**
 * Gives a command running beside the tests and every process it started their normal priority
 * back: Playwright's webServers lead process groups of their own, which restorePriority's one
 * group would miss.
 */
function restoreTreePriority(name) {
  const pid = groups.get(name);
  if (pid === undefined || process.platform !== 'linux') return restorePriority(name);
  const parent = new Map();
  const pgrp = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid pgrp ...: comm may hold spaces, so read after its last ')'
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [, ppid, group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(ppid));
      pgrp.set(Number(entry), Number(group));
    } catch {
      // ended meanwhile
    }
  }
  const inTree = (p) => {
    for (let q = p, hops = 0; q > 1 && hops < 64; q = parent.get(q) ?? 0, hops++)
      if (q === pid) return true;
    return false;
  };
  const trees = new Set([...pgrp].filter(([p]) => inTree(p)).map(([, g]) => g));
  for (const g of trees) {
    const r = spawnSync('renice', ['-n', '0', '-g', String(g)], { encoding: 'utf8' });
    if (r.status !== 0)
      console.warn(
        `meshdx test: could not restore priority: ${(r.stderr || r.error?.message || '').trim()}`,
      );
  }
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
function run(name, command, args, { capture = false, beside = false, env = {}, onChild } = {}) {
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
      env: {
        ...process.env,
        ...(capture && !process.env.FORCE_COLOR ? { NO_COLOR: '1' } : {}),
        ...env,
      },
    });
    if (beside && child.pid) groups.set(name, child.pid);
    onChild?.(child);
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
// Playwright starts once the build is in, beside Vitest: its dashboards and simulators start on
// the cores Vitest leaves idle, and its global setup (test-support/playwright-gate.ts) holds the
// specs until the gate says go. Its output waits until then, so it does not run into Vitest's.
const gate = path.join(root, 'test-results', 'e2e-gate');
fs.mkdirSync(path.dirname(gate), { recursive: true });
fs.rmSync(gate, { force: true });
let gateOpen = false;
const held = [];
const e2eOut = (stream) => (d) => (gateOpen ? stream.write(d) : held.push([stream, d]));
const e2e = building.then((b) =>
  b.code !== 0
    ? null
    : run('playwright test', bin('playwright'), ['test'], {
        // started after Vitest (a build slower than the tests): at once at full priority
        beside: !gateOpen,
        env: { MESHDX_E2E_GATE: gate, MESHDX_E2E_GATE_PID: String(process.pid) },
        capture: true,
        onChild: (child) => {
          child.stdout?.on('data', e2eOut(process.stdout));
          child.stderr?.on('data', e2eOut(process.stderr));
        },
      }),
);
const vitest = await run('vitest run', bin('vitest'), ['run']);
restorePriority('next build');
const build = await building;
phases.push(vitest, build);
report(build);

let playwright = null;
if (vitest.code === 0 && build.code === 0) {
  console.log('');
  // full priority for the browser run and every server it started (each in a group of its own)
  restoreTreePriority('playwright test');
  fs.writeFileSync(gate, 'go');
  gateOpen = true;
  for (const [stream, d] of held.splice(0)) stream.write(d);
  playwright = await e2e;
  phases.push(playwright);
} else {
  fs.writeFileSync(gate, 'stop');
  await e2e;
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
