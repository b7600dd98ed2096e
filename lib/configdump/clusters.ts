import { clusterType, destinationRule } from './cluster-fields';
import { clusterColumns } from '../refs/cluster-name';
import { arrayField, isObject, keyOf, objectField, stringField } from './fields';
import { resourcesOf, sectionsOf } from './parse';
import type { ClusterRow, EnvoyClusterOrigin, ConfigDump, DumpProblem } from './types';

export interface ClusterExtraction {
  /** Active clusters (static + dynamic active), sorted like istioctl. */
  rows: ClusterRow[];
  /** Dynamic warming clusters: not in istioctl's table, counted here. */
  warming: number;
  errors: DumpProblem[];
  /** False when the dump has no ClustersConfigDump section nor single cluster resources. */
  hasClustersSection: boolean;
}

/** Builds one row from an envoy.config.cluster.v3.Cluster. */
export function clusterRow(cluster: unknown, source: EnvoyClusterOrigin): ClusterRow | null {
  const name = stringField(cluster, 'name');
  if (name === null) return null;
  const parsed = clusterColumns(name);
  const common = {
    name,
    type: clusterType(cluster),
    destinationRule: destinationRule(cluster),
    source,
  };
  if (!parsed.istio) return { ...common, fqdn: name, port: '-', subset: '-', direction: '-' };
  return {
    ...common,
    fqdn: parsed.fqdn,
    port: parsed.port,
    subset: parsed.subset === '' ? '-' : parsed.subset,
    direction: parsed.direction,
  };
}

function sortKey(row: ClusterRow): [string, string, number, string] {
  const p = clusterColumns(row.name);
  return p.istio ? [p.fqdn, p.subset, p.port, p.direction] : [row.name, '', 0, ''];
}

function cmp(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** istioctl's order: FQDN, then subset, then port, then direction (plain byte order). */
export function compareClusterRows(a: ClusterRow, b: ClusterRow): number {
  const ka = sortKey(a);
  const kb = sortKey(b);
  for (let i = 0; i < ka.length; i++) {
    const c = cmp(ka[i] as string | number, kb[i] as string | number);
    if (c !== 0) return c;
  }
  return cmp(a.name, b.name) || cmp(a.source, b.source);
}

function addEntries(
  list: unknown[] | null,
  path: string,
  source: EnvoyClusterOrigin,
  out: ClusterExtraction,
): void {
  if (list === null) {
    out.errors.push({ line: 0, reason: 'bad-entry', message: `${path} is not a list`, path });
    return;
  }
  list.forEach((entry, i) => addEntry(entry, `${path}[${i}]`, source, out));
}

/**
 * Entries are `{cluster: Cluster, ...}` (StaticCluster / DynamicCluster). Envoy 1.7's v2alpha
 * dump (Istio 1.0) listed static clusters bare, a Cluster itself with its `name` on top: read
 * both, so that every generation is counted.
 */
function addEntry(
  entry: unknown,
  path: string,
  source: EnvoyClusterOrigin,
  out: ClusterExtraction,
) {
  const wrapped = objectField(entry, 'cluster');
  const bare = !wrapped && isObject(entry) && typeof entry.name === 'string' ? entry : null;
  const cluster = wrapped ?? bare;
  const row = cluster ? clusterRow(cluster, source) : null;
  if (row) out.rows.push(row);
  else {
    const why = cluster ? 'has a cluster without a name' : 'has no cluster';
    out.errors.push({ line: 0, reason: 'bad-entry', message: `${path} ${why}`, path });
  }
}

/**
 * The clusters `istioctl proxy-config cluster` lists: dynamic active and static clusters
 * (warming ones are left out and counted), from whole sections or `?resource=` entries.
 */
export function extractClusters(dump: ConfigDump): ClusterExtraction {
  const out: ClusterExtraction = { rows: [], warming: 0, errors: [], hasClustersSection: false };
  for (const s of sectionsOf(dump, 'clusters')) {
    out.hasClustersSection = true;
    const staticPath = `${s.path}.${keyOf(s.body, 'static_clusters')}`;
    addEntries(arrayField(s.body, 'static_clusters'), staticPath, 'static', out);
    const dynPath = `${s.path}.${keyOf(s.body, 'dynamic_active_clusters')}`;
    addEntries(arrayField(s.body, 'dynamic_active_clusters'), dynPath, 'dynamic', out);
    const warming = arrayField(s.body, 'dynamic_warming_clusters');
    out.warming += warming ? warming.length : 0;
  }
  for (const r of resourcesOf(dump, 'clusters')) {
    out.hasClustersSection = true;
    if (r.element === 'StaticCluster') addEntry(r.body, r.path, 'static', out);
    else if (r.element === 'DynamicCluster') addEntry(r.body, r.path, 'dynamic', out);
    else {
      const message = `${r.path}: unknown cluster resource type ${r.element}`;
      out.errors.push({ line: 0, reason: 'unknown-section', message, path: r.path });
    }
  }
  if (!out.hasClustersSection) {
    const found = [
      ...new Set(dump.sections.map((s) => s.kind).concat(dump.resources.map((r) => r.kind))),
    ];
    out.errors.push({
      line: 0,
      reason: 'no-clusters-section',
      message: `config dump has no ClustersConfigDump section (found: ${found.length ? found.join(', ') : 'nothing'})`,
    });
  }
  out.rows.sort(compareClusterRows);
  return out;
}
