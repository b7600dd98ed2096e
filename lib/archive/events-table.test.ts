import { describe, expect, it } from 'vitest';
import { humanAgeMs } from '../kube/kubectl-events';
import { parseEventsTable } from './events-table';

// kubectl's HumanDuration forms (k8s.io/apimachinery/pkg/util/duration) and the columns of
// `kubectl get events` without -o wide (older bug-reports ran it so), read from the header
describe('the events table of a bug-report', () => {
  it('reads every age form kubectl prints', () => {
    expect(humanAgeMs('45s')).toBe(45_000);
    expect(humanAgeMs('2m30s')).toBe(150_000);
    expect(humanAgeMs('3h5m')).toBe(11_100_000);
    expect(humanAgeMs('4d2h')).toBe(98 * 3_600_000);
    expect(humanAgeMs('2y10d')).toBe((2 * 365 + 10) * 86_400_000);
    expect(humanAgeMs('<unknown>')).toBeNull();
    expect(humanAgeMs('')).toBeNull();
  });

  it('reads a table without the wide columns by its header', () => {
    const t = parseEventsTable(
      [
        'NAMESPACE   LAST SEEN   TYPE      REASON    OBJECT                 MESSAGE',
        'default     10s         Warning   BackOff   pod/reviews-v2-x1y2z   Back-off restarting failed container istio-proxy in pod reviews-v2-x1y2z',
        'default     1m          Normal    Killing   deployment/reviews     Stopping container',
      ].join('\n'),
      new Date('2026-01-01T00:10:00Z'),
    );
    expect(t.columns).toEqual(['NAMESPACE', 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(
      t.events.map((e) => [e.involvedObject.kind, e.reason, e.lastTimestamp, e.message]),
    ).toEqual([
      [
        'Pod',
        'BackOff',
        '2026-01-01T00:09:50.000Z',
        'Back-off restarting failed container istio-proxy in pod reviews-v2-x1y2z',
      ],
      ['Deployment', 'Killing', '2026-01-01T00:09:00.000Z', 'Stopping container'],
    ]);
  });

  it('names a file that is not an events table, and a row it cannot read', () => {
    expect(parseEventsTable('No resources found\n', null).problems[0]?.message).toMatch(
      /not a kubectl events table/,
    );
    const t = parseEventsTable(
      'NAMESPACE   LAST SEEN   TYPE   REASON   OBJECT   MESSAGE\nx\n',
      null,
    );
    expect(t.problems).toEqual([expect.objectContaining({ line: 2, reason: 'row' })]);
  });
});
