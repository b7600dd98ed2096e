import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import type { CliIO } from '../cli/io';

/** A temporary folder for one test file, removed after its tests. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `meshdx-${prefix}-`));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A CliIO that collects what a command prints. */
export function fakeIO(cwd: string): CliIO & { out: string; err: string } {
  const o = {
    out: '',
    err: '',
    cwd,
    stdout: (t: string | Uint8Array) =>
      void (o.out += typeof t === 'string' ? t : new TextDecoder().decode(t)),
    stderr: (t: string) => void (o.err += t),
  };
  return o;
}
