import { BatchV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { DAEMONSET, OPS_NAMESPACE, SPECLESS_POD } from '../../server/sim/scenarios/ops';
import { kubectlSim, requireKubectl } from './kubectl-harness';

requireKubectl('the demo scenario kubectl tests');

describe('the demo scenario through real kubectl and client-node', () => {
  const h = kubectlSim('sim-demo', { scenario: 'demo', scenarioImpl: undefined });
  const api = <T>(k: new (...a: never[]) => T) => {
    const kc = new KubeConfig();
    kc.loadFromString(h.sim.kubeconfigYaml);
    return kc.makeApiClient(k as never) as T;
  };

  it('lists every pod with kubectl get pods -A, the one stored without a spec included', async () => {
    const stored = h.sim.store.list('pods').length;
    expect(h.sim.store.get('pods', OPS_NAMESPACE, SPECLESS_POD)).toBeDefined();
    for (const args of [
      ['get', 'pods', '-A'],
      ['get', 'pods', '-A', '-o', 'wide'],
    ]) {
      const rows = (await h.kubectl(...args)).trim().split('\n');
      expect(rows).toHaveLength(stored + 1);
      expect(
        rows.some((r) => new RegExp(`^${OPS_NAMESPACE}\\s+${SPECLESS_POD}\\s+0/0\\s`).test(r)),
      ).toBe(true);
    }
    const json = JSON.parse(await h.kubectl('get', 'pods', '-A', '-o', 'json')) as {
      items: unknown[];
    };
    expect(json.items).toHaveLength(stored);
    const all = await api(CoreV1Api).listPodForAllNamespaces();
    expect(all.items).toHaveLength(stored);
    // the simulator's own readers of pods survive it too
    const ksm = await fetch(`${h.sim.url}/_sim/ksm/metrics`);
    expect(ksm.status).toBe(200);
    expect(await ksm.text()).toContain(`pod="${SPECLESS_POD}"`);
  });

  it('shows the CronJob -> Job -> Pod chain', async () => {
    const out = await h.kubectl('get', 'cronjob,job,pod', '-n', OPS_NAMESPACE);
    expect(out).toMatch(
      /cronjob\.batch\/nightly-report\s+\*\/30 \* \* \* \*\s+<none>\s+false\s+0\s+/,
    );
    expect(out).toMatch(/job\.batch\/nightly-report-\d+\s+Complete\s+1\/1\s+45s\s+/);
    expect(out).toMatch(/pod\/nightly-report-\d+-[a-z0-9]{5}\s+0\/1\s+Completed\s+0\s+/);
    const batch = api(BatchV1Api);
    const cron = await batch.readNamespacedCronJob({
      namespace: OPS_NAMESPACE,
      name: 'nightly-report',
    });
    const [job] = (await batch.listNamespacedJob({ namespace: OPS_NAMESPACE })).items;
    expect(job?.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'CronJob',
      uid: cron.metadata?.uid,
      controller: true,
    });
    const pods = await api(CoreV1Api).listNamespacedPod({
      namespace: OPS_NAMESPACE,
      labelSelector: `batch.kubernetes.io/job-name=${job?.metadata?.name ?? ''}`,
    });
    expect(pods.items).toHaveLength(1);
    expect(pods.items[0]?.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'Job',
      uid: job?.metadata?.uid,
      controller: true,
    });
  });

  it('shows the nodes and a DaemonSet with one host-network pod on each', async () => {
    const nodes = (await h.kubectl('get', 'nodes')).trim().split('\n');
    expect(nodes[0]).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/);
    expect(nodes.slice(1)).toHaveLength(3);
    for (const row of nodes.slice(1))
      // the demo runs nodes of two kubelet versions (native sidecars switch on by node version)
      expect(row).toMatch(/^sim-node-\d\s+Ready\s+<none>\s+\S+\s+v1\.3[23]\.\d+$/);
    expect(await h.kubectl('get', 'ds', '-n', OPS_NAMESPACE)).toMatch(
      new RegExp(`${DAEMONSET}\\s+3\\s+3\\s+3\\s+3\\s+3\\s+<none>\\s+`),
    );
    const wide = await h.kubectl(
      'get',
      'pods',
      '-n',
      OPS_NAMESPACE,
      '-l',
      `app=${DAEMONSET}`,
      '-o',
      'wide',
    );
    for (const n of ['1', '2', '3'])
      expect(wide).toMatch(
        new RegExp(`Running\\s+0\\s+\\S+\\s+10\\.128\\.0\\.1${n}\\s+sim-node-${n}\\s`),
      );
  });

  it('lists every Deployment and ReplicaSet of the demo', async () => {
    const out = (await h.kubectl('get', 'deploy,rs,sts,ds,job,cronjob', '-A')).split('\n');
    const deployments = h.sim.store.list('deployments').length;
    expect(deployments).toBeGreaterThan(50);
    expect(out.filter((l) => /\sdeployment\.apps\//.test(l))).toHaveLength(deployments);
    expect(out.filter((l) => /\sreplicaset\.apps\//.test(l))).toHaveLength(
      h.sim.store.list('replicasets').length,
    );
  });
});
