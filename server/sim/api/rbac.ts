/**
 * The simulator's RBAC authorizer: decides a request from the Roles, ClusterRoles, RoleBindings
 * and ClusterRoleBindings the simulator stores, as kube-apiserver's RBAC authorizer does
 * (plugin/pkg/auth/authorizer/rbac), and words a refusal the way the API server does, so what
 * a client shows for a real 403 is what it shows here. system:masters is allowed everything;
 * discovery and SelfSubjectReview are allowed to every authenticated user (system:discovery,
 * system:basic-user).
 */
import type { SimStoreImpl } from '../store/store';

export interface UserInfo {
  name: string;
  uid: string;
  groups: string[];
}

/** What is asked, in RBAC's terms. */
export interface Attributes {
  verb: string;
  /** '' for the core group. */
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
}
interface Subject {
  kind?: string;
  name?: string;
  namespace?: string;
}
interface Binding {
  metadata: { namespace?: string };
  subjects?: Subject[];
  roleRef?: { kind?: string; name?: string };
}
interface RoleObj {
  rules?: Rule[];
}

const has = (list: string[] | undefined, v: string) =>
  list !== undefined && (list.includes('*') || list.includes(v));

function ruleAllows(r: Rule, a: Attributes): boolean {
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return (
    has(r.verbs, a.verb) &&
    has(r.apiGroups, a.group) &&
    (has(r.resources, resource) ||
      (a.subresource !== undefined && (r.resources ?? []).includes(`${a.resource}/*`))) &&
    (r.resourceNames === undefined ||
      r.resourceNames.length === 0 ||
      (a.name !== undefined && r.resourceNames.includes(a.name)))
  );
}

function subjectIs(s: Subject, u: UserInfo, bindingNs: string | undefined): boolean {
  switch (s.kind) {
    case 'User':
      return s.name === u.name;
    case 'Group':
      return s.name !== undefined && u.groups.includes(s.name);
    case 'ServiceAccount':
      return u.name === `system:serviceaccount:${s.namespace ?? bindingNs ?? ''}:${s.name ?? ''}`;
    default:
      return false;
  }
}

function rulesOf(
  store: SimStoreImpl,
  ref: Binding['roleRef'],
  ns: string | undefined,
): readonly Rule[] {
  if (ref?.name === undefined) return [];
  if (ref.kind === 'ClusterRole')
    return (
      store.get<RoleObj & { metadata: { name: string } }>('clusterroles', undefined, ref.name)
        ?.rules ?? []
    );
  if (ref.kind === 'Role' && ns !== undefined)
    return store.get<RoleObj & { metadata: { name: string } }>('roles', ns, ref.name)?.rules ?? [];
  return [];
}

/** Whether the stored RBAC objects allow `u` to do `a`. */
export function rbacAllows(store: SimStoreImpl, u: UserInfo, a: Attributes): boolean {
  if (u.groups.includes('system:masters')) return true;
  const bindings = (kind: 'clusterrolebindings' | 'rolebindings') =>
    store.list(kind) as unknown as readonly Binding[];
  for (const b of bindings('clusterrolebindings')) {
    if (!(b.subjects ?? []).some((s) => subjectIs(s, u, undefined))) continue;
    if (rulesOf(store, b.roleRef, undefined).some((r) => ruleAllows(r, a))) return true;
  }
  if (a.namespace === undefined) return false;
  for (const b of bindings('rolebindings')) {
    const ns = b.metadata.namespace;
    if (ns !== a.namespace) continue;
    if (!(b.subjects ?? []).some((s) => subjectIs(s, u, ns))) continue;
    if (rulesOf(store, b.roleRef, ns).some((r) => ruleAllows(r, a))) return true;
  }
  return false;
}

/**
 * The API server's words for a refusal (apiserver responsewriters.forbiddenMessage inside
 * errors.NewForbidden): `pods "x" is forbidden: User "alice" cannot get resource "pods/log" in
 * API group "" in the namespace "shop"`.
 */
export function forbiddenMessage(u: UserInfo, a: Attributes): string {
  const qualified = a.group === '' ? a.resource : `${a.resource}.${a.group}`;
  const subject = a.name !== undefined && a.name !== '' ? `${qualified} "${a.name}"` : qualified;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope =
    a.namespace !== undefined ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `${subject} is forbidden: User "${u.name}" cannot ${a.verb} resource "${resource}" in API group "${a.group}" ${scope}`;
}
