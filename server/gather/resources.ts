/**
 * The cluster's objects for a gathered archive, listed a page at a time (`limit` and
 * `continue`, as kubectl pages) within meshdx's request budget and written as kubectl's YAML
 * List into a spooled entry, so that a large cluster is never held whole. A kind the API server
 * does not serve, or the identity may not list, is skipped with the server's reason.
 */
import type { KubeList, KubeObject } from '../../lib/kube/types';
import {
  LIST_YAML_HEAD,
  LIST_YAML_NO_ITEMS,
  LIST_YAML_TAIL,
  listYamlItems,
} from '../../lib/gather/list-yaml';
import type { GatherSkipped } from '../../lib/gather/extras';
import { failureReason } from '../envoy/reason';
import { isKubeError } from '../kube/errors';
import { collectionPath, type ResourceType } from '../kube/resources';
import type { KubeTransport } from '../kube/transport';

/** A kind to list, with the kind its objects print as. */
export interface GatherKind extends ResourceType {
  kind: string;
  /** Versions to try in order when the first is not served (Istio's CRDs moved to v1). */
  versions?: readonly string[];
}

const k = (
  group: string,
  version: string,
  plural: string,
  kind: string,
  namespaced = true,
  versions?: readonly string[],
): GatherKind => ({ group, version, plural, kind, namespaced, versions });

/** `cluster/k8s-resources`: the namespaced objects `kubectl get -A all,...` gives istioctl. */
export const K8S_RESOURCE_KINDS: readonly GatherKind[] = [
  k('', 'v1', 'pods', 'Pod'),
  k('', 'v1', 'services', 'Service'),
  k('apps', 'v1', 'deployments', 'Deployment'),
  k('apps', 'v1', 'replicasets', 'ReplicaSet'),
  k('apps', 'v1', 'statefulsets', 'StatefulSet'),
  k('apps', 'v1', 'daemonsets', 'DaemonSet'),
  k('batch', 'v1', 'jobs', 'Job'),
  k('networking.k8s.io', 'v1', 'ingresses', 'Ingress'),
  k('discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice'),
  k('', 'v1', 'configmaps', 'ConfigMap'),
  k('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy'),
];

