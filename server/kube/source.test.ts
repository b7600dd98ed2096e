import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  clusterSourceFingerprint,
  ClusterConfigError,
  listContexts,
  loadClusterConfig,
  resolveClusterSource,
} from './source';

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

  it('takes the first file of a KUBECONFIG list (the others merged), then ~/.kube/config', () => {
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

  it('labels a cluster by its context, the simulator like any other', () => {
    const src = resolveClusterSource({ ...empty, kubeconfig: kubeconfig('sim', 'a') });
    expect(src?.kind).toBe('kubeconfig');
    expect(src?.label).toBe(src?.context);
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

function namedConfig(file: string, cluster: string, server: string, ctx: string, current: boolean) {
  const p = path.join(dir, file);
  fs.writeFileSync(
    p,
    `apiVersion: v1\nkind: Config\nclusters:\n  - name: ${cluster}\n    cluster: {server: "${server}"}\nusers:\n  - name: u-${cluster}\n    user: {token: t}\ncontexts:\n  - name: ${ctx}\n    context: {cluster: ${cluster}, user: u-${cluster}}\n${current ? `current-context: ${ctx}\n` : ''}`,
  );
  return p;
}

describe('a KUBECONFIG list, merged as kubectl merges it', () => {
  it('skips missing files, merges the others, and the first current-context wins', () => {
    const b = namedConfig('m-b', 'cb', 'https://10.0.0.2:6443', 'ctx-b', true);
    const c = namedConfig('m-c', 'cc', 'https://10.0.0.3:6443', 'ctx-c', true);
    const list = [path.join(dir, 'missing'), b, c].join(path.delimiter);
    const src = resolveClusterSource({ ...empty, env: { KUBECONFIG: list } });
    expect(src?.label).toBe('ctx-b');
    expect(src?.server).toBe('https://10.0.0.2:6443');
    // the source's KubeConfig holds its own context only; the merged list offers both
    expect(src?.kc.getContexts().map((x) => x.name)).toEqual(['ctx-b']);
    const cfg = loadClusterConfig({ ...empty, env: { KUBECONFIG: list } });
    expect(cfg ? listContexts(cfg) : []).toEqual([
      { name: 'ctx-b', cluster: 'cb', server: 'https://10.0.0.2:6443', current: true },
      { name: 'ctx-c', cluster: 'cc', server: 'https://10.0.0.3:6443', current: false },
    ]);
    expect(src?.kubeconfigPath).toBe(`${b}${path.delimiter}${c}`);
    const other = resolveClusterSource({ ...empty, context: 'ctx-c', env: { KUBECONFIG: list } });
    expect(other?.server).toBe('https://10.0.0.3:6443');
  });

  it('takes the current-context of a later file when the first has none, first name wins', () => {
    const first = namedConfig('n-a', 'shared', 'https://10.0.0.4:6443', 'ctx-a', false);
    const second = namedConfig('n-b', 'shared', 'https://10.9.9.9:6443', 'ctx-a', true);
    const src = resolveClusterSource({
      ...empty,
      env: { KUBECONFIG: `${first}${path.delimiter}${second}` },
    });
    expect(src?.label).toBe('ctx-a');
    expect(src?.server).toBe('https://10.0.0.4:6443');
  });

  it('is KUBECONFIG_NOT_FOUND, naming the files, when none of them exists', () => {
    const e = errorOf(() =>
      resolveClusterSource({ ...empty, env: { KUBECONFIG: `/nope/a${path.delimiter}/nope/b` } }),
    );
    expect(e.code).toBe('KUBECONFIG_NOT_FOUND');
    expect(e.message).toContain('/nope/a, /nope/b');
  });
});

describe('clusterSourceFingerprint', () => {
  it('changes when the kubeconfig file is rewritten or appears, not otherwise', () => {
    const f = path.join(dir, 'fp');
    const opts = { ...empty, kubeconfig: f };
    const missing = clusterSourceFingerprint(opts);
    namedConfig('fp', 'c', 'https://10.0.0.5:6443', 'x', true);
    const written = clusterSourceFingerprint(opts);
    expect(written).not.toBe(missing);
    expect(clusterSourceFingerprint(opts)).toBe(written);
    fs.utimesSync(f, new Date(), new Date(Date.now() + 5_000));
    expect(clusterSourceFingerprint(opts)).not.toBe(written);
    expect(clusterSourceFingerprint({ ...opts, context: 'y' })).not.toBe(
      clusterSourceFingerprint(opts),
    );
  });
});
