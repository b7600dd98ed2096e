'use client';

import { useQuery } from '@tanstack/react-query';
import { QueryBoundary } from '../data/QueryBoundary';
import { useViewState } from '../data/useViewState';
import { Card, Stat } from '../ui/Card';
import { FilterBar, SelectFilter } from '../ui/Filters';
import { BloatPanel } from './BloatChart';
import { FindingsList } from './FindingsList';
import { GatherPanel } from './GatherPanel';
import { NamespaceRanking } from './NamespaceRanking';
import { num, pct } from './format';
import { scopingQuery } from './api';
import { NamespaceProposals } from './NamespaceProposals';
import { WorkloadTable } from './WorkloadTable';
import { YamlActions } from './YamlActions';
import { useClusterContext } from '../data/useClusterContext';
import { firstAndMore } from '../../lib/text-list';
import { reportExclusionText } from './exclusions-text';

/** Unscoped namespaces named in the sentence above the ranking (the ranking lists them all). */
const UNSCOPED_NAMED = 12;

/**
 * Which namespaces carry the whole mesh, what each workload really calls, and the Sidecar
 * resources that would cut the pushed config, with their predicted effect.
 */
export function ScopingView() {
  const [state, update] = useViewState('scoping');
  const ctx = useClusterContext();
  const query = useQuery(scopingQuery(ctx));
  return (
    <QueryBoundary query={query} what="the scoping report">
      {(view) => {
        const { report } = view;
        const unscoped = report.namespaces.filter((n) => n.defaultSidecar.source === 'none');
        // a Sidecar resource in the namespace itself (its default, or one per workload)
        const withResource = report.namespaces.filter(
          (n) => n.defaultSidecar.source === 'namespace' || n.workloadSidecars.length > 0,
        );
        const first = report.namespaces.find((n) =>
          report.generated.some((g) => g.namespace === n.name && g.apply),
        );
        const ns = state.namespace ?? first?.name;
        const proposals = report.generated.filter((g) => g.namespace === ns);
        const workloads = report.workloads.filter(
          (w) => w.namespace === ns && (!state.workload || w.name === state.workload),
        );
        const t = report.totals;
        const exclusions = reportExclusionText(report);
        return (
          <div className="space-y-4">
            <div className="grid grid-cols-2 gap-3 md:grid-cols-5">
              <Stat
                label="Namespaces with sidecar proxies"
                value={t.namespaces}
                testId="stat-meshed-ns"
              />
              <Stat
                label="Namespaces with their own Sidecar resource"
                value={withResource.length}
                testId="stat-sidecar-resource-ns"
              />
              <Stat
                label="Namespaces no Sidecar resource scopes"
                value={unscoped.length}
                tone={unscoped.length ? 'warn' : 'good'}
                testId="stat-unscoped-ns"
              />
              <Stat
                label="Clusters pushed to sidecar proxies today"
                value={num(t.clustersBefore)}
                testId="stat-clusters-before"
              />
              <Stat
                label="Clusters the proposed Sidecar resources remove"
                value={`${num(t.reduction)} (${pct(t.reduction, t.clustersBefore)})`}
                tone={t.reduction > 0 ? 'good' : 'neutral'}
                testId="stat-reduction"
              />
            </div>
            {unscoped.length > 0 && (
              <p className="text-sm text-slate-700" data-testid="unscoped-names">
                No Sidecar scopes these namespaces, so their proxies carry every service of the
                mesh:{' '}
                {firstAndMore(
                  unscoped.map((n) => n.name),
                  UNSCOPED_NAMED,
                )}
                .
              </p>
            )}
            {exclusions && (
              <p className="text-sm text-slate-700" data-testid="exclusions-status">
                {exclusions}
              </p>
            )}
            <Card
              title="Namespaces ranked by waste (clusters today − minimum needed)"
              testId="scoping-card"
              actions={
                report.generatedYaml ? (
                  <YamlActions
                    yaml={report.generatedYaml}
                    filename="meshdx-sidecars.yaml"
                    testId="all-sidecars"
                  />
                ) : undefined
              }
            >
              <NamespaceRanking
                rows={report.namespaces}
                selected={ns}
                onSelect={(n) => update({ namespace: n, workload: undefined })}
              />
            </Card>
            <FilterBar>
              <SelectFilter
                label="Namespace"
                value={ns}
                options={report.namespaces.map((n) => ({ value: n.name, label: n.name }))}
                onChange={(v) => update({ namespace: v, workload: undefined })}
                testId="filter-namespace"
              />
              <SelectFilter
                label="Workload"
                value={state.workload}
                options={report.workloads
                  .filter((w) => w.namespace === ns)
                  .map((w) => ({ value: w.name, label: w.name }))}
                onChange={(v) => update({ workload: v })}
                testId="filter-workload"
              />
            </FilterBar>
            {ns && (
              <Card title={`Proposed Sidecar for ${ns}`} testId="scoping-proposal">
                <NamespaceProposals namespace={ns} proposals={proposals} />
              </Card>
            )}
            {ns && (
              <Card title={`Clusters per proxy over the last hour in ${ns}`} testId="scoping-bloat">
                <BloatPanel namespace={ns} workload={state.workload ?? null} />
              </Card>
            )}
            {ns && (
              <Card title={`Workloads in ${ns}: what they call`}>
                <WorkloadTable
                  rows={workloads}
                  selected={state.workload}
                  // the picked workload again: every workload of the namespace again
                  onSelect={(w) => update({ workload: state.workload === w ? undefined : w })}
                />
              </Card>
            )}
            <Card title="How this was measured">
              <GatherPanel view={view} />
            </Card>
            <Card title="Findings">
              <FindingsList findings={report.findings} catalog={report.catalog} />
            </Card>
          </div>
        );
      }}
    </QueryBoundary>
  );
}
