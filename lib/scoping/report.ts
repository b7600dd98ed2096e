/**
 * The Scoping view model: per namespace and per workload cluster figures (today, minimum,
 * predicted), observed destinations by source, proposed Sidecars as YAML with their effect, the
 * mesh-wide reduction in pushed clusters, and findings. Visibility is computed once per
 * (namespace, Sidecar) scope, never per pod.
 */
import { sumMeasured } from '../api/measured';
import type { GeneratedSidecar, ScopingReport, WorkloadRow } from '../api/scoping';
import type { Finding } from '../findings/types';
import { istiodVersionsOf } from '../findings/istiod';
import type { Pod } from '../kube/types';
import {
  egressHostFindings,
  namespaceDefaultFindings,
  sidecarSelectionFindings,
  windowFindings,
  windowSeconds,
  workloadFindings,
} from './checks';
import { SCOPING_CATALOG } from './codes';
import { exclusionSupport } from './exclusions';
import { cutOffHosts, workloadFacts } from './facts';
import { sidecarYaml } from './generate';
import { indexTraffic } from './observations';
import { planSidecars, type PlannedSidecar } from './plan';
import { proxyFigures, type ProxyFigures } from './predict';
import { isGatewayPod } from './proxy';
import { namespaceRows, sortedHostsOnce, workloadRow } from './rows';
import { buildMeshModel, createScopeResolver } from './scopes';
import type { ProxyClusterCount, ScopingInput } from './types';
import { sidecarWorkloads } from './workloads';
import { podKey } from '../refs/pod-ref';
import { objectKey } from '../refs/object-ref';

const nsOf = (p: Pod) => p.metadata.namespace ?? 'default';

