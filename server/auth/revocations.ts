/**
 * The signed-out sessions of this meshdx, kept beside the history store (MESHDX_DB) so that a
 * restart does not bring a signed-out cookie back to life; with MESHDX_DB=:memory: they live
 * in memory for the run. Entries are digests of the sealed cookie (never the cookie) and expire
 * with it (lib/auth/revocations.ts keeps the list bounded).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  addRevocation,
  formatRevocations,
  isRevoked,
  parseRevocations,
  type Revocation,
} from '../../lib/auth/revocations';

export const REVOCATIONS_FILE = 'revoked-sessions.json';

/** Where the list of a MESHDX_DB setting lives: beside its store files, or null for `:memory:`. */
export function revocationsFileFor(db: string): string | null {
  if (db === ':memory:') return null;
  const dir = /\.(sqlite|db)$/i.test(db) ? path.dirname(db) : db;
  return path.join(dir, REVOCATIONS_FILE);
}

const digest = (sealed: string): string => createHash('sha256').update(sealed).digest('hex');

export class SessionRevocations {
  private list: Revocation[] = [];

  /** `file` null keeps the list in memory; a file that cannot be read is an error naming it. */
  constructor(private readonly file: string | null) {
    if (file === null || !fs.existsSync(file)) return;
    const read = parseRevocations(fs.readFileSync(file, 'utf8'), Date.now());
    if (!read.ok) throw new Error(`meshdx: the session revocation list ${file} is ${read.problem}`);
    this.list = read.list;
  }

  /** Ends the session sealed in `sealed` (valid until `exp`, ms) for good, on disk first. */
  revoke(sealed: string, exp: number, now: number = Date.now()): void {
    const next = addRevocation(this.list, { id: digest(sealed), exp }, now);
    if (this.file !== null) {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, formatRevocations(next), { mode: 0o600 });
      fs.renameSync(tmp, this.file);
    }
    this.list = next;
  }

  has(sealed: string, now: number = Date.now()): boolean {
    return isRevoked(this.list, digest(sealed), now);
  }

  get size(): number {
    return this.list.length;
  }
}
