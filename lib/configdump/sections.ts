import type { SectionKind } from './types';

/**
 * Section kinds by the last name of their `@type`, e.g.
 * `type.googleapis.com/envoy.admin.v3.ClustersConfigDump` or `...v2alpha.ClustersConfigDump`.
 */
const SECTION_BY_NAME: Record<string, SectionKind> = {
  BootstrapConfigDump: 'bootstrap',
  ClustersConfigDump: 'clusters',
  ListenersConfigDump: 'listeners',
  RoutesConfigDump: 'routes',
  ScopedRoutesConfigDump: 'scopedRoutes',
  SecretsConfigDump: 'secrets',
  EndpointsConfigDump: 'endpoints',
  EcdsConfigDump: 'ecds',
};

/** Keys of the very old v2alpha layout (`configs` as a map keyed by a short name). */
const SECTION_BY_MAP_KEY: Record<string, SectionKind> = {
  bootstrap: 'bootstrap',
  clusters: 'clusters',
  listeners: 'listeners',
  routes: 'routes',
  scoped_routes: 'scopedRoutes',
  scopedRoutes: 'scopedRoutes',
  secrets: 'secrets',
  endpoints: 'endpoints',
};

export interface TypeMatch {
  kind: SectionKind;
  /** For a single resource (`?resource=`): DynamicCluster, StaticCluster, ...; else null. */
  element: string | null;
}

/**
 * Classifies an `@type`. Whole sections end in `.XxxConfigDump`; single resources from
 * `?resource=` end in `.XxxConfigDump.Element` (a nested message). Returns null when the
 * type is not an Envoy admin config dump type at all.
 */
export function classifyType(type: string): TypeMatch | null {
  const path = type.slice(type.lastIndexOf('/') + 1);
  const parts = path.split('.');
  const last = parts[parts.length - 1] ?? '';
  const section = SECTION_BY_NAME[last];
  if (section) return { kind: section, element: null };
  const parent = parts[parts.length - 2] ?? '';
  const parentKind = SECTION_BY_NAME[parent];
  if (parentKind && last) return { kind: parentKind, element: last };
  if (/ConfigDump$/.test(last) && parts.includes('admin')) return { kind: 'other', element: null };
  return null;
}

export function sectionKindForMapKey(key: string): SectionKind | null {
  return SECTION_BY_MAP_KEY[key] ?? null;
}
