#!/usr/bin/env node
// The meshdx command line: thin over lib/ and server/, run from a bundle of its TypeScript
// sources that is rebuilt when they change (see cli-bundle.mjs).
import { loadCli } from './cli-bundle.mjs';

const main = await loadCli();
const code = await main(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
});
process.exitCode = code;
