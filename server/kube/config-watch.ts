/**
 * Changes to the configuration the findings are made of, heard from watches: one list+watch per
 * kind (Istio's CRDs, Gateway API's, Services, Namespaces, webhooks, the root namespace's
 * ConfigMaps...), kept as each object's name and a signature of what a rule reads of it. Every
 * change bumps a revision; the Findings screen drops its cached report and makes a new one, and
 * the browser, which polls the revision, asks for it (`kubectl apply` to view in about a second
 * instead of the report's cache time).
 *
 * What counts as a change: an object added or deleted, or modified in its spec (its `generation`,
 * for the kinds that keep one), its labels or its annotations. A status-only update (a
 * Deployment's rollout progress, a Gateway's conditions) does not: the findings do not read
 * status, and a rollout would otherwise redo the report at every step. Pods and Nodes are not
 * watched here: they change all the time, and the report's cache time covers them.
 *
 * A kind that is not installed is not watched (its findings cannot change until it is: the kinds
 * are discovered again at most every minute, when the report is asked for); a kind whose watch
 * fails (RBAC) is named, so the screen can say which changes it would not hear at once.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '../../lib/kube/types';
import { WatchFeed } from './feed';
import { servedGroups, servedResource, type Served, type ServedKind } from './kind-lists';
import type { ObservedEvent } from './listwatch';
import type { KubeTransport } from './transport';
import { objectKeyOf } from '../../lib/refs/object-ref';

/** An object as the change watch keeps it: its identity and the signature of what rules read. */
interface Signed extends KubeObject {
  signature: string;
}

/** How often the kinds are discovered again, at most (a CRD installed since is then watched). */
const REDISCOVER_MS = 60_000;

export interface ConfigWatchStatus {
  /** Changes heard since the watches started; 0 before any. */
  revision: number;
  /** Kinds whose changes are heard as they happen. */
  watched: string[];
  /** Kinds whose changes are not heard (the watch failing, the kind unknown), and why. */
  unwatched: Record<string, string>;
  /** Kinds not installed in the cluster (nothing of them to hear). */
  notInstalled: string[];
}

/** FNV-1a of a string: a short signature, compared, never stored beyond the object's entry. */
function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/**
 * What a rule reads of an object, as a signature: the spec by its generation when the kind keeps
 * one, else the object itself minus its status and bookkeeping (a ConfigMap's data, a Service's
 * spec, a webhook's config), plus labels and annotations.
 */
export function configSignature(o: KubeObject): string {
  const { metadata, ...rest } = o as KubeObject & { status?: unknown };
  const m = metadata as KubeObject['metadata'] & { generation?: number };
  const meta = JSON.stringify([m.labels ?? null, m.annotations ?? null]);
  if (typeof m.generation === 'number') return `${m.generation}:${fnv(meta)}`;
  const body = { ...rest } as Record<string, unknown>;
  delete body.status;
  return fnv(meta + JSON.stringify(body));
}

function signed(o: KubeObject): Signed {
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    metadata: {
      name: o.metadata.name,
      namespace: o.metadata.namespace,
      uid: o.metadata.uid,
      resourceVersion: o.metadata.resourceVersion,
    },
    signature: configSignature(o),
  } as Signed;
}

