/**
 * A simulated cluster that checks bearer tokens (a kube-apiserver token file) and authorizes by
 * the RBAC of deploy/overlays/header-auth (which holds token-auth's viewer role too), applied
 * through the API as an operator would, plus a RoleBinding giving one user one namespace.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { SIM_TOKEN } from '../server/sim/api/kubeconfig';
import { startSimulator, type RunningSimulator } from '../server/sim/index';
import { resetAuthState } from '../server/auth/request';
import { resetRegistry } from '../server/runtime/registry';

const exec = promisify(execFile);
const KUBECTL = process.env.KUBECTL_PATH ?? '/usr/bin/kubectl';
const HEADER_AUTH = path.resolve(import.meta.dirname, '..', 'deploy', 'overlays', 'header-auth');

/** `kubectl kustomize deploy/overlays/header-auth`: the objects an operator would apply. */
async function renderHeaderAuth(): Promise<Record<string, unknown>[]> {
  const { stdout } = await exec(KUBECTL, ['kustomize', HEADER_AUTH], { timeout: 30_000 });
  return parseAllDocuments(stdout).map((d) => d.toJS() as Record<string, unknown>);
}

export const USERS = {
  /** In the group the overlay's ClusterRoleBinding names: reads the whole mesh. */
  alice: { token: 'alice-0123456789abcdef', name: 'alice', groups: ['meshdx-viewers'] },
  /** Reads one namespace only (a RoleBinding to meshdx-viewer there). */
  nina: { token: 'nina-0123456789abcdef', name: 'nina', groups: ['team-shop'] },
  /** meshdx's ServiceAccount, as the in-cluster deployment would present it. */
  meshdx: {
    token: 'meshdx-sa-0123456789abcdef',
    name: 'system:serviceaccount:meshdx:meshdx',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:meshdx'],
  },
} as const;

export const NINA_NAMESPACE = 'meshdx-test-shop';

export interface AuthCluster {
  sim: RunningSimulator;
  dir: string;
  /** A kubeconfig for the simulator with `token` as its user's token. */
  kubeconfigFor(token: string): string;
  info(): Promise<SimInfo>;
  close(): Promise<void>;
}

export interface SimInfo {
  auth: {
    users: Record<string, Record<string, number>>;
    impersonated: Record<string, { by: string[]; groups: string[] }>;
  };
}

async function create(sim: RunningSimulator, obj: Record<string, unknown>): Promise<void> {
  const kind = String(obj.kind);
  const meta = obj.metadata as { name: string; namespace?: string };
  const plural: Record<string, string> = {
    Namespace: '/api/v1/namespaces',
    ServiceAccount: `/api/v1/namespaces/${meta.namespace}/serviceaccounts`,
    ClusterRole: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    ClusterRoleBinding: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
    Role: `/apis/rbac.authorization.k8s.io/v1/namespaces/${meta.namespace}/roles`,
    RoleBinding: `/apis/rbac.authorization.k8s.io/v1/namespaces/${meta.namespace}/rolebindings`,
  };
  const url = plural[kind];
  if (!url) return;
  const res = await fetch(sim.url + url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${SIM_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(obj),
  });
  if (res.status !== 201 && res.status !== 409)
    throw new Error(`creating ${kind} ${meta.name}: ${res.status} ${await res.text()}`);
}

export interface AuthClusterOptions {
  /** Write the simulator's admin kubeconfig here as well. */
  kubeconfigPath?: string;
}

export async function startAuthCluster(opts: AuthClusterOptions = {}): Promise<AuthCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-auth-'));
  const tokenFile = path.join(dir, 'tokens.csv');
  fs.writeFileSync(
    tokenFile,
    Object.values(USERS)
      .map((u) => `${u.token},${u.name},uid-${u.name},"${u.groups.join(',')}"`)
      .join('\n') + '\n',
  );
  const sim = await startSimulator({
    scenario: 'demo',
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
    tokenAuthFile: tokenFile,
    ...(opts.kubeconfigPath ? { kubeconfigPath: opts.kubeconfigPath } : {}),
  });
  const objects = await renderHeaderAuth();
  const ordered = [
    ...objects.filter((o) => o.kind === 'Namespace'),
    ...objects.filter((o) => o.kind !== 'Namespace'),
  ];
  for (const o of ordered) await create(sim, o);
  await create(sim, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NINA_NAMESPACE } });
  await create(sim, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'nina-reads-shop', namespace: NINA_NAMESPACE },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'meshdx-viewer' },
    subjects: [{ kind: 'User', name: USERS.nina.name }],
  });
  return {
    sim,
    dir,
    kubeconfigFor(token) {
      const file = path.join(dir, `kubeconfig-${token.slice(0, 8)}`);
      fs.writeFileSync(file, sim.kubeconfigYaml.replace(`token: ${SIM_TOKEN}`, `token: ${token}`), {
        mode: 0o600,
      });
      return file;
    },
    async info() {
      return (await (await fetch(`${sim.url}/_sim/info`)).json()) as SimInfo;
    },
    async close() {
      await sim.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * meshdx in header mode on `c` as its own ServiceAccount, with no runtime or session from an
 * earlier test (MESHDX_CONTEXT unset, the history in memory). `restore` puts `saved` back.
 */
export function meshdxInHeaderMode(c: AuthCluster, saved: NodeJS.ProcessEnv): void {
  process.env = {
    ...saved,
    MESHDX_DB: ':memory:',
    MESHDX_AUTH: 'header',
    MESHDX_KUBECONFIG: c.kubeconfigFor(USERS.meshdx.token),
  };
  delete process.env.MESHDX_CONTEXT;
  resetRegistry();
  resetAuthState();
}

/** The environment `saved` back, every runtime and session dropped, and the cluster closed. */
export async function restoreMeshdx(saved: NodeJS.ProcessEnv, c: AuthCluster | undefined) {
  resetRegistry();
  resetAuthState();
  process.env = { ...saved };
  await c?.close();
}
