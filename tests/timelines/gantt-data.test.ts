import { describe, expect, it } from 'vitest';
import { ganttChartData } from '../../components/timeline/gantt-data';
import type { PodGanttView } from '../../lib/api/timelines';

const g: PodGanttView = {
  namespace: 'shop',
  name: 'web-1',
  start: '2026-01-01T00:00:00Z',
  end: '2026-01-01T00:00:10Z',
  rows: [
    {
      container: 'app',
      role: 'app',
      segments: [
        { kind: 'running', from: '2026-01-01T00:00:04Z', to: null, label: 'running' },
        { kind: 'waiting', from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:02Z', label: 'w' },
      ],
    },
    { container: 'istio-proxy', role: 'proxy', segments: [] },
  ],
  markers: [
    {
      time: '2026-01-01T00:00:06Z',
      kind: 'proxy-ready',
      source: 'transition',
      confidence: 'high',
      container: 'istio-proxy',
    },
    {
      time: '2026-01-01T00:00:01Z',
      kind: 'scheduled',
      source: 'condition:PodScheduled',
      confidence: 'high',
    },
    { time: 'garbage', kind: 'ready', source: 'condition:Ready', confidence: 'high' },
  ],
};

describe('ganttChartData', () => {
  it('stacks sorted segments as gap + length on a seconds axis; open runs end at the chart end', () => {
    const d = ganttChartData(g);
    expect(d.span).toBe(10);
    expect(d.segments).toBe(2);
    expect(d.rows[0]).toMatchObject({
      label: 'app',
      g0: 0,
      s0: 2,
      k0: 'waiting',
      g1: 2,
      s1: 6,
      k1: 'running',
    });
    expect(d.rows[1]).toEqual({ label: 'istio-proxy', containerRole: 'proxy' });
  });

  it('places markers on the axis and on their container row; unreadable times are left out', () => {
    const d = ganttChartData(g);
    expect(d.markers.map((m) => [m.kind, m.x, m.row])).toEqual([
      ['proxy-ready', 6, 'istio-proxy'],
      ['scheduled', 1, null],
    ]);
  });
});
