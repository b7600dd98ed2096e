import { KubeConfig } from '@kubernetes/client-node';
import type { Pod } from '../lib/kube/types';
import { ListWatcher } from '../server/kube/listwatch';
import { CORE } from '../server/kube/resources';
import { KubeTransport } from '../server/kube/transport';
import { ms, peakRssMb, startSimProcess, type BenchResult } from './support';

/** Foundation: list+watch of the `scale` scenario at 5,000 pods through the adapter. */
export async function run(): Promise<BenchResult[]> {
  const pods = 5000;
  const sim = await startSimProcess('scale', { pods: String(pods), services: '500' });
  try {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml);
    const t = new KubeTransport(kc);
    let seen = 0;
    const rssBefore = peakRssMb();
    const start = process.hrtime.bigint();
    const w = new ListWatcher<Pod>(t, kc, CORE.pods, { onEvent: () => seen++ });
    await w.start();
    const firstList = ms(start);
    // the truth: what the simulator holds (the scale pods plus istio-system's own)
    const info = (await (await fetch(`${sim.url}/_sim/info`)).json()) as {
      counts: Record<string, number>;
    };
    const expected = info.counts.pods ?? -1;
    if (seen !== expected || seen < pods)
      throw new Error(`expected ${expected} pods from the first list, saw ${seen}`);
    // the watch is open: wait until it is established (state) before measuring steady memory
    await new Promise((r) => setTimeout(r, 500));
    const state = w.currentState;
    w.stop();
    t.close();
    return [
      {
        name: 'listwatch.first-full-list-5000-pods',
        value: Math.round(firstList),
        unit: 'ms',
        note: `${seen} pods; watch state after: ${state}`,
      },
      {
        name: 'listwatch.peak-rss',
        value: Math.round(peakRssMb()),
        unit: 'MB',
        note: `before listing: ${Math.round(rssBefore)} MB`,
      },
    ];
  } finally {
    await sim.stop();
  }
}
