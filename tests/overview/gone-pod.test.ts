/**
 * A deleted pod's page answers from the history store: the simulator, meshdx's route handler and
 * its registry as the server makes them; a payments pod is deleted through the API, and
 * GET /api/pods/shop/<it> answers 200, gone, with its deletion, IPs and transitions. Once a
 * namesake holds the name, its page and its timeline are the old pod's by uid, the new one's
 * by name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as podGet } from '../../app/api/pods/[namespace]/[name]/route';
import { GET as timelineGet } from '../../app/api/timelines/[namespace]/[name]/route';
import { PodTimelineViewSchema } from '../../lib/api/timelines';
import { PodDetailSchema, type PodDetail } from '../../lib/api/inventory';
import type { Pod } from '../../lib/kube/types';
import { runningRuntimes } from '../../server/runtime/registry';
import { SIM_TOKEN } from '../../server/sim/api/kubeconfig';
import type { RunningSimulator } from '../../server/sim/index';
import { runtimeOnSimulator, type SimRuntime } from '../../test-support/sim-runtime';
import { podPageHref, podPath } from '../../lib/refs/pod-ref';
import { EVENT_WAIT_GUARD_MS } from '../../test-support/deadlines';

let on: SimRuntime;
let sim: RunningSimulator;

const getPod = (ns: string, name: string, uid?: string) =>
  podGet(
    new Request(
      `http://meshdx.test${podPageHref({ namespace: ns, name, uid }).replace(/^\/pods/, '/api/pods')}`,
    ),
    { params: Promise.resolve({ namespace: ns, name }) },
  );

/** GET /api/timelines/NS/NAME, with ?uid= when given. */
const getTimeline = (ns: string, name: string, uid?: string) =>
  timelineGet(
    new Request(
      `http://meshdx.test/api/timelines/${podPath({ namespace: ns, name })}${uid ? `?uid=${encodeURIComponent(uid)}` : ''}`,
    ),
    { params: Promise.resolve({ namespace: ns, name }) },
  );

async function until<T>(what: string, f: () => T | null | Promise<T | null>): Promise<T> {
  const end = Date.now() + EVENT_WAIT_GUARD_MS;
  for (;;) {
    const v = await f();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  on = await runtimeOnSimulator({ scenario: 'phantom-503', env: { MESHDX_CLOCK: 'objects' } });
  sim = on.sim;
});

afterAll(() => on?.close());

