import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { readIstioctl } from '../../tests/data/istioctl/read';
import { readIstioctlOutput, sniffIstioctlOutput, type IstioctlOutput } from './istioctl-output';
import { pastedKindHint } from '../pasted-kind';
import { guessInputKind } from '../findings/input-kind';
import { endpointReport } from './endpoints';
import { analyzeDump } from './report';
import { formatClusterTable, tabulate } from './table';
import { parseConfigDump } from './parse';
import { sectionsOf } from './parse';
import { arrayField, field } from './fields';

function read(text: string): IstioctlOutput {
  const out = readIstioctlOutput(text);
  if (!out) throw new Error('not read');
  return out;
}

function endpointsOf(text: string) {
  const out = read(text);
  if (out.kind !== 'endpoints') throw new Error(`read as ${out.kind}`);
  return out;
}

describe('istioctl proxy-config endpoint outputs', () => {
  it('reads the --file table, -o json and -o yaml of one dump to the same endpoints', () => {
    // istioctl's own expected outputs for the shared eds_only_config_dump.json (PROVENANCE.md)
    const txt = endpointsOf(readIstioctl('pc-endpoint-file.txt'));
    const json = endpointsOf(readIstioctl('pc-endpoint-file.json'));
    const yaml = endpointsOf(readIstioctl('pc-endpoint-file.yaml'));
    const rows = readIstioctl('pc-endpoint-file.txt').trim().split('\n').length - 1;
    expect(txt.report.rows).toHaveLength(rows);
    expect(txt.errors).toEqual([]);
    const key = (o: typeof txt) => o.report.rows.map((r) => [r.endpoint, r.status, r.cluster]);
    expect(key(json)).toEqual(key(txt));
    expect(key(yaml)).toEqual(key(txt));
    expect(json.what).toContain('--file DUMP -o json');
    expect(yaml.what).toContain('-o yaml');
    // the list keeps istiod's workload metadata, the table does not print it
    expect(json.report.rows.filter((r) => r.workload !== null).length).toBeGreaterThan(20);
    // the same as the dump itself gives
    const dump = analyzeDump(readFixture('config_dump', 'eds_only_config_dump.json'));
    if (dump.kind !== 'endpoints') throw new Error(dump.kind);
    expect(key(json)).toEqual(dump.endpoints.rows.map((r) => [r.endpoint, r.status, r.cluster]));
  });

  it('reads pc endpoint -o json (the ClusterStatus list) to the endpoints of /clusters', () => {
    // DERIVED: the shared /clusters?format=json answer's entries as the list istioctl prints
    // (only clusters with a host: PrintEndpoints keeps a cluster when a host passes the filter)
    const answer = readFixture('clusters', 'istioctl_clusters_format_json.json');
    const statuses = (JSON.parse(answer) as { cluster_statuses: Record<string, unknown>[] })
      .cluster_statuses;
    const listed = statuses.filter((c) => Array.isArray(c.hostStatuses ?? c.host_statuses));
    const out = endpointsOf(JSON.stringify(listed, null, 4));
    expect(out.what).toBe('`istioctl proxy-config endpoint -o json` output');
    const fromJson = endpointReport(answer);
    expect(out.report.rows).toEqual(fromJson.rows);
  });

  it("reads Envoy's /clusters text to the endpoints of its JSON form", () => {
    // DERIVED: the shared /clusters?format=json fixture written as Envoy's text (PROVENANCE.md)
    const text = endpointsOf(readIstioctl('clusters-text-derived.txt'));
    const fromJson = endpointReport(readFixture('clusters', 'istioctl_clusters_format_json.json'));
    expect(text.errors).toEqual([]);
    const key = (rows: typeof fromJson.rows) =>
      rows.map((r) => [r.endpoint, r.status, r.failedOutlierCheck, r.cluster]);
    expect(key(text.report.rows)).toEqual(key(fromJson.rows));
    expect(text.report.clusters).toBe(fromJson.clusters);
  });

  it('reads IPv6 and internal hosts of /clusters text, and names what it cannot read', () => {
    const c = 'inbound-vip|8080|http|httpbin.default.svc.cluster.local';
    const text = [
      `${c}::observability_name::${c}`,
      `${c}::default_priority::max_connections::4294967295`,
      `${c}::envoy://connect_originate/10.244.2.239:8080::cx_active::0`,
      `${c}::envoy://connect_originate/10.244.2.239:8080::health_flags::healthy`,
      `${c}::[fd00::12]:8080::health_flags::/failed_outlier_check/eds_status_draining`,
      // a file cut after a host's first stat: its health is unknown, not HEALTHY
      `${c}::10.244.1.9:8080::cx_active::1`,
      'not a fact',
    ].join('\n');
    const out = endpointsOf(text);
    expect(
      out.report.rows.map((r) => [r.endpoint, r.ip, r.port, r.status, r.failedOutlierCheck]),
    ).toEqual([
      // istioctl's order: by address as printed
      ['10.244.1.9:8080', '10.244.1.9', 8080, 'UNKNOWN', false],
      ['envoy://connect_originate/10.244.2.239:8080', '10.244.2.239', 8080, 'HEALTHY', false],
      ['[fd00::12]:8080', 'fd00::12', 8080, 'DRAINING', true],
    ]);
    expect(out.errors.map((e) => e.line)).toEqual([7]);
  });

  it('reads the /clusters endpoint table, with an unknown column named and a cut row', () => {
    const table = [
      'ENDPOINT                                        STATUS        OUTLIER CHECK     CLUSTER                                                   ZONE',
      '10.244.0.12:9080                                HEALTHY       OK                outbound|9080||details.default.svc.cluster.local          z1',
      'envoy://connect_originate/10.244.2.239:8080     HEALTHY       FAILED            inbound-vip|8080|http|httpbin.default.svc.cluster.local   z1',
      '10.244.0.13:9080                                UNHEAL',
    ].join('\n');
    const out = endpointsOf(table);
    expect(out.report.source).toBe('admin-clusters');
    expect(out.report.rows.map((r) => [r.ip, r.listener, r.failedOutlierCheck])).toEqual([
      ['10.244.0.12', null, false],
      ['10.244.2.239', 'connect_originate', true],
    ]);
    expect(out.errors.map((e) => e.message)).toEqual([
      'column ZONE not read: meshdx does not know it',
      'row lacks CLUSTER (a cut line?)',
    ]);
  });
});

