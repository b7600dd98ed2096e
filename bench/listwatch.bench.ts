import { KubeConfig } from '@kubernetes/client-node';
import type { Pod } from '../lib/kube/types';
import { WatchFeed } from '../server/kube/feed';
import { ListWatcher } from '../server/kube/listwatch';
import { CORE } from '../server/kube/resources';
import { KubeTransport } from '../server/kube/transport';
import { ms, peakRssMb, startSimProcess, type BenchResult } from './support';

/**
 * The first list at 50,000 pods (2,000 services, 20,000 with a sidecar) as a runtime makes it:
 * one WatchFeed, pages of 5,000, each pod trimmed as its page arrives. From the first request
 * to every pod held and the watch opened.
 */
async function firstList50k(): Promise<BenchResult[]> {
  const pods = 50_000;
  const sim = await startSimProcess('scale', {
    pods: String(pods),
    services: '2000',
    proxies: '20000',
  });
  try {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml);
    const t = new KubeTransport(kc);
    const feed = new WatchFeed<Pod>(t, kc, CORE.pods);
    const start = process.hrtime.bigint();
    await feed.whenListed();
    const took = ms(start);
    const held = feed.snapshot().length;
    const status = feed.currentStatus;
    feed.stop();
    t.close();
    if (held < pods) throw new Error(`expected at least ${pods} pods, the feed holds ${held}`);
    return [
      {
        name: 'listwatch.first-list-50000-pods',
        value: Math.round(took),
        unit: 'ms',
        target: 5000,
        note: `${held} pods in ${status.progress.pages} pages; simulator in its own process`,
      },
      {
        name: 'listwatch.peak-rss-50000-pods',
        value: Math.round(peakRssMb()),
        unit: 'MB',
        note: 'this benchmark process: the feed holding 50,000 trimmed pods',
      },
    ];
  } finally {
    await sim.stop();
  }
}

export async function run(): Promise<BenchResult[]> {
  const small = await firstList5k();
  return [...small, ...(await firstList50k())];
}

/** Foundation: list+watch of the `scale` scenario at 5,000 pods through the adapter. */
async function firstList5k(): Promise<BenchResult[]> {
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
