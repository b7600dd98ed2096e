#!/usr/bin/env node
// `npm run demo [-- --port P] [-- --scenario NAME] [-- --clock ISO] [-- --data-dir DIR]`: starts the simulated
// meshed cluster and the meshdx dashboard on it, through the same kubeconfig path a real
// cluster uses. Builds the dashboard first when the build is missing or older than the sources.
// `--help` lists the flags (bin/demo-options.mjs).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  claimDataDir,
  DEMO_USAGE,
  kubeconfigPath,
  parseDemoArgs,
  releaseDataDir,
} from './demo-options.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const parsed = parseDemoArgs(process.argv.slice(2), process.env, root);
if ('help' in parsed) {
  process.stdout.write(DEMO_USAGE);
  process.exit(0);
}
if ('error' in parsed) {
  process.stderr.write(`meshdx demo: ${parsed.error}\n${DEMO_USAGE}`);
  process.exit(2);
}
const { port, host, scenarios, clock, dataDir } = parsed.options;

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function needsBuild() {
  const id = path.join(root, '.next', 'BUILD_ID');
  if (parsed.options.rebuild || !fs.existsSync(id)) return true;
  const built = fs.statSync(id).mtimeMs;
  return ['app', 'components', 'lib', 'server', 'public'].some(
    (d) => fs.existsSync(path.join(root, d)) && newestMtime(path.join(root, d)) > built,
  );
}

function portFree(p, host) {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(p, host, () => s.close(() => resolve(true)));
  });
}

/**
 * Waits for `check` while `running()` says the process it waits on still runs: a first start
 * on a busy machine (just after npm install, say) may take minutes, which is said every 30 s
 * rather than given up on. Past `maxMs`, or when the process is gone, it throws.
 */
