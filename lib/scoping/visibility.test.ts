import { describe, it, expect } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import type { KubeObject, Pod, Service, ServiceEntry, Sidecar } from '../kube/types';
import { labelsMatch, selectSidecar, visibleServices } from './visibility';

interface Loaded {
  sidecars: Sidecar[];
  services: Service[];
  serviceEntries: ServiceEntry[];
  all: (KubeObject & { spec?: unknown })[];
}

function load(...files: string[][]): Loaded {
  const all: (KubeObject & { spec?: unknown })[] = [];
  for (const parts of files) {
    for (const d of parseAllDocuments(readFixture(...parts))) {
      const obj = d.toJS() as (KubeObject & { spec?: unknown }) | null;
      if (obj && typeof obj === 'object' && obj.metadata) all.push(obj);
    }
  }
  const of = <T>(kind: string) => all.filter((o) => o.kind === kind) as unknown as T[];
  return {
    all,
    sidecars: of<Sidecar>('Sidecar'),
    services: of<Service>('Service'),
    serviceEntries: of<ServiceEntry>('ServiceEntry'),
  };
}

function pod(name: string, namespace: string, labels: Record<string, string> = {}): Pod {
  return { metadata: { name, namespace, labels }, spec: { containers: [{ name: 'app' }] } };
}

function sidecar(
  name: string,
  namespace: string,
  hosts: string[],
  opts: { selector?: Record<string, string>; created?: string; port?: number } = {},
): Sidecar {
  return {
    kind: 'Sidecar',
    metadata: { name, namespace, creationTimestamp: opts.created ?? '2024-01-01T00:00:00Z' },
    spec: {
      ...(opts.selector ? { workloadSelector: { labels: opts.selector } } : {}),
      egress: [{ hosts, ...(opts.port ? { port: { number: opts.port } } : {}) }],
    },
  };
}

function svc(
  name: string,
  namespace: string,
  ports: number[],
  annotations?: Record<string, string>,
): Service {
  return {
    kind: 'Service',
    metadata: { name, namespace, ...(annotations ? { annotations } : {}) },
    spec: { clusterIP: '10.0.0.1', ports: ports.map((p) => ({ port: p, name: `http-${p}` })) },
  };
}

const SE_EXAMPLE = ['istio_config', 'pilot_testdata_config', 'se-example.yaml'];
const NONE = ['istio_config', 'pilot_testdata_config', 'none.yaml'];
const SE_GW = ['istio_config', 'pilot_testdata_config', 'se-example-gw.yaml'];
const DEPRECATION = ['istio_config', 'analyzer', 'deprecation.yaml'];

/** Hosts of ServiceEntries in a namespace, straight from the parsed documents. */
function seHostsIn(l: Loaded, ns: string): string[] {
  return l.serviceEntries
    .filter((s) => s.metadata.namespace === ns)
    .flatMap((s) => s.spec.hosts)
    .sort();
}

