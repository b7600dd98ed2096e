/**
 * A user's view of their context's history (MESHDX_AUTH token or header): the base runtime's
 * store, readable only once the user's OWN pod watch has listed pods cluster-wide. A user whose
 * RBAC does not allow that gets a 403 that says so, never the pods meshdx recorded with its own
 * identity. The store is read through this handle, never written or closed by it.
 */
import type { Pod } from '../../lib/kube/types';
import { KubeError } from '../kube/errors';
import type { WatchFeed } from '../kube/feed';
import type { HistoryStore } from '../store';

export function gatedHistory(store: HistoryStore, userPods: WatchFeed<Pod>): HistoryStore {
  const check = (): void => {
    const s = userPods.currentStatus;
    if (s.listed) return;
    throw new KubeError(
      'http',
      `pod history is shown to a user whose own credentials can list pods cluster-wide${s.lastError ? `; the API server said: ${s.lastError}` : ' (your pod list has not completed yet)'}`,
      { status: 403, reason: 'Forbidden' },
    );
  };
  return new Proxy(store, {
    get(target, prop) {
      const v: unknown = Reflect.get(target, prop, target);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        check();
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
