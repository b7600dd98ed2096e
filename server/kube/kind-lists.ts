/**
 * Lists of kinds by name, as the findings rules ask for them (lib/findings/rules: each rule names
 * the kinds it reads): where each is served comes from lib/kube/resource-kinds, the first served
 * version of it is listed. A CRD that is not installed (404 at every version) has no objects; a
 * kind that could not be read (RBAC, a failing API server) is unknown with the API server's
 * reason, so that no rule judges what was not read (Screened.kindsUnknown).
 */
import { kindResource, type KindResource } from '../../lib/kube/resource-kinds';
import type { KubeObject } from '../../lib/kube/types';
import { isKubeError } from './errors';
import { listResource, METADATA_ONLY_ACCEPT } from './resources';

/**
 * Kinds whose metadata is all a rule reads and whose bodies are large: a CRD carries its
 * schemas, megabytes over a cluster's CRDs; the Gateway API check reads an annotation.
 */
const METADATA_ONLY: ReadonlySet<string> = new Set(['CustomResourceDefinition']);
import type { KubeTransport } from './transport';

export interface KindLists {
  /** The objects of each kind read, each with its kind and apiVersion. */
  items: Record<string, unknown[]>;
  /** Kinds that could not be read, and why. */
  unknown: Record<string, string>;
  /** Kinds meshdx does not read by design (Secrets: credentials), and why. */
  declined: Record<string, string>;
  /** Kinds served by a CRD that is not installed: none of them exist. */
  notInstalled: string[];
  /** Kinds read in one namespace only (kind -> namespace). */
  namespaceOnly: Record<string, string>;
}

/** What a kind's list is: its objects, not installed, or unknown with why. */
type KindList =
  | { kind: string; ok: true; items: unknown[] }
  | { kind: string; ok: false; notInstalled: boolean; why: string; declined?: true };

/** The versions each API group serves, from one discovery request (`/apis`). */
export type Served = ReadonlyMap<string, ReadonlySet<string>>;

export async function servedGroups(t: KubeTransport, timeoutMs: number): Promise<Served> {
  const apis = await t.getJson<{ groups?: { name?: string; versions?: { version?: string }[] }[] }>(
    '/apis',
    { timeoutMs },
  );
  const out = new Map<string, Set<string>>([['', new Set(['v1'])]]);
  for (const g of apis.groups ?? []) {
    if (typeof g.name !== 'string') continue;
    out.set(g.name, new Set((g.versions ?? []).flatMap((v) => (v.version ? [v.version] : []))));
  }
  return out;
}

/** Where a kind is served now: its resource at the newest version served, or why none is. */
export type ServedKind =
  | { ok: true; res: KindResource; version: string; apiVersion: string; where: string }
  | { ok: false; notInstalled: boolean; why: string };

/**
 * The newest version of `kind` the API server says it serves (one discovery answers for every
 * kind: no probe of a version that is not served). A CRD that is not installed is `notInstalled`.
 * `kind` may be `group/Kind` where two groups serve a kind of that name.
 */
export function servedResource(kind: string, served: Served): ServedKind {
  // `group/Kind` tells kinds of one name apart (gateway.networking.k8s.io/Gateway)
  const slash = kind.lastIndexOf('/');
  const res =
    slash < 0 ? kindResource(kind) : kindResource(kind.slice(slash + 1), kind.slice(0, slash));
  if (res === null)
    return { ok: false, notInstalled: false, why: `meshdx does not know where ${kind} is served` };
  const where = `${res.plural}${res.group ? `.${res.group}` : ''}`;
  const groupVersions = served.get(res.group);
  const version = res.versions.find((v) => groupVersions?.has(v));
  if (version === undefined) {
    const why = groupVersions
      ? `${res.group} serves none of ${res.versions.join(', ')}`
      : `${res.group} is not served`;
    return res.crd
      ? { ok: false, notInstalled: true, why: `${where}: not installed (${why})` }
      : { ok: false, notInstalled: false, why: `${where}: ${why}` };
  }
  const apiVersion = res.group === '' ? version : `${res.group}/${version}`;
  return { ok: true, res, version, apiVersion, where };
}

async function listKind(
  t: KubeTransport,
  kind: string,
  namespace: string | undefined,
  served: Served,
  timeoutMs: number,
): Promise<KindList> {
  const r = servedResource(kind, served);
  if (!r.ok) return { kind, ok: false, notInstalled: r.notInstalled, why: r.why };
  const { res, version, apiVersion, where } = r;
  try {
    const l = await listResource<KubeObject>(
      t,
      { group: res.group, version, plural: res.plural, namespaced: res.namespaced },
      {
        ...(namespace !== undefined ? { namespace } : {}),
        ...(METADATA_ONLY.has(kind) ? { accept: METADATA_ONLY_ACCEPT } : {}),
        timeoutMs,
      },
    );
    // a metadata-only list's items say PartialObjectMetadata: they are objects of this kind
    return { kind, ok: true, items: l.items.map((o) => ({ ...o, apiVersion, kind })) };
  } catch (e) {
    // served by discovery but 404 now: the CRD was removed in between
    if (isKubeError(e) && e.status === 404 && res.crd)
      return { kind, ok: false, notInstalled: true, why: `${where}: not installed` };
    return {
      kind,
      ok: false,
      notInstalled: false,
      why: `${where}: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

/**
 * Every kind of `kinds`, in parallel. `namespaceOf(kind)`: a kind read in one namespace only
 * (the ConfigMaps of Istio's root namespace, not every ConfigMap of the cluster).
 */
export async function listKinds(
  t: KubeTransport,
  kinds: readonly string[],
  namespaceOf: (kind: string) => string | undefined = () => undefined,
  timeoutMs = 30_000,
): Promise<KindLists> {
  const out: KindLists = {
    items: {},
    unknown: {},
    declined: {},
    notInstalled: [],
    namespaceOnly: {},
  };
  let served: Served;
  try {
    served = await servedGroups(t, timeoutMs);
  } catch (e) {
    // without discovery only the core group is known to be served
    const why = `API discovery (/apis) failed: ${e instanceof Error ? e.message : String(e)}`;
    served = new Map([['', new Set(['v1'])]]);
    for (const k of kinds) {
      const r = kindResource(k);
      if (r !== null && r.group !== '') out.unknown[k] = why;
    }
  }
  const lists = await Promise.all(
    kinds
      .filter((k) => out.unknown[k] === undefined)
      .map((k) => {
        if (k === 'Secret')
          return Promise.resolve<KindList>({
            kind: k,
            ok: false,
            notInstalled: false,
            why: 'meshdx does not read Secrets (they hold credentials)',
            declined: true,
          });
        const ns = namespaceOf(k);
        if (ns !== undefined) out.namespaceOnly[k] = ns;
        return listKind(t, k, ns, served, timeoutMs);
      }),
  );
  for (const l of lists) {
    if (l.ok) out.items[l.kind] = l.items;
    else if (l.declined) out.declined[l.kind] = l.why;
    else if (l.notInstalled) {
      out.notInstalled.push(l.kind);
      out.items[l.kind] = [];
    } else out.unknown[l.kind] = l.why;
  }
  return out;
}
