/**
 * Sealing: a value made unreadable and tamper-evident for the browser to carry (the session
 * cookie). AES-256-GCM with a fresh 96-bit IV per seal; the key is derived from
 * MESHDX_SESSION_SECRET (HKDF-SHA256), or random per process without it. The sealed form is
 * `v1.` + base64url(iv | tag | ciphertext): no part of the plaintext shows.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 32-byte key from the configured secret (stable across restarts), or a random one. */
export function sealingKey(secret: string | undefined): Buffer {
  if (secret === undefined) return randomBytes(32);
  return Buffer.from(hkdfSync('sha256', secret, 'meshdx', 'meshdx session cookie v1', 32));
}

export function seal(plaintext: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** Why a sealed value was refused: not ours at all, or altered / sealed with another key. */
export type UnsealFailure = 'malformed' | 'forged';

export function unseal(
  sealed: string,
  key: Buffer,
): { ok: true; plaintext: string } | { ok: false; why: UnsealFailure } {
  if (!sealed.startsWith(VERSION)) return { ok: false, why: 'malformed' };
  const raw = sealed.slice(VERSION.length);
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) return { ok: false, why: 'malformed' };
  const bytes = Buffer.from(raw, 'base64url');
  // one encoding only: a changed padding bit in the last character is an altered value too
  if (bytes.toString('base64url') !== raw) return { ok: false, why: 'malformed' };
  if (bytes.length < IV_BYTES + TAG_BYTES + 1) return { ok: false, why: 'malformed' };
  const iv = bytes.subarray(0, IV_BYTES);
  const tag = bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const body = bytes.subarray(IV_BYTES + TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    const plaintext = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    return { ok: true, plaintext };
  } catch {
    return { ok: false, why: 'forged' };
  }
}
