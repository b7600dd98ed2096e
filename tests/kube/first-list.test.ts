import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { ListWatcher, listPaged, type ObservedEvent } from '../../server/kube/listwatch';
import { CORE } from '../../server/kube/resources';
import { KubeTransport } from '../../server/kube/transport';
import { startSimulator } from '../../server/sim/index';

/**
 * A big cluster's first list is heard page by page, so the views can answer from what was read
 * while it goes on; what a list that failed or was expired midway let through is reconciled.
 */
type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let t: KubeTransport;

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'demo',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
  });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  t = new KubeTransport(kc);
});

afterAll(async () => {
  t?.close();
  await sim?.close();
});

const pod = (name: string, rv: string): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop', uid: `uid-${name}`, resourceVersion: rv },
    spec: { containers: [{ name: 'app', image: 'app:1' }] },
    status: { phase: 'Running' },
  }) as unknown as Pod;

describe('the first list, page by page', () => {
  it('hands each page over as it is read, the progress counting up', async () => {
    const pages: { names: string[]; objects: number; pages: number }[] = [];
    const progress = {
      pages: 0,
      objects: 0,
      remaining: null as number | null,
      startedAt: null as number | null,
    };
    const listed = await listPaged<Pod>(t, CORE.pods, {
      pageSize: 7,
      progress,
      onPage: (items) =>
        pages.push({
          names: items.map((p) => p.metadata.name),
          objects: progress.objects,
          pages: progress.pages,
        }),
    });
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.map((p) => p.pages)).toEqual(pages.map((_, i) => i + 1));
    expect(pages.flatMap((p) => p.names)).toEqual(listed.items.map((p) => p.metadata.name));
    expect(pages.at(-1)?.objects).toBe(listed.items.length);
  });

  it('after a first list failed midway, the next attempt reconciles what was heard', async () => {
    // a transport that serves page 1, fails on page 2, then serves a list without `a`
    let call = 0;
    const fake = {
      clusterNow: () => new Date('2026-11-01T12:00:00Z'),
      request: async () => {
        call++;
        if (call === 1)
          return {
            status: 200,
            body: JSON.stringify({
              metadata: { resourceVersion: '10', continue: 'next' },
              items: [pod('a', '5'), pod('b', '6')],
            }),
          };
        if (call === 2) throw new Error('connection reset');
        return {
          status: 200,
          body: JSON.stringify({
            metadata: { resourceVersion: '12' },
            items: [pod('b', '7'), pod('c', '8')],
          }),
        };
      },
    } as unknown as KubeTransport;
    const events: ObservedEvent<Pod>[] = [];
    const w = new ListWatcher<Pod>(fake, new KubeConfig(), CORE.pods, {
      onEvent: (e) => events.push(e),
    });
    await expect(w.start()).rejects.toThrow(/connection reset/);
    expect(events.map((e) => [e.type, e.object.metadata.name, e.via])).toEqual([
      ['ADDED', 'a', 'list'],
      ['ADDED', 'b', 'list'],
    ]);
    events.length = 0;
    const started = w.start().catch(() => undefined);
    await expect.poll(() => events.length).toBe(3);
    w.stop();
    await started;
    expect(events.map((e) => [e.type, e.object.metadata.name, e.via])).toEqual([
      ['MODIFIED', 'b', 'reconcile'],
      ['ADDED', 'c', 'reconcile'],
      ['DELETED', 'a', 'reconcile'],
    ]);
  });
});
