'use client';

import type { GeneratedSidecar } from './api';
import { num, pct } from './format';
import { SidecarProposal } from './SidecarProposal';
import { YamlActions } from './YamlActions';
import { objectKey } from '../../lib/refs/object-ref';

/** Every proposed Sidecar of a namespace as one YAML stream (what `kubectl apply -f` takes). */
export function namespaceYaml(proposals: readonly GeneratedSidecar[]): string {
  return proposals
    .filter((g) => g.action !== 'unchanged')
    .map((g) => g.yaml.trim())
    .join('\n---\n')
    .concat('\n');
}

/**
 * The proposals of one namespace: one combined YAML to copy or download, and one folded line per
 * Sidecar (namespace default first, then per workload), each opening to its own YAML.
 */
export function NamespaceProposals({
  namespace,
  proposals,
}: {
  namespace: string;
  proposals: readonly GeneratedSidecar[];
}) {
  if (proposals.length === 0)
    return <p className="text-sm text-slate-600">No change proposed for {namespace}.</p>;
  const ordered = [...proposals].sort(
    (a, b) =>
      Number(b.level === 'namespace') - Number(a.level === 'namespace') ||
      a.name.localeCompare(b.name),
  );
  const before = proposals.reduce((n, g) => n + g.clustersBefore, 0);
  const after = proposals.reduce((n, g) => n + g.clustersAfter, 0);
  const yaml = namespaceYaml(proposals);
  const changes = proposals.filter((g) => g.action !== 'unchanged').length;
  return (
    <div className="space-y-3" data-testid="namespace-proposals">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          {proposals.length} Sidecar resource{proposals.length === 1 ? '' : 's'} ({changes} to
          apply): {num(before)} clusters today, {num(after)} after,{' '}
          <strong className="text-emerald-700">
            {num(before - after)} fewer ({pct(before - after, before)})
          </strong>
          .
        </p>
        {changes > 0 && (
          <YamlActions
            yaml={yaml}
            filename={`meshdx-sidecars-${namespace}.yaml`}
            testId="namespace-yaml"
          />
        )}
      </div>
      <div className="space-y-2">
        {ordered.map((g) => (
          <SidecarProposal key={objectKey(g.namespace, g.name)} g={g} />
        ))}
      </div>
    </div>
  );
}
