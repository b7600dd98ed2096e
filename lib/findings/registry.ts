/** Every finding code meshdx can emit, from every domain's catalog, each code once. */
import { AMBIENT } from '../ambient/codes';
import { INCIDENTS } from '../incidents/codes';
import { PROTOCOL } from '../protocol/codes';
import { SCOPING } from '../scoping/codes';
import { TIMELINE } from '../timeline/codes';
import { mergeCatalogs } from './catalog';
import { CONFIG, PLATFORM } from './codes';
import { RULE_CATALOG } from './rules';
import type { FindingCatalogEntry } from './types';

export const ALL_CATALOG: readonly FindingCatalogEntry[] = mergeCatalogs(
  PLATFORM.entries,
  CONFIG.entries,
  PROTOCOL.entries,
  SCOPING.entries,
  TIMELINE.entries,
  INCIDENTS.entries,
  AMBIENT.entries,
  RULE_CATALOG,
);

const BY_CODE: ReadonlyMap<string, FindingCatalogEntry> = new Map(
  ALL_CATALOG.map((e) => [e.code, e]),
);

export function catalogEntry(code: string): FindingCatalogEntry | undefined {
  return BY_CODE.get(code);
}

/** The catalog entries of the codes in `findings`, for a report. */
export function catalogFor(findings: readonly { code: string }[]): FindingCatalogEntry[] {
  const codes = new Set(findings.map((f) => f.code));
  return ALL_CATALOG.filter((e) => codes.has(e.code));
}
