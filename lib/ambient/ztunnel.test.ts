import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import type { Pod } from '../kube/types';
import { ztunnelWorkloadRows, type ZtunnelConfig } from './ztunnel';

/**
 * The published ztunnel dump, reduced by hand to the reader's shape for a handful of its
 * workloads (the reader itself lives with the config_dump parsers).
 */
interface RawWorkload {
  workloadIps: string[];
  name: string;
  namespace: string;
  node: string;
  protocol: string;
  uid: string;
  status?: string;
  waypoint?: { destination: string };
}
function fixtureConfig(): ZtunnelConfig {
  const raw = JSON.parse(readFixture('config_dump', 'ztunnel_config_dump.json')) as {
    workloads: Record<string, RawWorkload>;
  };
  return {
    workloads: Object.values(raw.workloads).map((w) => ({
      name: w.name,
      namespace: w.namespace,
      ips: w.workloadIps,
      node: w.node,
      waypoint: w.waypoint?.destination ?? null,
      protocol: w.protocol,
      uid: w.uid,
      status: w.status ?? null,
    })),
    services: [],
  };
}

const pod = (ns: string, name: string, ip: string): Pod => ({
  metadata: { namespace: ns, name },
  spec: { containers: [] },
  status: { podIP: ip },
});

describe('ztunnel workload table', () => {
  it('marks workloads whose pod is gone or whose IP another pod now holds', () => {
    const config = fixtureConfig();
    const ratings = config.workloads.find((w) => w.name.startsWith('ratings-v1'));
    const sleep = config.workloads.find((w) => w.name.startsWith('sleep-'));
    expect(ratings?.waypoint).toBe('/10.96.65.117');
    const live = config.workloads
      .filter((w) => w !== ratings && w !== sleep)
      .map((w) => pod(w.namespace, w.name, w.ips[0] ?? ''));
    // sleep's IP went to a new pod of another workload
    live.push(pod('default', 'curl-5b7c9d-aaaaa', sleep?.ips[0] ?? ''));
    const rows = ztunnelWorkloadRows(config, live);
    expect(rows).toHaveLength(config.workloads.length);
    const stale = rows.filter((r) => r.stale !== null);
    expect(stale.map((r) => [r.name, r.stale?.reason, r.stale?.holder])).toEqual([
      ['ratings-v1-6484c4d9bb-mdxm5', 'pod-gone', null],
      ['sleep-7656cf8794-lxcmx', 'ip-reused', 'default/curl-5b7c9d-aaaaa'],
    ]);
    // stale rows first, then by namespace and name
    expect(rows[0]?.stale).not.toBeNull();
    expect(rows.find((r) => r.name.startsWith('httpbin'))?.protocol).toBe('TCP');
  });
});
