import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { parseManifestText } from '../input';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';
import { SERVICE_ENTRY_ADDRESSES } from './service-entry-addresses';

const grid = (...files: string[]): unknown[] =>
  files.flatMap((f) =>
    parseManifestText(readFixture('istio_config', 'analyzer', f), f).objects.map((o) => o.object),
  );
const run = (objects: unknown[]) => manifestFindings(objects).findings;
const found = (objects: unknown[]) =>
  run(objects)
    .filter((f) => f.code === 'IST0134')
    .map((f) => `${objectKey(f.subject.namespace ?? '-', f.subject.name)}:${f.part?.name ?? ''}`)
    .sort();
/** The istio ConfigMap holding a mesh config text (as the grid's mesh config files give it). */
const meshMap = (mesh: string, namespace = 'istio-system') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'istio', namespace },
  data: { mesh },
});
const gridMesh = (file: string) => meshMap(readFixture('istio_config', 'analyzer', file));
const se = (name: string, spec: unknown, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'ServiceEntry',
  metadata: { name, namespace: 'shop' },
  spec,
  ...extra,
});
const tcp = { hosts: ['db.example.com'], ports: [{ number: 5432, name: 'pg', protocol: 'TCP' }] };

describe('IST0134 ServiceEntryAddressesRequired (serviceentry.ProtocolAddressesAnalyzer)', () => {
  it("reports istioctl's grid files as istioctl does: TCP or unset protocol, no addresses", () => {
    expect(found(grid('serviceentry-missing-addresses-protocol.yaml'))).toEqual([
      'default/service-entry-test-03:443',
      'default/service-entry-test-04:443',
      'default/service-entry-test-07:443',
    ]);
    expect(found(grid('serviceentry-address-required-lowercase.yaml'))).toEqual([
      'default/address-missing-lowercase:22',
    ]);
    expect(found(grid('serviceentry-address-required-uppercase.yaml'))).toEqual([
      'default/address-missing-uppercase:22',
    ]);
    const one = run(grid('serviceentry-address-required-uppercase.yaml')).find(
      (f) => f.code === 'IST0134',
    );
    expect(one?.severity).toBe('warning');
    expect(one?.evidence).toMatchObject({ port: 22, protocol: 'TCP', hosts: 'dummy.testing.io' });
  });

  it("takes the grid's mesh config (as the istio ConfigMap): DNS capture with auto-allocation reports nothing", () => {
    expect(
      found([
        ...grid('serviceentry-missing-addresses-protocol.yaml'),
        gridMesh('serviceentry-missing-addresses-protocol-mesh-cfg.yaml'),
      ]),
    ).toEqual([]);
  });

  it('accepts addresses allocated in the status, and DNS capture alone allocates nothing', () => {
    const allocated = grid('serviceentry-address-allocated.yaml');
    const mesh = gridMesh('serviceentry-address-allocated-mesh-cfg.yaml');
    expect(found([...allocated, mesh])).toEqual([]);
    expect(found([se('plain', tcp), mesh])).toEqual(['shop/plain:5432']);
    expect(found([se('empty-status', tcp, { status: { addresses: [] } })])).toEqual([
      'shop/empty-status:5432',
    ]);
    expect(found([se('odd-status', tcp, { status: 'allocated' })])).toEqual([
      'shop/odd-status:5432',
    ]);
  });

  it('needs DNS capture and one of the two auto-allocation switches, each the string "true"', () => {
    const meta = (m: Record<string, unknown>) =>
      meshMap(JSON.stringify({ defaultConfig: { proxyMetadata: m } }));
    const base = [se('plain', tcp)];
    const capture = { ISTIO_META_DNS_CAPTURE: 'true' };
    expect(found([...base, meta({ ...capture, PILOT_ENABLE_IP_AUTOALLOCATE: 'true' })])).toEqual(
      [],
    );
    expect(found([...base, meta({ ISTIO_META_DNS_AUTO_ALLOCATE: 'true' })])).toHaveLength(1);
    expect(
      found([...base, meta({ ...capture, ISTIO_META_DNS_AUTO_ALLOCATE: 'True' })]),
    ).toHaveLength(1);
    expect(found([...base, meta({ ...capture, ISTIO_META_DNS_AUTO_ALLOCATE: true })])).toHaveLength(
      1,
    );
    // the root namespace's ConfigMap wins over one elsewhere; an unreadable mesh is the default
    const on = JSON.stringify({
      defaultConfig: { proxyMetadata: { ...capture, ISTIO_META_DNS_AUTO_ALLOCATE: 'true' } },
    });
    expect(found([...base, meshMap('{}'), meshMap(on, 'other')])).toHaveLength(1);
    expect(found([...base, meshMap(on, 'other')])).toEqual([]);
    expect(found([...base, meshMap('defaultConfig: [unclosed')])).toHaveLength(1);
    expect(found([...base, meshMap('- a list')])).toHaveLength(1);
  });

  it('reports each TCP or unset port once, and no port of another protocol', () => {
    const spec = {
      hosts: ['x.example.com'],
      ports: [
        { number: 80, name: 'http', protocol: 'HTTP' },
        { number: 9000, name: 'a', protocol: 'tcp' },
        { number: 9001, name: 'b' },
        { number: 9001, name: 'c', protocol: null },
        { number: 9443, name: 'tls', protocol: 'TLS' },
      ],
    };
    expect(found([se('many', spec)])).toEqual([
      'shop/many:9000',
      'shop/many:9001',
      'shop/many:9001 (ports[3])',
    ]);
  });

  it('reads an empty addresses list as none, and does not judge entries of the wrong shape', () => {
    expect(found([se('empty', { ...tcp, addresses: [] })])).toEqual(['shop/empty:5432']);
    expect(found([se('null', { ...tcp, addresses: null })])).toEqual(['shop/null:5432']);
    expect(found([se('vip', { ...tcp, addresses: ['240.0.0.1'] })])).toEqual([]);
    const odd = [
      se('string-addresses', { ...tcp, addresses: '10.0.0.1' }),
      se('ports-map', { hosts: ['a'], ports: { number: 1 } }),
      se('odd-ports', { hosts: ['a'], ports: [null, 3, 'tcp', { number: 'x', protocol: 6 }] }),
      se('no-ports', { hosts: ['a'] }),
      { apiVersion: 'networking.istio.io/v1', kind: 'ServiceEntry', metadata: { name: 'nospec' } },
      se('spec-list', []),
    ];
    expect(found(odd)).toEqual([]);
    expect(run(odd).filter((f) => f.code === 'MDX0003')).toEqual([]);
  });

  it('reads the mesh config given beside the objects (a bare mesh config file) first', () => {
    const bare = parseManifestText(
      readFixture(
        'istio_config',
        'analyzer',
        'serviceentry-missing-addresses-protocol-mesh-cfg.yaml',
      ),
      'mesh.yaml',
    ).objects.map((o) => o.object)[0] as Record<string, unknown>;
    const objects = grid('serviceentry-missing-addresses-protocol.yaml');
    const given = (meshConfig: Record<string, unknown> | null) =>
      manifestFindings(objects, { given: { meshConfig } }).findings.filter(
        (f) => f.code === 'IST0134',
      );
    // auto-allocation on: nothing to report; the same file as an `istio` ConfigMap agrees
    expect(given(bare)).toEqual([]);
    // a given mesh config of defaults wins over an `istio` ConfigMap that allocates
    const withMap = [...objects, gridMesh('serviceentry-missing-addresses-protocol-mesh-cfg.yaml')];
    expect(
      manifestFindings(withMap, { given: { meshConfig: {} } }).findings.some(
        (f) => f.code === 'IST0134',
      ),
    ).toBe(true);
    expect(manifestFindings(withMap).findings.some((f) => f.code === 'IST0134')).toBe(false);
    expect(SERVICE_ENTRY_ADDRESSES.claims).toEqual([{ code: 'IST0134', kinds: ['ServiceEntry'] }]);
  });
});
