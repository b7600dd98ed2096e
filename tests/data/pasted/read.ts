import fs from 'node:fs';
import path from 'node:path';

/** A pasted sample of tests/data/pasted (see PROVENANCE.md there). */
export function readPasted(name: string): string {
  return fs.readFileSync(path.join(import.meta.dirname, name), 'utf8');
}
