/**
 * An archive entry's name as meshdx keeps it: relative, `/`-separated, with no `.` or `..`
 * segment, no NUL and no drive letter. Every other form is refused with the reason, never
 * "cleaned" into a name the archive did not hold: an entry that climbs out of its folder is
 * hostile, not a typo.
 */
export function entryNameProblem(raw: string): string | null {
  if (raw.length === 0) return 'an empty name';
  if (raw.includes('\0')) return 'a NUL byte in its name';
  if (raw.includes('\\')) return 'a backslash in its name (a Windows path)';
  if (raw.startsWith('/')) return 'an absolute path';
  if (/^[A-Za-z]:/.test(raw)) return 'a drive-letter path';
  const parts = raw.split('/');
  if (parts.some((p) => p === '..')) return 'a `..` segment that climbs out of the archive';
  return null;
}

/** The kept form of a name that passed entryNameProblem: `./a//b/` reads `a/b`. */
export function normalEntryName(raw: string): string {
  return raw
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/');
}
