import { stringify } from 'yaml';
import type { DestinationRule, HttpRetry, OutlierDetection } from '../kube/types';
import { parseServiceFqdn } from '../refs/service-host';

/** Copyable DestinationRule: the existing one with a new outlierDetection, or a new one for the host. */
export function destinationRuleYaml(
  fqdn: string,
  existing: DestinationRule | null,
  outlier: OutlierDetection,
  subset: string | null,
): string {
  const svc = parseServiceFqdn(fqdn);
  const spec: DestinationRule['spec'] = existing ? structuredClone(existing.spec) : { host: fqdn };
  const sub = subset ? spec.subsets?.find((s) => s.name === subset) : undefined;
  if (sub?.trafficPolicy?.outlierDetection) {
    sub.trafficPolicy = { ...sub.trafficPolicy, outlierDetection: outlier };
  } else {
    spec.trafficPolicy = { ...(spec.trafficPolicy ?? {}), outlierDetection: outlier };
  }
  const doc = {
    apiVersion: 'networking.istio.io/v1',
    kind: 'DestinationRule',
    metadata: {
      name: existing?.metadata.name ?? svc?.name ?? fqdn.split('.')[0] ?? 'service',
      namespace: existing?.metadata.namespace ?? svc?.namespace ?? 'default',
    },
    spec,
  };
  return stringify(doc, { lineWidth: 0 });
}

/** A VirtualService for the host with the retry policy (or, with an existing one, the block to put in its route). */
export function retriesYaml(
  fqdn: string,
  existingSource: string | null,
  retries: HttpRetry,
): string {
  const svc = parseServiceFqdn(fqdn);
  if (existingSource) {
    return `# in VirtualService ${existingSource}, on the http route to ${fqdn}:\n${stringify({ retries }, { lineWidth: 0 })}`;
  }
  const doc = {
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: {
      name: svc?.name ?? fqdn.split('.')[0] ?? 'service',
      namespace: svc?.namespace ?? 'default',
    },
    spec: {
      hosts: [fqdn],
      http: [{ retries, route: [{ destination: { host: fqdn } }] }],
    },
  };
  return stringify(doc, { lineWidth: 0 });
}

/** Patch for the server workload's pod template: a longer proxy drain on termination. */
export function drainYaml(
  namespace: string,
  workload: string,
  drainSeconds: number,
  graceSeconds: number,
): string {
  const patch = {
    spec: {
      template: {
        metadata: {
          annotations: {
            'proxy.istio.io/config': JSON.stringify({
              terminationDrainDuration: `${drainSeconds}s`,
            }),
          },
        },
        spec: { terminationGracePeriodSeconds: graceSeconds },
      },
    },
  };
  return `# kubectl -n ${namespace} patch deployment ${workload} --type merge --patch-file drain.yaml\n${stringify(patch, { lineWidth: 0 })}`;
}
