import { describe, expect, it } from 'vitest';
import { canICommand, describePermission, parseForbidden } from './forbidden';

describe('parseForbidden', () => {
  it('reads a cluster-scope list refusal, as kube-apiserver words it', () => {
    const p = parseForbidden(
      'pods is forbidden: User "alice" cannot list resource "pods" in API group "" at the cluster scope',
    );
    expect(p).toEqual({
      user: 'alice',
      verb: 'list',
      resource: 'pods',
      group: '',
      namespace: null,
      name: null,
    });
    expect(describePermission(p!)).toBe('list pods (API group core) at the cluster scope');
    expect(canICommand(p!)).toBe('kubectl auth can-i list pods --all-namespaces');
  });

  it('reads a named subresource in a namespace, for a ServiceAccount user, inside a wrapped message', () => {
    const p = parseForbidden(
      'GET /api/v1/namespaces/shop/pods/web-1/log: pods "web-1" is forbidden: User "system:serviceaccount:shop:ci" cannot get resource "pods/log" in API group "" in the namespace "shop": RBAC: role.rbac.authorization.k8s.io "gone" not found',
    );
    expect(p).toEqual({
      user: 'system:serviceaccount:shop:ci',
      verb: 'get',
      resource: 'pods/log',
      group: '',
      namespace: 'shop',
      name: 'web-1',
    });
    expect(describePermission(p!)).toBe(
      'get pods/log "web-1" (API group core) in the namespace "shop"',
    );
    expect(canICommand(p!)).toBe('kubectl auth can-i get pods/log/web-1 -n shop');
  });

  it('names the group of a custom resource, and impersonation refusals', () => {
    const p = parseForbidden(
      'sidecars.networking.istio.io is forbidden: User "bob" cannot watch resource "sidecars" in API group "networking.istio.io" in the namespace "default"',
    );
    expect(p?.group).toBe('networking.istio.io');
    expect(canICommand(p!)).toBe(
      'kubectl auth can-i watch sidecars.networking.istio.io -n default',
    );
    const imp = parseForbidden(
      'users "carol" is forbidden: User "system:serviceaccount:meshdx:meshdx" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    expect(imp).toMatchObject({ verb: 'impersonate', resource: 'users', name: 'carol' });
  });

  it('returns null for 403s that are not RBAC refusals (admission, webhooks, plain text)', () => {
    expect(parseForbidden('forbidden')).toBeNull();
    expect(
      parseForbidden('admission webhook "x" denied the request: pods "a" is forbidden: nope'),
    ).toBeNull();
    expect(parseForbidden('')).toBeNull();
  });
});
