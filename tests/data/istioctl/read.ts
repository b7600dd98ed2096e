import fs from 'node:fs';
import path from 'node:path';

/** An istioctl output of tests/data/istioctl (see PROVENANCE.md there). */
export function readIstioctl(name: string): string {
  return fs.readFileSync(path.join(import.meta.dirname, name), 'utf8');
}
