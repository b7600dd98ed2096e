/**
 * The KubeConfig a user's runtime talks to the cluster with: the context's cluster (server, CA,
 * TLS settings) unchanged, and as credentials either the user's own bearer token (token mode)
 * or meshdx's credentials plus `Impersonate-User` and one `Impersonate-Group` per group (header
 * mode). Every client-node call (requests, watches, pods/log, port-forward websockets) takes its
 * headers from applyToHTTPSOptions, which is where impersonation is added.
 */
import type https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import type { ClusterSource } from '../kube/source';
import type { Identity } from '../auth/identity';

type HttpsOpts = Parameters<KubeConfig['applyToHTTPSOptions']>[0];

/** A KubeConfig whose every request impersonates one user and their groups. */
export class ImpersonatingKubeConfig extends KubeConfig {
  constructor(
    readonly impersonateUser: string,
    readonly impersonateGroups: readonly string[],
  ) {
    super();
  }

  override async applyToHTTPSOptions(opts: HttpsOpts): Promise<void> {
    await super.applyToHTTPSOptions(opts);
    const o = opts as https.RequestOptions;
    const headers = (o.headers ?? {}) as Record<string, string | string[] | number | undefined>;
    headers['Impersonate-User'] = this.impersonateUser;
    if (this.impersonateGroups.length > 0)
      headers['Impersonate-Group'] = [...this.impersonateGroups];
    else delete headers['Impersonate-Group'];
    o.headers = headers as https.RequestOptions['headers'];
  }
}

/** The source a user's runtime uses: the base context's cluster, as `id`. */
export function sourceAs(
  base: ClusterSource,
  id: Exclude<Identity, { mode: 'none' }>,
): ClusterSource {
  const cluster = base.kc.getCurrentCluster();
  const ctx = base.kc.getContextObject(base.kc.getCurrentContext());
  if (!cluster || !ctx) throw new Error(`context ${base.context} has no cluster`);
  let kc: KubeConfig;
  if (id.mode === 'token') {
    kc = new KubeConfig();
    const user = { name: 'meshdx-session', token: id.token };
    kc.loadFromOptions({
      clusters: [cluster],
      users: [user],
      contexts: [{ ...ctx, user: user.name }],
      currentContext: ctx.name,
    });
  } else {
    kc = new ImpersonatingKubeConfig(id.user, id.groups);
    const user = base.kc.getCurrentUser();
    kc.loadFromOptions({
      clusters: [cluster],
      users: user ? [user] : [],
      contexts: [ctx],
      currentContext: ctx.name,
    });
  }
  return { ...base, kc };
}
