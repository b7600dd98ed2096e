import type { KubeObject } from '../../../../lib/kube/types';
import { createXdsControl } from '../../mesh/istio-model/xds-control';
import type { SimKind } from '../../mesh/types';
import type { ScenarioContext, SimClock, SimLogs, SimStore, StoreChange } from '../../world/types';
import { createClock } from '../../world/clock';
import { seededRandom } from '../../world/build/ids';
import { objectKey } from '../../../../lib/refs/object-ref';

export interface VersionedStoreChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  kind: SimKind;
  rv: number;
  object: KubeObject;
}

/** An in-memory SimStore that records every change (a watch history for tests). */
export class FakeStore implements SimStore {
  readonly objects = new Map<string, KubeObject>();
  readonly changes: VersionedStoreChange[] = [];
  private rv = 0;
  private readonly subscribers: ((c: StoreChange) => void)[] = [];

  subscribe(fn: (c: StoreChange) => void): () => void {
    this.subscribers.push(fn);
    return () => {
      const i = this.subscribers.indexOf(fn);
      if (i >= 0) this.subscribers.splice(i, 1);
    };
  }

  private tell(type: StoreChange['type'], kind: SimKind, obj: KubeObject): void {
    for (const fn of this.subscribers) fn({ type, kind, entry: { obj } });
  }

  private key(kind: SimKind, ns: string | undefined, name: string): string {
    return `${kind}/${objectKey(ns ?? '', name)}`;
  }

  upsert<T extends KubeObject>(kind: SimKind, obj: T): T {
    const k = this.key(kind, obj.metadata.namespace, obj.metadata.name);
    this.rv += 1;
    const existed = this.objects.has(k);
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(this.rv) } };
    this.objects.set(k, stored);
    this.changes.push({ type: existed ? 'MODIFIED' : 'ADDED', kind, rv: this.rv, object: stored });
    this.tell(existed ? 'MODIFIED' : 'ADDED', kind, stored);
    return stored;
  }

  remove(kind: SimKind, namespace: string | undefined, name: string): boolean {
    const k = this.key(kind, namespace, name);
    const last = this.objects.get(k);
    if (last === undefined) return false;
    this.objects.delete(k);
    this.rv += 1;
    this.changes.push({ type: 'DELETED', kind, rv: this.rv, object: last });
    this.tell('DELETED', kind, last);
    return true;
  }

  get<T extends KubeObject>(
    kind: SimKind,
    namespace: string | undefined,
    name: string,
  ): T | undefined {
    return this.objects.get(this.key(kind, namespace, name)) as T | undefined;
  }

  list<T extends KubeObject>(kind: SimKind): readonly T[] {
    const out: T[] = [];
    for (const [k, v] of this.objects) if (k.startsWith(`${kind}/`)) out.push(v as T);
    return out;
  }

  resourceVersion(): number {
    return this.rv;
  }
}

export interface ContainerLogLine {
  namespace: string;
  pod: string;
  container: string;
  time: Date;
  line: string;
}

export class FakeLogs implements SimLogs {
  readonly lines: ContainerLogLine[] = [];
  append(namespace: string, pod: string, container: string, time: Date, line: string): void {
    this.lines.push({ namespace, pod, container, time, line });
  }
  read(
    namespace: string,
    pod: string,
    container: string,
    opts: { sinceTime?: Date; tailLines?: number } = {},
  ) {
    const hits = this.lines
      .filter((l) => l.namespace === namespace && l.pod === pod && l.container === container)
      .filter((l) => opts.sinceTime === undefined || l.time >= opts.sinceTime)
      .map((l) => ({ time: l.time, line: l.line }));
    return opts.tailLines !== undefined ? hits.slice(-opts.tailLines) : hits;
  }
}

export const T0 = new Date('2026-01-01T00:00:00Z');

export interface Harness {
  ctx: ScenarioContext;
  store: FakeStore;
  logs: FakeLogs;
  clock: SimClock;
}

export function harness(name: string, params: Record<string, string> = {}): Harness {
  const store = new FakeStore();
  const logs = new FakeLogs();
  const clock = createClock({ fixed: T0 });
  const xds = createXdsControl(
    store,
    () => clock.now().getTime(),
    (at, fn) => clock.schedule(new Date(at), fn),
  );
  return {
    store,
    logs,
    clock,
    ctx: { store, logs, clock, random: seededRandom(name), params, xds },
  };
}
