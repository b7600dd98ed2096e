import { describe, expect, it } from 'vitest';
import { injectorSetting, nodeVersions, decideNative } from '../../../lib/dataplane/native-sidecar';
import { podProxy } from '../../../lib/dataplane/proxy-container';
import { isZtunnelPod } from '../../../lib/dataplane/mode';
import type { Namespace, Node, Pod, Service } from '../../../lib/kube/types';
import { servicePortFindings } from '../../../lib/protocol/ports';
import { analyzePod } from '../../../lib/timeline/analyze';
import { createMeshEmulator } from '../mesh';
import { ambient, AMBIENT_NS, LAGGING_NODE } from './ambient';
import { nativeSidecar } from './native-sidecar';
import { harness } from './testing/fakes';

describe('native-sidecar', () => {
  const h = harness('native-sidecar');
  nativeSidecar.start(h.ctx);
  h.clock.advance(30_000);
  const pods = h.store.list<Pod>('pods').filter((p) => p.metadata.namespace === 'native-lab');
  const of = (app: string) => pods.filter((p) => p.metadata.labels?.app === app);

  it('serves nodes on kubelet 1.33 and 1.32 and an istiod 1.27 without the env (auto)', () => {
    const nodes = nodeVersions(h.store.list<Node>('nodes'));
    expect(nodes.map((n) => n.minor)).toEqual([33, 33, 32]);
    const istiod = h.store
      .list<Pod>('pods')
      .filter((p) => p.metadata.labels?.app === 'istiod' && !p.metadata.deletionTimestamp);
    expect(injectorSetting(istiod).value).toBe('auto');
  });

  it('injects checkout natively without the annotation: a new pod would be classic', () => {
    const [checkout] = of('checkout');
    expect(checkout && podProxy(checkout)?.placement).toBe('native-sidecar');
    expect(checkout?.metadata.annotations?.['sidecar.istio.io/nativeSidecar']).toBeUndefined();
    const nodes = nodeVersions(h.store.list<Node>('nodes'));
    expect(decideNative(checkout?.metadata.annotations, 'auto', nodes).native).toBe(false);
    const [ledger] = of('ledger-api');
    expect(decideNative(ledger?.metadata.annotations, 'auto', nodes).native).toBe(true);
  });

  it('holds payments back behind a native proxy that never gets ready', () => {
    const [payments] = of('payments');
    expect(payments).toBeDefined();
    const t = analyzePod(payments as Pod);
    expect(t.verdicts.map((v) => v.verdict)).toContain('native-not-ready');
    const [orders] = of('orders-v2');
    expect(analyzePod(orders as Pod).verdicts.map((v) => v.verdict)).toContain('hold-redundant');
  });
});

describe('ambient', () => {
  const h = harness('ambient');
  ambient.start(h.ctx);
  // the api rollout starts 30 s after the clock does; its old pods are gone a minute later,
  // and the lagging ztunnel logs connections to them after that
  h.clock.advance(240_000);
  const all = h.store.list<Pod>('pods');
  const emulator = createMeshEmulator({
    now: () => h.clock.now(),
    list: (k) => h.store.list(k),
  });

  it('runs one ztunnel per node, which is no Envoy sidecar', () => {
    const zt = all.filter((p) => isZtunnelPod(p));
    expect(zt.map((p) => p.spec.nodeName).sort()).toEqual([
      'sim-node-1',
      'sim-node-2',
      'sim-node-3',
    ]);
    expect(zt.every((p) => podProxy(p) === null)).toBe(true);
    const ns = h.store.get<Namespace>('namespaces', undefined, AMBIENT_NS);
    expect(ns?.metadata.labels?.['istio.io/dataplane-mode']).toBe('ambient');
    const wp = all.find((p) => p.metadata.labels?.app === 'waypoint');
    expect(wp && podProxy(wp)?.placement).toBe('waypoint');
  });

  it("gives the waypoint the Service Istio's gateway controller makes: each port's protocol declared", () => {
    const svc = h.store.get<Service>('services', AMBIENT_NS, 'waypoint');
    expect(svc?.spec.ports?.map((p) => [p.name, p.port, p.appProtocol])).toEqual([
      ['status-port', 15021, 'tcp'],
      ['mesh', 15008, 'hbone'],
    ]);
    // so the protocol checks (IST0118) have nothing to say about it
    expect(svc && servicePortFindings(svc, all)).toEqual([]);
  });

  it("keeps the old api pods in the lagging ztunnel's config dump, and only there", () => {
    const zt = all.filter((p) => isZtunnelPod(p));
    const dump = (p: Pod) =>
      JSON.parse(emulator.podHttp(p, 15000, '/config_dump', new URLSearchParams()).body) as {
        workloads: Record<string, { name: string; protocol: string; waypoint?: unknown }>;
      };
    const live = new Set(all.map((p) => p.metadata.name));
    const stale = (p: Pod) =>
      Object.values(dump(p).workloads)
        .filter((w) => !live.has(w.name))
        .map((w) => w.name);
    const lagging = zt.find((p) => p.spec.nodeName === LAGGING_NODE) as Pod;
    expect(stale(lagging)).toHaveLength(3);
    expect(stale(lagging).every((n) => n.startsWith('api-'))).toBe(true);
    for (const p of zt.filter((x) => x !== lagging)) expect(stale(p)).toEqual([]);
    const web = Object.values(dump(lagging).workloads).find((w) => w.name.startsWith('web-'));
    expect(web?.protocol).toBe('HBONE');
    expect(web?.waypoint).toBeDefined();
    const db = Object.values(dump(lagging).workloads).find((w) => w.name.startsWith('legacy-db-'));
    expect(db?.protocol).toBe('TCP');
  });

  it('logs failed connections to the gone api pods on the lagging ztunnel', () => {
    const lagging = all.find((p) => isZtunnelPod(p) && p.spec.nodeName === LAGGING_NODE);
    const lines = h.logs
      .read('istio-system', lagging?.metadata.name ?? '', 'istio-proxy')
      .map((l) => l.line);
    const errors = lines.filter((l) => l.includes('\terror\taccess\t'));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatch(
      /dst\.hbone_addr=10\.\d+\.\d+\.\d+:8080 .*error="io error: Connection refused/,
    );
    expect(lines.some((l) => l.includes('\tinfo\taccess\tconnection complete\t'))).toBe(true);
  });
});
