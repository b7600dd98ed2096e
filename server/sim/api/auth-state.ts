/**
 * The simulator's authentication state (with --token-auth-file): the users of the token file
 * and what each was seen doing, which the control endpoint reports. Apart from ./auth.ts, the
 * authentication of requests, so that the request context can hold it without importing the
 * code that reads it.
 */
import type { UserInfo } from './rbac';
import { RequestCounts } from './request-counts';

/** The simulator's authentication state: the token file's users and what each was seen doing. */
export class SimAuth {
  private readonly byUser = new Map<string, RequestCounts>();
  private readonly impersonated = new Map<string, { by: Set<string>; groups: Set<string> }>();

  constructor(readonly tokens: ReadonlyMap<string, UserInfo>) {}

  note(user: UserInfo, method: string, url: URL): void {
    let c = this.byUser.get(user.name);
    if (!c) this.byUser.set(user.name, (c = new RequestCounts()));
    c.note(method, url);
  }

  noteImpersonation(by: UserInfo, as: UserInfo): void {
    let e = this.impersonated.get(as.name);
    if (!e) this.impersonated.set(as.name, (e = { by: new Set(), groups: new Set() }));
    e.by.add(by.name);
    for (const g of as.groups) e.groups.add(g);
  }

  toJSON(): object {
    return {
      users: Object.fromEntries([...this.byUser].map(([u, c]) => [u, c.toJSON()])),
      impersonated: Object.fromEntries(
        [...this.impersonated].map(([u, e]) => [u, { by: [...e.by], groups: [...e.groups] }]),
      ),
    };
  }
}
