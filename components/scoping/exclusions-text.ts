/**
 * What the Scoping view says of `~` exclusions (Istio 1.31+): per proposal, the hosts it
 * excludes and the clusters that saves, or why they are not in its YAML and what they would
 * save; for the whole report, one line. Pure, so the screen and its tests read the same words.
 */
import type { GeneratedSidecar, ScopingReport } from './api';
import { num } from './format';
import { firstAndMore } from '../../lib/text-list';

const LISTED = 8;

const hostsWord = (n: number) => `${num(n)} host${n === 1 ? '' : 's'}`;

/** One proposal's exclusions, or null when it has none that pays. */
export function proposalExclusionText(g: GeneratedSidecar): string | null {
  const e = g.exclusions;
  if (!e) return null;
  const which = `${hostsWord(e.hosts.length)} of imported namespaces no workload it governs was seen calling`;
  if (e.proposed)
    return `Excludes ${which} (~NAMESPACE/HOST, Istio 1.31+): ${num(e.clustersSaved)} of the fewer clusters come from them.`;
  return `Exclusions not in this YAML: ${e.notProposed ?? 'istiod does not read them'}. On istiod 1.31+, excluding ${which} (${firstAndMore(e.hosts, LISTED)}) would save ${num(e.clustersSaved)} more clusters.`;
}

/** The short badge on a folded proposal line. */
export function proposalExclusionBadge(g: GeneratedSidecar): string | null {
  const e = g.exclusions;
  if (!e) return null;
  return e.proposed
    ? `excludes ${hostsWord(e.hosts.length)}`
    : `${num(e.clustersSaved)} more with 1.31 exclusions`;
}

/** The report's line, or null when no exclusion would save a cluster. */
export function reportExclusionText(r: Pick<ScopingReport, 'exclusions'>): string | null {
  const e = r.exclusions;
  if (e.proposals === 0) return null;
  const where = `${num(e.proposals)} proposal${e.proposals === 1 ? '' : 's'}`;
  if (e.support === 'supported')
    return `${e.detail} reads ~NAMESPACE/HOST egress-host exclusions: ${where} exclude hosts nobody they govern calls, ${num(e.clustersSaved)} fewer clusters (counted in the figures above).`;
  return `Egress-host exclusions (~NAMESPACE/HOST, Istio 1.31+) not proposed: ${e.detail}. On istiod 1.31+ they would save ${num(e.clustersSaved)} more clusters in ${where}.`;
}
