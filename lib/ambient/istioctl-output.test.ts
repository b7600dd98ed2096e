import { describe, expect, it } from 'vitest';
import { readZtunnelConfigOutput, sniffZtunnelOutput } from './istioctl-output';
import { formatZtunnelTables, readZtunnelDump } from '../configdump/ztunnel';
import { readIstioctl } from '../../tests/data/istioctl/read';
import { readPasted } from '../../tests/data/pasted/read';
import { readFixture } from '../../test-support/fixtures';
import { podKey } from '../refs/pod-ref';
import { objectKey } from '../refs/object-ref';

function read(name: string) {
  const r = readZtunnelConfigOutput(readPasted(name));
  if (!r) throw new Error(`${name}: not read as istioctl ztunnel-config output`);
  return r;
}

describe('istioctl ztunnel-config output', () => {
  const dump = readZtunnelDump(JSON.parse(readFixture('config_dump', 'ztunnel_config_dump.json')));

  it('reads the workloads table istioctl printed for the shared dump: the same rows as the dump', () => {
    const r = read('zc-workloads-istioctl-testdata.txt');
    expect([r.command, r.form, r.parse.errors]).toEqual(['workloads', 'table', []]);
    const key = (w: {
      namespace: string;
      name: string;
      ip: string;
      node: string;
      protocol: string;
    }) => `${podKey(w.namespace, w.name)} ${w.ip} ${w.node} ${w.protocol}`;
    expect(r.parse.dump.workloads.map(key).sort()).toEqual(dump.dump.workloads.map(key).sort());
    const details = r.parse.dump.workloads.find((w) => w.name.startsWith('details-v1'));
    expect(details?.waypoint).toBe('namespace-istio-waypoint');
    expect(details?.uid).toBe('Kubernetes//Pod/bookinfo/details-v1-698d88b-dqrbr');
  });

  it('reads the services table: VIPs and endpoint counts as in the dump', () => {
    const r = read('zc-services-istioctl-testdata.txt');
    expect([r.command, r.form, r.parse.errors]).toEqual(['services', 'table', []]);
    const key = (s: { namespace: string; name: string; vip: string; endpoints: number }) =>
      `${objectKey(s.namespace, s.name)} ${s.vip} ${s.endpoints}`;
    expect(r.parse.dump.services.map(key).sort()).toEqual(dump.dump.services.map(key).sort());
  });

  it('reads the policies table as a count', () => {
    const r = read('zc-policies-istioctl-testdata.txt');
    expect([r.command, r.parse.dump.policies, r.parse.dump.workloads]).toEqual(['policies', 2, []]);
  });

  it('reads the istio.io table (IP column of 1.22, one space where a name is longest)', () => {
    const r = read('zc-workloads-istio-docs.txt');
    expect(r.parse.dump.workloads).toHaveLength(15);
    expect(r.parse.dump.workloads[0]).toMatchObject({
      namespace: 'default',
      name: 'bookinfo-gateway-istio-59dd7c96db-q9k6v',
      ip: '10.244.1.11',
      node: 'ambient-worker',
      waypoint: null,
      protocol: 'TCP',
    });
    expect(r.parse.dump.workloads.at(-1)).toMatchObject({
      namespace: 'local-path-storage',
      node: 'ambient-control-plane',
    });
  });

  it('reads `-o json` lists of workloads and services, not as an Envoy dump', () => {
    const w = read('zc-workloads-o-json.json');
    expect([w.command, w.form, w.parse.errors.length]).toEqual(['workloads', 'json', 0]);
    expect(w.parse.dump.workloads).toHaveLength(dump.dump.workloads.length);
    const s = read('zc-services-o-json.json');
    expect([s.command, s.parse.dump.services.length]).toEqual(['services', 19]);
  });

  it('reads all four tables of `istioctl zc all`, and names the connections table it cannot hold', () => {
    const text = readPasted('zc-all-istioctl-testdata.txt');
    const r = read('zc-all-istioctl-testdata.txt');
    expect([r.command, r.form]).toEqual(['all', 'table']);
    const w = (x: { namespace: string; name: string; ip: string }) =>
      `${podKey(x.namespace, x.name)} ${x.ip}`;
    expect(r.parse.dump.workloads.map(w).sort()).toEqual(dump.dump.workloads.map(w).sort());
    const s = (x: { namespace: string; name: string; endpoints: number }) =>
      `${objectKey(x.namespace, x.name)} ${x.endpoints}`;
    expect(r.parse.dump.services.map(s).sort()).toEqual(dump.dump.services.map(s).sort());
    expect([r.parse.dump.policies, r.parse.dump.certificates]).toEqual([2, 5]);
    const connections = text.split('\n').findIndex((l) => l.startsWith('WORKLOAD ')) + 1;
    expect(r.parse.errors).toEqual([
      {
        line: connections,
        reason: 'bad-entry',
        message: 'the connections table (8 rows) is not read: the ztunnel model has no connections',
      },
    ]);
  });

  it('tells the kind of output from the first 64 KiB only', () => {
    expect(sniffZtunnelOutput(readPasted('zc-all-istioctl-testdata.txt'))).toEqual({
      command: 'all',
      form: 'table',
    });
    expect(sniffZtunnelOutput(readPasted('zc-services-o-json.json'))).toEqual({
      command: 'services',
      form: 'json',
    });
    const dumpText = readFixture('config_dump', 'ztunnel_config_dump.json');
    expect(sniffZtunnelOutput(dumpText)).toEqual({ command: 'all', form: 'json' });
    // a list far longer than 64 KiB, cut mid-entry there: still told by its first entries
    const big = readPasted('zc-workloads-o-json.json').replace(
      /^\[/,
      `[${'{"uid": "x", "protocol": "TCP"},'.repeat(3000)}`,
    );
    expect(big.length).toBeGreaterThan(64 * 1024);
    expect(sniffZtunnelOutput(big)).toEqual({ command: 'workloads', form: 'json' });
    expect(
      sniffZtunnelOutput(readFixture('config_dump', 'istio-echo-a_sidecar_config_dump.json')),
    ).toBeNull();
  });

  it('says nothing of other text', () => {
    expect(readZtunnelConfigOutput('[{"a":1}]')).toBeNull();
    expect(readZtunnelConfigOutput(readPasted('ztunnel-kubewarden-rfc.log'))).toBeNull();
    expect(sniffZtunnelOutput(readPasted('ztunnel-kubewarden-rfc.log'))).toBeNull();
    expect(sniffZtunnelOutput('[{"a":1}]')).toBeNull();
  });
});

describe('older ztunnel-config headers, certificates, service waypoints', () => {
  it('reads the `x zc workload` table of 1.18-1.21 (NAME before NAMESPACE) and 1.17 (L7 SUPPORT)', () => {
    // DERIVED from zc-workloads-istioctl-testdata.txt: its rows in the older writers' column
    // order (istioctl workload.go before 1.22: NAME NAMESPACE IP NODE WAYPOINT PROTOCOL)
    const now = read('zc-workloads-istioctl-testdata.txt');
    const rows = now.parse.dump.workloads;
    const table = (fifth: string) =>
      [
        ['NAME', 'NAMESPACE', 'IP', 'NODE', fifth, 'PROTOCOL'],
        ...rows.map((w) => [
          w.name,
          w.namespace,
          w.ip,
          w.node,
          fifth === 'WAYPOINT' ? (w.waypoint ?? 'None') : 'false',
          w.protocol,
        ]),
      ]
        .map((cells) =>
          cells
            .map((c) => c.padEnd(60))
            .join('')
            .trimEnd(),
        )
        .join('\n');
    for (const fifth of ['WAYPOINT', 'L7 SUPPORT']) {
      const old = readZtunnelConfigOutput(table(fifth));
      if (!old) throw new Error(`${fifth}: not read`);
      expect(old.parse.errors).toEqual([]);
      expect(
        old.parse.dump.workloads.map((w) => [w.namespace, w.name, w.ip, w.node, w.protocol]),
      ).toEqual(rows.map((w) => [w.namespace, w.name, w.ip, w.node, w.protocol]));
    }
  });

  it('reads the certificates table with each state, not as nothing', () => {
    // istioctl's testdata secretsummary.txt (tests/data/istioctl/PROVENANCE.md)
    const r = readZtunnelConfigOutput(readIstioctl('zc-certificates.txt'));
    expect(r?.command).toBe('certificates');
    expect(r?.parse.dump.certificates).toBe(5);
    expect(r?.parse.dump.certificateStates).toEqual({
      Available: 2,
      Initializing: 1,
      Unavailable: 2,
    });
    if (!r) throw new Error('not read');
    expect(formatZtunnelTables(r.parse.dump)).toContain(
      '0 policies, 5 certificates (2 Available, 1 Initializing, 2 Unavailable)',
    );
  });

  it("names a service's waypoint by namespace and hostname, as istioctl does", () => {
    // DERIVED from the shared dump: one service given the waypoint destination newer ztunnels
    // write (`NAMESPACE/HOSTNAME` of the waypoint's service)
    const raw = JSON.parse(readFixture('config_dump', 'ztunnel_config_dump.json')) as {
      services: Record<string, Record<string, unknown>> | Record<string, unknown>[];
    };
    const services = Array.isArray(raw.services) ? raw.services : Object.values(raw.services);
    const target = services.find((s) => s.name === 'productpage' && s.namespace === 'bookinfo');
    const wp = services.find((s) => s.name === 'bookinfo-productpage-istio-waypoint');
    if (!target || !wp) throw new Error('fixture changed');
    target.waypoint = { destination: objectKey(String(wp.namespace), String(wp.hostname)) };
    const read = readZtunnelDump(raw as unknown as Record<string, unknown>);
    expect(
      read.dump.services.find((s) => s.name === 'productpage' && s.namespace === 'bookinfo')
        ?.waypoint,
    ).toBe('bookinfo-productpage-istio-waypoint');
  });
});
