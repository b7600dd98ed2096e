/**
 * Playwright's global setup under `npm test`: scripts/test.mjs starts the e2e run beside Vitest
 * as soon as `next build` is done, so the dashboards and simulators the specs need start while
 * the unit tests run (at a lower priority, on the cores they leave idle), and the browser tests
 * begin the moment Vitest ends. Playwright starts its webServers before its global setup; this
 * holds the tests until the gate file says `go`, or ends the run before its first test on
 * `stop` (Vitest failed) or when the npm test process is gone. Without MESHDX_E2E_GATE
 * (`npx playwright test` by hand) it returns at once.
 */
import fs from 'node:fs';

/** How often the gate file is looked at: a tenth of a second is nothing next to a spec. */
const LOOK_EVERY_MS = 100;

function gateWord(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function holdUntilUnitTestsEnd(): Promise<void> {
  const file = process.env.MESHDX_E2E_GATE;
  if (file === undefined || file === '') return;
  const holder = Number(process.env.MESHDX_E2E_GATE_PID);
  for (;;) {
    const word = gateWord(file);
    if (word === 'go') return;
    if (word === 'stop')
      throw new Error(
        'meshdx test: the unit tests failed, so the e2e run stops before its first test',
      );
    if (Number.isInteger(holder) && holder > 0 && !alive(holder))
      throw new Error(`meshdx test: npm test (pid ${holder}) is gone; the e2e run stops`);
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
  }
}
