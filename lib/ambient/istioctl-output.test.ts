import { describe, expect, it } from 'vitest';
import { readZtunnelConfigOutput, sniffZtunnelOutput } from './istioctl-output';
import { readZtunnelDump } from '../configdump/ztunnel';
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