describe('selectSidecar', () => {
  it('picks the namespace default from the analyzer fixture', () => {
    const l = load(DEPRECATION);
    expect(l.sidecars.length).toBe(1);
    const sel = selectSidecar(pod('p', 'default', { app: 'x' }), l.sidecars);
    expect(sel.source).toBe('namespace');
    expect(sel.sidecar?.metadata.name).toBe('no-selector');
    expect(selectSidecar(pod('p', 'other'), l.sidecars).source).toBe('none');
  });

  it('prefers a workload selector, then the namespace default, then the root default', () => {
    const sidecars = [
      sidecar('root', 'istio-system', ['./*']),
      sidecar('ns-default', 'prod', ['./*']),
      sidecar('reviews', 'prod', ['*/*'], { selector: { app: 'reviews' } }),
    ];
    expect(
      selectSidecar(pod('r', 'prod', { app: 'reviews' }), sidecars).sidecar?.metadata.name,
    ).toBe('reviews');
    expect(
      selectSidecar(pod('q', 'prod', { app: 'ratings' }), sidecars).sidecar?.metadata.name,
    ).toBe('ns-default');
    const root = selectSidecar(pod('d', 'dev'), sidecars);
    expect([root.source, root.sidecar?.metadata.name]).toEqual(['root', 'root']);
    expect(selectSidecar(pod('d', 'dev'), sidecars, 'mesh-root').source).toBe('none');
  });

  it('picks the oldest of two selector-less Sidecars and reports the conflict', () => {
    const sidecars = [
      sidecar('newer', 'prod', ['./*'], { created: '2024-05-01T00:00:00Z' }),
      sidecar('older', 'prod', ['*/*'], { created: '2023-05-01T00:00:00Z' }),
    ];
    const sel = selectSidecar(pod('p', 'prod'), sidecars);
    expect(sel.sidecar?.metadata.name).toBe('older');
    expect(sel.conflicts).toEqual([{ namespace: 'prod', name: 'newer' }]);
  });

  it('matches labels only when every selector label is present', () => {
    expect(labelsMatch({ app: 'a' }, { app: 'a', v: '1' })).toBe(true);
    expect(labelsMatch({ app: 'a', v: '2' }, { app: 'a', v: '1' })).toBe(false);
    expect(labelsMatch({}, { app: 'a' })).toBe(false);
    expect(labelsMatch(undefined, { app: 'a' })).toBe(false);
  });
});

describe('visibleServices on the Istio pilot fixtures', () => {
  const l = load(SE_EXAMPLE, NONE, SE_GW);
  const hostnames = (p: Pod) =>
    visibleServices(p, l.services, l.serviceEntries, l.sidecars)
      .services.map((s) => s.hostname)
      .sort();

  it('limits a seexamples pod to its own namespace (Sidecar seexamples/*)', () => {
    expect(hostnames(pod('a', 'seexamples'))).toEqual(seHostsIn(l, 'seexamples'));
    expect(seHostsIn(l, 'seexamples').length).toBeGreaterThan(0);
  });

  it('limits an exampleegressgw pod to its namespace', () => {
    expect(hostnames(pod('a', 'exampleegressgw'))).toEqual(seHostsIn(l, 'exampleegressgw'));
  });

  it('gives a pod in namespace none its namespace plus nothing from default', () => {
    const expected = [
      ...seHostsIn(l, 'none'),
      ...l.services
        .filter((s) => s.metadata.namespace === 'none')
        .map((s) => `${s.metadata.name}.none.svc.cluster.local`),
    ].sort();
    expect(hostnames(pod('a', 'none'))).toEqual(expected);
  });

  it('gives a pod without any Sidecar every host of every namespace', () => {
    const all = [
      ...l.serviceEntries.flatMap((s) => s.spec.hosts),
      ...l.services.map((s) => `${s.metadata.name}.${s.metadata.namespace}.svc.cluster.local`),
    ].sort();
    expect(hostnames(pod('a', 'unscoped'))).toEqual(all);
  });
});

