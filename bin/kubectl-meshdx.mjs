#!/usr/bin/env node
// kubectl's plugin: on the PATH as `kubectl-meshdx` (npm links it with the package's bin), so
// `kubectl meshdx COMMAND ...` runs meshdx's commands with kubectl's own flags
// (cli/kubectl/plugin.ts). kubectl runs it with every argument after `meshdx`.
import { loadCli, loadGatherer, loadKubectlPlugin } from './cli-bundle.mjs';

const PIPE_CLOSED = 141;
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(PIPE_CLOSED);
    throw e;
  });

const [main, plugin] = await Promise.all([loadCli(), loadKubectlPlugin()]);
const code = await plugin(
  process.argv.slice(2),
  {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    gatherer: async (req) => (await loadGatherer())(req),
  },
  main,
);
process.exitCode = code;
