import { describe, expect, it } from 'vitest';
import { readIstioctl } from '../../tests/data/istioctl/read';
import { proxyStatusCells, proxyStatusSummary, readProxyStatus } from './proxy-status';
import { tabulate } from './table';

function status(text: string) {
  const r = readProxyStatus(text);
  if (!r) throw new Error('not read as proxy-status');
  return r;
}

const states = (r: ReturnType<typeof status>) =>
  r.rows.map((x) => [x.proxy, ...x.types.map((t) => `${t.type}=${t.state ?? '?'}`)]);

describe('istioctl proxy-status, every generation', () => {
  it('reads 1.27+ short table: types named, their state unknown', () => {
    // istioctl's testdata multiXdsStatusMultiPilot.txt (PROVENANCE.md)
    const r = status(readIstioctl('ps-1.27.txt'));
    expect(r.hasStates).toBe(false);
    expect(r.rows.map((x) => [x.proxy, x.cluster, x.istiod, x.version, x.types.length])).toEqual([
      ['proxy1', 'cluster1', 'istiod1', '1.20', 5],
      ['proxy2', 'cluster2', 'istiod2', '1.19', 5],
      ['proxy3', 'cluster3', 'istiod3', '1.20', 5],
      ['proxy4', 'cluster4', 'istiod4', '1.20', 0],
    ]);
    expect(r.rows[0]?.types.map((t) => t.state)).toEqual([null, null, null, null, null]);
    expect(proxyStatusSummary(r)).toContain('the sync state is unknown');
  });

  it('reads --verbose, and 1.30 -o json and -o yaml, to the same states', () => {
    const verbose = status(readIstioctl('ps-1.27-verbose.txt'));
    const json = status(readIstioctl('ps-1.30.json'));
    const yaml = status(readIstioctl('ps-1.30.yaml'));
    const sorted = (r: ReturnType<typeof status>) => states(r).map(([p, ...t]) => [p, ...t.sort()]);
    expect(sorted(verbose)).toEqual([
      ['proxy1', 'CDS=STALE', 'ECDS=SYNCED', 'EDS=SYNCED', 'LDS=SYNCED', 'RDS=NOT SENT'],
    ]);
    expect(sorted(json)).toEqual(sorted(verbose));
    expect(sorted(yaml)).toEqual(sorted(verbose));
    expect([json.form, yaml.form]).toEqual(['json', 'yaml']);
    expect(json.rows[0]).toMatchObject({ istiod: 'istiod1', cluster: 'cluster1', version: '1.20' });
    expect(proxyStatusSummary(json)).toBe(
      '1 proxy: 1 with a STALE type, 1 with a type NOT SENT, 0 with an ERROR; STALE: proxy1 CDS',
    );
    expect(proxyStatusCells(json)[0]).toEqual([
      'NAME',
      'CLUSTER',
      'CDS',
      'LDS',
      'EDS',
      'RDS',
      'ECDS',
      'ISTIOD',
      'VERSION',
    ]);
  });

  it('reads the tables of 1.13 (no ECDS) and of 1.24 with ECDS printed empty', () => {
    const old = status(readIstioctl('ps-1.13.txt'));
    expect(states(old)).toEqual([
      [
        'istio-ingressgateway-66ff9c7b6f-f4p6n.istio-system',
        'CDS=SYNCED',
        'LDS=SYNCED',
        'EDS=SYNCED',
        'RDS=NOT SENT',
      ],
    ]);
    const empty = status(readIstioctl('ps-1.24-empty-ecds.txt'));
    expect(empty.errors).toEqual([]);
    expect(empty.rows).toHaveLength(6);
    expect(empty.rows[0]?.types.find((t) => t.type === 'ECDS')?.state).toBeNull();
    expect(empty.rows[0]?.istiod).toBe('istiod-ossm3-v1-24-1-d5b9b4c89-ccz4v');
    expect(proxyStatusSummary(empty)).toContain('6 states printed empty: unknown');
  });

  it('reads STALE with its age, PILOT of the oldest, and names a cut row', () => {
    // DERIVED by istioctl's writer rules (tabwriter, padding 5): 1.23+ ages, a 1.5 PILOT column
    const aged = tabulate([
      ['NAME', 'CLUSTER', 'CDS', 'LDS', 'EDS', 'RDS', 'ECDS', 'ISTIOD', 'VERSION'],
      [
        'reviews-v1-5b5d6494f4-qwjv4.bookinfo',
        'Kubernetes',
        'SYNCED (2m3s)',
        'SYNCED (2m3s)',
        'STALE (47s)',
        'SYNCED (2m3s)',
        'IGNORED',
        'istiod-7656645d8c-wrqfq',
        '1.24.1',
      ],
      [
        'ratings-v1-6484c4d9bb-mdxm5.bookinfo',
        'Kubernetes',
        'SYNCED (2m3s)',
        'SYNCED (2m3s)',
        'SYNCED (2m3s)',
        'NOT SENT',
        'IGNORED',
        'istiod-7656645d8c-wrqfq',
        '1.24.1',
      ],
    ]);
    // a paste cut inside a third row, after its CDS cell
    const [header = '', first = ''] = aged.split('\n');
    const r = status(`${aged}${first.slice(0, header.indexOf('LDS'))}\n`);
    expect(r.rows[0]?.types.find((t) => t.type === 'EDS')).toEqual({
      type: 'EDS',
      state: 'STALE',
      detail: '47s',
    });
    expect(r.rows[1]?.types.find((t) => t.type === 'RDS')).toEqual({
      type: 'RDS',
      state: 'NOT SENT',
      detail: null,
    });
    expect(r.errors.map((e) => [e.line, e.message])).toEqual([
      [4, 'row lacks LDS, EDS, RDS, ECDS, ISTIOD, VERSION (a cut line?)'],
    ]);
    expect(proxyStatusSummary(r)).toContain(
      'STALE: reviews-v1-5b5d6494f4-qwjv4.bookinfo EDS (47s)',
    );
    const pilot = tabulate([
      ['NAME', 'CDS', 'LDS', 'EDS', 'RDS', 'PILOT', 'VERSION'],
      [
        'productpage-v1-8d69b45c-bcjqv.default',
        'SYNCED',
        'SYNCED',
        'SYNCED (100%)',
        'SYNCED',
        'istio-pilot-75bdf98789-n2kqh',
        '1.1.2',
      ],
    ]);
    const p = status(pilot);
    expect(p.rows[0]).toMatchObject({ istiod: 'istio-pilot-75bdf98789-n2kqh', cluster: null });
    expect(p.rows[0]?.types[2]).toEqual({ type: 'EDS', state: 'SYNCED', detail: '100%' });
  });

  it('reads one answer per istiod printed one after the other (-o json and -o yaml)', () => {
    // DERIVED: istioctl prints each istiod's DiscoveryResponse in turn (printMachineReadable);
    // the second here is the first with another proxy and istiod
    const other = (t: string) => t.replaceAll('proxy1', 'proxy0').replaceAll('istiod1', 'istiod2');
    for (const name of ['ps-1.30.json', 'ps-1.30.yaml']) {
      const one = readIstioctl(name);
      const r = status(`${one}${other(one)}`);
      expect(r.errors, name).toEqual([]);
      expect(
        r.rows.map((x) => [x.proxy, x.istiod]),
        name,
      ).toEqual([
        ['proxy0', 'istiod2'],
        ['proxy1', 'istiod1'],
      ]);
    }
  });

  it('is no proxy-status for other tables', () => {
    expect(readProxyStatus('NAME   READY   STATUS\nx      1/1     Running\n')).toBeNull();
    expect(readProxyStatus('{"configs": []}')).toBeNull();
  });
});
