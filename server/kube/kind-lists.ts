/**
 * Lists of kinds by name, as the findings rules ask for them (lib/findings/rules: each rule names
 * the kinds it reads): where each is served comes from lib/kube/resource-kinds, the first served
 * version of it is listed. A CRD that is not installed (404 at every version) has no objects; a
 * kind that could not be read (RBAC, a failing API server) is unknown with the API server's
 * reason, so that no rule judges what was not read (Screened.kindsUnknown).
 */
import { kindResource } from '../../lib/kube/resource-kinds';
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

async function listKind(
  t: KubeTransport,
  kind: string,
  namespace: string | undefined,
  timeoutMs: number,
): Promise<KindList> {
  const res = kindResource(kind);
  if (res === null)
    return {
      kind,
      ok: false,
      notInstalled: false,
      why: `meshdx does not know where ${kind} is served`,
    };
  let last: unknown = null;
  for (const version of res.versions) {
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
      const apiVersion = res.group === '' ? version : `${res.group}/${version}`;
      // a metadata-only list's items say PartialObjectMetadata: they are objects of this kind
      return { kind, ok: true, items: l.items.map((o) => ({ ...o, apiVersion, kind })) };
    } catch (e) {
      last = e;
      if (!(isKubeError(e) && e.status === 404)) break;
    }
  }
  const notFound = isKubeError(last) && last.status === 404;
  const where = `${res.plural}${res.group ? `.${res.group}` : ''}`;
  if (notFound && res.crd)
    return { kind, ok: false, notInstalled: true, why: `${where}: not installed` };
  const why = last instanceof Error ? last.message : String(last);
  return { kind, ok: false, notInstalled: false, why: `${where}: ${why}` };
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
  const lists = await Promise.all(
    kinds.map((k) => {
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
      return listKind(t, k, ns, timeoutMs);
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
