import { describe, expect, it } from 'vitest';
import { gridObjects, upstreamObjects } from '../../../test-support/analyzer-inputs';
import { readFixture } from '../../../test-support/fixtures';
import { parseManifestText } from '../input';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const CODE = 'MDX0312';
const mdx0312 = (objects: unknown[]) =>
  manifestFindings(objects).findings.filter((f) => f.code === CODE);
const found = (objects: unknown[]) =>
  mdx0312(objects)
    .map((f) => `${objectKey(f.subject.namespace ?? '-', f.subject.name)} ${f.part?.name ?? ''}`)
    .sort();
const se = (name: string, namespace: string, spec: Record<string, unknown>, created?: string) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'ServiceEntry',
  metadata: { name, namespace, ...(created === undefined ? {} : { creationTimestamp: created }) },
  spec: {
    hosts: ['api.example.com'],
    ports: [{ number: 443, name: 'https', protocol: 'HTTPS' }],
    ...spec,
  },
});
const meshConfig = (mesh: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'istio', namespace: 'istio-system' },
  data: { mesh },
});
const pilotObjects = (file: string) =>
  parseManifestText(readFixture('istio_config', 'pilot_testdata_config', file), file).objects.map(
    (o) => o.object,
  );

describe('MDX0312 ConflictingServiceEntries', () => {
  it('reports two entries of one namespace that resolve one host:port differently', () => {
    const fs = mdx0312([
      se('api-dns', 'shop', { resolution: 'DNS' }, '2026-01-01T00:00:00Z'),
      se(
        'api-static',
        'shop',
        { resolution: 'STATIC', endpoints: [{ address: '10.0.0.9' }] },
        '2026-02-01T00:00:00Z',
      ),
    ]);
    expect(fs.map((f) => f.subject.name)).toEqual(['api-dns', 'api-static']);
    const [dns, stat] = fs;
    expect(dns?.severity).toBe('warning');
    expect(dns?.part).toEqual({ kind: 'host', name: 'api.example.com:443' });
    expect(dns?.evidence).toEqual({
      host: 'api.example.com',
      port: 443,
      protocol: 'HTTPS',
      conflictsWith: 'shop/api-static',
      differs: 'resolution, endpoints',
      resolution: 'DNS',
      location: 'MESH_EXTERNAL',
      addresses: null,
      endpoints: null,
      seenTogetherIn: 'every namespace',
      outcome:
        'one service in shop: shop/api-dns defines the port (its resolution, location and addresses) and the endpoints of both are merged',
    });
    expect(stat?.evidence).toMatchObject({ conflictsWith: 'shop/api-dns', endpoints: '10.0.0.9' });
    expect(dns?.fix?.why).toContain('Declare api.example.com:443 in one ServiceEntry');
  });

  it('says which ports keep their own endpoints: endpoints are matched by port name', () => {
    const [f] = mdx0312([
      se('a', 'shop', { location: 'MESH_INTERNAL' }),
      se('b', 'shop', { ports: [{ number: 443, name: 'tls-443', protocol: 'HTTPS' }] }),
    ]);
    expect(f?.evidence.differs).toBe('location');
    expect(f?.evidence.outcome).toContain('the older entry defines the port');
    expect(f?.evidence.outcome).toContain("the other's endpoints are not used");
  });

  it('reports entries of two namespaces that a third one sees, and names the namespaces', () => {
    const objects = [
      se('api', 'team-a', { exportTo: ['*'], resolution: 'DNS' }),
      se('api', 'team-b', { exportTo: ['*'], resolution: 'NONE' }),
      se('api', 'team-c', { exportTo: ['shared', '.'], location: 'MESH_INTERNAL' }),
    ];
    const fs = mdx0312(objects);
    expect(found(objects)).toEqual([
      'team-a/api api.example.com:443',
      'team-b/api api.example.com:443',
      'team-c/api api.example.com:443',
    ]);
    const a = fs.find((f) => f.subject.namespace === 'team-a');
    expect(a?.evidence.conflictsWith).toBe('team-b/api, team-c/api');
    expect(a?.evidence.seenTogetherIn).toBe(
      'with team-b/api: every namespace but team-a and team-b; with team-c/api: shared',
    );
    expect(a?.evidence.outcome).toContain('with team-c/api: proxies in shared get one of the two');
    expect(a?.fix?.why).toContain('narrow their exportTo');
  });

  it("leaves a namespace's own entry overriding an exported one: it gets its own", () => {
    expect(
      found([
        se('api', 'team-a', { resolution: 'DNS' }),
        se('api', 'team-b', {
          exportTo: ['.'],
          resolution: 'STATIC',
          endpoints: [{ address: '10.1.1.1' }],
        }),
      ]),
    ).toEqual([]);
  });

  it('reads exportTo as istiod does: `.`, `~`, names, and the mesh default', () => {
    const a = se('api', 'team-a', { exportTo: ['.'], resolution: 'DNS' });
    const b = se('api', 'team-b', { exportTo: ['.'], resolution: 'NONE' });
    expect(found([a, b])).toEqual([]);
    // `~` hides an entry from every namespace
    expect(
      found([se('api', 'team-a', { exportTo: ['~'] }), se('api', 'team-b', { resolution: 'DNS' })]),
    ).toEqual([]);
    // both exported to one namespace by name
    expect(
      found([
        se('api', 'team-a', { exportTo: ['front'], resolution: 'DNS' }),
        se('api', 'team-b', { exportTo: ['front', 'back'] }),
      ]),
    ).toEqual(['team-a/api api.example.com:443', 'team-b/api api.example.com:443']);
    // without exportTo: the mesh config's defaultServiceExportTo (`.` here: each its own)
    const unexported = [se('api', 'team-a', { resolution: 'DNS' }), se('api', 'team-b', {})];
    expect(found(unexported)).toHaveLength(2);
    expect(found([...unexported, meshConfig('defaultServiceExportTo: ["."]\n')])).toEqual([]);
  });

  it('reports two entries of one namespace seen apart: they share one endpoint set', () => {
    const [f, g] = mdx0312([
      se('api-front', 'shop', {
        exportTo: ['front'],
        resolution: 'STATIC',
        endpoints: [{ address: '10.0.0.1' }],
      }),
      se('api-back', 'shop', {
        exportTo: ['back'],
        resolution: 'STATIC',
        endpoints: [{ address: '10.0.0.2' }],
      }),
    ]);
    expect(f?.evidence).toMatchObject({ differs: 'endpoints', seenTogetherIn: null });
    expect(f?.evidence.outcome).toContain(
      'the proxies that see either entry get the endpoints of both',
    );
    expect(g?.subject.name).toBe('api-front');
    // with ports of different names the endpoints stay apart
    expect(
      found([
        se('api-front', 'shop', {
          exportTo: ['front'],
          resolution: 'STATIC',
          endpoints: [{ address: '10.0.0.1' }],
        }),
        se('api-back', 'shop', {
          exportTo: ['back'],
          resolution: 'STATIC',
          endpoints: [{ address: '10.0.0.2' }],
          ports: [{ number: 443, name: 'tls', protocol: 'HTTPS' }],
        }),
      ]),
    ).toEqual([]);
  });

  it('compares endpoints only where a resolution uses them, and selectors as endpoints', () => {
    expect(
      found([
        se('a', 'shop', { resolution: 'NONE', endpoints: [{ address: '1.1.1.1' }] }),
        se('b', 'shop', { resolution: 'NONE', endpoints: [{ address: '2.2.2.2' }] }),
      ]),
    ).toEqual([]);
    const [f] = mdx0312([
      se('vms', 'shop', {
        resolution: 'STATIC',
        workloadSelector: { labels: { app: 'api', vm: 'true' } },
      }),
      se('ips', 'shop', {
        resolution: 'STATIC',
        endpoints: [{ address: '10.0.0.1' }, { address: '10.0.0.1' }],
      }),
    ]);
    expect(f?.subject.name).toBe('ips');
    expect(f?.evidence.endpoints).toBe('10.0.0.1');
    const vms = mdx0312([
      se('vms', 'shop', {
        resolution: 'STATIC',
        workloadSelector: { labels: { vm: 'true', app: 'api' } },
      }),
      se('ips', 'shop', { resolution: 'STATIC', endpoints: [{ address: '10.0.0.1' }] }),
    ]).find((x) => x.subject.name === 'vms');
    expect(vms?.evidence.endpoints).toBe('workloads app=api,vm=true');
  });

  it('compares hosts as written and ports by number: wildcards, other hosts, other ports', () => {
    expect(
      found([
        se('wild-a', 'shop', { hosts: ['*.example.com'], resolution: 'NONE' }),
        se('wild-b', 'shop', { hosts: ['*.example.com'], resolution: 'DNS' }),
        se('exact', 'shop', { resolution: 'STATIC', endpoints: [{ address: '10.0.0.1' }] }),
        se('other-port', 'shop', {
          hosts: ['*.example.com'],
          ports: [{ number: 8443, name: 'https', protocol: 'HTTPS' }],
          resolution: 'STATIC',
        }),
      ]),
    ).toEqual(['shop/wild-a *.example.com:443', 'shop/wild-b *.example.com:443']);
  });

  it('leaves a protocol conflict to IST0177, and the same declaration twice alone', () => {
    const upstream = upstreamObjects('serviceentry-conflicting-protocol.yaml');
    expect(found(upstream)).toEqual([]);
    expect(manifestFindings(upstream).findings.some((f) => f.code === 'IST0177')).toBe(true);
    // every entry there is in IST0177's protocol conflict, whatever else differs
    expect(found(gridObjects('serviceentry-missing-addresses-protocol.yaml'))).toEqual([]);
    expect(found(gridObjects('serviceentry-no-conflict-protocol.yaml'))).toEqual([]);
    expect(found(gridObjects('serviceentry-conflicting-exportto.yaml'))).toEqual([]);
    for (const file of ['se-example.yaml', 'external_services.yaml', 'static-weighted-se.yaml'])
      expect(found(pilotObjects(file))).toEqual([]);
    // an unset protocol is a protocol of its own (IST0177's), case aside
    expect(
      found([
        se('lower', 'shop', {
          ports: [{ number: 443, name: 'https', protocol: 'https' }],
          resolution: 'DNS',
        }),
        se('upper', 'shop', {}),
      ]),
    ).toEqual(['shop/lower api.example.com:443', 'shop/upper api.example.com:443']);
  });

  it('never throws on malformed entries, and judges none it cannot read', () => {
    const objects = [
      se('ok', 'shop', { resolution: 'DNS' }),
      se('resolution-number', 'shop', { resolution: 2 }),
      se('exportto-string', 'shop', { exportTo: '*', resolution: 'STATIC' }),
      se('addresses-string', 'shop', { addresses: '10.0.0.1' }),
      se('endpoints-object', 'shop', { resolution: 'STATIC', endpoints: { address: '1.1.1.1' } }),
      se('selector-string', 'shop', { resolution: 'STATIC', workloadSelector: 'app=api' }),
      se('port-string', 'shop', {
        ports: [{ number: '443', protocol: 'HTTPS' }],
        resolution: 'STATIC',
      }),
      se('ports-null', 'shop', { ports: [null, 7] }),
      se('hosts-number', 'shop', { hosts: [443] }),
      {
        apiVersion: 'networking.istio.io/v1',
        kind: 'ServiceEntry',
        metadata: { name: 'no-spec', namespace: 'shop' },
      },
      {
        apiVersion: 'networking.istio.io/v1',
        kind: 'ServiceEntry',
        metadata: { name: 'str', namespace: 'shop' },
        spec: 'x',
      },
    ];
    const all = manifestFindings(objects).findings;
    expect(all.filter((f) => f.code === 'MDX0003')).toEqual([]);
    expect(found(objects)).toEqual([]);
  });
});
