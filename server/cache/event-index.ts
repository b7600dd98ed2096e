/**
 * Kubernetes Events about pods, indexed by the pod they are about (uid, else namespace/name).
 * Events expire from the API server after about an hour; the index keeps them after their
 * DELETED (that is the history), up to a bound per pod and overall, counting what it forgets.
 */
import type { KubeEvent, Pod } from '../../lib/kube/types';
import type { ObservedEvent } from '../kube/listwatch';

export interface EventIndexOptions {
  /** Events kept per pod (oldest forgotten first). Default 200. */
  maxPerPod?: number;
}

const eventKey = (e: KubeEvent): string =>
  e.metadata.uid ?? `${e.metadata.namespace ?? ''}/${e.metadata.name}`;

/** The index keys an event is filed under. */
export function involvedKeys(e: KubeEvent): string[] {
  const o = e.involvedObject;
  if (!o || (o.kind !== undefined && o.kind !== 'Pod')) return [];
  const keys: string[] = [];
  if (o.uid) keys.push(o.uid);
  if (o.name) keys.push(`${o.namespace ?? e.metadata.namespace ?? 'default'}/${o.name}`);
  return keys;
}

export class EventIndex {
  private readonly byKey = new Map<string, Map<string, KubeEvent>>();
  private readonly maxPerPod: number;
  /** Events forgotten because a pod had more than maxPerPod. */
  dropped = 0;
  /** Events about objects other than pods (not indexed, counted). */
  ignored = 0;
  private total = 0;

  constructor(opts: EventIndexOptions = {}) {
    this.maxPerPod = opts.maxPerPod ?? 200;
  }

  get size(): number {
    return this.total;
  }

  /** Files the event; returns the keys of the pods it is about (empty when none). */
  apply(ev: ObservedEvent<KubeEvent>): string[] {
    const e = ev.object;
    if (!e?.metadata) return [];
    const keys = involvedKeys(e);
    if (keys.length === 0) {
      this.ignored++;
      return [];
    }
    // A DELETED event is the API server expiring it: keep its last state.
    const k = eventKey(e);
    for (const key of keys) {
      const m = this.byKey.get(key) ?? new Map<string, KubeEvent>();
      if (!m.has(k) && key === keys[0]) this.total++;
      m.set(k, e);
      if (m.size > this.maxPerPod) {
        const oldest = m.keys().next();
        if (!oldest.done) {
          m.delete(oldest.value);
          if (key === keys[0]) {
            this.dropped++;
            this.total--;
          }
        }
      }
      this.byKey.set(key, m);
    }
    return keys;
  }

  /** Events about the pod (by uid and by namespace/name, each event once). */
  forPod(pod: Pod): KubeEvent[] {
    const out = new Map<string, KubeEvent>();
    const uid = pod.metadata.uid;
    const byName = `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
    for (const key of uid ? [uid, byName] : [byName]) {
      for (const [k, e] of this.byKey.get(key) ?? []) {
        // An event filed by name but naming another uid is about an earlier pod of that name.
        const euid = e.involvedObject.uid;
        if (uid && euid && euid !== uid) continue;
        out.set(k, e);
      }
    }
    return [...out.values()];
  }
}
