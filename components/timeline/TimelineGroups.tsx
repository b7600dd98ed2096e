'use client';

import { useMemo } from 'react';
import type { TimelineFleet } from '../../lib/api/timelines';
import { groupFindings } from '../../lib/findings/group';
import { holdCounts, workloadTimelineFindings } from '../../lib/timeline/workload-findings';
import { GroupList } from '../findings/GroupList';
import { Card } from '../ui/Card';

/**
 * What matters first on this screen: the fleet's verdicts as the Findings view groups them (the
 * same function, so the same groups and counts), harm before exposure, the fix at its scope.
 */
export function TimelineGroups({ f, namespace }: { f: TimelineFleet; namespace?: string }) {
  const groups = useMemo(() => {
    const all = groupFindings(workloadTimelineFindings(f), holdCounts(f));
    if (!namespace) return all;
    return all
      .map((g) => {
        const objects = g.objects.filter((o) => o.subject.namespace === namespace);
        return {
          ...g,
          objects,
          count: objects.length,
          harmed: objects.filter((o) => o.harmed).length,
        };
      })
      .filter((g) => g.count > 0);
  }, [f, namespace]);
  return (
    <Card title="What matters first (grouped as on Findings)" testId="timeline-groups">
      <GroupList groups={groups} />
    </Card>
  );
}
