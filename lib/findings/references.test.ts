import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import { buildRegistry, lookupHost } from './hosts';
import { manifestFindings } from './manifest';
import type { Service, ServiceEntry } from '../kube/types';

const docs = (f: string): unknown[] =>
  parseAllDocuments(readFixture('istio_config', f)).map((d) => d.toJS() as unknown);

const svc = (name: string, ns: string, annotations?: Record<string, string>): Service => ({
  kind: 'Service',
  metadata: { name, namespace: ns, annotations },
  spec: { selector: { app: name }, ports: [{ name: 'http', port: 80 }] },
});
const se = (hosts: string[], ns: string, exportTo?: string[]): ServiceEntry => ({
  kind: 'ServiceEntry',
  metadata: { name: hosts[0] ?? 'se', namespace: ns },
  spec: { hosts, exportTo, ports: [{ number: 443, name: 'https', protocol: 'HTTPS' }] },
});

describe('host lookup as istioctl resolves references', () => {
  const reg = buildRegistry(
    [svc('reviews', 'default'), svc('private', 'team', { 'networking.istio.io/exportTo': '.' })],
    [se(['*.googleapis.com'], 'egress'), se(['api.internal'], 'team', ['.'])],
  );

  it('short names are Services of the referring namespace, FQDNs anywhere', () => {
    expect(lookupHost(reg, 'reviews', 'default')?.host).toBe('reviews.default.svc.cluster.local');
    expect(lookupHost(reg, 'reviews', 'other')).toBeUndefined();
    expect(lookupHost(reg, 'reviews.default.svc.cluster.local', 'other')).toBeDefined();
    // a dotted name is taken as written: reviews.default is no Service name
    expect(lookupHost(reg, 'reviews.default', 'default')).toBeUndefined();
  });

  it('honours exportTo of Services (annotation) and ServiceEntries, and wildcard hosts', () => {
    expect(lookupHost(reg, 'private.team.svc.cluster.local', 'team')).toBeDefined();
    expect(lookupHost(reg, 'private.team.svc.cluster.local', 'default')).toBeUndefined();
    expect(lookupHost(reg, 'api.internal', 'team')).toBeDefined();
    expect(lookupHost(reg, 'api.internal', 'default')).toBeUndefined();
    expect(lookupHost(reg, 'storage.googleapis.com', 'default')?.host).toBe('*.googleapis.com');
  });
});

describe('VirtualService references on pilot test configs', () => {
  it('routes of the weighted-route config find their ServiceEntry hosts and subsets', () => {
    const objs = docs('pilot_testdata_config/rule-weighted-route.yaml');
    const f = manifestFindings(objs).findings.filter((x) => x.code.startsWith('IST01'));
    expect(f).toEqual([]);
  });

  it('tcp and tls routes and mirrors are checked too', () => {
    const vs = {
      kind: 'VirtualService',
      metadata: { name: 'mixed', namespace: 'default' },
      spec: {
        hosts: ['x'],
        tcp: [{ route: [{ destination: { host: 'db' } }] }],
        tls: [{ route: [{ destination: { host: 'reviews', subset: 'v9' } }] }],
        http: [{ route: [{ destination: { host: 'reviews' } }], mirror: { host: 'shadow' } }],
      },
    };
    const f = manifestFindings([svc('reviews', 'default'), vs]).findings.filter(
      (x) => x.code === 'IST0101',
    );
    expect(f.map((x) => `${String(x.evidence.reftype)} ${String(x.evidence.ref)}`).sort()).toEqual([
      'host db',
      'host+subset reviews+v9',
      'mirror host shadow',
    ]);
  });
});

describe('DestinationRule subsets by node labels', () => {
  const pod = (name: string, node: string) => ({
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'reviews' } },
    spec: { nodeName: node, containers: [{ name: 'app', image: 'reviews' }] },
  });
  const node = (name: string, zone: string) => ({
    kind: 'Node',
    metadata: { name, labels: { 'topology.kubernetes.io/zone': zone } },
  });
  const dr = {
    kind: 'DestinationRule',
    metadata: { name: 'reviews', namespace: 'default' },
    spec: {
      host: 'reviews',
      subsets: [
        { name: 'zone-a', labels: { 'topology.kubernetes.io/zone': 'a' } },
        { name: 'zone-z', labels: { 'topology.kubernetes.io/zone': 'z' } },
        { name: 'v9', labels: { version: 'v9' } },
      ],
    },
  };
  const objects = [svc('reviews', 'default'), pod('r1', 'n1'), node('n1', 'a'), dr];
  const subsetsFound = (o: Parameters<typeof manifestFindings>[1] = {}) =>
    manifestFindings(objects, o)
      .findings.filter((f) => f.code === 'IST0173')
      .map((f) => f.part?.name)
      .sort();

  it('match the labels endpoints take from their node', () => {
    expect(subsetsFound()).toEqual(['v9', 'zone-z']);
  });

  it('are not judged when the Nodes could not be read; the others still are', () => {
    expect(subsetsFound({ nodesUnknown: 'nodes is forbidden' })).toEqual(['v9']);
  });
});
