import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import { perObject } from './guard';
import { manifestFindings } from './manifest';
import { findingKey, type Finding } from './types';
import { objectKey } from '../refs/object-ref';

const docs = (text: string): unknown[] => parseAllDocuments(text).map((d) => d.toJS() as unknown);
const analyzer = (f: string) => docs(readFixture('istio_config', 'analyzer', f));
const codes = (fs: readonly Finding[], code: string) => fs.filter((f) => f.code === code);
const names = (fs: readonly Finding[], code: string) =>
  codes(fs, code)
    .map((f) => objectKey(f.subject.namespace ?? '', f.subject.name))
    .sort();

describe('finding identity keeps the port', () => {
  it('reports each badly named port of one Service, not one per Service', () => {
    // istioctl's own unnamed-ports Service, moved out of kube-system where checks are skipped
    const objs = analyzer('service-no-port-name-system-namespace.yaml').map((o) => {
      const x = o as { metadata: { name: string; namespace: string } };
      return x.metadata.name === 'my-service1'
        ? { ...x, metadata: { ...x.metadata, namespace: 'shop' } }
        : x;
    });
    const f = codes(manifestFindings(objs).findings, 'IST0118');
    expect(f.map((x) => x.part?.name).sort()).toEqual(['8080/TCP', '8081/TCP']);
    expect(new Set(f.map(findingKey)).size).toBe(2);
  });

  it('keeps two missing subsets of one VirtualService apart', () => {
    const objs = analyzer('virtualservice_destinationrules.yaml');
    const f = codes(manifestFindings(objs).findings, 'IST0101').filter(
      (x) => x.subject.name === 'reviews-mirror-bogussubset',
    );
    // the mirror's subset is missing, and (no Service in this file) both hosts are unknown
    expect(f.map((x) => x.evidence.reftype).sort()).toEqual([
      'host',
      'mirror host',
      'mirror+subset',
    ]);
  });
});

describe('injection follows istioctl', () => {
  const objs = analyzer('injection.yaml');
  const found = manifestFindings(objs).findings;

  it('flags only the pod that neither opted out nor runs on the host network', () => {
    expect(names(found, 'IST0103')).toEqual(['default/noninjectedpod']);
  });

  it('counts a revision label as injection and a native sidecar as the proxy', () => {
    const native = docs(readFixture('pods', 'injected_pod.yaml'))[0] as Record<string, unknown>;
    const bare = {
      kind: 'Pod',
      metadata: { name: 'bare', namespace: 'canary-test' },
      spec: { containers: [{ name: 'app', image: 'app' }] },
    };
    const withNative = {
      ...native,
      metadata: { ...(native.metadata as object), namespace: 'canary-test' },
    };
    const f = manifestFindings([...objs, bare, withNative]).findings;
    expect(names(f, 'IST0103')).toEqual(['canary-test/bare', 'default/noninjectedpod']);
    expect(codes(f, 'IST0103').find((x) => x.subject.name === 'bare')?.evidence).toMatchObject({
      namespaceInjection: 'istio.io/rev=canary',
    });
  });

  it('lets a pod label "false" win over an annotation "true"', () => {
    expect(found.some((x) => x.subject.name === 'podinjectiondisabled-label-and-anno')).toBe(false);
  });
});

describe('gateway Services', () => {
  it('skips Services labelled as Istio control plane, as istioctl does', () => {
    const gw = {
      kind: 'Service',
      metadata: {
        name: 'istio-ingressgateway',
        namespace: 'istio-ingress',
        labels: { istio: 'ingressgateway', app: 'istio-ingressgateway' },
      },
      spec: {
        selector: { istio: 'ingressgateway' },
        ports: [{ name: 'status-port', port: 15021, targetPort: 15021 }],
      },
    };
    const plain = { ...gw, metadata: { ...gw.metadata, name: 'custom-gw', labels: {} } };
    const f = manifestFindings([gw, plain]).findings;
    expect(names(f, 'IST0118')).toEqual(['istio-ingress/custom-gw']);
  });
});

