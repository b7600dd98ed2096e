import { describe, expect, it } from 'vitest';
import type { TimelineFleetRow, TimelineFleet } from '../api/timelines';
import { RequestError } from '../api/request-error';
import {
  MAX_TIMELINE_PAGE_SIZE,
  pageTimelineFleet,
  parseTimelineQuery,
  timelineQueryOfView,
  timelineQueryString,
  TIMELINE_PAGE_SIZE,
} from './fleet-page';
import { podKeyOf } from '../refs/pod-ref';

function row(i: number, over: Partial<TimelineFleetRow> = {}): TimelineFleetRow {
  return {
    namespace: `ns-${i % 3}`,
    name: `pod-${String(i).padStart(4, '0')}`,
    uid: `u${i}`,
    workloadKind: 'Deployment',
    workload: `w-${i % 7}`,
    mode: i % 5 === 0 ? 'native' : 'classic',
    verdicts: i % 4 === 0 ? ['race'] : ['classic-ok'],
    codes: [],
    severity: i % 4 === 0 ? 'warning' : 'info',
    harm: i % 4 === 0 ? 3 : 9,
    restarts: i % 11 === 0 ? 2 : 0,
    proxyRestarts: 0,
    // ugly: some pods have no gap (never ready), some a huge negative one
    gapMs: i % 13 === 0 ? null : i % 17 === 0 ? -9e9 : (i % 50) * 10 - 250,
    proxyReadySource: 'condition',
    proxyReadyConfidence: 'medium',
    excluded: null,
    phase: i % 9 === 0 ? 'Pending' : 'Running',
    // ugly: a pod never scheduled has no start time
    startedAt: i % 23 === 0 ? null : new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString(),
    deleted: i % 10 === 0,
    deletedAt: i % 10 === 0 ? new Date(Date.UTC(2026, 10, 1, 1, 0, i)).toISOString() : null,
    ...over,
  };
}

function fleet(n: number): TimelineFleet {
  const rows = Array.from({ length: n }, (_, i) => row(i));
  return {
    generatedAt: '2026-11-01T12:00:00.000Z',
    pods: n,
    byVerdict: {},
    byMode: {},
    rows,
    workloads: [],
    fixes: Array.from({ length: 21 }, (_, w) => ({
      namespace: `ns-${w % 3}`,
      kind: 'Deployment',
      name: `w-${w}`,
      verdict: 'race' as const,
      code: 'MDX0101',
      pods: 3,
      example: `pod-${w}`,
      fixes: [{ why: 'hold the app until the proxy is ready', yaml: 'x: 1' }],
    })),
    mesh: { from: 'configmap', holdApplicationUntilProxyStarts: false, errors: [] },
    cache: {
      podsWatch: 'watching',
      eventsWatch: 'watching',
      livePods: n,
      deletedPods: 0,
      evictedPods: 0,
      events: 0,
      history: 'memory',
    },
    injection: null,
    modes: [],
  };
}

const key = (r: TimelineFleetRow) => podKeyOf(r);

