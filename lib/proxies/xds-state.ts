/**
 * istioctl proxy-status's rule for one xDS type of one proxy, in one place for both readers of
 * istiod's /debug/syncz (sync.ts from parsed rows, syncz-bytes.ts from the answer's bytes).
 */

/** The xDS types proxy-status shows, with the key of their `<key>_sent` / `<key>_acked` fields. */
export const XDS_TYPES = [
  ['CDS', 'cluster'],
  ['LDS', 'listener'],
  ['RDS', 'route'],
  ['EDS', 'endpoint'],
] as const;

/** Each type's sent and acked field names, in XDS_TYPES order. */
export const XDS_FIELDS = XDS_TYPES.map(([, key]) => [`${key}_sent`, `${key}_acked`] as const);

/** The states by their code (two bits per type in a row's states code). */
export const XDS_STATES = ['NOT SENT', 'SYNCED', 'STALE (Never Acknowledged)', 'STALE'] as const;

/**
 * istioctl's xdsStatus as a code into XDS_STATES: nothing sent (an absent or empty nonce) is
 * NOT SENT; sent and acknowledged with the same nonce is SYNCED; sent and never acknowledged
 * is STALE (Never Acknowledged); acknowledged with another nonce is STALE.
 */
export function xdsStateCode(sentEmpty: boolean, ackedEmpty: boolean, same: boolean): number {
  if (sentEmpty) return 0;
  if (ackedEmpty) return 2;
  return same ? 1 : 3;
}