describe('istioctl proxy-config cluster, listener and route outputs', () => {
  const text = readFixture('config_dump', 'istio-details-v1_sidecar_config_dump_camelCase.json');
  const dump = parseConfigDump(text).dump;
  if (!dump) throw new Error('fixture is no dump');
  const whole = analyzeDump(text);
  if (whole.kind !== 'envoy') throw new Error(whole.kind);
  /** The Envoy objects of a section, as `istioctl proxy-config KIND -o json` lists them. */
  const listed = (kind: 'clusters' | 'listeners' | 'routes', keys: string[], inner: string) =>
    sectionsOf(dump, kind).flatMap((s) =>
      keys.flatMap((k) => (arrayField(s.body, k) ?? []).map((e) => field(e, inner))),
    );

  it('reads the -o json cluster list (DERIVED from the details-v1 dump) to the dump rows', () => {
    const list = listed('clusters', ['static_clusters', 'dynamic_active_clusters'], 'cluster');
    const out = read(JSON.stringify(list, null, 4));
    if (out.kind !== 'clusters') throw new Error(out.kind);
    expect(out.errors).toEqual([]);
    const key = (r: { name: string; type: string; destinationRule: string }) => [
      r.name,
      r.type,
      r.destinationRule,
    ];
    expect(out.rows.map(key)).toEqual(whole.report.clusters.map(key));
    expect(out.rows.every((r) => r.source === 'unlisted')).toBe(true);
  });

  it('reads the cluster table of both generations and names an unknown column', () => {
    // DERIVED: the table istioctl prints for the dump, by its writer's rules (tabwriter, padding 5)
    const table = formatClusterTable(whole.report.clusters);
    const now = read(table);
    if (now.kind !== 'clusters') throw new Error(now.kind);
    expect(
      now.rows.map((r) => [r.fqdn, r.port, r.subset, r.direction, r.type, r.destinationRule]),
    ).toEqual(
      whole.report.clusters.map((r) => [
        r.fqdn,
        r.port,
        r.subset,
        r.direction,
        r.type,
        r.destinationRule,
      ]),
    );
    // outbound and inbound names are rebuilt from their columns
    const outbound = whole.report.clusters.filter((r) => r.direction === 'outbound');
    expect(now.rows.filter((r) => r.direction === 'outbound').map((r) => r.name)).toEqual(
      outbound.map((r) => r.name),
    );
    // before 1.8: no DESTINATION RULE column; an unknown column is named
    const old = tabulate([
      ['SERVICE FQDN', 'PORT', 'SUBSET', 'DIRECTION', 'TYPE', 'AGE'],
      ...whole.report.clusters.map((r) => [
        r.fqdn,
        String(r.port),
        r.subset,
        r.direction,
        r.type,
        '5m',
      ]),
    ]);
    const then = read(old);
    if (then.kind !== 'clusters') throw new Error(then.kind);
    expect(then.what).toContain('no DESTINATION RULE column');
    expect(then.rows).toHaveLength(whole.report.clusters.length);
    expect(then.errors.map((e) => e.message)).toEqual([
      'column AGE not read: meshdx does not know it',
    ]);
    // a table cut inside its last row
    const cut = table.slice(0, table.trimEnd().lastIndexOf('\n') + 20);
    const short = read(cut);
    if (short.kind !== 'clusters') throw new Error(short.kind);
    expect(short.rows).toHaveLength(whole.report.clusters.length - 1);
    expect(short.errors[0]?.message).toMatch(/row lacks .*DIRECTION/);
  });

  it('reads listener and route lists (DERIVED from the dump)', () => {
    const listeners = listed('listeners', ['static_listeners', 'dynamic_listeners'], 'listener');
    const withActive = listed('listeners', ['dynamic_listeners'], 'active_state').map((a) =>
      field(a, 'listener'),
    );
    const all = [
      ...listeners.filter((l) => l !== undefined),
      ...withActive.filter((l) => l !== undefined),
    ];
    const l = read(JSON.stringify(all));
    if (l.kind !== 'listeners') throw new Error(l.kind);
    expect(l.rows).toHaveLength(all.length);
    expect(l.rows.some((r) => /^\d+\.\d+\.\d+\.\d+:\d+$/.test(r.address))).toBe(true);
    const routes = listed(
      'routes',
      ['static_route_configs', 'dynamic_route_configs'],
      'route_config',
    );
    const r = read(JSON.stringify(routes.filter((x) => x !== undefined)));
    if (r.kind !== 'routes') throw new Error(r.kind);
    expect(r.rows.length).toBeGreaterThan(3);
    expect(r.rows.some((x) => x.routes > 0)).toBe(true);
  });
});

