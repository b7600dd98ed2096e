import { describe, expect, it } from 'vitest';
import { analyzePod } from '../../../../lib/timeline/analyze';
import type { KubeEvent, Pod } from '../../../../lib/kube/types';
import { createIds, seededRandom } from './ids';
import { NODES } from './nodes';
import { podTemplate } from './podspec';
import { planStart } from './plan';
import { podStatusAt } from './status';
import { eventsOf, EventBook } from './events';

const T = Date.parse('2026-01-01T00:00:00Z');
const node = NODES[0] ?? { name: 'n', hostIP: '10.0.0.1', podNet: 40 };

function plan(mode: 'classic' | 'hold-annotation', race = false) {
  const tpl = podTemplate({ name: 'app', replicas: 1, mode }, 'ns', 'h');
  return {
    tpl,
    plan: planStart(tpl, 'p', 'ns', node, '10.40.0.9', createIds(seededRandom('probe')), {
      t0: T,
      proxyReadyMs: 2500,
      race,
    }),
  };
}

/** The pod and its events as the API would show them long after the start. */
function observed(
  mode: 'classic' | 'hold-annotation',
  race = false,
): { pod: Pod; events: KubeEvent[] } {
  const { tpl, plan: p } = plan(mode, race);
  const book = new EventBook(() => 'x');
  const byKey = new Map<string, KubeEvent>();
  for (const o of eventsOf(p)) {
    const e = book.record(p, o);
    byKey.set(`${e.reason}|${e.involvedObject.fieldPath ?? ''}|${e.message}`, e);
  }
  const pod: Pod = {
    metadata: { name: p.name, namespace: p.namespace, uid: p.uid, annotations: tpl.annotations },
    spec: { ...tpl.spec, nodeName: node.name },
    status: podStatusAt(p, T + 60_000),
  };
  return { pod, events: [...byKey.values()] };
}

describe('the proxy readiness probe in the simulator', () => {
  it('marks istio-proxy ready at the first probe tick after Envoy is ready, failing before it', () => {
    const { plan: p } = plan('classic');
    const proxy = p.containers.find((c) => c.isProxy)!;
    expect(proxy.envoyReadyAt).toBe(proxy.startAt + 2500);
    // ticks at start+1s, +3s, ...: Envoy ready at +2.5s fails the +1s probe, passes the +3s one
    expect(proxy.probeFailures).toEqual([proxy.startAt + 1000]);
    expect(proxy.readyAt).toBe(proxy.startAt + 3000);
  });

  it('hold: pilot-agent wait starts the app when Envoy is ready, before the kubelet probe notices', () => {
    const { plan: p } = plan('hold-annotation', true);
    const [proxy, app] = p.containers;
    expect(app!.startAt).toBe(proxy!.envoyReadyAt! + 200);
    expect(app!.startAt).toBeLessThan(proxy!.readyAt!);
    expect(app!.crash).toBeUndefined();
  });

  it('is read by lib/timeline as held (hold) and as a proven race (classic)', () => {
    const hold = analyzePod(observed('hold-annotation').pod, {
      events: observed('hold-annotation').events,
    });
    expect(hold.verdicts.find((v) => v.phase === 'startup')?.verdict).toBe('held-ok');
    const c = observed('classic');
    const classic = analyzePod(c.pod, { events: c.events });
    const v = classic.verdicts.find((x) => x.phase === 'startup');
    expect(v?.verdict).toBe('race');
    expect(v?.confidence).toBe('high');
    const r = observed('classic', true);
    expect(analyzePod(r.pod, { events: r.events }).verdicts[0]?.verdict).toBe('race-restart');
  });
});
