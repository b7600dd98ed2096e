#!/usr/bin/env node
// The meshdx command line: thin over lib/ and server/, run from a bundle of its TypeScript
// sources that is rebuilt when they change (see cli-bundle.mjs).
import { loadCli, loadGatherer } from './cli-bundle.mjs';

// A reader that goes away (`meshdx attribute ... | head`) ends the command as it ends grep:
// quietly, with the status a shell gives a program its pipe ended (128 + SIGPIPE). Node ignores
// SIGPIPE, so the write fails with EPIPE instead, which would otherwise end it with a stack.
const PIPE_CLOSED = 141;
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(PIPE_CLOSED);
    throw e;
  });

const main = await loadCli();
const code = await main(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
  // `meshdx gather` reaches a cluster through server/ (cli/ does not): loaded only when it runs
  gatherer: async (req) => (await loadGatherer())(req),
});
process.exitCode = code;
