import type { AccessLogRecord } from './types';

/** The requests meshdx looks at by default: a 5xx response, or any response flag. */
export function isFailure(
  record: Pick<AccessLogRecord, 'responseCode' | 'responseFlags'>,
): boolean {
  return (
    (record.responseCode !== null && record.responseCode >= 500) || record.responseFlags.length > 0
  );
}
