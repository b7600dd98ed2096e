import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClusterConfigError, resolveClusterSource } from './source';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-source-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function kubeconfig(name: string, current: string | null, contexts = ['a', 'b']): string {
  const file = path.join(dir, name);
  const ctx = contexts
    .map((c) => `  - name: ${c}\n    context: {cluster: c1, user: u1}`)
    .join('\n');
  fs.writeFileSync(
    file,
    `apiVersion: v1\nkind: Config\nclusters:\n  - name: c1\n    cluster: {server: "https://10.0.0.1:6443", insecure-skip-tls-verify: true}\nusers:\n  - name: u1\n    user: {token: t}\ncontexts:\n${ctx}\n${current ? `current-context: ${current}\n` : ''}`,
  );
  return file;
}

const empty = {
  env: {},
  home: path.join(dir, 'nohome'),
  serviceAccountRoot: path.join(dir, 'nosa'),
};
const errorOf = (f: () => unknown): ClusterConfigError => {
  try {
    f();
  } catch (e) {
    if (e instanceof ClusterConfigError) return e;
    throw e;
  }
  throw new Error('expected a ClusterConfigError');
};

describe('resolveClusterSource', () => {
  it('returns null when there is no cluster at all (the demo then uses the simulator)', () => {
    expect(resolveClusterSource(empty)).toBeNull();
  });

  it('prefers an explicit kubeconfig over KUBECONFIG', () => {
    const a = kubeconfig('explicit', 'a');
    const b = kubeconfig('env', 'b');
    const src = resolveClusterSource({ ...empty, kubeconfig: a, env: { KUBECONFIG: b } });
    expect(src?.kind).toBe('kubeconfig');
    expect(src?.label).toBe('a');
    expect(src?.kubeconfigPath).toBe(a);
    expect(src?.server).toBe('https://10.0.0.1:6443');
  });

  it('takes the first file of a KUBECONFIG list, then ~/.kube/config', () => {
    const b = kubeconfig('list-first', 'b');
    expect(
      resolveClusterSource({ ...empty, env: { KUBECONFIG: `${b}${path.delimiter}/other` } })?.label,
    ).toBe('b');
    const home = path.join(dir, 'home');
    fs.mkdirSync(path.join(home, '.kube'), { recursive: true });
    fs.copyFileSync(kubeconfig('h', 'a'), path.join(home, '.kube', 'config'));
    expect(resolveClusterSource({ ...empty, home })?.kubeconfigPath).toBe(
      path.join(home, '.kube', 'config'),
    );
  });

  it('names a missing kubeconfig file and says how to fix it', () => {
    const e = errorOf(() =>
      resolveClusterSource({ ...empty, env: { KUBECONFIG: '/nope/config' } }),
    );
    expect(e.code).toBe('KUBECONFIG_NOT_FOUND');
    expect(e.message).toContain('/nope/config');
    expect(e.message).toContain('KUBECONFIG');
    expect(e.hint).toMatch(/KUBECONFIG/);
  });

  it('reports a missing context with the ones available', () => {
    const e = errorOf(() =>
      resolveClusterSource({ ...empty, kubeconfig: kubeconfig('ctx', 'a'), context: 'prod' }),
    );
    expect(e.code).toBe('CONTEXT_MISSING');
    expect(e.hint).toContain('a, b');
    const none = errorOf(() =>
      resolveClusterSource({ ...empty, kubeconfig: kubeconfig('nocurrent', null) }),
    );
    expect(none.code).toBe('CONTEXT_MISSING');
  });

  it('reports an unreadable kubeconfig', () => {
    const bad = path.join(dir, 'garbage');
    fs.writeFileSync(bad, 'clusters: [unclosed');
    expect(errorOf(() => resolveClusterSource({ ...empty, kubeconfig: bad })).code).toBe(
      'KUBECONFIG_INVALID',
    );
  });

  it('labels the simulator as simulated', () => {
    const src = resolveClusterSource({
      ...empty,
      kubeconfig: kubeconfig('sim', 'a'),
      simulatedScenario: 'demo',
    });
    expect(src?.kind).toBe('simulator');
    expect(src?.label).toBe('simulated: demo');
  });

  it('uses the in-cluster service account when there is no kubeconfig', () => {
    const root = path.join(dir, 'sa');
    const sa = path.join(root, 'var/run/secrets/kubernetes.io/serviceaccount');
    fs.mkdirSync(sa, { recursive: true });
    fs.writeFileSync(path.join(sa, 'token'), 'tok');
    fs.writeFileSync(path.join(sa, 'namespace'), 'meshdx');
    // client-node reads the service host from process.env itself
    const saved = {
      host: process.env.KUBERNETES_SERVICE_HOST,
      port: process.env.KUBERNETES_SERVICE_PORT,
    };
    process.env.KUBERNETES_SERVICE_HOST = '10.96.0.1';
    process.env.KUBERNETES_SERVICE_PORT = '443';
    let src;
    try {
      src = resolveClusterSource({
        ...empty,
        serviceAccountRoot: root,
        env: { KUBERNETES_SERVICE_HOST: '10.96.0.1' },
      });
    } finally {
      for (const [k, v] of [
        ['KUBERNETES_SERVICE_HOST', saved.host],
        ['KUBERNETES_SERVICE_PORT', saved.port],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    expect(src?.kind).toBe('in-cluster');
    expect(src?.label).toBe('in-cluster');
    expect(src?.server).toBe('https://10.96.0.1:443');
  });
});
