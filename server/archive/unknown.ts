/**
 * What an archive cannot answer, and why: the resources whose lists it does not hold whole (a
 * part istioctl was told to skip, Gateway API where no CRD says whether it is installed), and
 * the summary `GET /meshdx/archive` gives of it.
 */
import type { ArchiveInfo } from '../../lib/api/cluster';
import type { ArchiveIndex } from '../../lib/archive/read';
import { GATEWAY_API_GROUP as GATEWAY_API } from '../kube/resources';

/** Which resources the archive cannot list whole, and why (a list of them would be a wrong figure). */
export function archiveListUnknown(
  index: ArchiveIndex,
  group: string,
  plural: string,
): string | null {
  const m = (part: string): string | null => {
    const reason = index.missing.find((x) => x.part === part)?.reason;
    return reason ? `${part} ${reason}` : null;
  };
  if (group.endsWith('istio.io')) return m('cluster/crs');
  if (
    group === GATEWAY_API &&
    !index.objects.some(
      (o) =>
        o.kind === 'CustomResourceDefinition' || (o.apiVersion ?? '').startsWith(`${GATEWAY_API}/`),
    )
  )
    return (
      m('cluster/crs') ??
      'the archive lists no CustomResourceDefinition and no object of the group: whether Gateway API is installed is unknown'
    );
  if (plural === 'events') return m('cluster/events');
  if (
    [
      'nodes',
      'namespaces',
      'customresourcedefinitions',
      'mutatingwebhookconfigurations',
      'validatingwebhookconfigurations',
    ].includes(plural) &&
    index.layout.cluster['k8s-cluster-resources']
  )
    return null;
  if (plural === 'nodes' && index.layout.cluster.nodes) return null;
  return m('cluster/k8s-resources');
}

/** What `GET /meshdx/archive` answers: the archive behind this API server. */
export function archiveSummary(index: ArchiveIndex): ArchiveInfo {
  return {
    name: index.name,
    format: index.format,
    capturedAt: index.capture.time?.toISOString() ?? null,
    capturedHow: index.capture.how,
    entries: index.entries.length,
    proxies: index.proxies.length,
    istiods: index.istiods.length,
    missing: index.missing,
    problems: [
      ...index.problems,
      ...index.parseProblems.map((p) => ({
        entry: p.entry,
        reason: p.reason,
        message: `line ${p.line}: ${p.message}`,
      })),
    ],
  };
}
