import type { StaleHost } from '../../../lib/api/incidents';
import { parseClusterName } from '../../../lib/refs/cluster-name';
import type { EndpointSlice } from '../../../lib/kube/types';
import { parseClustersJson, sliceAddresses, staleHosts } from '../../../lib/incidents/stale';
import { endOf } from '../../../lib/ledger/lookup';
import type { IpHistory } from '../../../lib/ledger/ip-history';
import { parsePodKey, podKeyOf } from '../../../lib/refs/pod-ref';

export interface StaleReport {
  client: string;
  checked: number;
  problem: string | null;
  hosts: StaleHost[];
}

/** The client proxy's upstream hosts that are in no EndpointSlice, with the last pod that held each. */
export async function staleEndpointsFor(
  client: string,
  clustersJson: (namespace: string, pod: string) => Promise<string>,
  slices: readonly EndpointSlice[],
  history: IpHistory,
): Promise<StaleReport> {
  let text: string;
  try {
    const { namespace, name } = parsePodKey(client);
    text = await clustersJson(namespace, name);
  } catch (e) {
    return { client, checked: 0, problem: e instanceof Error ? e.message : String(e), hosts: [] };
  }
  const parsed = parseClustersJson(text);
  if (parsed.problem) return { client, checked: 0, problem: parsed.problem, hosts: [] };
  const { checked, stale } = staleHosts(parsed.hosts, sliceAddresses(slices));
  return {
    client,
    checked,
    problem: null,
    hosts: stale.map((h) => {
      const last = history.history(h.ip).at(-1) ?? null;
      const state: StaleHost['state'] = !last
        ? 'unknown'
        : endOf(last) !== null
          ? 'terminated'
          : last.deletionStartedAt !== null
            ? 'terminating'
            : 'live';
      return {
        cluster: h.cluster,
        service: parseClusterName(h.cluster)?.fqdn ?? null,
        address: h.port !== null ? `${h.ip}:${h.port}` : h.ip,
        health: h.health,
        lastHolder: last ? podKeyOf(last) : null,
        state,
      };
    }),
  };
}
