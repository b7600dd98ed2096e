import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../lib/kube/types';
import { createMeshEmulator } from './index';
import { SUPPORTED_QUANTILES, type EnvoyStatsJson } from './statsjson';
import { bookinfo, worldOf } from './testworld';

const q = (s = '') => new URLSearchParams(s);
const PP = 'productpage-v1-abc';

function setup() {
  const w = bookinfo();
  const mesh = createMeshEmulator(worldOf(w));
  const pod = (w.pods as Pod[]).find((x) => x.metadata.name === PP);
  if (!pod) throw new Error(PP);
  const get = (query: string) => mesh.podHttp(pod, 15000, '/stats', q(query));
  const parsed = (query: string) => {
    const r = get(query);
    expect(r.status).toBe(200);
    expect(r.contentType).toContain('application/json');
    return JSON.parse(r.body) as EnvoyStatsJson;
  };
  return { get, parsed };
}

const plain = (j: EnvoyStatsJson) =>
  j.stats.filter((s): s is { name: string; value: number } => 'name' in s);

describe('/stats?format=json', () => {
  it('has the same counters and gauges as the text form, as {name, value}, sorted', () => {
    const { get, parsed } = setup();
    const j = parsed('format=json');
    const text = get('')
      .body.trim()
      .split('\n')
      .filter((l) => !l.includes('P0('))
      .map((l) => {
        const i = l.lastIndexOf(': ');
        return { name: l.slice(0, i), value: Number(l.slice(i + 2)) };
      });
    expect(plain(j)).toEqual(text);
    const names = plain(j).map((s) => s.name);
    expect(names).toEqual([...names].sort());
    expect(plain(j).every((s) => Object.keys(s).join() === 'name,value')).toBe(true);
  });

  it('ends with the histograms entry in Envoy default form (quantiles, cumulative/interval)', () => {
    const { parsed } = setup();
    const j = parsed('format=json');
    const last = j.stats.at(-1);
    expect(last && 'histograms' in last).toBe(true);
    if (!last || !('histograms' in last)) return;
    expect(last.histograms.supported_quantiles).toEqual(SUPPORTED_QUANTILES);
    const init = last.histograms.computed_quantiles.find(
      (h) => h.name === 'server.initialization_time_ms',
    );
    expect(init?.values).toHaveLength(SUPPORTED_QUANTILES.length);
    expect(init?.values[0]?.interval).toBeNull();
    expect(typeof init?.values[0]?.cumulative).toBe('number');
  });

  it('applies filter and usedonly, and drops the histograms entry when none is selected', () => {
    const { get, parsed } = setup();
    const cm = parsed('format=json&filter=^cluster_manager');
    expect(cm.stats.length).toBeGreaterThan(2);
    expect(plain(cm)).toHaveLength(cm.stats.length);
    expect(plain(cm).every((s) => s.name.startsWith('cluster_manager.'))).toBe(true);
    const used = parsed('format=json&filter=upstream_rq_total$&usedonly');
    expect(plain(used)).toEqual([
      {
        name: 'cluster.outbound|9080||reviews.default.svc.cluster.local.upstream_rq_total',
        value: 42,
      },
      { name: 'cluster.xds-grpc.upstream_rq_total', value: 1 },
    ]);
    expect(used.stats).toHaveLength(2);
    const all = parsed('format=json&filter=upstream_rq_total$');
    expect(all.stats.length).toBeGreaterThan(used.stats.length);
    const hist = parsed('format=json&filter=initialization_time');
    expect(hist.stats).toHaveLength(1);
    expect(get('format=json&filter=(').status).toBe(400);
  });
});
