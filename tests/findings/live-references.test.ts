/**
 * References that need more than the routes themselves, on a live cluster: the Findings report
 * reads the cluster's Istio Gateways and Nodes (objects applied with kubectl to the simulator, as
 * an SRE applies them). Each VirtualService's gateways are checked as istioctl analyze does: a
 * Gateway that exists and serves a host of the VirtualService is no finding; one that serves none
 * is IST0132; one that does not exist is IST0101 and IST0132. A DestinationRule subset selecting
 * by a label endpoints take from their node (kubernetes.io/hostname) selects the pods there.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { FindingsReportSchema, type FindingsReport } from '../../lib/api/findings';
import { asMeshdx } from '../../server/auth/identity';
import { getWholeFindings } from '../../server/screens/findings/findings';
import { runtimeOnSimulator, type SimRuntime } from '../../test-support/sim-runtime';
import { KUBECTL, requireKubectl } from '../sim/kubectl-harness';

requireKubectl('the live gateway findings test (it applies the objects with kubectl)');

const exec = promisify(execFile);
let on: SimRuntime;
let report: FindingsReport;

const vs = (name: string, hosts: string[], gateways: string[]) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'VirtualService',
  metadata: { name, namespace: 'shop' },
  spec: {
    hosts,
    gateways,
    http: [{ route: [{ destination: { host: 'checkout.shop.svc.cluster.local' } }] }],
  },
});

const destinationRule = (node: string) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'DestinationRule',
  metadata: { name: 'checkout-by-node', namespace: 'shop' },
  spec: {
    host: 'checkout.shop.svc.cluster.local',
    subsets: [
      { name: 'on-its-node', labels: { app: 'checkout', 'kubernetes.io/hostname': node } },
      { name: 'nowhere', labels: { app: 'checkout', 'kubernetes.io/hostname': 'no-such-node' } },
    ],
  },
});

const objects = (node: string) => ({
  apiVersion: 'v1',
  kind: 'List',
  items: [
    destinationRule(node),
    {
      apiVersion: 'networking.istio.io/v1',
      kind: 'Gateway',
      metadata: { name: 'web-gateway', namespace: 'shop' },
      spec: {
        selector: { istio: 'ingressgateway' },
        servers: [
          { port: { number: 80, name: 'http', protocol: 'HTTP' }, hosts: ['shop.example.com'] },
          // bound only by VirtualServices of another namespace: not this one's
          {
            port: { number: 8080, name: 'http-x', protocol: 'HTTP' },
            hosts: ['ops/admin.example.com'],
          },
        ],
      },
    },
    vs('served', ['shop.example.com'], ['web-gateway']),
    vs('served-and-mesh', ['shop.example.com', 'checkout'], ['mesh', 'shop/web-gateway']),
    vs('not-served', ['www.example.com'], ['web-gateway']),
    vs('other-namespace-host', ['admin.example.com'], ['web-gateway']),
    vs('no-such-gateway', ['shop.example.com'], ['gone-gateway']),
  ],
});

beforeAll(async () => {
  on = await runtimeOnSimulator({ scenario: 'demo' });
  const checkout = on.sim.store
    .list<Pod>('pods')
    .find((p) => p.metadata.namespace === 'shop' && p.metadata.labels?.app === 'checkout');
  const node = checkout?.spec?.nodeName;
  if (!node) throw new Error('the demo has no checkout pod on a node');
  const child = exec(KUBECTL, ['--kubeconfig', on.kubeconfig, 'apply', '-f', '-']);
  child.child.stdin?.end(JSON.stringify(objects(node)));
  await child;
  report = FindingsReportSchema.parse(await getWholeFindings(asMeshdx(null)));
}, 90_000);

afterAll(() => on?.close());

const of = (name: string) =>
  report.findings
    .filter((f) => f.subject.kind === 'VirtualService' && f.subject.name === name)
    .map((f) => f.code)
    .sort();

describe("the gateways VirtualServices name, on a live cluster's Findings", () => {
  it('reads the Gateways and the Nodes, and says so', () => {
    const source = report.sources?.find((s) => s.name === 'gateways');
    expect(source).toMatchObject({ ok: true });
    // the test's Gateway and the waypoint of the demo's ambient namespace (a Gateway API one)
    expect(source?.detail).toBe('2 Gateways');
    expect(report.sources?.find((s) => s.name === 'nodes')?.detail).toMatch(
      /^(1 node|[2-9]\d* nodes)$/,
    );
  });

  it('finds nothing on a VirtualService whose host the Gateway serves', () => {
    expect(of('served')).toEqual([]);
    expect(of('served-and-mesh')).toEqual([]);
  });

  it('is IST0132 for a host the Gateway does not serve to that namespace', () => {
    expect(of('not-served')).toEqual(['IST0132']);
    expect(of('other-namespace-host')).toEqual(['IST0132']);
    const f = report.findings.find((x) => x.code === 'IST0132' && x.subject.name === 'not-served');
    expect(f?.evidence).toMatchObject({
      gateway: 'shop/web-gateway',
      hosts: 'www.example.com',
      gatewayHosts: 'shop.example.com, ops/admin.example.com',
    });
  });

  it('is IST0101 and IST0132 for a Gateway that does not exist', () => {
    expect(of('no-such-gateway')).toEqual(['IST0101', 'IST0132']);
  });
});

describe("a DestinationRule subset by node, on a live cluster's Findings", () => {
  it('selects the pods on that node; a node that does not exist selects none (IST0173)', () => {
    const subsets = report.findings
      .filter((f) => f.subject.kind === 'DestinationRule' && f.subject.name === 'checkout-by-node')
      .filter((f) => f.code === 'IST0173')
      .map((f) => `${f.code} ${f.part?.name ?? ''}`);
    expect(subsets).toEqual(['IST0173 nowhere']);
  });
});
