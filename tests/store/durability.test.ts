import { describe, it, expect, afterAll } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openHistoryStore } from '../../server/store/history-store';
import { churnIp, churnName } from './churn';
import { CHILD_PROCESS_GUARD_MS, EVENT_WAIT_GUARD_MS } from '../../test-support/deadlines';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-durability-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const repo = path.resolve(import.meta.dirname, '..', '..');
/** Time for the child to start (tsx, the simulator, the first batch), then between commits. */
const STARTUP_MS = CHILD_PROCESS_GUARD_MS;
const STALL_MS = EVENT_WAIT_GUARD_MS;

/** Runs the churn child until `enough` intervals are committed, then SIGKILLs it. */
function runAndKill(
  file: string,
  enough: number,
): Promise<{ lastCommitted: number; lines: number; walAtKill: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/store/churn-child.ts', file], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffered = '';
    let lastCommitted = -1;
    let lines = 0;
    let killed = false;
    let walAtKill = false;
    let stderr = '';
    // a child that stops committing is the failure; how long it takes to start and to reach
    // `enough` depends on the machine's load, so the watchdog waits for progress, not for a total
    let timer: NodeJS.Timeout | undefined;
    const watch = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new Error(
            `no commit for ${ms / 1000} s, short of ${enough} committed intervals (last ${lastCommitted}); stderr: ${stderr}`,
          ),
        );
      }, ms);
    };
    watch(STARTUP_MS);
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      buffered += c.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        const m = /^COMMIT (\d+)$/.exec(line);
        if (!m) continue;
        lines++;
        lastCommitted = Number(m[1]);
        watch(STALL_MS);
        if (!killed && lastCommitted >= enough) {
          killed = true;
          walAtKill = fs.existsSync(`${file}-wal`);
          child.kill('SIGKILL'); // mid-stream: the churn and the commits go on until the signal lands
        }
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && killed) resolve({ lastCommitted, lines, walAtKill });
      else reject(new Error(`child ended by itself (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
}

describe('durability of the store under SIGKILL', () => {
  it(
    'keeps every interval committed before the kill, intact',
    { timeout: STARTUP_MS + 2 * STALL_MS },
    async () => {
      const file = path.join(dir, 'churn.sqlite');
      const { lastCommitted, lines, walAtKill } = await runAndKill(file, 1500);
      expect(lines).toBeGreaterThan(1);
      expect(walAtKill).toBe(true);

      const store = openHistoryStore(file, { flushIntervalMs: 0 });
      expect(store.integrityCheck()).toBe('ok');
      const rows = [...store.intervals()];
      expect(rows.length).toBeGreaterThanOrEqual(lastCommitted);
      const byName = new Map(rows.map((r) => [r.name, r]));
      // pods are created in order and each gets its interval with its first event, so the first
      // `lastCommitted` pods are exactly the intervals the last printed commit had
      for (let n = 0; n < lastCommitted; n++) {
        const r = byName.get(churnName(n));
        expect(r, churnName(n)).toBeDefined();
        expect(r?.ip).toBe(churnIp(n));
        expect(Number.isFinite(r?.from)).toBe(true);
        if (r?.goneAt !== null && r?.goneAt !== undefined)
          expect(r.goneAt).toBeGreaterThanOrEqual(r.from - 1000);
        if (r?.deletionStartedAt !== null && r?.deletionStartedAt !== undefined)
          expect(r.graceEndsAt).toBe(r.deletionStartedAt + 30_000);
      }
      expect(new Set(rows.map((r) => r.ip)).size).toBe(rows.length);
      store.close();
    },
  );
});
