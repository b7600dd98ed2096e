import path from 'node:path';
import fs from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { Pod } from '../lib/kube/types';

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

/**
 * The Pods of one of Istio's analyzer test files (istio_config/analyzer/FILE), in file order;
 * the other kinds in the file are left out.
 */
export function analyzerPods(file: string): Pod[] {
  return parseAllDocuments(readFixture('istio_config', 'analyzer', file))
    .map((d) => d.toJS() as (Pod & { kind?: unknown }) | null)
    .filter((d): d is Pod => d?.kind === 'Pod');
}
