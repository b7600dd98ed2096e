'use client';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { FINDINGS_FOLLOW_POLL_MS, FindingsChangesSchema } from '../../lib/api/findings';
import { withContext } from '../../lib/api/context';
import { fetchJson } from '../data/fetchJson';
import { findingsQuery, type FindingsReport } from './api';

/**
 * Follows the configuration: asks the server (a long poll, GET /api/findings/changes?after=N,
 * answered as soon as a change is heard) and, when the revision has moved past the one `report`
 * was begun at (a `kubectl apply`), asks for the report again (the server has dropped its
 * cached one and started the next). A failed ask is tried again after FINDINGS_FOLLOW_POLL_MS.
 * A report without `follow` (an archive's, a CLI's) is not followed.
 */
export function useFindingsFollow(context: string | null, report: FindingsReport | undefined) {
  const qc = useQueryClient();
  const begunAt = report?.follow?.revision;
  useEffect(() => {
    if (begunAt === undefined) return;
    const stop = new AbortController();
    const pause = () => new Promise((r) => setTimeout(r, FINDINGS_FOLLOW_POLL_MS));
    void (async () => {
      let after = begunAt;
      while (!stop.signal.aborted) {
        try {
          const url = withContext(`/api/findings/changes?after=${after}`, context);
          const c = await fetchJson(url, (d) => FindingsChangesSchema.parse(d), {
            signal: stop.signal,
          });
          if (stop.signal.aborted) return;
          if (c.revision > begunAt) {
            void qc.invalidateQueries({ queryKey: findingsQuery(context).queryKey });
            return; // the next report brings its own revision, and a new follow
          }
          // the server restarted (its revision starts again): follow from its own
          after = c.revision;
        } catch {
          if (stop.signal.aborted) return;
          await pause();
        }
      }
    })();
    return () => stop.abort();
  }, [qc, context, begunAt]);
}
