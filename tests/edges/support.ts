import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { resetRegistry } from '../../server/runtime/registry';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';

/**
 * The edge tests' cluster: a simulator scenario (phantom-503 unless told) on a fixed clock, meshdx pointed at it with
 * no auth and a store folder of its own; the environment is restored afterwards.
 */
export interface EdgeCluster {
  sim: RunningSimulator;
  /** The folder holding the kubeconfig and the store (MESHDX_DB is `dir/db`). */
  dir: string;
}

export function useEdgeCluster(
  name: string,
  opts: { scenario?: string; env?: Record<string, string> } = {},
): EdgeCluster {
  const saved = { ...process.env };
  const cluster = {} as EdgeCluster;
  beforeAll(async () => {
    cluster.dir = fs.mkdtempSync(path.join(os.tmpdir(), `meshdx-edges-${name}-`));
    cluster.sim = await startSimulator({
      scenario: opts.scenario ?? 'phantom-503',
      port: 0,
      clock: { fixed: new Date('2026-11-01T12:00:00Z') },
    });
    const kc = path.join(cluster.dir, 'kubeconfig');
    fs.writeFileSync(kc, cluster.sim.kubeconfigYaml);
    process.env = {
      ...saved,
      MESHDX_KUBECONFIG: kc,
      MESHDX_DB: path.join(cluster.dir, 'db'),
      MESHDX_AUTH: 'none',
      ...opts.env,
    };
    delete process.env.MESHDX_CONTEXT;
    resetRegistry();
  }, 60_000);
  afterAll(async () => {
    resetRegistry();
    process.env = { ...saved };
    await cluster.sim?.close();
    if (cluster.dir) fs.rmSync(cluster.dir, { recursive: true, force: true });
  });
  return cluster;
}

export const url = (p: string) => `http://127.0.0.1:3000${p}`;
export type ErrorBody = { error: { code: string; message: string } };

/** The JSON error a route answers: its status, code, and a message that starts with `names:`. */
export async function expectError(res: Response, status: number, code: string, names: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as ErrorBody;
  expect(body.error.code).toBe(code);
  expect(body.error.message.startsWith(`${names}:`), body.error.message).toBe(true);
}
