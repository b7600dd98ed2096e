import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { analyzeDump } from './report';
import {
  formatZtunnelTables,
  isZtunnelDump,
  readZtunnelDump,
  staleWorkloads,
  withoutNetwork,
  type ZtunnelParse,
} from './ztunnel';

const TEXT = readFixture('config_dump', 'ztunnel_config_dump.json');
const RAW = JSON.parse(TEXT) as {
  workloads: Record<string, { name: string; workloadIps: string[]; waypoint?: unknown }>;
  services: Record<string, { name: string; endpoints: object }>;
  policies: unknown[];
  certificates: unknown[];
};

function parse(text: string): ZtunnelParse {
  const a = analyzeDump(text);
  if (a.kind !== 'ztunnel') throw new Error(`not read as ztunnel: ${JSON.stringify(a)}`);
  return a.ztunnel;
}

describe('ztunnel config dump', () => {
  it('reads every workload and service of the fixture', () => {
    const { dump, errors } = parse(TEXT);
    expect(errors).toEqual([]);
    expect(dump.workloads).toHaveLength(Object.keys(RAW.workloads).length);
    expect(dump.services).toHaveLength(Object.keys(RAW.services).length);
    expect(dump.policies).toBe(RAW.policies.length);
    expect(dump.certificates).toBe(RAW.certificates.length);
    const ratings = dump.workloads.find((w) => w.name === 'ratings-v1-6484c4d9bb-mdxm5');
    expect(ratings).toMatchObject({
      namespace: 'bookinfo',
      ip: '10.244.2.54',
      node: 'ambient-worker2',
      waypoint: 'namespace-istio-waypoint',
      protocol: 'HBONE',
    });
    const withWaypoint = Object.values(RAW.workloads).filter((w) => w.waypoint).length;
    expect(dump.workloads.filter((w) => w.waypoint !== null)).toHaveLength(withWaypoint);
    const wp = dump.services.find((s) => s.name === 'namespace-istio-waypoint');
    expect(wp).toMatchObject({ vip: '10.96.65.117', endpoints: 1 });
    // istioctl's order: namespace.name
    const keys = dump.workloads.map((w) => `${w.namespace}.${w.name}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('prints both tables', () => {
    const out = formatZtunnelTables(parse(TEXT).dump);
    expect(out.split('\n').filter((l) => l.startsWith('NAMESPACE'))).toHaveLength(2);
  });

  it('takes the list layout of newer ztunnels and ugly entries', () => {
    const ugly = {
      workloads: [
        { name: 'a', namespace: 'ns', workloadIps: ['10.0.0.1'], node: 'n1', protocol: 'TCP' },
        'not an object',
        { namespace: 'ns', workloadIps: ['10.0.0.2'] },
        { name: 'b', namespace: 'ns', waypoint: { destination: 'net/10.96.0.9' } },
        {
          name: 'c',
          namespace: 'ns',
          workloadIps: ['fd00::5'],
          waypoint: { destination: '/10.1.1.1' },
        },
      ],
      services: [{ name: 'wp', namespace: 'ns', vips: ['net/10.96.0.9'], endpoints: {} }],
      policies: [],
    };
    const text = JSON.stringify(ugly, null, 1);
    const lineOf = (needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;
    const { dump, errors } = parse(text);
    expect(dump.workloads.map((w) => [w.name, w.ip, w.waypoint, w.protocol])).toEqual([
      ['a', '10.0.0.1', null, 'TCP'],
      ['b', '', 'wp', 'TCP'],
      ['c', 'fd00::5', 'NA', 'TCP'],
    ]);
    expect(errors.map((e) => [e.path, e.line])).toEqual([
      ['workloads[1]', lineOf('"not an object"')],
      ['workloads[2]', lineOf('"10.0.0.2"') - 3],
    ]);
    expect(isZtunnelDump({ configs: [], workloads: {}, services: {} })).toBe(false);
    expect(isZtunnelDump({ workloads: 1, services: 2 })).toBe(true);
    expect(readZtunnelDump({ workloads: 7, services: {} }).errors[0]?.message).toContain(
      'neither a list nor a map',
    );
    expect(withoutNetwork('network1/10.0.0.1')).toBe('10.0.0.1');
  });

  it('lists workloads no live pod backs: IP free, or held by another pod', () => {
    const { dump } = parse(TEXT);
    const live = dump.workloads
      .filter((w) => w.uid.includes('/Pod/'))
      .map((w) => ({ namespace: w.namespace, name: w.name, ips: w.ips }));
    expect(staleWorkloads(dump.workloads, live)).toEqual([]);
    const [gone, reused, ...rest] = live;
    if (!gone || !reused) throw new Error('fixture has too few pods');
    const now = [...rest, { namespace: 'other', name: 'new-pod', ips: reused.ips }];
    const stale = staleWorkloads(dump.workloads, now);
    expect(stale.map((s) => [s.workload.name, s.reason, s.holder?.name ?? null])).toEqual(
      [
        [gone.name, 'ip-free', null],
        [reused.name, 'ip-reused', 'new-pod'],
      ].sort(
        (a, b) =>
          dump.workloads.findIndex((w) => w.name === a[0]) -
          dump.workloads.findIndex((w) => w.name === b[0]),
      ),
    );
    // a workload that is not a pod is never stale
    const entry = {
      ...dump.workloads[0]!,
      uid: 'Kubernetes/networking.istio.io/WorkloadEntry/ns/vm',
    };
    expect(staleWorkloads([entry], [])).toEqual([]);
  });
});
