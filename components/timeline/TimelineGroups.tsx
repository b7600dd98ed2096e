'use client';

import type { FindingGroup } from './api';
import { GroupList } from '../findings/GroupList';
import { Card } from '../ui/Card';

/**
 * What matters first on this screen: the fleet's verdicts as the Findings view groups them (the
 * same function, on the server over the whole fleet, so the same groups and counts), harm before
 * exposure, the fix at its scope.
 */
export function TimelineGroups({ groups }: { groups: FindingGroup[] }) {
  return (
    <Card title="What matters first (grouped as on Findings)" testId="timeline-groups">
      <GroupList groups={groups} />
    </Card>
  );
}