export class ConfigChanges {
  private readonly feeds = new Map<string, WatchFeed<Signed>>();
  private readonly failing = new Map<string, string>();
  private readonly listeners = new Set<(revision: number) => void>();
  private notInstalled: string[] = [];
  private unknown: Record<string, string> = {};
  private kinds: readonly string[] = [];
  private namespaceOf: (kind: string) => string | undefined = () => undefined;
  private rev = 0;
  private discoveredAt = 0;
  private discovering: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly t: KubeTransport,
    private readonly kc: KubeConfig,
  ) {}

  get revision(): number {
    return this.rev;
  }

  /**
   * The revision once it is past `after`: at once when it already is, else at the next change,
   * else the current one after `timeoutMs` (a long poll, as a watch answers: the browser learns
   * of a change as it is heard instead of at its next poll).
   */
  changedAfter(after: number, timeoutMs: number): Promise<number> {
    if (this.rev > after || this.stopped) return Promise.resolve(this.rev);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        off();
        resolve(this.rev);
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref?.();
      const off = this.onChange(done);
    });
  }

  /** Calls `fn` after each change (with the new revision); returns the unsubscribe. */
  onChange(fn: (revision: number) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Watches `kinds` (idempotent; a kind not served yet is looked for again at most every
   * REDISCOVER_MS). Resolves once discovery is done, not when the lists are.
   */
  ensure(kinds: readonly string[], namespaceOf: (kind: string) => string | undefined) {
    if (this.stopped) return Promise.resolve();
    this.kinds = kinds;
    this.namespaceOf = namespaceOf;
    const due = Date.now() - this.discoveredAt >= REDISCOVER_MS;
    if (this.discovering) return this.discovering;
    const missing = kinds.some((k) => !this.feeds.has(k));
    if (!missing || !due) return Promise.resolve();
    this.discoveredAt = Date.now();
    this.discovering = servedGroups(this.t, 10_000)
      .then(
        (served) => this.watchServed(served),
        (e: unknown) => {
          const why = `API discovery (/apis) failed: ${e instanceof Error ? e.message : String(e)}`;
          this.unknown = Object.fromEntries(
            this.kinds.filter((k) => !this.feeds.has(k)).map((k) => [k, why]),
          );
        },
      )
      .finally(() => {
        this.discovering = null;
      });
    return this.discovering;
  }

  private async watchServed(served: Served): Promise<void> {
    const notInstalled: string[] = [];
    const unknown: Record<string, string> = {};
    const wanted: { kind: string; r: Extract<ServedKind, { ok: true }> }[] = [];
    for (const kind of this.kinds) {
      if (this.feeds.has(kind) || this.stopped) continue;
      if (kind === 'Secret') {
        unknown[kind] = 'meshdx does not read Secrets (they hold credentials)';
        continue;
      }
      const r = servedResource(kind, served);
      if (r.ok) wanted.push({ kind, r });
      else if (r.notInstalled) notInstalled.push(kind);
      else unknown[kind] = r.why;
    }
    // a group version served is not each of its CRDs installed: its discovery names the
    // resources it serves (one request per group version), so a watch is never opened on a 404
    const resourcesOf = new Map<string, Promise<ReadonlySet<string> | null>>();
    for (const { r } of wanted) {
      if (!r.res.crd || resourcesOf.has(r.apiVersion)) continue;
      resourcesOf.set(
        r.apiVersion,
        this.t
          .getJson<{ resources?: { name?: string }[] }>(`/apis/${r.apiVersion}`, {
            timeoutMs: 10_000,
          })
          .then(
            (d) => new Set((d.resources ?? []).flatMap((x) => (x.name ? [x.name] : []))),
            () => null,
          ),
      );
    }
    for (const { kind, r } of wanted) {
      const resources = r.res.crd ? await resourcesOf.get(r.apiVersion) : null;
      if (this.stopped) return;
      if (resources && !resources.has(r.res.plural)) {
        notInstalled.push(kind);
        continue;
      }
      const feed = new WatchFeed<Signed>(
        this.t,
        this.kc,
        {
          group: r.res.group,
          version: r.version,
          plural: r.res.plural,
          namespaced: r.res.namespaced,
        },
        { namespace: this.namespaceOf(kind), trim: signed },
      );
      this.feeds.set(kind, feed);
      feed.subscribe(this.consumer(kind));
      feed.start();
    }
    this.notInstalled = notInstalled;
    this.unknown = unknown;
  }

  private consumer(kind: string) {
    const seen = new Map<string, string>();
    const key = (o: KubeObject) => o.metadata.uid || objectKeyOf(o, '');
    return {
      onEvent: (ev: ObservedEvent<Signed>) => {
        const k = key(ev.object);
        const before = seen.get(k);
        if (ev.type === 'DELETED') seen.delete(k);
        else seen.set(k, ev.object.signature);
        // the first list is what the first report reads: not a change
        if (ev.via === 'list') return;
        if (ev.type === 'MODIFIED' && before === ev.object.signature) return;
        this.bump();
      },
      onState: (state: string, detail?: string) => {
        if (state === 'retrying') this.failing.set(kind, detail ?? 'the watch is failing');
        else if (state === 'watching') this.failing.delete(kind);
      },
    };
  }

  private bump(): void {
    this.rev++;
    for (const fn of this.listeners) {
      try {
        fn(this.rev);
      } catch (e) {
        console.error('meshdx: a config change listener failed:', e);
      }
    }
  }

  status(): ConfigWatchStatus {
    const unwatched: Record<string, string> = { ...this.unknown };
    for (const [k, why] of this.failing) unwatched[k] = why;
    return {
      revision: this.rev,
      watched: [...this.feeds.keys()].filter((k) => !this.failing.has(k)).sort(),
      unwatched,
      notInstalled: [...this.notInstalled].sort(),
    };
  }

  stop(): void {
    this.stopped = true;
    for (const f of this.feeds.values()) f.stop();
    this.feeds.clear();
    this.listeners.clear();
  }
}