describe('a malformed object is a finding, never a crash', () => {
  const good = analyzer('injection.yaml');
  const broken: unknown[] = [
    { kind: 'Pod', metadata: { name: 'no-spec', namespace: 'default' } },
    { kind: 'Pod', metadata: { name: 'bad-ctr', namespace: 'default' }, spec: { containers: [7] } },
    {
      kind: 'Service',
      metadata: { name: 'ports-map', namespace: 'default' },
      spec: { ports: { a: 1 } },
    },
    {
      kind: 'Service',
      metadata: { name: 'port-text', namespace: 'default' },
      spec: { ports: [{ port: 'http' }] },
    },
    { kind: 'DestinationRule', metadata: { name: 'no-host', namespace: 'default' }, spec: {} },
    {
      kind: 'VirtualService',
      metadata: { name: 'no-dest-host', namespace: 'default' },
      spec: { http: [{ route: [{ destination: {} }] }] },
    },
    { kind: 'Sidecar', metadata: { name: 'spec-text', namespace: 'default' }, spec: 'egress' },
    { kind: 'Deployment', metadata: { name: 'no-template', namespace: 'default' }, spec: {} },
    { kind: 'Service', spec: {} },
    'just a string',
    null,
  ];

  it('reports each with what is wrong and still runs every other check', () => {
    const { findings } = manifestFindings([...broken, ...good]);
    const mal = codes(findings, 'MDX0002');
    expect(mal.map((x) => [x.subject.name, x.evidence.problem])).toEqual(
      expect.arrayContaining([
        ['ports-map', 'spec.ports is not a list'],
        ['port-text', 'spec.ports[0].port is not a number'],
        ['no-host', 'spec.host is missing'],
        ['spec-text', 'spec is not an object'],
        ['no-template', 'spec.template is missing'],
        ['(object #9)', 'metadata is missing'],
        ['(object #10)', 'kind is missing'],
        ['(object #11)', 'kind is missing'],
      ]),
    );
    // pods whose spec cannot be read still have labels: a note (MDX0004), kept for selectors
    expect(mal).toHaveLength(broken.length - 3);
    expect(mal[0]?.fix?.why).toMatch(/left it out of every check/);
    const notes = codes(findings, 'MDX0004');
    expect(notes.map((x) => [x.subject.name, x.evidence.problem]).sort()).toEqual([
      ['bad-ctr', 'spec.containers[0] is not an object'],
      ['no-spec', 'spec is missing'],
    ]);
    expect(notes[0]?.evidence.usedFor).toMatch(/selector/);
    // a destination without host is a reference to nothing, as istioctl reports it
    expect(
      codes(findings, 'IST0101')
        .filter((x) => x.subject.name === 'no-dest-host')
        .map((x) => x.evidence.ref),
    ).toEqual(['']);
    expect(names(findings, 'IST0103')).toEqual(['default/noninjectedpod']);
  });

  it('turns a check that throws on one object into MDX0003 for that object', () => {
    const pods = [
      { kind: 'Pod', metadata: { name: 'a' } },
      { kind: 'Pod', metadata: { name: 'b' } },
    ];
    const f = perObject('demo', pods, (p) => {
      if (p.metadata.name === 'a') throw new Error('boom');
      return [{ code: 'X', severity: 'info', subject: { kind: 'Pod', name: 'b' }, evidence: {} }];
    });
    expect(f.map((x) => [x.code, x.subject.name, x.evidence.error ?? null])).toEqual([
      ['MDX0003', 'a', 'boom'],
      ['X', 'b', null],
    ]);
  });
});

describe('DestinationRule references', () => {
  it('IST0173 for the subset whose labels no pod carries, with node topology counted', () => {
    const f = manifestFindings(analyzer('destinationrule-empty-topology-labels.yaml')).findings;
    expect(codes(f, 'IST0173').map((x) => x.part?.name)).toEqual(['empty-region']);
    const ok = manifestFindings(analyzer('destinationrule-subsets-with-topology-labels.yaml'));
    expect(codes(ok.findings, 'IST0173')).toEqual([]);
  });

  it('IST0174 for a host that matches nothing, and counts Deployment templates as pods', () => {
    const objs = [
      ...analyzer('destinationrule-empty-topology-labels.yaml').filter(
        (o) => (o as { kind: string }).kind !== 'Pod',
      ),
      {
        kind: 'Deployment',
        metadata: { name: 'httpbin', namespace: 'default' },
        spec: {
          template: {
            metadata: { labels: { app: 'httpbin', version: 'v1' } },
            spec: { containers: [{ name: 'httpbin', image: 'httpbin' }] },
          },
        },
      },
      {
        kind: 'DestinationRule',
        metadata: { name: 'typo', namespace: 'default' },
        spec: { host: 'httpbn' },
      },
    ];
    const f = manifestFindings(objs).findings;
    expect(names(f, 'IST0174')).toEqual(['default/typo']);
    expect(codes(f, 'IST0173').map((x) => x.part?.name)).toEqual(['empty-region']);
  });
});
