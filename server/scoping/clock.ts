/**
 * "Now" as the cluster sees it. A real cluster runs on the wall clock; the simulator runs its own
 * clock (fixed in the demo), which it reports at /_sim/info, so windows measured against pod
 * start times stay meaningful there.
 */
import { z } from 'zod';
import type { KubeTransport } from '../kube/transport';

const SimInfo = z.object({ clock: z.object({ now: z.string() }) });

export async function clusterNow(t: KubeTransport, simulated: boolean): Promise<Date> {
  if (!simulated) return new Date();
  try {
    const info = SimInfo.safeParse(await t.getJson<unknown>('/_sim/info', { timeoutMs: 5_000 }));
    const ms = info.success ? Date.parse(info.data.clock.now) : NaN;
    return Number.isNaN(ms) ? new Date() : new Date(ms);
  } catch {
    return new Date();
  }
}
