/**
 * One analyzer rule, one file: each rule under lib/findings/rules/ exports its catalog entries
 * (code, severity, title, description), the istioctl codes it claims to report as istioctl does,
 * the kinds of object it reads and its check. The catalog, the claims and the kinds the server
 * lists are derived from the rules (./index.ts); nothing about a code is written elsewhere.
 */
import type { KubeObject } from '../../kube/types';
import type { Catalog } from '../catalog';
import type { Screened } from '../screen';
import type { Finding } from '../types';

/** An istioctl code a rule reports as istioctl does, on subjects of these kinds. */
export interface RuleClaim {
  code: string;
  kinds: readonly string[];
  /** evidence.reftype values, when the code is shared by several checks. */
  reftypes?: readonly string[];
}

/** What a check reads: the screened objects, and every object of a kind by its name. */
export interface RuleContext {
  /**
   * Files (manifests, a dump read by the CLI: istioctl adds its file defaults to them,
   * ./file-defaults.ts) or a cluster's own objects (a live cluster, an archive): nothing assumed.
   */
  input: 'files' | 'cluster';
  screened: Screened;
  /** The namespace of Istio's root config (istio-system unless the mesh config says else). */
  rootNamespace: string;
  /**
   * The mesh config (MeshConfig's fields as parsed): the one given beside the objects, else the
   * `istio` ConfigMap's of the root namespace (else any `istio` ConfigMap's); null when none is
   * among them, which is not the same as a mesh config of defaults.
   */
  meshConfig: Readonly<Record<string, unknown>> | null;
  /**
   * Mesh networks given beside the objects (the file `istioctl analyze --meshNetworksFile`
   * takes: a document of `networks` only); null when none was (then the `istio` ConfigMap's
   * `meshNetworks` key is the cluster's).
   */
  meshNetworksGiven: Readonly<Record<string, unknown>> | null;
  /** Every object of `kind` that was read with readable metadata, namespace defaulted. */
  objects(kind: string): readonly KubeObject[];
  /**
   * What `make` derives from the objects (a view several rules read, such as every pod's
   * labels), made once per report and shared: the same value for the same `make`, never to be
   * changed by a rule. Absent (a context made by hand): each asks `make` itself.
   */
  derived?<T>(make: (ctx: RuleContext) => T): T;
}

/** What was given beside the objects: a mesh config file, a mesh networks file. */
export interface GivenMeshFiles {
  /** RuleContext.input; a cluster's unless said. */
  input?: 'files' | 'cluster';
  /** undefined: none given, the `istio` ConfigMap's is read; null: none at all. */
  meshConfig?: Record<string, unknown> | null;
  meshNetworks?: Record<string, unknown> | null;
}

export interface AnalyzerRule<K extends string = string> {
  /** The file's name: stable, used to name the check when it fails on an object (MDX0003). */
  id: string;
  /** The istioctl analyzer the rule follows, as istioctl names it; null for meshdx's own. */
  analyzer: string | null;
  catalog: Catalog<K>;
  claims: readonly RuleClaim[];
  /** Kinds whose objects the check reads (the server lists these). */
  reads: readonly string[];
  /**
   * Each finding is about one object read on its own (its annotations, its UID), never about an
   * object that is absent: a kind that could not be read only narrows what is checked, and the
   * rule runs on the rest. Otherwise a rule with an unread input is not run (rulesNotRun).
   */
  perObject?: boolean;
  check(ctx: RuleContext): Finding[];
}

/** A rule, checked for consistency: it claims only codes of its own catalog. */
export function defineRule<K extends string>(rule: AnalyzerRule<K>): AnalyzerRule<K> {
  const codes = new Set(rule.catalog.entries.map((e) => e.code));
  for (const c of rule.claims) {
    if (!codes.has(c.code)) throw new Error(`rule ${rule.id} claims ${c.code}, not in its catalog`);
  }
  if (rule.claims.length > 0 && rule.analyzer === null) {
    throw new Error(`rule ${rule.id} claims istioctl codes but names no istioctl analyzer`);
  }
  return rule;
}
