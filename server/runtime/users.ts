/**
 * The runtimes of signed-in users (token mode) and impersonated users (header mode): one per
 * (context, identity), whose every API call is made as that user. A user's runtime has its own
 * watches and caches, reads its context's history through the base runtime's store (one writer:
 * meshdx's own identity), and is stopped when unused for MESHDX_CONTEXT_IDLE_MINUTES, on
 * logout, and with its context's base runtime.
 */
import { createHash } from 'node:crypto';
import type { Identity } from '../auth/identity';
import type { MeshdxEnv } from '../env';
import { ClusterRuntime } from './runtime';
import { sourceAs } from './user-source';

export type UserIdentity = Exclude<Identity, { mode: 'none' }>;

/**
 * A key that tells identities apart in the registry without holding the token: a hash of the
 * token, or the impersonated user and groups.
 */
export function identityKey(id: UserIdentity): string {
  return id.mode === 'token'
    ? `token:${createHash('sha256').update(id.token).digest('hex').slice(0, 32)}`
    : `header:${JSON.stringify([id.user, [...id.groups].sort()])}`;
}

interface Entry {
  rt: ClusterRuntime;
  base: ClusterRuntime;
  identity: string;
}

export class UserRuntimes {
  private readonly entries = new Map<string, Entry>();

  /** The runtime of `id` on `base`'s context, started on first use. */
  get(base: ClusterRuntime, id: UserIdentity, env: MeshdxEnv): ClusterRuntime {
    const identity = identityKey(id);
    const key = `${base.context}\n${identity}`;
    let e = this.entries.get(key);
    if (e && (e.base !== base || e.rt.isStopped)) {
      e.rt.stop();
      e = undefined;
    }
    if (!e) {
      const rt = new ClusterRuntime(sourceAs(base.source, id), env, base.sharedHistory()).start();
      e = { rt, base, identity };
      this.entries.set(key, e);
    }
    return e.rt.touch();
  }

  /** Stops the user runtimes unused for longer than `idleMs`. */
  sweep(idleMs: number, now: number): void {
    this.stopWhere((e) => now - e.rt.lastUsed > idleMs);
  }

  /** Stops the user runtimes of a context (its base runtime stopped: the store is closing). */
  stopContext(context: string): void {
    this.stopWhere((e) => e.base.context === context);
  }

  /** Stops every runtime of one identity (logout). */
  stopIdentity(id: UserIdentity): number {
    const k = identityKey(id);
    return this.stopWhere((e) => e.identity === k);
  }

  stopAll(): void {
    this.stopWhere(() => true);
  }

  list(): ClusterRuntime[] {
    return [...this.entries.values()].map((e) => e.rt);
  }

  private stopWhere(pred: (e: Entry) => boolean): number {
    let n = 0;
    for (const [key, e] of this.entries) {
      if (pred(e)) {
        e.rt.stop();
        this.entries.delete(key);
        n++;
      }
    }
    return n;
  }
}
