'use client';

import { useMemo } from 'react';
import type { TimelineFleet } from '../../lib/api/timelines';
import { groupFindings, narrowGroups } from '../../lib/findings/group';
import { holdCounts, workloadTimelineFindings } from '../../lib/timeline/workload-findings';
import { GroupList } from '../findings/GroupList';
import { Card } from '../ui/Card';

/**
 * What matters first on this screen: the fleet's verdicts as the Findings view groups them (the
 * same function, so the same groups and counts), harm before exposure, the fix at its scope.
 */
export function TimelineGroups({
  f,
  hold,
  namespace,
}: {
  f: TimelineFleet;
  /** The whole fleet's hold counts (the rows here are one page of it). */
  hold: ReturnType<typeof holdCounts>;
  namespace?: string;
}) {
  const groups = useMemo(() => {
    const all = groupFindings(workloadTimelineFindings(f), hold);
    return namespace ? narrowGroups(all, (o) => o.subject.namespace === namespace) : all;
  }, [f, hold, namespace]);
  return (
    <Card title="What matters first (grouped as on Findings)" testId="timeline-groups">
      <GroupList groups={groups} />
    </Card>
  );
}
