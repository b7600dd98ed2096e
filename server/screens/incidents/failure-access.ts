/**
 * Who may see which recorded failing requests. The store is shared: meshdx records what every
 * read brought in (any user's view, the live tail, the receiver, the read before a pod goes).
 * Live, a user sees a client proxy's failing requests only by reading its log as themselves
 * (pods/log, refused by the API server where their RBAC does not reach); the store answers by
 * the same rule: a recorded request is shown to a user only if they may `get pods/log` in its
 * client proxy's namespace, asked of the API server with the user's own credentials
 * (SelfSubjectAccessReview, which any authenticated user may create). A record whose client
 * namespace is unknown (an upload's label, a receiver's sender it could not name) is shown only
 * to who may read logs in every namespace. An answer that cannot be had counts as a refusal.
 */
import { z } from 'zod';
import type {
  FailureQuery,
  FailureStore,
  FailureWindow,
} from '../../../lib/incidents/failure-store';
import { tryParsePodRef } from '../../../lib/refs/pod-ref';
import type { KubeTransport } from '../../kube/transport';
import { defineScreen } from '../../runtime/runtime';

const REVIEW_PATH = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
/** How long an answer is reused: RBAC changes are seen this late at most. */
const TTL_MS = 30_000;

const ReviewSchema = z.object({ status: z.object({ allowed: z.boolean() }) });

/** Whether the runtime's identity may read proxy logs in a namespace (null: in every one). */
export type LogAccess = (namespace: string | null) => Promise<boolean>;

/** The answers of one identity, kept in its runtime (screen state). */
export interface LogAccessCache {
  answers: Map<string, { at: number; allowed: Promise<boolean> }>;
}

export function newLogAccessCache(): LogAccessCache {
  return { answers: new Map() };
}

/** A runtime's log-access answers: Incidents, the pod page and snapshots ask through them. */
export const logAccessScreen = defineScreen('incidents-log-access', newLogAccessCache);

/** Asks the API server, as the transport's identity, whether it may get pods/log. */
async function review(t: KubeTransport, namespace: string | null): Promise<boolean> {
  try {
    const res = await t.request(REVIEW_PATH, {
      method: 'POST',
      timeoutMs: 10_000,
      maxBytes: 64 * 1024,
      body: JSON.stringify({
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: {
          resourceAttributes: {
            ...(namespace !== null ? { namespace } : {}),
            verb: 'get',
            resource: 'pods',
            subresource: 'log',
          },
        },
      }),
    });
    const parsed = ReviewSchema.safeParse(JSON.parse(res.body));
    return parsed.success && parsed.data.status.allowed;
  } catch {
    return false;
  }
}

export function logAccess(t: KubeTransport, cache: LogAccessCache): LogAccess {
  return (namespace) => {
    const key = namespace ?? '';
    const now = Date.now();
    const hit = cache.answers.get(key);
    if (hit && now - hit.at < TTL_MS) return hit.allowed;
    const allowed = review(t, namespace);
    cache.answers.set(key, { at: now, allowed });
    return allowed;
  };
}

/** The namespace of a recorded request's client proxy (`ns/name`), or null for a label. */
export function proxyNamespace(proxy: string): string | null {
  return tryParsePodRef(proxy)?.namespace ?? null;
}

export interface VisibleFailures {
  /** The store, its reads limited to what the identity may see. */
  store: FailureStore;
  /** Namespaces whose recorded requests in the window are not shown (sorted); `*` for records of no namespace. */
  hidden: string[];
}

/**
 * The store as `access` may see it over `window`: its window reads limited to the proxies
 * whose namespace the identity may read logs in (every proxy when it may read them all).
 */
export async function visibleFailures(
  store: FailureStore,
  window: FailureWindow,
  access: LogAccess,
): Promise<VisibleFailures> {
  if (await access(null)) return { store, hidden: [] };
  const proxies = store.proxiesInWindow(window);
  const namespaces = [...new Set(proxies.map(proxyNamespace))];
  const verdicts = new Map<string | null, boolean>();
  await Promise.all(
    namespaces.map(async (ns) => verdicts.set(ns, ns === null ? false : await access(ns))),
  );
  const allowed = proxies.filter((p) => verdicts.get(proxyNamespace(p)) === true);
  const hidden = namespaces
    .filter((ns) => verdicts.get(ns) !== true)
    .map((ns) => ns ?? '*')
    .sort();
  const only = (q: FailureQuery): FailureQuery => ({
    ...q,
    proxies: q.proxies ? q.proxies.filter((p) => allowed.includes(p)) : allowed,
  });
  return {
    hidden,
    store: {
      record: (batch, at) => store.record(batch, at),
      inWindow: (q) => store.inWindow(only(q)),
      countsInWindow: (q) => store.countsInWindow(only(q)),
      proxiesInWindow: (q) =>
        store.proxiesInWindow(q).filter((p) => verdicts.get(proxyNamespace(p)) === true),
      watermark: (p) => store.watermark(p),
      markRead: (w) => store.markRead(w),
      prune: (now) => store.prune(now),
      retention: () => store.retention(),
    },
  };
}

/**
 * Of the client namespaces a view shows recorded requests of (null: a record of no namespace),
 * those `access` may not read logs in (sorted; `*` for null); empty when it may read them all.
 */
export async function unreadableNamespaces(
  namespaces: Iterable<string | null>,
  access: LogAccess,
): Promise<string[]> {
  const wanted = [...new Set(namespaces)];
  if (wanted.length === 0 || (await access(null))) return [];
  const verdicts = await Promise.all(
    wanted.map(async (ns) => (ns === null ? false : await access(ns))),
  );
  return wanted
    .filter((_, i) => !verdicts[i])
    .map((ns) => ns ?? '*')
    .sort();
}