async function waitFor(check, what, running, maxMs = 300_000) {
  const since = Date.now();
  let noted = since;
  while (Date.now() - since < maxMs) {
    if (await check()) return;
    if (!running()) throw new Error(`stopped before ${what}`);
    if (Date.now() - noted >= 30_000) {
      noted = Date.now();
      console.log(
        `meshdx demo: still waiting for ${what} (${Math.round((noted - since) / 1000)} s)…`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`gave up waiting for ${what} after ${Math.round(maxMs / 1000)} s`);
}

const children = [];
function shutdown(code) {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

if (!(await portFree(port, host))) {
  console.error(
    `meshdx demo: port ${port} on ${host} is in use; pick another with \`npm run demo -- --port P\` or PORT=P`,
  );
  process.exit(2);
}

const shownHost = host === '0.0.0.0' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
const url = `http://${shownHost}:${port}/`;
// the simulators' kubeconfigs are in the data folder: a second demo writing them would take the
// first one's dashboard over (it follows the kubeconfig), so one demo holds a folder at a time
const claim = await claimDataDir(dataDir, { pid: process.pid, url });
if ('heldBy' in claim) {
  const { pid, url: theirs } = claim.heldBy;
  console.error(
    `meshdx demo: ${path.relative(process.cwd(), dataDir) || '.'} is used by the demo running as pid ${pid}${theirs ? ` (${theirs})` : ''}; stop it, or give this one its own folder with --data-dir DIR`,
  );
  process.exit(2);
}
process.on('exit', () => releaseDataDir(dataDir, process.pid));

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
/** Whether a process with this id still runs (a build lock's owner). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

// Two demos started at once (the e2e run starts two) build once: the first takes the lock and
// builds, the other waits for it and then finds the build current. A lock whose owner is gone
// (killed mid-build) is taken over.
const buildLock = path.join(root, '.next-build.lock');
while (needsBuild()) {
  let fd;
  try {
    fd = fs.openSync(buildLock, 'wx');
  } catch {
    const owner = Number(fs.readFileSync(buildLock, 'utf8').trim());
    if (!alive(owner)) fs.rmSync(buildLock, { force: true });
    else await new Promise((r) => setTimeout(r, 500));
    continue;
  }
  fs.writeSync(fd, String(process.pid));
  fs.closeSync(fd);
  console.log('meshdx demo: building the dashboard (next build)…');
  const r = spawnSync(bin('next'), ['build'], { cwd: root, stdio: 'inherit', env });
  fs.rmSync(buildLock, { force: true });
  if (r.status !== 0) shutdown(r.status ?? 1);
  break;
}

function startSim(scenario) {
  const kubeconfig = kubeconfigPath(dataDir, scenario);
  fs.rmSync(kubeconfig, { force: true });
  const simArgs = [
    'server/sim/main.ts',
    '--scenario',
    scenario,
    '--port',
    '0',
    '--kubeconfig',
    kubeconfig,
  ];
  if (clock) simArgs.push('--clock', clock);
  const sim = spawn(bin('tsx'), simArgs, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env });
  children.push(sim);
  const tag = scenarios.length > 1 ? `[sim ${scenario}]` : '[sim]';
  sim.stdout.on('data', (d) => process.stdout.write(`${tag} ${d}`));
  sim.on('exit', (code) => {
    console.error(`meshdx demo: the simulator of ${scenario} exited (${code}); stopping.`);
    shutdown(code || 1);
  });
  return kubeconfig;
}

const kubeconfigs = scenarios.map(startSim);
// a wait that fails stops every process this demo started: none is left running without the rest
// (a dashboard on simulators that are gone would show them as unreachable)
async function orStop(waiting) {
  try {
    await waiting;
  } catch (e) {
    console.error(`meshdx demo: ${e instanceof Error ? e.message : String(e)}; stopping.`);
    shutdown(1);
  }
}
for (const [i, file] of kubeconfigs.entries()) {
  await orStop(
    waitFor(
      () => fs.existsSync(file),
      `the ${scenarios[i]} simulator to write its kubeconfig`,
      () => children[i]?.exitCode === null,
    ),
  );
}
// the dashboard reads them as kubectl would read KUBECONFIG=a:b (the first one is current)
const contextOf = (scenario) => `meshdx-sim-${scenario}`;

const db = process.env.MESHDX_DB ?? dataDir;
if (parsed.options.freshHistory) {
  // a run that must be reproducible (e2e, screenshots) starts with no recorded history
  for (const scenario of scenarios)
    for (const suffix of ['', '-wal', '-shm'])
      fs.rmSync(path.join(db, `${contextOf(scenario)}.sqlite${suffix}`), { force: true });
}
const webEnv = { ...env };
// the demo's clusters are the simulators: a kubeconfig chosen for real clusters must not win
delete webEnv.MESHDX_KUBECONFIG;
delete webEnv.MESHDX_CONTEXT;
// idle keep-alive connections outlive Node clients' 5 s socket reuse (test-support/next-start.ts)
const nextArgs = ['start', '-p', String(port), '-H', host, '--keepAliveTimeout', '65000'];
const next = spawn(bin('next'), nextArgs, {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: {
    ...webEnv,
    KUBECONFIG: kubeconfigs.join(path.delimiter),
    MESHDX_DB: db,
    // a frozen simulated clock does not move with the wall clock: date pod changes by the
    // times the pod objects carry, as for any cluster whose clock is not to be trusted
    ...(clock ? { MESHDX_CLOCK: 'objects' } : {}),
    // the simulated API servers run on this machine, not a shared control plane: the demo
    // gives meshdx a larger request budget than the default meant for real clusters
    MESHDX_API_QPS: process.env.MESHDX_API_QPS ?? '200',
    MESHDX_API_BURST: process.env.MESHDX_API_BURST ?? '400',
  },
});
children.push(next);
next.stdout.on('data', (d) => process.stdout.write(`[web] ${d}`));
next.on('exit', (code) => shutdown(code ?? 1));
await orStop(
  waitFor(
    () =>
      fetch(new URL('api/cluster', url)).then(
        (r) => r.ok,
        () => false,
      ),
    'the dashboard to answer',
    () => next.exitCode === null,
  ),
);
const names = scenarios.map((s) => `"${contextOf(s)}"`).join(', ');
console.log(
  `\nmeshdx is running on the simulated cluster${scenarios.length > 1 ? 's' : ''} ${names}: ${url}`,
);
for (const [i, file] of kubeconfigs.entries()) {
  const which = scenarios.length > 1 ? `   (${scenarios[i]})` : '';
  console.log(
    `kubectl works against the same simulator: kubectl --kubeconfig ${path.relative(process.cwd(), file)} get pods -A${which}`,
  );
}
console.log('');
