import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { run } from './clusters';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { fixturePath } from '../../test-support/fixtures';

/** `meshdx clusters` on istioctl's own outputs (tests/data/istioctl, see PROVENANCE.md there). */
const dir = tempDir('clusters-istioctl');
const data = (name: string) =>
  path.join(import.meta.dirname, '..', '..', 'tests', 'data', 'istioctl', name);

describe('meshdx clusters: istioctl outputs', () => {
  it('prints the endpoint table of pc endpoint --file -o yaml and says what it read', async () => {
    const t = fakeIO(dir);
    expect(await run([data('pc-endpoint-file.yaml')], t)).toBe(0);
    expect(t.err).toContain('read as `istioctl proxy-config endpoint --file DUMP -o yaml` output');
    expect(t.out.split('\n')[0]).toMatch(/^ENDPOINT +STATUS +LOCALITY +CLUSTER +WORKLOAD$/);
    expect(t.out).toContain('36 endpoints in 32 clusters');
  });

  it('prints proxy-status with its STALE proxies, and its JSON', async () => {
    const t = fakeIO(dir);
    expect(await run([data('ps-1.30.json')], t)).toBe(0);
    expect(t.out).toContain('STALE: proxy1 CDS');
    expect(t.out).toContain('(read as `istioctl proxy-status` -o json output: 1 proxy)');
    const j = fakeIO(dir);
    expect(await run([data('ps-1.24-empty-ecds.txt'), '--json'], j)).toBe(0);
    const out = JSON.parse(j.out) as { kind: string; hasStates: boolean; proxies: unknown[] };
    expect([out.kind, out.hasStates, out.proxies.length]).toEqual(['proxy-status', true, 6]);
  });

  it('reads /clusters text with the endpoint table, and a cut proxy-status row exits 1', async () => {
    const t = fakeIO(dir);
    expect(await run([data('clusters-text-derived.txt')], t)).toBe(0);
    expect(t.out).toContain(
      '9 endpoints in 7 clusters: 1 not HEALTHY, 1 ejected by outlier detection',
    );
    const cut = path.join(dir, 'ps-cut.txt');
    const text = fs.readFileSync(data('ps-1.13.txt'), 'utf8');
    fs.writeFileSync(cut, `${text}${text.split('\n')[1]?.slice(0, 70)}\n`);
    const c = fakeIO(dir);
    expect(await run([cut], c)).toBe(1);
    expect(c.err).toMatch(/line 3: row lacks .*ISTIOD, VERSION \(a cut line\?\)/);
  });

  it('reads a waypoint dump with --endpoints: internal addresses shown, nothing hidden', async () => {
    const t = fakeIO(dir);
    const file = fixturePath('config_dump', 'istioctl-proxyconfig_all_types_config_dump.json');
    expect(await run([file, '--endpoints'], t)).toBe(0);
    expect(t.out).toContain('envoy://connect_originate/192.168.195.248:800');
    expect(t.err).not.toContain('not shown');
  });
});
