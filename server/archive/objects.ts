/**
 * The archive's objects as the Kubernetes API serves them: by group, version and resource
 * (plural), namespaced or not. Istio's CRDs serve every version they define with one schema, so
 * an Istio object is served at each of them; the other objects at the version they carry.
 */
import type { ArchiveIndex } from '../../lib/archive/read';
import type { KubeObject } from '../../lib/kube/types';
import { KIND_RESOURCES, kindResource } from '../../lib/kube/resource-kinds';

interface Kind {
  group: string;
  plural: string;
  namespaced: boolean;
}

/** kind -> its resource, for the kinds Kubernetes itself serves (a bug-report's `kubectl get all,...`). */
const KINDS: Record<string, Kind> = Object.fromEntries(
  Object.entries(KIND_RESOURCES)
    .filter(([, r]) => !r.crd)
    .map(([kind, r]) => [kind, { group: r.group, plural: r.plural, namespaced: r.namespaced }]),
);

/** The versions Istio's CRDs serve (v1 from 1.22, v1beta1, v1alpha3/v1alpha1 before). */
export const ISTIO_VERSIONS = ['v1', 'v1beta1', 'v1alpha3', 'v1alpha1'];

function groupOf(apiVersion: string | undefined): { group: string; version: string } {
  const v = apiVersion ?? 'v1';
  const i = v.indexOf('/');
  return i < 0 ? { group: '', version: v } : { group: v.slice(0, i), version: v.slice(i + 1) };
}

/** A resource's plural from its kind, as Kubernetes lowercases and pluralises CRD kinds. */
function pluralOf(kind: string, group: string): string {
  const declared = kindResource(kind, group);
  if (declared && declared.group === group) return declared.plural;
  const k = kind.toLowerCase();
  if (k.endsWith('s')) return `${k}es`;
  // a consonant's y: policy -> policies; a vowel's stays: gateway -> gateways
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

interface CrdSpec {
  spec?: {
    group?: string;
    scope?: string;
    names?: { plural?: string };
    versions?: { name?: string; served?: boolean }[];
  };
}

/** The groups Kubernetes itself serves (not by a CRD), with their versions, newest first. */
export const BUILT_IN_GROUPS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.values(KIND_RESOURCES)
    .filter((r) => !r.crd && r.group !== '')
    .map((r) => [r.group, r.versions]),
);

export interface ServedResource {
  group: string;
  plural: string;
  namespaced: boolean;
  versions: Set<string>;
  objects: KubeObject[];
}

export class ServedArchiveObjects {
  private readonly resources = new Map<string, ServedResource>();

  constructor(index: ArchiveIndex) {
    const seenNamespaces = new Set<string>();
    for (const o of [...index.objects, ...(index.events ?? [])]) {
      if (!o.kind) continue;
      const { group, version } = groupOf(o.apiVersion ?? (o.kind === 'Event' ? 'v1' : undefined));
      const known = KINDS[o.kind];
      const istio = group.endsWith('istio.io');
      const kind: Kind = known ?? {
        group,
        plural: pluralOf(o.kind, group),
        namespaced: o.metadata.namespace !== undefined,
      };
      const key = JSON.stringify([kind.group, kind.plural]);
      const r =
        this.resources.get(key) ??
        ({
          group: kind.group,
          plural: kind.plural,
          namespaced: kind.namespaced,
          versions: new Set(),
          objects: [],
        } as ServedResource);
      this.resources.set(key, r);
      r.versions.add(version);
      if (istio) for (const v of ISTIO_VERSIONS) r.versions.add(v);
      r.objects.push({
        ...o,
        metadata: { ...o.metadata, resourceVersion: o.metadata.resourceVersion ?? '1' },
      });
      if (o.metadata.namespace) seenNamespaces.add(o.metadata.namespace);
    }
    // a CustomResourceDefinition of the archive (k8s-cluster-resources) is a resource the
    // cluster served, with or without objects: its list is empty, not a 404
    for (const crd of index.objects) {
      if (crd.kind !== 'CustomResourceDefinition') continue;
      const spec = (crd as CrdSpec).spec;
      const plural = spec?.names?.plural;
      const versions = (spec?.versions ?? []).filter((v) => v.served !== false && v.name);
      if (!spec?.group || !plural || versions.length === 0) continue;
      const key = JSON.stringify([spec.group, plural]);
      const r = this.resources.get(key) ?? {
        group: spec.group,
        plural,
        namespaced: spec.scope !== 'Cluster',
        versions: new Set<string>(),
        objects: [],
      };
      for (const v of versions) r.versions.add(v.name as string);
      this.resources.set(key, r);
    }
    // `kubectl get namespaces` is in k8s-cluster-resources; without it, a namespace is known to
    // exist because objects are in it (and only that is said of it)
    const nsKey = JSON.stringify(['', 'namespaces']);
    if (!this.resources.has(nsKey)) {
      this.resources.set(nsKey, {
        group: '',
        plural: 'namespaces',
        namespaced: false,
        versions: new Set(['v1']),
        objects: [...seenNamespaces].sort().map((name) => ({
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name, resourceVersion: '1' },
        })),
      });
    }
  }

  /** The resource at /api/v1 or /apis/GROUP/VERSION, or null when the archive serves no such one. */
  resource(group: string, version: string, plural: string): ServedResource | null {
    const r = this.resources.get(JSON.stringify([group, plural]));
    if (r && r.versions.has(version)) return r;
    // a resource the archive has no object of, but Kubernetes always serves: an empty list
    const known = Object.values(KINDS).find((k) => k.group === group && k.plural === plural);
    if (known && (group === '' ? version === 'v1' : true))
      return { ...known, versions: new Set([version]), objects: [] };
    if (group.endsWith('istio.io') && ISTIO_VERSIONS.includes(version))
      return { group, plural, namespaced: true, versions: new Set([version]), objects: [] };
    return null;
  }

  all(): ServedResource[] {
    return [...this.resources.values()];
  }
}
