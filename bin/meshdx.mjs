#!/usr/bin/env node
// The meshdx command line: thin over lib/ and server/, run from TypeScript through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
const code = await main(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
});
process.exitCode = code;
