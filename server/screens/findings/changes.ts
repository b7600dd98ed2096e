import type { FindingsChanges } from '../../../lib/api/findings';
import type { RequestScope } from '../../auth/identity';
import { runtimeFor } from '../../runtime/registry';

/** How long GET /api/findings/changes?after=N holds its answer while nothing changes. */
export const FOLLOW_HOLD_MS = 20_000;

/**
 * The revision of the configuration changes heard, for the browser to follow: with `after`,
 * held until the revision is past it (or FOLLOW_HOLD_MS), a long poll.
 */
export async function findingsChanges(
  scope: RequestScope,
  after: number | null = null,
): Promise<FindingsChanges> {
  const rt = runtimeFor(scope);
  if (after !== null) await rt.configChanges.changedAfter(after, FOLLOW_HOLD_MS);
  const s = rt.configChanges.status();
  return { revision: s.revision, watched: s.watched.length };
}