describe('visibleServices rules', () => {
  const services = [
    svc('a', 'prod', [80, 9090]),
    svc('b', 'dev', [80]),
    svc('istiod', 'istio-system', [15010, 15012]),
  ];
  const names = (r: ReturnType<typeof visibleServices>) =>
    r.services.map((s) => `${s.name}.${s.namespace}:${s.ports.map((p) => p.port).join('+')}`);

  it('./* keeps the own namespace only, istio-system/* adds the control plane', () => {
    const r = visibleServices(
      pod('p', 'prod'),
      services,
      [],
      [sidecar('d', 'prod', ['./*', 'istio-system/*'])],
    );
    expect(names(r)).toEqual(['a.prod:80+9090', 'istiod.istio-system:15010+15012']);
  });

  it('~/* removes everything', () => {
    const r = visibleServices(pod('p', 'prod'), services, [], [sidecar('d', 'prod', ['~/*'])]);
    expect(r.services).toEqual([]);
  });

  it('~ns/* and ~/host exclude from what the other hosts include (Istio 1.31)', () => {
    const seen = (hosts: string[]) =>
      names(visibleServices(pod('p', 'prod'), services, [], [sidecar('d', 'prod', hosts)]));
    expect(seen(['*/*', '~dev/*'])).toEqual(['a.prod:80+9090', 'istiod.istio-system:15010+15012']);
    expect(seen(['*/*', '~/b.dev.svc.cluster.local'])).toEqual([
      'a.prod:80+9090',
      'istiod.istio-system:15010+15012',
    ]);
    // an exclusion of a host in another namespace than the one holding it excludes nothing
    expect(seen(['*/*', '~prod/b.dev.svc.cluster.local'])).toHaveLength(3);
    // exclusion wins over inclusion, whatever the order
    expect(seen(['~istio-system/*', 'istio-system/*', './*'])).toEqual(['a.prod:80+9090']);
    // an exclusion alone includes nothing
    expect(seen(['~dev/*'])).toEqual([]);
    // `~/*` still imports nothing
    expect(seen(['~/*'])).toEqual([]);
  });

  it('a root default with ./* means the pod namespace', () => {
    const r = visibleServices(
      pod('p', 'dev'),
      services,
      [],
      [sidecar('d', 'istio-system', ['./*'])],
    );
    expect(names(r)).toEqual(['b.dev:80']);
  });

  it('an egress listener with a port keeps only that port', () => {
    const r = visibleServices(
      pod('p', 'prod'),
      services,
      [],
      [sidecar('d', 'prod', ['*/*'], { port: 80 })],
    );
    expect(names(r)).toEqual(['a.prod:80', 'b.dev:80']);
  });

  it('honours exportTo of Services (annotation) and ServiceEntries', () => {
    const hidden = svc('private', 'prod', [8080], { 'networking.istio.io/exportTo': '.' });
    const se: ServiceEntry = {
      kind: 'ServiceEntry',
      metadata: { name: 'ext', namespace: 'prod' },
      spec: {
        hosts: ['api.example.com'],
        ports: [{ number: 443, name: 'tls', protocol: 'TLS' }],
        resolution: 'DNS',
        exportTo: ['.'],
      },
    };
    const fromDev = visibleServices(pod('p', 'dev'), [...services, hidden], [se], []);
    expect(fromDev.services.map((s) => s.hostname)).not.toContain('private.prod.svc.cluster.local');
    expect(fromDev.services.map((s) => s.hostname)).not.toContain('api.example.com');
    const fromProd = visibleServices(pod('p', 'prod'), [...services, hidden], [se], []);
    const ext = fromProd.services.find((s) => s.hostname === 'api.example.com');
    expect(ext?.resolution).toBe('DNS');
    expect(ext?.kind).toBe('ServiceEntry');
  });

  it('gateways ignore Sidecars', () => {
    const sc = [sidecar('d', 'prod', ['~/*'])];
    const r = visibleServices(pod('gw', 'prod'), services, [], sc, 'istio-system', {
      gateway: true,
    });
    expect(r.services.length).toBe(services.length);
    expect(r.selection.source).toBe('none');
  });

  it('reports invalid egress hosts and still applies the valid ones', () => {
    const r = visibleServices(
      pod('p', 'prod'),
      services,
      [],
      [sidecar('d', 'prod', ['a.prod.svc.cluster.local', 'dev/*'])],
    );
    expect(r.errors.map((e) => e.index)).toEqual([0]);
    expect(names(r)).toEqual(['b.dev:80']);
  });

  it('a Sidecar without egress keeps everything', () => {
    const empty: Sidecar = {
      kind: 'Sidecar',
      metadata: { name: 'x', namespace: 'prod' },
      spec: {},
    };
    expect(visibleServices(pod('p', 'prod'), services, [], [empty]).services.length).toBe(3);
  });
});
