/**
 * The permission a Kubernetes 403 says is missing, read from the API server's message (RBAC's
 * authorizer words it the same way in every release since 1.8):
 *
 *   pods is forbidden: User "alice" cannot list resource "pods" in API group "" at the cluster scope
 *   pods "web-1" is forbidden: User "alice" cannot get resource "pods/log" in API group "" in the namespace "shop"
 *
 * so a user who signed in with their own token is told which verb on which resource, in which
 * group and scope, they lack, and how to check it with kubectl.
 */

export interface MissingPermission {
  user: string;
  verb: string;
  /** The resource as RBAC names it, subresource included: `pods`, `pods/log`. */
  resource: string;
  /** '' for the core group. */
  group: string;
  /** null: the cluster scope (every namespace, or a cluster-scoped resource). */
  namespace: string | null;
  /** The object's name, when the request named one. */
  name: string | null;
}

const FORBIDDEN =
  /(?:^|\s)(?:[a-z0-9.-]+)(?: "([^"]*)")? is forbidden: User "((?:[^"\\]|\\.)*)" cannot ([a-z*]+) resource "([^"]+)" in API group "([^"]*)" (?:at the cluster scope|in the namespace "([^"]*)")/;

/** The missing permission in a 403's message, or null when the message is not RBAC's. */
export function parseForbidden(message: string): MissingPermission | null {
  const m = FORBIDDEN.exec(message);
  if (!m) return null;
  return {
    name: m[1] ?? null,
    user: (m[2] ?? '').replace(/\\(.)/g, '$1'),
    verb: m[3] ?? '',
    resource: m[4] ?? '',
    group: m[5] ?? '',
    namespace: m[6] ?? null,
  };
}

/** `list pods (API group core) at the cluster scope`: the permission in words. */
export function describePermission(p: MissingPermission): string {
  const group = p.group === '' ? 'core' : p.group;
  const what = p.name === null ? p.resource : `${p.resource} "${p.name}"`;
  const scope = p.namespace === null ? 'at the cluster scope' : `in the namespace "${p.namespace}"`;
  return `${p.verb} ${what} (API group ${group}) ${scope}`;
}

/** The kubectl command that asks the API server the same question, as the same user. */
export function canICommand(p: MissingPermission): string {
  const resource = p.group === '' ? p.resource : withGroup(p.resource, p.group);
  const name = p.name === null ? '' : `/${p.name}`;
  const scope = p.namespace === null ? ' --all-namespaces' : ` -n ${p.namespace}`;
  return `kubectl auth can-i ${p.verb} ${resource}${name}${scope}`;
}

function withGroup(resource: string, group: string): string {
  const [base, sub] = resource.split('/');
  return sub === undefined ? `${base}.${group}` : `${base}.${group}/${sub}`;
}
