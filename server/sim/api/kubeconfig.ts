import { stringify } from 'yaml';

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
    // cluster and user named after the context, so that the kubeconfigs of several simulators
    // merge (KUBECONFIG=a:b, or the demo serving two scenarios) without one hiding the other
    clusters: [{ name: context, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: context, user: { token: SIM_TOKEN } }],
    contexts: [{ name: context, context: { cluster: context, user: context } }],
    'current-context': context,
    preferences: {},
  });
}
