/**
 * What the Findings view shows of a report for its URL state (namespace, code, severity): one
 * reading for the page and every other door (the MCP server), so that both say the same.
 */
import type { FindingGroup, FindingsReport } from '../api/findings';
import type { ViewState } from '../api/viewstate';
import { narrowGroups } from './group';
import { findingNamespace } from './links';
import type { FindingSubject } from './types';

type Finding = FindingsReport['findings'][number];

export interface FindingsShown {
  /** The findings of the namespace (every code and severity): what the per-code counts count. */
  inNamespace: Finding[];
  /** Those of the code and severity too: the table's rows (unsorted). */
  rows: Finding[];
  /** The groups, narrowed to the namespace, of the code and severity. */
  groups: FindingGroup[];
  /** Istiod-version notes: findings of codes not for this cluster's istiod, in the namespace. */
  notApplicable: Finding[];
  /** Every namespace some finding is in (the filter's options). */
  namespaces: string[];
}

/** A finding is in a namespace by its subject's namespace, or the Namespace it is about. */
export function findingInNamespace(
  f: { subject: FindingSubject },
  namespace: string | undefined,
): boolean {
  return !namespace || findingNamespace(f.subject) === namespace;
}

export function findingsShown(
  report: Pick<FindingsReport, 'findings' | 'groups' | 'istiod'>,
  state: ViewState<'findings'>,
): FindingsShown {
  const inScope = (f: { subject: FindingSubject }) => findingInNamespace(f, state.namespace);
  const inNamespace = report.findings.filter(inScope);
  const rows = inNamespace.filter(
    (f) =>
      (!state.code || f.code === state.code) && (!state.severity || f.severity === state.severity),
  );
  const groups = narrowGroups(
    (report.groups ?? []).filter((g) => !state.code || g.code === state.code),
    inScope,
  ).filter((g) => !state.severity || g.severity === state.severity);
  const namespaces = [
    ...new Set(report.findings.flatMap((f) => findingNamespace(f.subject) ?? [])),
  ].sort();
  return {
    inNamespace,
    rows,
    groups,
    notApplicable: (report.istiod?.notApplicable ?? []).filter(inScope),
    namespaces,
  };
}
