/**
 * The objects of Istio's analyzer test inputs, as `meshdx findings` reads a manifest file: the
 * shared grid's (../shared/fixtures/istio_config/analyzer) and the upstream cases kept in
 * tests/data/istio-analyzer (PROVENANCE.md there).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseManifestText } from '../lib/findings/input';
import { readFixture } from './fixtures';

const UPSTREAM = path.resolve(import.meta.dirname, '..', 'tests', 'data', 'istio-analyzer');

const objectsOf = (text: string, file: string): unknown[] =>
  parseManifestText(text, file).objects.map((o) => o.object);

/** A file of the shared analyzer grid (FILE relative to istio_config/analyzer). */
export function gridObjects(file: string): unknown[] {
  return objectsOf(readFixture('istio_config', 'analyzer', file), file);
}

/** An upstream analyzer test input kept in tests/data/istio-analyzer. */
export function upstreamObjects(file: string): unknown[] {
  return objectsOf(fs.readFileSync(path.join(UPSTREAM, file), 'utf8'), file);
}
