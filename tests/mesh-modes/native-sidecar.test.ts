import { describe, expect, it } from 'vitest';
import { timelineFleetOf } from '../../server/screens/timelines/timelines';
import { simClient } from '../../test-support/simulator';
import { workloadNameKey } from '../../lib/refs/workload-ref';

const c = simClient('native-sidecar');

describe('native sidecars against the simulator over HTTP', () => {
  it('lists the nodes, reads istiod and flags the workload whose next pod is classic', async () => {
    const fleet = await timelineFleetOf(c.runtime);
    expect(fleet.injection).toMatchObject({ setting: 'auto', nextNative: false, nodesError: null });
    expect(fleet.injection?.nodes.map((n) => n.kubeletVersion)).toEqual([
      'v1.33.2',
      'v1.33.2',
      'v1.32.6',
    ]);
    const flips = fleet.modes
      .filter((m) => m.flips)
      .map((m) => workloadNameKey(m.namespace, m.name));
    expect(flips).toEqual(['native-lab/checkout']);
    const ledger = fleet.modes.find((m) => m.name === 'ledger-api');
    expect(ledger).toMatchObject({ now: 'native', next: 'native', pinned: 'true' });
    expect(fleet.byVerdict['native-not-ready']).toBe(1);
    expect(fleet.byVerdict['hold-redundant']).toBe(2);
  });
});