describe('a file of istioctl output given to another command', () => {
  it('is named by its kind, with meshdx clusters as the command that reads it', () => {
    const expected: [string, string][] = [
      ['ps-1.27.txt', '`istioctl proxy-status` output'],
      ['ps-1.13.txt', '`istioctl proxy-status` output'],
      ['ps-1.30.json', '`istioctl proxy-status -o json` output'],
      ['pc-endpoint-file.json', '`istioctl proxy-config endpoint --file -o json|yaml` output'],
      ['pc-endpoint-file.yaml', '`istioctl proxy-config endpoint --file -o json|yaml` output'],
      ['pc-endpoint-file.txt', 'the `istioctl proxy-config endpoint` table'],
      ['clusters-text-derived.txt', "Envoy's /clusters text"],
    ];
    for (const [file, kind] of expected) {
      const text = readIstioctl(file);
      expect(sniffIstioctlOutput(text), file).toBe(kind);
      expect(pastedKindHint(text, 'meshdx timeline'), file).toBe(
        `this looks like ${kind}: \`meshdx clusters FILE\` reads it`,
      );
      expect(guessInputKind(text)?.command, file).toBe('meshdx clusters FILE');
    }
    expect(sniffIstioctlOutput(readFixture('config_dump', 'eds_only_config_dump.json'))).toBeNull();
  });
});