describe("a deleted pod's page", () => {
  it('answers 200 with what the store holds, marked gone; a name never seen stays a 404', async () => {
    const victim = (sim.store.list('pods') as Pod[]).find(
      (p) =>
        p.metadata.namespace === 'shop' &&
        p.metadata.name.startsWith('payments-') &&
        p.status?.podIP &&
        !p.metadata.deletionTimestamp,
    );
    if (!victim) throw new Error('the phantom-503 scenario has no running payments pod');
    const name = victim.metadata.name;

    const live = await getPod('shop', name);
    expect(live.status).toBe(200);
    const liveBody = PodDetailSchema.parse(await live.json());
    expect(liveBody).toMatchObject({ gone: false, deletion: null });

    // the runtime's history has recorded the pod before it goes, as a watching meshdx would
    const [rt] = runningRuntimes();
    if (!rt) throw new Error('the route started no runtime');
    await until('the recorder to see the pod', () => rt.store.podSnapshot('shop', name));

    const del = await fetch(`${sim.url}/api/v1/namespaces/shop/pods/${name}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${SIM_TOKEN}` },
    });
    expect(del.status).toBe(200);

    const body: PodDetail = await until('the page of the deleted pod', async () => {
      const res = await getPod('shop', name);
      if (res.status !== 200) return null;
      const b = PodDetailSchema.parse(await res.json());
      return b.gone ? b : null;
    });
    expect(body.pod.name).toBe(name);
    expect(body.pod.namespace).toBe('shop');
    expect(body.deletion?.observed).toBe(true);
    expect(Date.parse(body.deletion?.at ?? '')).not.toBeNaN();
    expect(body.ips.map((s) => s.ip)).toContain(victim.status?.podIP);
    const span = body.ips.find((s) => s.ip === victim.status?.podIP);
    expect(span?.goneAt).not.toBeNull();
    expect(body.transitions.length).toBeGreaterThan(0);
    expect(body.otherIncarnations).toEqual([]);

    // a namesake takes the name (as a StatefulSet's next pod does): the name's page is the new
    // pod's, the old pod's link (with its uid) keeps its own page
    const oldUid = victim.metadata.uid as string;
    const created = await fetch(`${sim.url}/api/v1/namespaces/shop/pods`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SIM_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'shop', labels: victim.metadata.labels },
        spec: victim.spec,
      }),
    });
    expect(created.status).toBe(201);
    const newUid = ((await created.json()) as Pod).metadata.uid as string;
    expect(newUid).toBeTruthy();
    expect(newUid).not.toBe(oldUid);
    const byName = PodDetailSchema.parse(await (await getPod('shop', name)).json());
    expect(byName).toMatchObject({ gone: false, pod: { uid: newUid } });
    expect(byName.otherIncarnations).toEqual([
      expect.objectContaining({
        uid: oldUid,
        deletion: expect.objectContaining({ observed: true }),
      }),
    ]);
    const old = PodDetailSchema.parse(await (await getPod('shop', name, oldUid)).json());
    expect(old).toMatchObject({ gone: true, pod: { uid: oldUid }, deletion: body.deletion });
    expect(old.ips.map((s) => s.ip)).toContain(victim.status?.podIP);
    expect(old.otherIncarnations).toEqual([
      expect.objectContaining({ uid: newUid, deletion: null }),
    ]);
    const current = PodDetailSchema.parse(await (await getPod('shop', name, newUid)).json());
    expect(current).toMatchObject({ gone: false, pod: { uid: newUid } });
    const unknownUid = await getPod('shop', name, 'no-such-uid');
    expect(unknownUid.status).toBe(404);
    const unknownErr = (await unknownUid.json()) as { error: { message: string } };
    expect(unknownErr.error.message).toContain('with uid no-such-uid');
    expect(unknownErr.error.message).toContain(`the pod of that name now has uid ${newUid}`);
    const badUid = await getPod('shop', name, '../etc');
    expect(badUid.status).toBe(400);

    // the timeline of each pod of the name: by name the live one, by uid the one asked for
    const timelineOf = async (uid?: string) => {
      const res = await getTimeline('shop', name, uid);
      expect(res.status).toBe(200);
      return PodTimelineViewSchema.parse(await res.json());
    };
    expect(await timelineOf()).toMatchObject({ uid: newUid, deleted: false });
    expect(await timelineOf(newUid)).toMatchObject({ uid: newUid, deleted: false });
    const oldTimeline = await timelineOf(oldUid);
    expect(oldTimeline).toMatchObject({ uid: oldUid, deleted: true });
    expect(Date.parse(oldTimeline.deletedAt ?? '')).not.toBeNaN();
    // the gone pod's page shows the drain order Timelines computed for it: one analysis
    expect(oldTimeline.drainOrder).not.toBeNull();
    expect(oldTimeline.drainOrder?.steps[0]?.what).toBe('deletion');
    expect(old.drainOrder).toEqual(oldTimeline.drainOrder);
    expect(old.drainOrderProblem).toBeNull();
    const noTimeline = await getTimeline('shop', name, 'no-such-uid');
    expect(noTimeline.status).toBe(404);
    const noTimelineErr = (await noTimeline.json()) as { error: { message: string } };
    expect(noTimelineErr.error.message).toContain('with uid no-such-uid');
    expect(noTimelineErr.error.message).toContain(`the pod of that name now has uid ${newUid}`);
    expect((await getTimeline('shop', name, '../etc')).status).toBe(400);

    const never = await getPod('shop', 'payments-never-was');
    expect(never.status).toBe(404);
    const err = (await never.json()) as { error: { code: string; message: string } };
    expect(err.error.code).toBe('NOT_FOUND');
    expect(err.error.message).toContain('shop/payments-never-was');
  }, 30_000);
});
