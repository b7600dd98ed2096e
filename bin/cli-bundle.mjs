// How bin/meshdx.mjs loads the command line: a bundle of cli/ (and the log-scan worker) built
// by esbuild into node_modules/.cache/meshdx-cli and rebuilt when any file it was built from
// changed. A bundle starts in a fraction of the time and memory of compiling the TypeScript
// sources at every run (tsx), which matters for `meshdx attribute` on large logs and for its
// worker threads. Where no bundle can be built (esbuild missing, cache not writable) the
// sources run through tsx as before.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = path.relative(root, fileURLToPath(import.meta.url));
const ENTRIES = {
  cli: 'cli/main.ts',
  // found by cli/logscan/parallel.ts next to the bundle under this name
  'scan-worker-entry': 'cli/logscan/scan-worker.ts',
  // found by cli/commands/attribute-history.ts next to the bundle under this name
  'attribute-capture-worker-entry': 'cli/commands/attribute-capture-worker.ts',
  // `meshdx gather`'s cluster capture: handed to the command line by bin/meshdx.mjs, since cli/
  // reaches no server/ module itself
  'gather-entry': 'server/gather/gather.ts',
  // bin/kubectl-meshdx.mjs: kubectl's plugin, over the command line's main
  'kubectl-entry': 'cli/kubectl/plugin.ts',
};

/** Where bundles go: inside the project, so that they find its packages (node_modules). */
function cacheDir() {
  return process.env.MESHDX_CLI_CACHE || path.join(root, 'node_modules', '.cache', 'meshdx-cli');
}

/** The current build's directory when every input is as it was built from, else null. */
function freshBuild(dir) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'current.json'), 'utf8'));
  } catch {
    return null;
  }
  if (manifest.node !== process.version || !manifest.inputs?.[SELF]) return null;
  for (const [file, [mtimeMs, size]] of Object.entries(manifest.inputs)) {
    try {
      const st = fs.statSync(path.join(root, file));
      if (st.mtimeMs !== mtimeMs || st.size !== size) return null;
    } catch {
      return null;
    }
  }
  const build = path.join(dir, manifest.build);
  return fs.existsSync(path.join(build, 'cli.mjs')) ? build : null;
}

async function buildBundle(dir) {
  const esbuild = await import('esbuild');
  const id = `build-${Date.now().toString(36)}-${process.pid}`;
  const out = path.join(dir, id);
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    // each command (and the worker) in chunks of its own: `attribute` does not load the YAML
    // and schema packages the other commands need (tens of ms at every start)
    splitting: true,
    // beside the entries: the chunk of cli/logscan/parallel.ts finds the worker entry
    // next to itself, as the source does
    chunkNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = {};
  // this file too: a change in how bundles are built makes them stale
  for (const file of [...Object.keys(result.metafile.inputs), SELF]) {
    const st = fs.statSync(path.join(root, file));
    inputs[file] = [st.mtimeMs, st.size];
  }
  const tmp = path.join(dir, `current.json.${process.pid}`);
  fs.writeFileSync(tmp, JSON.stringify({ build: id, node: process.version, inputs }));
  fs.renameSync(tmp, path.join(dir, 'current.json'));
  // earlier builds are left to runs that may still use them for a minute, then removed
  for (const old of fs.readdirSync(dir))
    if (old.startsWith('build-') && old !== id) {
      const p = path.join(dir, old);
      if (Date.now() - fs.statSync(p).mtimeMs > 60_000)
        fs.rmSync(p, { recursive: true, force: true });
    }
  return out;
}

/** An entry's exports, from the bundle when one can be had, else from its source through tsx. */
async function loadEntry(name, source) {
  if (process.env.MESHDX_CLI_FROM_SOURCE !== '1') {
    const dir = cacheDir();
    let build = freshBuild(dir);
    if (!build) {
      try {
        fs.mkdirSync(dir, { recursive: true });
        build = await buildBundle(dir);
      } catch {
        build = null;
      }
    }
    if (build) return import(pathToFileURL(path.join(build, `${name}.mjs`)).href);
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import(source);
}

/** `gatherArchive` of server/gather/gather.ts (`meshdx gather`'s capture), loaded on first use. */
export async function loadGatherer() {
  return (await loadEntry('gather-entry', '../server/gather/gather.ts')).gatherArchive;
}

/** `kubectlPlugin` of cli/kubectl/plugin.ts (`kubectl meshdx ...`). */
export async function loadKubectlPlugin() {
  return (await loadEntry('kubectl-entry', '../cli/kubectl/plugin.ts')).kubectlPlugin;
}

/** The `main` of cli/main.ts, from the bundle when one can be had, else from the sources. */
export async function loadCli() {
  return (await loadEntry('cli', '../cli/main.ts')).main;
}
