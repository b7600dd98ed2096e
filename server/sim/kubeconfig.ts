import { stringify } from 'yaml';

export const SIM_CLUSTER = 'meshdx-sim';
export const SIM_USER = 'meshdx-sim';
export const SIM_TOKEN = 'meshdx-sim';

export function simContextName(scenario: string): string {
  return `meshdx-sim-${scenario}`;
}

/** A kubeconfig for the simulator at `server` (http://127.0.0.1:PORT). */
export function simKubeconfig(server: string, scenario: string): string {
  const context = simContextName(scenario);
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: SIM_CLUSTER, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: SIM_USER, user: { token: SIM_TOKEN } }],
    contexts: [{ name: context, context: { cluster: SIM_CLUSTER, user: SIM_USER } }],
    'current-context': context,
    preferences: {},
  });
}
