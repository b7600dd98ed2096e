/**
 * deploy/overlays/with-access-log, rendered with `kubectl kustomize` and applied with real kubectl
 * to the simulated phantom-503 cluster: its MeshConfig provider and Telemetry alone make the
 * simulated sidecars send their failing requests to meshdx's Service, which reaches the receiver.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OtlpReceiver } from '../../server/otlp/receiver';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import type { HistoryStore } from '../../server/store/history-store';
import { render, type K8sObject } from '../deploy/render';
import { KUBECTL, requireKubectl } from '../sim/kubectl-harness';
import { receiverOn, storeWithPayments } from './support';
import { CHILD_PROCESS_GUARD_MS } from '../../test-support/deadlines';

requireKubectl('the with-access-log overlay test (it applies the overlay with kubectl)');

const exec = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-otlp-overlay-'));
const kubeconfig = path.join(dir, 'kubeconfig');
let sim: RunningSimulator;
let receiver: OtlpReceiver;
let store: HistoryStore;

const kubectl = async (...args: string[]) =>
  (
    await exec(
      KUBECTL,
      ['--kubeconfig', kubeconfig, '--cache-dir', path.join(dir, 'cache'), ...args],
      {
        timeout: CHILD_PROCESS_GUARD_MS,
      },
    )
  ).stdout;

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'phantom-503',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
  });
  fs.writeFileSync(kubeconfig, sim.kubeconfigYaml, { mode: 0o600 });
  store = storeWithPayments();
  receiver = await receiverOn(store);
});

afterAll(async () => {
  await receiver?.stop();
  store?.close();
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('deploy/overlays/with-access-log applied to the simulator', () => {
  it("makes the sidecars send their 5xx to meshdx's receiver", async () => {
    const { objects } = await render('with-access-log');
    const pick = (kind: string, name?: string) =>
      objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
    const apply = async (name: string, objs: K8sObject[]) => {
      const file = path.join(dir, `${name}.yaml`);
      fs.writeFileSync(file, objs.map((o) => stringify(o)).join('---\n'));
      return kubectl('apply', '-f', file);
    };
    await apply('ns', pick('Namespace'));
    const applied = await apply('otlp', [
      ...pick('ConfigMap', 'istio'),
      ...pick('Telemetry'),
      ...pick('Service', 'meshdx'),
    ]);
    expect(applied).toMatch(/configmap\/istio (configured|created)/);
    expect(applied).toMatch(/telemetry\.telemetry\.istio\.io\/meshdx-failing-requests created/);
    // the endpoint controller's slice for the meshdx pod: here meshdx runs on this host
    await apply('slice', [
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          name: 'meshdx-abcde',
          namespace: 'meshdx',
          labels: { 'kubernetes.io/service-name': 'meshdx' },
        },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true } }],
        ports: [{ name: 'grpc-otlp', port: receiver.grpcPort ?? 0, protocol: 'TCP' }],
      },
    ]);

    for (let t = 0; t < 45_000; t += 1000) sim.clock.advance(1000);
    await sim.otlp.flush();
    expect(sim.otlp.stats).toMatchObject({ failed: 0, noEndpoint: 0 });
    expect(sim.otlp.stats.sent).toBeGreaterThan(0);
    expect(receiver.counters.stored).toBe(sim.otlp.stats.sent);
    const stored = store.failures.inWindow({ fromMs: 0, toMs: Date.parse('2027-01-01T00:00:00Z') });
    expect(new Set(stored.map((f) => f.source.proxy.split('/')[0]))).toEqual(new Set(['shop']));
    expect(stored.every((f) => (f.fields.code ?? 0) >= 500)).toBe(true);
  }, 60_000);
});
