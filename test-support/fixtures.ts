import path from 'node:path';
import fs from 'node:fs';

/** The shared, real fixtures published by the Istio project (../shared/fixtures beside the repo). */
export const FIXTURES_DIR =
  process.env.MESHDX_FIXTURES ??
  path.resolve(import.meta.dirname, '..', '..', 'shared', 'fixtures');

export function fixturePath(...parts: string[]): string {
  return path.join(FIXTURES_DIR, ...parts);
}

export function readFixture(...parts: string[]): string {
  return fs.readFileSync(fixturePath(...parts), 'utf8');
}

export function listFixtures(dir: string): string[] {
  return fs
    .readdirSync(fixturePath(dir))
    .filter((f) => !f.startsWith('.'))
    .sort();
}
