/**
 * Envoy config dump as meshdx reads it: only the sections and fields it looks at. Raw
 * section payloads stay `unknown` and are read through the key helpers in fields.ts, which
 * accept both snake_case (Envoy's own /config_dump) and camelCase (protojson) keys.
 */
import type { ParseProblem } from '../parse-problem';

/** Why a dump, or an entry of it, could not be read. */
export type DumpProblemReason =
  | 'syntax'
  | 'not-config-dump'
  | 'no-clusters-section'
  | 'bad-entry'
  | 'unknown-section'
  | 'empty'
  | 'too-deep';

/** One problem found while reading a dump; line 0 while its position is not known. */
export interface DumpProblem extends ParseProblem {
  reason: DumpProblemReason;
  /** Where in the dump, e.g. `configs[3]` or `configs[1].dynamic_active_clusters[7]`. */
  path?: string;
}

/** The config dump kinds meshdx recognises by `@type` suffix. */
export type SectionKind =
  | 'bootstrap'
  | 'clusters'
  | 'listeners'
  | 'routes'
  | 'scopedRoutes'
  | 'secrets'
  | 'endpoints'
  | 'ecds'
  | 'other';

export interface DumpSection {
  kind: SectionKind;
  /** Full `@type` as found (empty for v2alpha map entries without one). */
  type: string;
  /** Path of the entry inside the document, for error messages. */
  path: string;
  body: Record<string, unknown>;
}

/**
 * A single resource from `/config_dump?resource=...`: each element of `configs` is one
 * `ClustersConfigDump.DynamicCluster`, `ClustersConfigDump.StaticCluster`,
 * `ListenersConfigDump.DynamicListener`, ... rather than a whole section.
 */
export interface DumpResource {
  /** Section kind the resource belongs to. */
  kind: SectionKind;
  /** The element type after the section name: DynamicCluster, StaticCluster, ... */
  element: string;
  path: string;
  body: Record<string, unknown>;
}

export type DumpLayout = 'configs-list' | 'configs-map' | 'resource-list';

export interface ConfigDump {
  layout: DumpLayout;
  /** 'json' or 'yaml': how the text was read. */
  syntax: 'json' | 'yaml';
  sections: DumpSection[];
  resources: DumpResource[];
}

export interface ParseResult {
  dump: ConfigDump | null;
  errors: DumpProblem[];
}

/** Where a cluster was in the dump; 'unlisted' where the input does not say (istioctl's `-o json` list). */
export type EnvoyClusterOrigin = 'static' | 'dynamic' | 'unlisted';

/** One row of `istioctl proxy-config cluster`, structured (never a string to parse back). */
export interface ClusterRow {
  name: string;
  /** SERVICE FQDN column: host part of an Istio name, or the whole name otherwise. */
  fqdn: string;
  /** PORT column: the port number for Istio names, "-" otherwise (as istioctl prints). */
  port: number | '-';
  /** SUBSET column: subset name, "-" when empty or not an Istio name. */
  subset: string;
  /** DIRECTION column: inbound, outbound, inbound-vip, ... or "-" for non-Istio names. */
  direction: string;
  /** TYPE column: EDS, STATIC, STRICT_DNS, LOGICAL_DNS, ORIGINAL_DST, or a cluster_type name. */
  type: string;
  /** DESTINATION RULE column: NAME.NAMESPACE, "<unknown>" for unreadable paths, "" when none. */
  destinationRule: string;
  source: EnvoyClusterOrigin;
}

export interface ClusterSummary {
  total: number;
  static: number;
  dynamic: number;
  byType: Record<string, number>;
  byDirection: { inbound: number; outbound: number; other: number };
  /** Clusters named `inbound|...` / `outbound|...` (Istio service clusters). */
  service: number;
  /** Everything else: bootstrap, control plane, passthrough/blackhole clusters. */
  nonService: number;
}

export interface ProxyIdentity {
  /** node.id, e.g. `sidecar~10.0.0.1~pod.ns~ns.svc.cluster.local`. */
  id: string | null;
  /** First segment of node.id: sidecar, router, waypoint, ... */
  proxyType: string | null;
  ip: string | null;
  podName: string | null;
  podNamespace: string | null;
  /** Last segment of node.id (DNS domain). */
  domain: string | null;
  /** node.cluster, e.g. `details.default`. */
  cluster: string | null;
  istioVersion: string | null;
}

export interface ResourceCounts {
  static: number;
  dynamic: number;
  /** Warming (clusters/listeners) or draining listeners, counted apart from `dynamic`. */
  warming: number;
  draining: number;
}
