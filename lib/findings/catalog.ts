import type { FindingCatalogEntry, FindingDomain } from './types';

/** A catalog entry as a domain writes it: the domain is stamped by defineCatalog. */
export type CatalogDef = Omit<FindingCatalogEntry, 'domain'>;

/**
 * One catalog shape for every domain: entries keyed by the domain's own name for the verdict
 * (`race`, `portNameConvention`...), the code of each key, and the list for reports.
 */
export interface Catalog<K extends string> {
  domain: FindingDomain;
  byKey: Readonly<Record<K, FindingCatalogEntry>>;
  code: Readonly<Record<K, string>>;
  entries: readonly FindingCatalogEntry[];
}

export function defineCatalog<K extends string>(
  domain: FindingDomain,
  defs: Readonly<Record<K, CatalogDef>>,
): Catalog<K> {
  const byKey = {} as Record<K, FindingCatalogEntry>;
  const code = {} as Record<K, string>;
  for (const key of Object.keys(defs) as K[]) {
    byKey[key] = { ...defs[key], domain };
    code[key] = defs[key].code;
  }
  const entries = Object.values<FindingCatalogEntry>(byKey).sort((a, b) =>
    a.code.localeCompare(b.code),
  );
  return { domain, byKey, code, entries };
}

/** Entries of several catalogs as one list; a code defined twice is a programming error. */
export function mergeCatalogs(
  ...lists: readonly (readonly FindingCatalogEntry[])[]
): FindingCatalogEntry[] {
  const out = new Map<string, FindingCatalogEntry>();
  for (const list of lists) {
    for (const e of list) {
      const prev = out.get(e.code);
      if (prev !== undefined && prev !== e) {
        throw new Error(`finding code ${e.code} is defined by ${prev.domain} and ${e.domain}`);
      }
      out.set(e.code, e);
    }
  }
  return [...out.values()].sort((a, b) => a.code.localeCompare(b.code));
}

/**
 * A rule's catalog with entries it shares with other checks (the one IST0101 entry every
 * analyzer reporting a missing reference uses): the same entry objects, so that the merged
 * catalog holds each code once.
 */
export function withSharedEntries<K extends string, S extends string>(
  own: Catalog<K>,
  shared: Readonly<Record<S, FindingCatalogEntry>>,
): Catalog<K | S> {
  const byKey = { ...own.byKey, ...shared } as Record<K | S, FindingCatalogEntry>;
  const code = { ...own.code } as Record<K | S, string>;
  for (const key of Object.keys(shared) as S[]) code[key] = shared[key].code;
  const entries = [...own.entries, ...Object.values<FindingCatalogEntry>(shared)].sort((a, b) =>
    a.code.localeCompare(b.code),
  );
  return { domain: own.domain, byKey, code, entries };
}