/** `cluster/k8s-cluster-resources`: the cluster-scoped objects. */
export const CLUSTER_RESOURCE_KINDS: readonly GatherKind[] = [
  k('', 'v1', 'namespaces', 'Namespace', false),
  k('', 'v1', 'nodes', 'Node', false),
  k('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false),
  k(
    'admissionregistration.k8s.io',
    'v1',
    'mutatingwebhookconfigurations',
    'MutatingWebhookConfiguration',
    false,
  ),
  k(
    'admissionregistration.k8s.io',
    'v1',
    'validatingwebhookconfigurations',
    'ValidatingWebhookConfiguration',
    false,
  ),
];

const NET = ['v1', 'v1beta1', 'v1alpha3'] as const;
const SEC = ['v1', 'v1beta1'] as const;

const GW = ['v1', 'v1beta1'] as const;
const GATEWAY_API_GROUP = 'gateway.networking.k8s.io';

/**
 * Gateway API's resources, which Istio programs (waypoints, gateways, routes): kept in
 * `cluster/crs` beside Istio's own (istioctl keeps only the istio.io groups there; a reader of
 * its archive takes the extra objects as any other), a group the cluster does not serve skipped.
 */
const GATEWAY_API_KINDS: readonly GatherKind[] = [
  k('gateway.networking.k8s.io', 'v1', 'gatewayclasses', 'GatewayClass', false, GW),
  k('gateway.networking.k8s.io', 'v1', 'gateways', 'Gateway', true, GW),
  k('gateway.networking.k8s.io', 'v1', 'httproutes', 'HTTPRoute', true, GW),
  k('gateway.networking.k8s.io', 'v1', 'grpcroutes', 'GRPCRoute', true, GW),
];

/** `cluster/crs` where the CRDs cannot be listed: Istio's custom resources meshdx knows. */
export const ISTIO_CR_KINDS: readonly GatherKind[] = [
  k('networking.istio.io', 'v1', 'virtualservices', 'VirtualService', true, NET),
  k('networking.istio.io', 'v1', 'destinationrules', 'DestinationRule', true, NET),
  k('networking.istio.io', 'v1', 'gateways', 'Gateway', true, NET),
  k('networking.istio.io', 'v1', 'serviceentries', 'ServiceEntry', true, NET),
  k('networking.istio.io', 'v1', 'sidecars', 'Sidecar', true, NET),
  k('networking.istio.io', 'v1', 'workloadentries', 'WorkloadEntry', true, NET),
  k('networking.istio.io', 'v1alpha3', 'envoyfilters', 'EnvoyFilter', true, ['v1alpha3']),
  k('security.istio.io', 'v1', 'authorizationpolicies', 'AuthorizationPolicy', true, SEC),
  k('security.istio.io', 'v1', 'peerauthentications', 'PeerAuthentication', true, SEC),
  k('security.istio.io', 'v1', 'requestauthentications', 'RequestAuthentication', true, SEC),
  k('telemetry.istio.io', 'v1', 'telemetries', 'Telemetry', true, ['v1', 'v1alpha1']),
  ...GATEWAY_API_KINDS,
];

const PAGE = 500;

interface CrdObject extends KubeObject {
  spec?: {
    group?: string;
    names?: { plural?: string; kind?: string };
    scope?: string;
    versions?: { name?: string; served?: boolean; storage?: boolean }[];
  };
}

/**
 * The kinds of `cluster/crs`: every custom resource of an `istio.io` group the cluster defines
 * (as istioctl lists every CRD's objects), each at its storage version; where the CRDs cannot be
 * listed or none is of Istio, the kinds meshdx knows, with the reason.
 */
export async function istioCrKinds(
  t: KubeTransport,
): Promise<{ kinds: readonly GatherKind[]; problem: string | null }> {
  const kinds: GatherKind[] = [];
  try {
    await streamPages(
      t,
      k(
        'apiextensions.k8s.io',
        'v1',
        'customresourcedefinitions',
        'CustomResourceDefinition',
        false,
      ),
      undefined,
      async (items) => {
        for (const crd of items as CrdObject[]) {
          const spec = crd.spec ?? {};
          const group = spec.group ?? '';
          if (group !== 'istio.io' && !group.endsWith('.istio.io') && group !== GATEWAY_API_GROUP)
            continue;
          const versions = (spec.versions ?? []).filter((v) => v.served !== false && v.name);
          const version = (versions.find((v) => v.storage) ?? versions[0])?.name;
          const { plural, kind } = spec.names ?? {};
          if (!version || !plural || !kind) continue;
          kinds.push(k(group, version, plural, kind, spec.scope !== 'Cluster'));
        }
      },
    );
  } catch (e) {
    return {
      kinds: ISTIO_CR_KINDS,
      problem: `the CustomResourceDefinitions cannot be listed (${failureReason(e)}): the Istio kinds meshdx knows are listed instead`,
    };
  }
  if (!kinds.some((x) => x.group !== GATEWAY_API_GROUP))
    return {
      kinds: ISTIO_CR_KINDS,
      problem:
        'the cluster lists no istio.io CustomResourceDefinition: the Istio kinds meshdx knows were asked for',
    };
  kinds.sort((a, b) => a.group.localeCompare(b.group) || a.plural.localeCompare(b.plural));
  return { kinds, problem: null };
}

/**
 * Every object of `rt` in `namespace` (absent: all), a page at a time, each page handed to
 * `onPage` before the next is asked for and then let go (the runtime's listPaged keeps every
 * page: a view needs the whole list, an archive does not). A continue token the server no
 * longer honours (410 Expired) fails the kind, named as a skipped part: its pages were written.
 * Returns the version that answered.
 */
export async function streamPages(
  t: KubeTransport,
  rt: GatherKind,
  namespace: string | undefined,
  onPage: (items: KubeObject[], version: string) => Promise<void>,
): Promise<string> {
  const versions = rt.versions ?? [rt.version];
  for (let v = 0; v < versions.length; v++) {
    const version = versions[v] as string;
    let token: string | undefined;
    try {
      do {
        const list = await t.getJson<KubeList<KubeObject>>(
          collectionPath({ ...rt, version }, namespace),
          { query: { limit: PAGE, continue: token }, timeoutMs: 60_000 },
        );
        if (!list || !Array.isArray(list.items))
          throw new Error(`${collectionPath({ ...rt, version }, namespace)} did not return a list`);
        await onPage(list.items, version);
        token = list.metadata?.continue || undefined;
      } while (token);
      return version;
    } catch (e) {
      // a version the server does not serve (404 before the first page): the next one
      const first = token === undefined;
      if (first && v < versions.length - 1 && isKubeError(e) && e.status === 404) continue;
      throw e;
    }
  }
  throw new Error(`no version of ${rt.plural} answered`);
}

/**
 * Writes a kubectl YAML List of every object of `kinds` (in `namespaces`, or all) through `put`:
 * a kind that cannot be listed is a skipped part, with the reason, and the others still written.
 * `seen` gets each listed object with its kind (the capture keeps what it needs later).
 */
export async function writeListYaml(
  t: KubeTransport,
  kinds: readonly GatherKind[],
  namespaces: readonly string[] | null,
  put: (text: string) => Promise<void>,
  part: string,
  skipped: GatherSkipped[],
  seen?: (kind: GatherKind, items: readonly KubeObject[]) => void,
): Promise<number> {
  let count = 0;
  await put(LIST_YAML_HEAD);
  for (const rt of kinds) {
    const scopes = rt.namespaced && namespaces ? namespaces : [undefined];
    for (const ns of scopes) {
      const before = count;
      try {
        await streamPages(t, rt, ns, async (items, version) => {
          const kept =
            !rt.namespaced && namespaces && rt.plural === 'namespaces'
              ? items.filter((i) => namespaces.includes(i.metadata.name))
              : items;
          seen?.(rt, kept);
          count += kept.length;
          const apiVersion = rt.group ? `${rt.group}/${version}` : version;
          await put(listYamlItems(kept, apiVersion, rt.kind));
        });
      } catch (e) {
        skipped.push({
          part: `${part} (${rt.plural}${ns ? ` in ${ns}` : ''})`,
          reason:
            count > before
              ? `listed in part (${count - before} objects written, the rest not): ${failureReason(e)}`
              : failureReason(e),
        });
      }
    }
  }
  // an empty list still reads as a List: `items:` with nothing under it is null in YAML
  if (count === 0) await put(LIST_YAML_NO_ITEMS);
  await put(LIST_YAML_TAIL);
  return count;
}
