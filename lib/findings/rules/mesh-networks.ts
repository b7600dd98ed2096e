/**
 * IST0126 UnknownMeshNetworksServiceRegistry, as istioctl's multicluster.MeshNetworksAnalyzer
 * reports it: an endpoint of the mesh networks (`networks.NAME.endpoints[].fromRegistry`) that
 * names a registry istiod does not have. Known registries are Istio's own (Kubernetes, External,
 * Mock; the names are case-sensitive) and the clusters of the remote secrets (Secrets labelled
 * `istio/multiCluster: "true"`, one cluster per data key). One finding per endpoint, on the
 * MeshNetworks `meshnetworks` of the istio namespace, as istioctl names it.
 *
 * The mesh networks are those given beside the objects (a `networks`-only document, the file
 * `istioctl analyze --meshNetworksFile` takes), else the `istio` ConfigMap's `meshNetworks` key
 * (the root namespace's ConfigMap, else the first one), as istioctl reads them from a cluster; a text that cannot be
 * read as YAML judges nothing. A remote secret's `stringData` keys count too: the API server
 * stores them as data keys (istioctl, reading a file, would miss them).
 *
 * On a live cluster meshdx does not read Secrets (they hold the remote clusters' credentials):
 * the rule is then not run, and the report says so (rulesNotRun).
 */
import { parseDocument } from 'yaml';
import { yamlValue } from '../../yaml-limits';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule, type RuleContext } from './rule';
import { dataOf, list, obj, str, stringMap, type Raw } from './raw';
import type { KubeObject } from '../../kube/types';

const CATALOG = defineCatalog('config', {
  unknownServiceRegistry: {
    code: 'IST0126',
    severity: 'error',
    title: 'UnknownMeshNetworksServiceRegistry',
    description:
      'A network of the mesh networks takes its endpoints from a service registry (cluster) istiod does not know: none of its endpoints join that network, so cross-network traffic to them does not go through the network gateway.',
    istio: {
      since: '1.1',
      why: 'meshNetworks is first in Istio 1.1.0; istioctl analyze reports IST0126 since 1.6.',
    },
  },
});

export interface MeshNetworksValue {
  /** The namespace of the `istio` ConfigMap (the root namespace when there is none). */
  namespace: string;
  /** The parsed `meshNetworks` text: {} when there is none or it is empty, null when unreadable. */
  value: Raw | null;
}

/** Whether a parsed YAML value is JSON, as istioctl converts it (a recursive alias is not). */
function jsonValue(v: unknown): boolean {
  try {
    JSON.stringify(v);
    return true;
  } catch {
    return false;
  }
}

/** The `istio` ConfigMap's `meshNetworks`, parsed; never throws. */
export function meshNetworksOf(ctx: RuleContext): MeshNetworksValue {
  if (ctx.meshNetworksGiven !== null)
    return { namespace: ctx.rootNamespace, value: { ...ctx.meshNetworksGiven } };
  const all = ctx.objects('ConfigMap').filter((c) => c.metadata.name === 'istio');
  const cm = all.find((c) => c.metadata.namespace === ctx.rootNamespace) ?? all[0];
  const namespace = cm?.metadata.namespace ?? ctx.rootNamespace;
  const raw = cm === undefined ? undefined : dataOf(cm)?.meshNetworks;
  if (raw === undefined || raw === null) return { namespace, value: {} };
  const text = str(raw);
  if (text === undefined) return { namespace, value: null };
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return { namespace, value: null };
  const read = yamlValue(doc);
  if ('error' in read) return { namespace, value: null };
  if (read.value === null || read.value === undefined) return { namespace, value: {} };
  return { namespace, value: jsonValue(read.value) ? obj(read.value) : null };
}

/** Istio's own registries (pilot/pkg/serviceregistry/provider), as istioctl knows them. */
const BUILT_IN = ['Mock', 'Kubernetes', 'External'];
const MULTICLUSTER_LABEL = 'istio/multiCluster';

/** The registries istiod knows: its own and one per data key of each remote secret. */
function knownRegistries(secrets: readonly KubeObject[]): Set<string> {
  const known = new Set(BUILT_IN);
  for (const s of secrets) {
    if (stringMap(s.metadata.labels)[MULTICLUSTER_LABEL] !== 'true') continue;
    const raw = s as KubeObject & { data?: unknown; stringData?: unknown };
    for (const key of [
      ...Object.keys(obj(raw.data) ?? {}),
      ...Object.keys(obj(raw.stringData) ?? {}),
    ])
      known.add(key);
  }
  return known;
}

export const MESH_NETWORKS = defineRule({
  id: 'mesh-networks',
  analyzer: 'multicluster.MeshNetworksAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0126', kinds: ['MeshNetworks'] }],
  reads: ['ConfigMap', 'Secret'],
  check(ctx) {
    const { namespace, value } = meshNetworksOf(ctx);
    const networks = obj(value?.networks);
    if (networks === null) return [];
    const known = knownRegistries(ctx.objects('Secret'));
    const out: Finding[] = [];
    for (const [network, spec] of Object.entries(networks)) {
      for (const [j, endpoint] of list(obj(spec)?.endpoints).entries()) {
        const registry = str(obj(endpoint)?.fromRegistry);
        if (registry === undefined || known.has(registry)) continue;
        out.push({
          code: CATALOG.code.unknownServiceRegistry,
          severity: CATALOG.byKey.unknownServiceRegistry.severity,
          subject: { kind: 'MeshNetworks', namespace, name: 'meshnetworks' },
          part: { kind: 'field', name: `networks.${network}.endpoints[${j}]` },
          evidence: { network, registry, known: [...known].sort().join(', ') },
          fix: {
            why: `Name a registry istiod has in fromRegistry: a cluster ID of a remote secret, or Kubernetes for this cluster (names are case-sensitive); ${registry} is none.`,
          },
        });
      }
    }
    return out;
  },
});
