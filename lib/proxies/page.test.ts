import { describe, expect, it } from 'vitest';
import type { ProxyFleetRow, FleetView } from '../api/proxies';
import { fleetQueryString, pageFleet, parseFleetQuery, selectFleetRows } from './page';
import { mapBounded } from './pool';
import { proxyKey } from '../refs/proxy-ref';

function row(
  ns: string,
  name: string,
  status: ProxyFleetRow['status'],
  active: number | null,
): ProxyFleetRow {
  return {
    key: proxyKey({ namespace: ns, name }),
    namespace: ns,
    name,
    workload: name.split('-')[0] ?? name,
    workloadKind: 'Deployment',
    placement: 'sidecar',
    status,
    reason: status === 'ok' ? null : status,
    activeClusters: active,
    warmingClusters: null,
    knownStaticClusters: 8,
    serviceClustersEstimate: active === null ? null : active - 8,
    listeners: null,
    memoryBytes: null,
    istioVersion: null,
    serverState: null,
    sidecar: null,
    sidecarUnknown: null,
    sync: null,
    scrapeErrors: 0,
    implausible: [],
    source: active === null ? null : 'prometheus',
    sampledAt: null,
  };
}

const rows = [
  row('a', 'web-1', 'ok', 300),
  row('a', 'web-2', 'unknown', null),
  row('a', 'api-1', 'ok', 40),
  row('b', 'api-2', 'late', null),
  row('b', 'api-3', 'ok', 120),
];

describe('selectFleetRows', () => {
  it('keeps proxies without numbers last in both directions, never as 0', () => {
    const asc = selectFleetRows(rows, { sort: 'clusters', dir: 'asc' }).map((r) => r.key);
    expect(asc).toEqual(['a/api-1', 'b/api-3', 'a/web-1', 'a/web-2', 'b/api-2']);
    const desc = selectFleetRows(rows, { sort: 'clusters', dir: 'desc' }).map((r) => r.key);
    expect(desc.slice(0, 3)).toEqual(['a/web-1', 'b/api-3', 'a/api-1']);
    expect(desc.slice(3).sort()).toEqual(['a/web-2', 'b/api-2']);
  });
});

describe('pageFleet', () => {
  const view = { rows, totals: { proxies: rows.length } } as unknown as FleetView;
  it('ships one page of the filtered rows with the match count and the filter options', () => {
    const p = pageFleet(view, {
      namespace: 'a',
      sort: 'clusters',
      dir: 'desc',
      offset: 1,
      limit: 1,
    });
    expect(p.rows.map((r) => r.key)).toEqual(['a/api-1']);
    expect(p.page).toMatchObject({ matched: 3, offset: 1, limit: 1, namespace: 'a' });
    expect(p.page.namespaces).toEqual(['a', 'b']);
    expect(p.page.workloads).toEqual(['api', 'web']);
    // aggregates are the whole fleet's
    expect(p.totals).toBe(view.totals);
  });
  it('caps the page size', () => {
    expect(pageFleet(view, { limit: 100_000 }).page.limit).toBe(500);
  });
  it('round-trips through the URL, leaving out parameters it does not read', () => {
    const q = parseFleetQuery(
      new URLSearchParams('namespace=a&sort=memory&dir=desc&offset=50&limit=50&sort2=x'),
    );
    expect(q).toEqual({ namespace: 'a', sort: 'memory', dir: 'desc', offset: 50, limit: 50 });
    expect(parseFleetQuery(new URLSearchParams(fleetQueryString(q)))).toEqual(q);
  });
  it('a value it cannot use is the 400 naming it, never dropped', () => {
    for (const [qs, name] of [
      ['sort=__proto__', 'sort'],
      ['sort=bogus', 'sort'],
      ['offset=-1', 'offset'],
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['dir=up', 'dir'],
      ['namespace=UPPER', 'namespace'],
      ['workload=Bad_Name', 'workload'],
    ] as const)
      expect(() => parseFleetQuery(new URLSearchParams(qs)), qs).toThrow(
        expect.objectContaining({
          status: 400,
          message: expect.stringMatching(new RegExp(`^${name}: `)),
        }),
      );
  });
});

describe('mapBounded with a deadline', () => {
  it('gives the late value to items running or not started when time is up', async () => {
    let expire = () => undefined as void;
    const deadline = new Promise<void>((r) => (expire = r));
    const never = new Promise<number>(() => undefined);
    const started: number[] = [];
    const run = mapBounded(
      [1, 2, 3, 4],
      2,
      (n) => {
        started.push(n);
        return n === 1 ? Promise.resolve(10) : never;
      },
      { onThrow: () => -1, deadline, late: () => 0 },
    );
    await new Promise((r) => setTimeout(r, 10));
    expire();
    // 1 answered; 2 and 3 were running; 4 never started
    expect(await run).toEqual([10, 0, 0, 0]);
    expect(started).toEqual([1, 2, 3]);
  });
});
