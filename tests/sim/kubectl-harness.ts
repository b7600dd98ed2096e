import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import {
  startSimulator,
  type RunningSimulator,
  type SimulatorOptions,
} from '../../server/sim/index';
import { fakeMesh, START, testScenario } from './world';

/** Real kubectl (`npm test` and .ci/run install Debian's package). */
export const KUBECTL = '/usr/bin/kubectl';

/** Its absence fails the tests that need it, saying how to install it, never a skip. */
export function requireKubectl(what: string): void {
  if (!fs.existsSync(KUBECTL))
    throw new Error(`${what} need(s) ${KUBECTL} (apt-get install -y kubectl)`);
}

const exec = promisify(execFile);

export interface KubectlSim {
  readonly sim: RunningSimulator;
  readonly dir: string;
  /** Runs kubectl against the simulator; a failure names the command and kubectl's stderr. */
  kubectl(...args: string[]): Promise<string>;
  /** Writes a file into the test's folder and returns its path. */
  write(file: string, text: string): string;
}

/**
 * The test world's simulator with its kubeconfig in a fresh temporary folder, started before
 * the tests of the enclosing scope and closed after them.
 */
export function kubectlSim(prefix: string, opts: Partial<SimulatorOptions> = {}): KubectlSim {
  let sim: RunningSimulator | undefined;
  let dir = '';
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `meshdx-${prefix}-`));
    sim = await startSimulator({
      scenario: 'sim-test',
      scenarioImpl: testScenario,
      meshImpl: fakeMesh,
      clock: { fixed: START },
      kubeconfigPath: path.join(dir, 'kubeconfig'),
      ...opts,
    });
  });
  afterAll(async () => {
    await sim?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get sim() {
      if (!sim) throw new Error('simulator not started (use it inside a test)');
      return sim;
    },
    get dir() {
      return dir;
    },
    async kubectl(...args) {
      const base = [
        '--kubeconfig',
        path.join(dir, 'kubeconfig'),
        '--cache-dir',
        path.join(dir, 'cache'),
      ];
      try {
        return (await exec(KUBECTL, [...base, ...args], { timeout: 15_000, maxBuffer: 1 << 26 }))
          .stdout;
      } catch (e) {
        const err = e as { stderr?: string; message: string };
        throw new Error(`kubectl ${args.join(' ')} failed: ${err.stderr ?? err.message}`);
      }
    },
    write(file, text) {
      const p = path.join(dir, file);
      fs.writeFileSync(p, text);
      return p;
    },
  };
}