describe('pageTimelineFleet', () => {
  const f = fleet(1234);

  it('pages through every matching row exactly once, in order', () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 1234; offset += 100) {
      const p = pageTimelineFleet(f, { sort: 'gap', dir: 'desc', offset, limit: 100 });
      expect(p.page.matched).toBe(1234);
      seen.push(...p.rows.map(key));
    }
    expect(seen).toHaveLength(1234);
    expect(new Set(seen).size).toBe(1234);
    const all = pageTimelineFleet(f, { sort: 'gap', dir: 'desc', limit: 500 }).rows;
    // null gaps sort as the largest, so they lead a descending order
    expect(all[0]?.gapMs).toBeNull();
  });

  it('defaults to the verdict ranking, 50 rows, worst first', () => {
    const p = pageTimelineFleet(f, {});
    expect(p.rows).toHaveLength(TIMELINE_PAGE_SIZE);
    expect(p.page.sort).toBe('verdict');
    expect(p.rows.every((r) => r.verdicts.includes('race'))).toBe(true);
  });

  it('counts the whole filtered set on the stat cards, not the page', () => {
    const p = pageTimelineFleet(f, { namespace: 'ns-1', verdict: 'race', limit: 5 });
    const inNs = f.rows.filter((r) => r.namespace === 'ns-1');
    expect(p.rows).toHaveLength(5);
    expect(p.page.counts.pods).toBe(inNs.length);
    expect(p.page.counts.byVerdict.race).toBe(
      inNs.filter((r) => r.verdicts.includes('race')).length,
    );
    expect(p.page.counts.byVerdict['classic-ok']).toBe(
      inNs.filter((r) => r.verdicts.includes('classic-ok')).length,
    );
    expect(p.page.counts.deleted).toBe(inNs.filter((r) => r.deleted).length);
    // the note's figure is the fleet's, whatever the filters
    expect(p.page.deletedInFleet).toBe(f.rows.filter((r) => r.deleted).length);
    expect(p.page.deletedInFleet).toBeGreaterThan(p.page.counts.deleted);
    expect(p.page.matched).toBe(inNs.filter((r) => r.verdicts.includes('race')).length);
    expect(p.page.namespaces).toEqual(['ns-0', 'ns-1', 'ns-2']);
    expect(p.page.workloads).toEqual([...new Set(inNs.map((r) => r.workload))].sort());
  });

  it('applies the search and the time window as the screen did', () => {
    const p = pageTimelineFleet(f, { q: 'pod-01', limit: 500 });
    expect(p.rows.map((r) => r.name).every((n) => n.includes('pod-01'))).toBe(true);
    expect(p.page.matched).toBe(100);
    const w = pageTimelineFleet(f, {
      from: '2026-11-01T00:10:00.000Z',
      to: '2026-11-01T00:12:00.000Z',
      limit: 500,
    });
    // started by 00:12 and not gone before 00:10, plus pods never scheduled that are not deleted
    expect(w.page.matched).toBeGreaterThan(0);
    for (const r of w.rows)
      if (r.startedAt)
        expect(Date.parse(r.startedAt)).toBeLessThanOrEqual(Date.parse('2026-11-01T00:12:00Z'));
  });

  it('an offset past the end shows the last row, an empty match no rows', () => {
    expect(pageTimelineFleet(f, { offset: 99_999 }).rows.map(key)).toEqual([
      key(pageTimelineFleet(f, { limit: 500, offset: 1200 }).rows.at(-1) as TimelineFleetRow),
    ]);
    const none = pageTimelineFleet(f, { namespace: 'nowhere' });
    expect(none.rows).toEqual([]);
    expect(none.page.matched).toBe(0);
    expect(none.page.counts.pods).toBe(0);
    expect(pageTimelineFleet(fleet(0), {}).rows).toEqual([]);
  });
});

describe('the per-workload parts of a page', () => {
  it('carries the first fixes and counts them all; groups every fix of the namespace', () => {
    const f = fleet(100);
    f.fixes = [...f.fixes, ...f.fixes.map((x) => ({ ...x, name: `${x.name}-b` }))];
    const p = pageTimelineFleet(f, {});
    expect(p.fixes).toHaveLength(40);
    expect(p.page.fixesMatched).toBe(42);
    expect(p.page.groups.reduce((n, g) => n + g.objects.length, 0)).toBe(42);
    const inNs = pageTimelineFleet(f, { namespace: 'ns-1' });
    expect(inNs.page.fixesMatched).toBe(14);
    expect(inNs.fixes.every((x) => x.namespace === 'ns-1')).toBe(true);
    for (const g of inNs.page.groups)
      expect(g.objects.every((o) => o.subject.namespace === 'ns-1')).toBe(true);
  });
});

describe('parseTimelineQuery', () => {
  const parse = (s: string) => parseTimelineQuery(new URLSearchParams(s));

  it('reads what timelineQueryString writes', () => {
    const q = {
      namespace: 'shop',
      workload: 'cart',
      verdict: 'race',
      q: 'cart-7',
      from: '2026-11-01T12:00:00.000Z',
      to: '2026-11-01T13:00:00.000Z',
      sort: 'gap',
      dir: 'desc' as const,
      offset: 100,
      limit: 50,
    };
    expect(parse(timelineQueryString(q))).toEqual(q);
    expect(parse('')).toEqual({});
  });

  it('names every parameter it cannot use', () => {
    for (const [qs, name] of [
      ['limit=abc', 'limit'],
      ['limit=0', 'limit'],
      [`limit=${MAX_TIMELINE_PAGE_SIZE + 1}`, 'limit'],
      ['offset=-5', 'offset'],
      ['sort=bogus', 'sort'],
      ['dir=up', 'dir'],
      ['verdict=maybe', 'verdict'],
      ['namespace=Not_A_Name', 'namespace'],
      ['from=yesterday', 'from'],
    ] as const) {
      let err: unknown;
      try {
        parse(qs);
      } catch (e) {
        err = e;
      }
      expect(err, qs).toBeInstanceOf(RequestError);
      expect((err as RequestError).message, qs).toMatch(new RegExp(`^${name}:`));
    }
  });

  it('the screen asks for its page of 50', () => {
    expect(timelineQueryOfView({ page: '3', verdict: 'nonsense', sort: 'gap' })).toEqual({
      sort: 'gap',
      offset: 100,
      limit: 50,
    });
  });
});
