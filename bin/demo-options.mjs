// What `npm run demo` is asked (its flags) and where a demo keeps its files, apart from starting
// anything: bin/demo.mjs parses and claims its folder before it builds or starts a process, so a
// request for help, a wrong flag or a folder another demo holds ends at once, with a message.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

export const DEMO_USAGE = `usage: npm run demo -- [--port P] [--host ADDR] [--scenario NAME[,NAME...]] [--clock ISO-TIME]
                       [--data-dir DIR] [--rebuild] [--fresh-history]
  --port P            the dashboard's port (PORT, else 3000)
  --host ADDR         the address it listens on (HOST, else 127.0.0.1)
  --scenario LIST     the simulated scenarios, one cluster (kubeconfig context) each (demo)
  --clock ISO-TIME    freezes the simulated clocks at that time
  --data-dir DIR      this demo's kubeconfigs and, without MESHDX_DB, its history (data/demo-PORT)
  --rebuild           runs next build even when the build looks current
  --fresh-history     deletes the scenarios' recorded history first
  -h, --help          this text
`;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  scenario: { type: 'string' },
  clock: { type: 'string' },
  rebuild: { type: 'boolean' },
  'fresh-history': { type: 'boolean' },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/** A scenario name as the simulator names them: also a file name, never a path. */
const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]*$/;

/**
 * What is wrong with argv as options, or null: an unknown flag, a value missing (or one that
 * looks like the next flag), a value given to a switch, an argument that is no option.
 */
function optionProblem(tokens) {
  for (const t of tokens) {
    if (t.kind === 'positional') return `unexpected argument ${t.value}`;
    if (t.kind !== 'option') continue;
    const spec = OPTIONS[t.name];
    if (!spec) return `unknown option ${t.rawName}`;
    if (spec.type === 'boolean' && t.value !== undefined) return `${t.rawName} takes no value`;
    if (spec.type === 'string') {
      if (t.value === undefined) return `${t.rawName} needs a value`;
      if (!t.inlineValue && t.value.startsWith('-'))
        return `${t.rawName} needs a value (got ${t.value}; write ${t.rawName}=${t.value} for a value starting with "-")`;
    }
  }
  return null;
}

/**
 * argv (after `npm run demo --`) and the environment -> `{ help: true }`, `{ error }` (exit 2,
 * with the usage) or `{ options }`. `root` is the checkout, whose data/ holds the default folders.
 */
export function parseDemoArgs(argv, env, root) {
  const { tokens } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  // help wins over what else is wrong, as for every meshdx command
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help' && t.value === undefined))
    return { help: true };
  const problem = optionProblem(tokens);
  if (problem) return { error: problem };
  const values = {};
  for (const t of tokens) if (t.kind === 'option') values[t.name] = t.value ?? true;

  const portText = values.port ?? env.PORT ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText.trim()) || !Number.isInteger(port) || port < 1 || port > 65535)
    return { error: `--port ${portText} is not a TCP port (1-65535)` };
  const host = values.host ?? env.HOST ?? '127.0.0.1';
  if (host.trim() === '') return { error: '--host is empty' };

  const scenarios = [
    ...new Set(
      (values.scenario ?? 'demo')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (scenarios.length === 0) return { error: '--scenario names no scenario' };
  const badName = scenarios.find((s) => !SCENARIO_NAME.test(s));
  if (badName !== undefined)
    return {
      error: `--scenario ${badName} is not a scenario name (lower-case letters, digits, -)`,
    };

  const clock = values.clock;
  if (clock !== undefined && clock !== 'real' && Number.isNaN(Date.parse(clock)))
    return { error: `--clock ${clock} is not a time (ISO 8601, e.g. 2026-11-01T12:00:00Z)` };

  const dataDirText = values['data-dir'];
  if (dataDirText !== undefined && dataDirText.trim() === '')
    return { error: '--data-dir is empty' };
  return {
    options: {
      port,
      host,
      scenarios,
      clock: clock === 'real' ? undefined : clock,
      rebuild: values.rebuild === true,
      freshHistory: values['fresh-history'] === true,
      dataDir: path.resolve(dataDirText ?? defaultDataDir(root, port)),
    },
  };
}

/**
 * Where a demo on this port keeps its files by default: a folder per port, so that a second demo
 * of the same checkout (on another port) has its own clusters' kubeconfigs and history and never
 * rewrites the first one's.
 */
export function defaultDataDir(root, port) {
  return path.join(root, 'data', `demo-${port}`);
}

/** The kubeconfig a demo's simulator of one scenario writes. */
export function kubeconfigPath(dataDir, scenario) {
  return path.join(dataDir, `sim-${scenario}.kubeconfig`);
}

/** The file that says which running demo uses a data folder. */
export function claimFile(dataDir) {
  return path.join(dataDir, 'demo.json');
}

function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/**
 * When the process with this id started, as the kernel counts it (Linux: /proc/PID/stat's
 * starttime, clock ticks since boot), or null where that cannot be read. A claim keeps it, so a
 * demo killed without releasing its folder (SIGKILL) is not taken for the unrelated process that
 * got its id later: on a busy machine ids come round within minutes.
 */
export function processStart(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the fields after the command name (which may hold spaces and parentheses); starttime is
    // field 22 of the line, the 20th after the name
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the demo that wrote this claim still runs: its id runs, and started when it did. */
function claimRuns(held) {
  if (!running(held.pid)) return false;
  if (typeof held.started !== 'string') return true;
  const now = processStart(held.pid);
  return now === null || now === held.started;
}

function readClaim(file) {
  try {
    const held = JSON.parse(fs.readFileSync(file, 'utf8'));
    return Number.isInteger(held?.pid) ? held : null;
  } catch {
    return null;
  }
}

/**
 * Takes a data folder for this demo (`{ pid, url }`): resolves to `{ ok: true }`, or `{ heldBy: { pid, url } }`
 * when a demo that still runs has it (its simulators' kubeconfigs are there: a second demo would
 * rewrite them and take its dashboard's clusters over). A claim whose demo is gone is taken over,
 * also when its process id now belongs to another process (processStart).
 */
export async function claimDataDir(dataDir, me) {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = claimFile(dataDir);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      const started = processStart(me.pid);
      fs.writeSync(
        fd,
        JSON.stringify({ pid: me.pid, url: me.url, ...(started ? { started } : {}) }),
      );
      fs.closeSync(fd);
      return { ok: true };
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    const held = readClaim(file);
    if (held && held.pid !== me.pid && claimRuns(held))
      return { heldBy: { pid: held.pid, url: typeof held.url === 'string' ? held.url : null } };
    // its demo is gone (or the file is half written by one being killed): taken over
    if (held || attempt > 0) fs.rmSync(file, { force: true });
    // a claim being written at this moment: read again before taking it over
    else await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`cannot claim ${dataDir}: ${file} keeps changing`);
}

/** Gives the folder up, if this demo still holds it. */
export function releaseDataDir(dataDir, pid) {
  const file = claimFile(dataDir);
  if (readClaim(file)?.pid === pid) fs.rmSync(file, { force: true });
}
