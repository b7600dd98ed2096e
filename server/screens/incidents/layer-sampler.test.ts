import { describe, expect, it } from 'vitest';
import { ztunnelTable } from './layer-sampler';
import { readFixture } from '../../../test-support/fixtures';

describe('ztunnelTable (a ztunnel /config_dump as the layer sampler reads it)', () => {
  it("reads a real ztunnel's workloads by IP with their status, network prefixes dropped", () => {
    // istio/istio istioctl/pkg/writer/ztunnel/configdump/testdata/dump.json (PROVENANCE.md)
    const text = readFixture('config_dump', 'ztunnel_config_dump.json');
    const table = ztunnelTable(text);
    if ('problem' in table) throw new Error(table.problem);
    expect(table.size).toBe(27);
    // keyed `network1/10.244.2.54` in the dump, by its bare workload IP here
    expect(table.get('10.244.2.54')).toBe('Healthy');
    expect(table.get('10.244.1.10')).toBe('Healthy');
    // an unhealthy workload keeps its status: the sampler dates the change to it
    const raw = JSON.parse(text) as { workloads: Record<string, { status?: string }> };
    const first = raw.workloads['/10.244.2.58'];
    if (first) first.status = 'Unhealthy';
    const changed = ztunnelTable(JSON.stringify(raw));
    expect('problem' in changed ? changed.problem : changed.get('10.244.2.58')).toBe('Unhealthy');
  });

  it('names an Envoy dump or a body that is not JSON instead of reading it as an empty table', () => {
    const envoy = ztunnelTable(readFixture('config_dump', 'eds_only_config_dump.json'));
    expect(envoy).toEqual({ problem: expect.stringMatching(/not a ztunnel dump/) });
    const html = ztunnelTable('<html>502</html>');
    expect(html).toEqual({ problem: expect.stringMatching(/not JSON/) });
  });
});