export function buildScopingReport(input: ScopingInput): ScopingReport {
  const root = input.rootNamespace ?? 'istio-system';
  const istioNs = input.istioNamespace ?? 'istio-system';
  const minWindow = input.minWindowSeconds ?? 3600;
  const model = buildMeshModel(
    input.services,
    input.serviceEntries,
    input.destinationRules,
    root,
    input.virtualServices ?? [],
  );
  const workloads = sidecarWorkloads(input.pods);
  const traffic = indexTraffic(input.observations, workloads);
  const before = createScopeResolver(model, input.sidecars);
  const facts = workloadFacts(workloads, traffic, model, before);
  const podsByNamespace = new Map<string, Pod[]>();
  for (const p of input.pods)
    podsByNamespace.set(nsOf(p), [...(podsByNamespace.get(nsOf(p)) ?? []), p]);
  const support = exclusionSupport(
    istiodVersionsOf(input.pods, [], `no istiod image among the ${input.pods.length} pods read`),
  );
  const plan = planSidecars({
    model,
    before,
    facts,
    podsByNamespace,
    sidecars: input.sidecars,
    istioNamespace: istioNs,
    exclusions: support,
  });
  const after = createScopeResolver(model, plan.afterSidecars);

  const counts = new Map<string, ProxyClusterCount>();
  for (const c of input.proxyCounts) counts.set(podKey(c.namespace, c.pod), c);
  const scopable = new Set(
    workloads.flatMap((w) => w.pods.map((p) => podKey(w.namespace, p.metadata.name))),
  );
  const countsUnmatched = [...counts.keys()].filter((k) => !scopable.has(k)).length;

  const governing = new Map<string, PlannedSidecar>();
  for (const p of plan.proposals) if (p.apply) for (const k of p.workloads) governing.set(k, p);
  const nsProposal = new Map(
    plan.proposals.filter((p) => p.level === 'namespace').map((p) => [p.namespace, p]),
  );

  const figuresByWorkload = new Map<string, ProxyFigures[]>();
  const sortedHosts = sortedHostsOnce();
  const rows: WorkloadRow[] = facts.map((f) => {
    const ns = f.workload.namespace;
    const unscoped = before.scopeWith(ns, { source: 'none', conflicts: [] });
    const proxies = f.workload.pods.map((p) =>
      proxyFigures(
        p,
        f,
        { before: before.scopeOf(p), after: after.scopeOf(p), unscoped },
        counts.get(podKey(ns, p.metadata.name)),
        model,
      ),
    );
    figuresByWorkload.set(f.workload.key, proxies);
    const first = f.workload.pods[0];
    const afterCut = first ? cutOffHosts(f, after.scopeOf(first)) : [];
    const gov = governing.get(f.workload.key) ?? nsProposal.get(ns);
    if (afterCut.length > 0 && gov) {
      gov.warnings.push({
        code: 'MDX0306',
        message: `${f.workload.key} would lose: ${afterCut.join(', ')}`,
      });
    }
    return workloadRow(
      f,
      proxies,
      cutOffHosts(f, f.scope),
      governing.get(f.workload.key)?.name ?? null,
      input.maxUnusedListed ?? 50,
      sortedHosts,
    );
  });

  const generated: GeneratedSidecar[] = plan.proposals.map((p) => {
    const figs = p.workloads.flatMap((k) => figuresByWorkload.get(k) ?? []);
    return {
      namespace: p.namespace,
      name: p.name,
      level: p.level,
      action: p.action,
      apply: p.apply,
      workloads: p.workloads,
      selector: p.selector,
      hosts: p.hosts,
      replaces: p.replaces ? p.replaces.metadata.name : null,
      yaml: deleteComments(p) + sidecarYaml(p.sidecar),
      proxies: figs.length,
      clustersBefore: figs.reduce((n, x) => n + x.current, 0),
      clustersAfter: figs.reduce((n, x) => n + (p.apply ? x.predicted : x.current), 0),
      exclusions: p.exclusions
        ? {
            hosts: p.exclusions.hosts,
            proposed: p.exclusions.proposed,
            // per governed proxy, from the same candidate scope the prediction uses
            clustersSaved: p.exclusions.perProxy * figs.length,
            notProposed: p.exclusions.notProposed,
          }
        : null,
      warnings: p.warnings,
    };
  });
  const yamlOf = new Map(generated.map((g) => [objectKey(g.namespace, g.name), g.yaml]));
  const fixFor = (p: PlannedSidecar | undefined) =>
    p?.apply ? yamlOf.get(objectKey(p.namespace, p.name)) : undefined;

  const findings: Finding[] = [
    ...windowFindings(input.window, minWindow),
    ...sidecarSelectionFindings(input.sidecars, input.pods, root),
    ...egressHostFindings(input.sidecars, model),
    ...namespaceDefaultFindings(
      facts,
      input.sidecars,
      model,
      (ns) => {
        const p = nsProposal.get(ns);
        const yaml = fixFor(p);
        return p && yaml ? { yaml, hosts: p.hosts } : undefined;
      },
      istioNs,
    ),
    ...workloadFindings(facts, (f) => fixFor(governing.get(f.workload.key))),
  ];

  const allFigures = [...figuresByWorkload.values()].flat();
  const clustersBefore = allFigures.reduce((n, x) => n + x.current, 0);
  const clustersAfter = allFigures.reduce((n, x) => n + x.predicted, 0);
  const namespaces = namespaceRows(rows, input.sidecars, root);
  const seconds = windowSeconds(input.window);
  return {
    generatedAt: input.generatedAt,
    rootNamespace: root,
    istioNamespace: istioNs,
    window:
      input.window && seconds !== null
        ? {
            start: input.window.start,
            end: input.window.end,
            seconds,
            trusted: seconds >= minWindow,
          }
        : null,
    totals: {
      namespaces: namespaces.length,
      workloads: rows.length,
      proxies: allFigures.length,
      proxiesMeasured: allFigures.filter((x) => x.measured).length,
      services: model.registry.length,
      clustersBefore,
      clustersAfter,
      reduction: clustersBefore - clustersAfter,
      waste: sumMeasured(namespaces.map((r) => r.waste)).value,
      wasteUnknown: namespaces.filter((r) => r.waste === null).length,
      gatewaysSkipped: input.pods.filter(isGatewayPod).length,
      countsUnmatched,
      observationsUnattributed: traffic.unattributed,
      hitsIgnored: traffic.ignoredHits,
    },
    namespaces,
    workloads: rows,
    generated,
    exclusions: {
      support: support.state,
      detail: support.state === 'supported' ? `istiod ${support.istiod}` : support.why,
      proposals: generated.filter((g) => g.exclusions !== null).length,
      clustersSaved: generated.reduce((n, g) => n + (g.exclusions?.clustersSaved ?? 0), 0),
    },
    generatedYaml: generated
      .filter((g) => g.apply)
      .map((g) => g.yaml)
      .join('---\n'),
    findings,
    catalog: SCOPING_CATALOG,
  };
}

/** YAML comment lines naming the Sidecars to delete with a proposal (kept with the copied YAML). */
function deleteComments(p: PlannedSidecar): string {
  if (!p.apply || p.deletes.length === 0) return '';
  return p.deletes
    .map(
      (s) =>
        `# delete as well (IST0111): kubectl -n ${p.namespace} delete sidecar ${s.metadata.name}\n`,
    )
    .join('');
}
