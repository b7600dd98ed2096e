/**
 * How much of an archive meshdx reads. An archive is untrusted input (a vendor's, a colleague's,
 * one found attached to an issue): every bound here is checked while it is read, so a hostile
 * one costs at most these bytes of memory and time, and each refusal names the bound.
 */
export interface ArchiveLimits {
  /** Entries read (files, directories and skipped ones alike) before the archive is refused. */
  maxEntries: number;
  /** One entry's size: a larger one is skipped, named, and its bytes are never kept. */
  maxEntryBytes: number;
  /** Bytes kept in memory from a packed archive, over all its entries: past it, entries are skipped. */
  maxStoredBytes: number;
  /** Bytes the gzip stream may expand to, kept or not (a gzip bomb stops here). */
  maxExpandedBytes: number;
  /** Expanded bytes per compressed byte, checked once `ratioAfterBytes` have expanded. */
  maxRatio: number;
  ratioAfterBytes: number;
}

const MiB = 1024 * 1024;

/**
 * The bounds `meshdx open` and the CLI use: a bug-report of a few thousand proxies (each config
 * dump a few MB, compressed some 10 to 30 times) fits; a deflate bomb (up to ~1,000 times) does not.
 */
export const DEFAULT_ARCHIVE_LIMITS: Readonly<ArchiveLimits> = Object.freeze({
  maxEntries: 200_000,
  maxEntryBytes: 512 * MiB,
  maxStoredBytes: 2048 * MiB,
  maxExpandedBytes: 8192 * MiB,
  maxRatio: 200,
  ratioAfterBytes: 64 * MiB,
});

/** Bytes as a person reads them (`512 MiB`), for messages that name a bound. */
export function byteText(n: number): string {
  if (n >= MiB) return `${Math.round((n / MiB) * 10) / 10} MiB`;
  if (n >= 1024) return `${Math.round((n / 1024) * 10) / 10} KiB`;
  return `${n} bytes`;
}
