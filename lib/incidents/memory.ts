import type { FailureRead, FailureRetention } from './failure-store';

/** What a window's failing requests are made of, by where they came from (computed once). */
export interface WindowMemory {
  failing: number;
  byRead: Record<FailureRead, number>;
  /** Read from the client proxies' own logs while their pods were alive (view, live, deletion). */
  whileAlive: number;
  /** Sent by the proxies to meshdx's access-log receiver. */
  fromReceiver: number;
  fromUploads: number;
  /** Client pods of the window that are gone and whose logs meshdx never read. */
  goneUnread: string[];
  /** Client logs read for this answer (the rest came from the store alone). */
  readNow: number;
  /** Clients answered from the store alone (their log was read up to the window's end already, or their pod is gone). */
  fromStoreOnly: number;
  /**
   * Namespaces whose recorded requests in the window are not shown to this user (they may not
   * read those proxies' logs); `*` for records of no namespace (uploads, unnamed senders).
   */
  hiddenNamespaces: string[];
  text: string;
}

const n = (v: number) => v.toLocaleString('en-US');
const plural = (v: number, one: string, many: string) => `${n(v)} ${v === 1 ? one : many}`;

/**
 * The sentence every card shows: "1,186 failing requests: 1,040 recorded while the client pods
 * were alive, 146 from the receiver; logs of 3 client pods were gone before meshdx could read
 * them".
 */
export function windowMemory(
  byRead: Record<FailureRead, number>,
  goneUnread: readonly string[],
  reads: { readNow: number; fromStoreOnly: number },
  hiddenNamespaces: readonly string[] = [],
): WindowMemory {
  const whileAlive = byRead.view + byRead.live + byRead.deletion;
  const failing = whileAlive + byRead.otlp + byRead.upload;
  const parts: string[] = [];
  if (whileAlive > 0) parts.push(`${n(whileAlive)} recorded while the client pods were alive`);
  if (byRead.otlp > 0) parts.push(`${n(byRead.otlp)} from the receiver`);
  if (byRead.upload > 0) parts.push(`${n(byRead.upload)} from uploaded logs`);
  let text = `${plural(failing, 'failing request', 'failing requests')} in the store`;
  if (parts.length > 0) text += `: ${parts.join(', ')}`;
  if (goneUnread.length > 0)
    text += `; logs of ${plural(goneUnread.length, 'client pod', 'client pods')} were gone before meshdx could read them`;
  if (hiddenNamespaces.length > 0)
    text += `; not shown: what was recorded from ${hiddenNamespaces.map((ns) => (ns === '*' ? 'uploads and unnamed senders' : ns)).join(', ')}, whose proxy logs you may not read`;
  return {
    failing,
    byRead: { ...byRead },
    whileAlive,
    fromReceiver: byRead.otlp,
    fromUploads: byRead.upload,
    goneUnread: [...goneUnread].sort(),
    readNow: reads.readNow,
    fromStoreOnly: reads.fromStoreOnly,
    hiddenNamespaces: [...hiddenNamespaces],
    text,
  };
}

/** "Failing requests kept: 12,345 (3.2 MiB of 256 MiB) since 2026-11-14T08:00:00Z, up to 14 days." */
export function retentionText(r: FailureRetention): string {
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
  const since = r.oldest === null ? 'none yet' : `since ${new Date(r.oldest).toISOString()}`;
  const pruned = r.pruned > 0 ? `; ${n(r.pruned)} older records deleted` : '';
  return `failing requests kept: ${n(r.records)} (${mib(r.bytes)} of ${mib(r.maxBytes)}), ${since}, for up to ${r.maxAgeDays} days${pruned}`;
}
