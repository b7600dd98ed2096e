import { describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { podLogs } from '../../server/kube/logs';
import { simClient } from '../../test-support/simulator';

const c = simClient('startup-race');

function podOf(app: string): Pod {
  const p = c.sim.store
    .list<Pod>('pods')
    .filter((x) => x.metadata.labels?.app === app && !x.metadata.deletionTimestamp)
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))[0];
  if (!p) throw new Error(`no ${app} pod`);
  return p;
}

const startedAt = (p: Pod, c: string) =>
  Date.parse(
    p.status?.containerStatuses?.find((s) => s.name === c)?.state?.running?.startedAt ?? '',
  );

const lines = (text: string) => text.trimEnd().split('\n');

describe('app container logs through the adapter (pods/log)', () => {
  it('a lucky classic app logs a clean start, stamped from its container start', async () => {
    const p = podOf('catalog');
    const out = await podLogs(c.t, 'race-lab', p.metadata.name, 'catalog', { timestamps: true });
    const ls = lines(out);
    expect(ls[0]).toMatch(/ starting catalog$/);
    expect(out).toContain('listening on :8080');
    expect(out).not.toContain('connection refused');
    const first = Date.parse(ls[0]?.split(' ')[0] ?? '');
    const start = startedAt(p, 'catalog');
    expect(first - start).toBeGreaterThanOrEqual(0);
    expect(first - start).toBeLessThan(1000); // startedAt has whole seconds
  });

  it('a racing app that restarted: current run starts cleanly, the previous run was refused', async () => {
    const p = podOf('orders');
    const cur = await podLogs(c.t, 'race-lab', p.metadata.name, 'orders');
    expect(cur).toContain('listening on :8080');
    expect(cur).not.toContain('connection refused');
    const prev = await podLogs(c.t, 'race-lab', p.metadata.name, 'orders', { previous: true });
    expect(prev).toContain('connect: connection refused');
    expect(lines(prev).at(-1)).toBe('fatal: dependency check failed, exiting with code 1');
  });

  it('a racing app that did not crash retries its refused dependency until the proxy is ready', async () => {
    const p = podOf('streamer');
    const ls = lines(await podLogs(c.t, 'race-drain', p.metadata.name, 'streamer'));
    const refused = ls.filter((l) => l.endsWith('connection refused; retrying in 1s'));
    expect(refused.length).toBeGreaterThan(0);
    expect(ls.indexOf('connected to dependency at http://backend:8080/healthz')).toBeGreaterThan(
      ls.lastIndexOf(refused.at(-1) ?? ''),
    );
  });

  it('a wrapper prints curl failures until the proxy answers, then the app starts', async () => {
    const p = podOf('reports');
    const out = await podLogs(c.t, 'race-lab', p.metadata.name, 'reports');
    expect(out).toMatch(/^curl: \(7\) Failed to connect to localhost port 15021/);
    expect(out).toContain('starting reports');
  });

  it('a pod whose app starts later writes its lines when the clock gets there', async () => {
    expect(c.sim.store.list<Pod>('pods').some((p) => p.metadata.labels?.app === 'frontend')).toBe(
      false,
    );
    c.sim.clock.advance(20_000);
    const p = podOf('frontend');
    const out = await podLogs(c.t, 'race-lab', p.metadata.name, 'frontend');
    // it raced: its first run is still the current one, refused and exiting 1
    expect(out).toContain('connect: connection refused');
    expect(out).toContain('exiting with code 1');
  });
});
