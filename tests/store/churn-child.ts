/**
 * Child process of durability.test.ts: runs the recorder against a simulator with a busy churn
 * of pod events and prints `COMMIT <intervals in the file>` after every committed batch, until
 * it is killed. Usage: node --import tsx tests/store/churn-child.ts STORE_FILE
 */
import { KubeConfig } from '@kubernetes/client-node';
import { startSimulator } from '../../server/sim/index';
import { KubeTransport } from '../../server/kube/transport';
import { openHistoryStore } from '../../server/store/history-store';
import { recorderOn } from '../../test-support/feeds';
import type { Scenario } from '../../server/sim/world/types';
import { churnIp, churnName } from './churn';
import { simPod } from './scenario';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: churn-child.ts STORE_FILE\n');
  process.exit(2);
}

const empty: Scenario = {
  name: 'store-churn',
  description: 'an empty namespace; the churn loop fills it',
  start(ctx) {
    ctx.store.upsert('namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop' },
    });
  },
};

const sim = await startSimulator({
  scenario: 'store-churn',
  port: 0,
  clock: 'real',
  scenarioImpl: empty,
});
const kc = new KubeConfig();
kc.loadFromString(sim.kubeconfigYaml);
const store = openHistoryStore(file, {
  batchSize: 300,
  flushIntervalMs: 15,
  onCommit: (c) => process.stdout.write(`COMMIT ${c.intervalsTotal}\n`),
});
const recorder = recorderOn(new KubeTransport(kc), kc, store, { backoffMs: [20, 200] });
await recorder.ready;
process.stdout.write('READY\n');

let next = 0;
/** Every few ms: 40 new pods, 20 marked terminating, 20 deleted. */
function churn(): void {
  const now = sim.clock.now();
  for (let k = 0; k < 40; k++, next++)
    sim.store.upsert('pods', simPod(churnName(next), { ip: churnIp(next), start: now }));
  for (let k = next - 200; k < next - 180; k++) {
    if (k < 0) continue;
    const deletion = new Date(now.getTime() + 30_000);
    sim.store.upsert(
      'pods',
      simPod(churnName(k), { ip: churnIp(k), start: now, deletionTimestamp: deletion }),
    );
  }
  for (let k = next - 400; k < next - 380; k++)
    if (k >= 0) sim.store.remove('pods', 'shop', churnName(k));
  setTimeout(churn, 5);
}
churn();
