/** `2026-11-01T12:00:00.123Z` -> `20261101T120000Z`: sortable and safe in any file system. */
export function utcStamp(d: Date): string {
  return d
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** The default output directory name. */
export function defaultOutDir(d: Date): string {
  return `meshdx-report-${utcStamp(d)}`;
}
