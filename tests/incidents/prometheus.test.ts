import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentsView } from '../../lib/api/incidents';
import type { Pod } from '../../lib/kube/types';
import { KubeTransport } from '../../server/kube/transport';
import { buildIncidents } from '../../server/screens/incidents/incidents';
import { withPrometheus } from '../../server/screens/incidents/prometheus-history';
import { recordIpHistory, type RecordedIpHistory } from '../../test-support/feeds';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import type { Scenario } from '../../server/sim/world/types';
import {
  requirePrometheus,
  startPrometheus,
  waitForQuery,
  type RunningPrometheus,
} from '../../test-support/prometheus';

/**
 * The Prometheus path against a real Prometheus (Debian's package) scraping the simulator's
 * kube-state-metrics exposition: a pod that held an IP and was deleted before meshdx started
 * watching is found through `kube_pod_info`, and the IP's later holder is kept apart by time.
 */
requirePrometheus();

const IP = '10.60.0.7';

function pod(name: string, ip: string, replicaSet: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'shop',
      labels: { app: 'payments' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: replicaSet,
          uid: `rs-${replicaSet}`,
          controller: true,
        },
      ],
    },
    spec: {
      nodeName: 'node-a',
      containers: [
        { name: 'payments', image: 'shop/payments:1' },
        {
          name: 'istio-proxy',
          image: 'docker.io/istio/proxyv2:1.24.2',
          args: ['proxy', 'sidecar'],
        },
      ],
    },
    status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], hostIP: '192.168.0.10' },
  };
}

const scenario: Scenario = {
  name: 'prometheus-history',
  description: 'one namespace; the test creates and deletes pods on the real clock',
  start(ctx) {
    ctx.store.upsert('namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop', labels: { 'istio-injection': 'enabled' } },
    });
  },
};

/** One default-format access-log line: a 503 UC to IP:8080 at time t. */
function line(t: number, id: string): string {
  return (
    `[${new Date(t).toISOString()}] "GET /pay HTTP/1.1" 503 UC upstream_reset_before_response_started{connection_termination} - "-" ` +
    `0 95 3 - "-" "curl/8.5" "${id}" "payments.shop:8080" "${IP}:8080" ` +
    `outbound|8080||payments.shop.svc.cluster.local 10.60.1.2:51234 10.96.0.10:8080 10.60.1.2:40000 - default`
  );
}

describe('pod history from a real Prometheus (kube_pod_info)', () => {
  let sim: RunningSimulator;
  let prom: RunningPrometheus;
  let kc: KubeConfig;
  let t: KubeTransport;
  let recorded: RecordedIpHistory;
  let source: RecordedIpHistory['source'];
  let oldUid = '';
  let newUid = '';
  let whileOld = 0;
  let whileNew = 0;
  let began = 0;
  /** The incident window an SRE would pick: from before the story to now. */
  const q = () => ({ namespace: 'shop', from: new Date(began).toISOString() });

  beforeAll(async () => {
    began = Date.now();
    sim = await startSimulator({ scenario: 'prometheus-history', scenarioImpl: scenario, port: 0 });
    prom = await startPrometheus({
      hostPort: `127.0.0.1:${sim.port}`,
      metricsPath: '/_sim/ksm/metrics',
      scrapeSeconds: 1,
    });
    // before meshdx: payments-old holds the IP, is deleted, and payments-new gets the same IP
    oldUid = sim.store.upsert('pods', pod('payments-old', IP, 'payments-6f7c9')).metadata.uid ?? '';
    await waitForQuery(prom, 'kube_pod_info{pod="payments-old"}', (r) => r.length === 1);
    await new Promise((r) => setTimeout(r, 2_500));
    whileOld = Date.now();
    await new Promise((r) => setTimeout(r, 2_500));
    sim.store.remove('pods', 'shop', 'payments-old');
    await waitForQuery(prom, 'kube_pod_info{pod="payments-old"}', (r) => r.length === 0);
    await new Promise((r) => setTimeout(r, 1_500));
    newUid = sim.store.upsert('pods', pod('payments-new', IP, 'payments-8d2b1')).metadata.uid ?? '';
    await waitForQuery(
      prom,
      `kube_pod_info{pod_ip="${IP}"}`,
      (r) => r.every((s) => s.metric.pod === 'payments-new') && r.length === 1,
    );
    await new Promise((r) => setTimeout(r, 2_500));
    whileNew = Date.now();
    // meshdx starts now: its own watch only ever sees payments-new
    kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml);
    t = new KubeTransport(kc);
    recorded = recordIpHistory(t, kc, { clock: 'api-server', now: () => new Date() });
    source = recorded.source;
    await source.ready;
  }, 90_000);

  afterAll(async () => {
    recorded?.stop();
    t?.close();
    await prom?.stop();
    await sim?.close();
  });

  const analyse = (
    history: RecordedIpHistory['source'] | Awaited<ReturnType<typeof withPrometheus>>,
  ) =>
    buildIncidents(q(), {
      t,
      history,
      logs: [
        {
          source: 'upload',
          clientPod: null,
          text: [line(whileOld, 'req-old'), line(whileNew, 'req-new')].join('\n'),
        },
      ],
    });
  const byId = (view: IncidentsView, time: number) =>
    view.requests.find((r) => r.time !== null && Date.parse(r.time) === time);

  it('without Prometheus the deleted pod is unknown to meshdx', async () => {
    const view = await analyse(source);
    expect(byId(view, whileOld)?.pod).toBeNull();
    expect(byId(view, whileOld)?.state).toBe('unknown');
    expect(byId(view, whileNew)?.pod?.uid).toBe(newUid);
  });

  it('with Prometheus the IP is mapped to the pod that held it before meshdx started', async () => {
    const merged = await withPrometheus(
      source,
      { baseUrl: prom.url, timeoutMs: 5_000, minStepMs: 1_000 },
      q(),
      Date.now(),
    );
    expect(merged.info().note ?? '').toMatch(/Prometheus kube_pod_info added 1 intervals/);
    const history = merged.load().history(IP);
    expect(history.map((i) => i.name)).toEqual(['payments-old', 'payments-new']);
    const old = history[0];
    expect(old?.owner).toEqual({ kind: 'ReplicaSet', name: 'payments-6f7c9' });
    expect(old?.node).toBe('node-a');
    expect(old?.goneAt).not.toBeNull();
    const view = await analyse(merged);
    const before = byId(view, whileOld);
    expect(before?.pod).toEqual({ namespace: 'shop', name: 'payments-old', uid: oldUid });
    expect(before?.state).toBe('live');
    // the reused IP: the later request belongs to the new holder, not the old one
    expect(byId(view, whileNew)?.pod?.uid).toBe(newUid);
    expect(byId(view, whileNew)?.state).toBe('live');
    expect(view.history.source).toMatch(/Prometheus/);
  });

  it('a Prometheus that cannot be reached is a note, and the view still comes', async () => {
    const merged = await withPrometheus(
      source,
      { baseUrl: 'http://127.0.0.1:1/', timeoutMs: 2_000 },
      q(),
      Date.now(),
    );
    expect(merged.info().note ?? '').toMatch(
      /not used: Prometheus at http:\/\/127\.0\.0\.1:1\/ not reachable/,
    );
    const view = await analyse(merged);
    expect(byId(view, whileOld)?.state).toBe('unknown');
  });
});
