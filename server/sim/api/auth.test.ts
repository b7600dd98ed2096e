import { describe, expect, it } from 'vitest';
import { attributesOf, parseTokenFile } from './auth';

describe("parseTokenFile (kube-apiserver's --token-auth-file)", () => {
  it('reads token,user,uid,"groups" records; blank lines skipped, leading spaces trimmed (as Go csv TrimLeadingSpace does); every user is system:authenticated', () => {
    const users = parseTokenFile(
      'abc,alice,1001,"dev,ops"\n\n  xyz , bob,1002\n"q""uoted",carol,1003,single\n',
    );
    expect(users.get('abc')).toEqual({
      name: 'alice',
      uid: '1001',
      groups: ['dev', 'ops', 'system:authenticated'],
    });
    expect(users.get('xyz ')).toEqual({
      name: 'bob',
      uid: '1002',
      groups: ['system:authenticated'],
    });
    expect(users.get('q"uoted')?.groups).toEqual(['single', 'system:authenticated']);
  });

  it('names the line of a bad record', () => {
    expect(() => parseTokenFile('a,b,c\nonly,two\n')).toThrow(
      'line 2: a token file record needs at least 3 columns (token, user name, user uid), found 2',
    );
    expect(() => parseTokenFile('"open,alice,1')).toThrow('line 1: unterminated quoted field');
    expect(() => parseTokenFile('t,alice,1\nt,bob,2')).toThrow(
      'line 2: this token is already listed for alice',
    );
    expect(() => parseTokenFile(',alice,1')).toThrow('line 1: empty token');
    expect(() => parseTokenFile('meshdx-sim,x,1')).toThrow("the simulator's own token");
  });
});

describe('attributesOf: the verb RBAC checks for a request', () => {
  const a = (method: string, path: string, upgrade = false) =>
    attributesOf(method, new URL(`http://sim${path}`), upgrade);
  it('maps methods and watch as kube-apiserver does', () => {
    expect(a('GET', '/api/v1/pods')).toEqual({ verb: 'list', group: '', resource: 'pods' });
    expect(a('GET', '/api/v1/pods?watch=true')?.verb).toBe('watch');
    expect(a('GET', '/api/v1/namespaces/x/pods/p')).toEqual({
      verb: 'get',
      group: '',
      resource: 'pods',
      namespace: 'x',
      name: 'p',
    });
    expect(a('DELETE', '/api/v1/namespaces/x/pods')?.verb).toBe('deletecollection');
    expect(a('GET', '/api/v1/namespaces/x/pods/p/log')).toMatchObject({
      verb: 'get',
      subresource: 'log',
    });
    expect(a('GET', '/api/v1/namespaces/x/pods/p/portforward', true)?.verb).toBe('create');
    expect(a('GET', '/apis/networking.istio.io/v1/namespaces/x/sidecars')?.group).toBe(
      'networking.istio.io',
    );
    expect(a('GET', '/version')).toBeNull();
    expect(a('GET', '/apis')).toBeNull();
  });
});
