'use client';
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { findingsChangesQuery, findingsQuery, type FindingsReport } from './api';

/**
 * Follows the configuration: when the server has heard a change past the one `report` was begun
 * at (a `kubectl apply`), the report is asked for again (the server has dropped its cached one
 * and started the next). A report without `follow` (none heard yet) is not followed.
 */
export function useFindingsFollow(context: string | null, report: FindingsReport | undefined) {
  const qc = useQueryClient();
  const heard = useQuery(findingsChangesQuery(context)).data?.revision;
  const begunAt = report?.follow?.revision;
  useEffect(() => {
    if (heard === undefined || begunAt === undefined || heard <= begunAt) return;
    void qc.invalidateQueries({ queryKey: findingsQuery(context).queryKey });
  }, [qc, context, heard, begunAt]);
}
