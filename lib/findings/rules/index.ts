/**
 * The analyzer rules, each in its own file (./rule.ts says what a rule holds). Their catalog
 * entries, istioctl claims and the kinds they read are derived here, once: the findings
 * registry, the claims and the server's lists take them from this module.
 */
import type { FindingCatalogEntry, Finding } from '../types';
import { guarded } from '../guard';
import type { Screened } from '../screen';
import { APPLICATION_UID } from './application-uid';
import { K8S_ANNOTATIONS } from './k8s-annotations';
import { ALPHA_ANNOTATIONS } from './alpha-annotations';
import { INJECTION_NAMESPACES } from './injection';
import { WEBHOOK } from './webhook';
import { INJECTION_IMAGE } from './injection-image';
import { ENVOY_FILTER_PATCH } from './envoy-filter-patch';
import { DESTINATION_RULE_CA } from './destination-rule-ca';
import { JWT_CLAIM_ROUTE } from './jwt-claim-route';
import { BLOCKED_CIDRS } from './blocked-cidrs';
import { SERVICE_ENTRY_ADDRESSES } from './service-entry-addresses';
import { SERVICE_ENTRY_PROTOCOL } from './service-entry-protocol';
import { CONFLICTING_GATEWAYS } from './conflicting-gateways';
import { GATEWAY_SERVICE_PORT } from './gateway-service-port';
import { K8S_GATEWAY_SELECTOR } from './k8s-gateway-selector';
import { K8S_GATEWAY_CRD_VERSION } from './k8s-gateway-crd-version';
import { TELEMETRY_SELECTOR } from './telemetry-selector';
import { TELEMETRY_PROVIDER } from './telemetry-provider';
import { TELEMETRY_LIGHTSTEP } from './telemetry-lightstep';
import { DEPRECATED_FIELDS } from './deprecated-fields';
import { NEGATIVE_CONDITIONS } from './negative-conditions';
import { EXTERNAL_CONTROL_PLANE } from './external-control-plane';
import { MESH_NETWORKS } from './mesh-networks';
import { CONFLICTING_MESH_GATEWAY_HOSTS } from './conflicting-mesh-gateway-hosts';
import { INTERNAL_GATEWAY_REF } from './internal-gateway-ref';
import { SIDECAR_AMBIENT } from './sidecar-ambient';
import { TELEMETRY_WORKLOAD_SELECTOR } from './telemetry-workload-selector';
import { IMAGE_AUTO } from './image-auto';
import { GATEWAY_CERTIFICATE } from './gateway-certificate';
import { INGRESS_SUBSET } from './ingress-subset';
import { AUTHORIZATION_POLICIES } from './authorization-policies';
import { GATEWAY_SECRET } from './gateway-secret';
import { VIRTUAL_SERVICE_UNREACHABLE } from './virtual-service-unreachable';
import { USE_WAYPOINT } from './use-waypoint';
import { SIDECAR_NO_EGRESS } from './sidecar-no-egress';
import { SERVICE_ENTRY_CONFLICTS } from './service-entry-conflicts';
import type { AnalyzerRule, GivenMeshFiles, RuleClaim, RuleContext } from './rule';
import type { KubeObject } from '../../kube/types';
import { meshConfigOfValue } from '../../timeline/meshconfig';

export const RULES: readonly AnalyzerRule[] = [
  APPLICATION_UID,
  K8S_ANNOTATIONS,
  ALPHA_ANNOTATIONS,
  INJECTION_NAMESPACES,
  WEBHOOK,
  INJECTION_IMAGE,
  ENVOY_FILTER_PATCH,
  DESTINATION_RULE_CA,
  JWT_CLAIM_ROUTE,
  BLOCKED_CIDRS,
  SERVICE_ENTRY_ADDRESSES,
  SERVICE_ENTRY_PROTOCOL,
  CONFLICTING_GATEWAYS,
  GATEWAY_SERVICE_PORT,
  K8S_GATEWAY_SELECTOR,
  K8S_GATEWAY_CRD_VERSION,
  TELEMETRY_SELECTOR,
  TELEMETRY_PROVIDER,
  TELEMETRY_LIGHTSTEP,
  DEPRECATED_FIELDS,
  NEGATIVE_CONDITIONS,
  EXTERNAL_CONTROL_PLANE,
  MESH_NETWORKS,
  CONFLICTING_MESH_GATEWAY_HOSTS,
  INTERNAL_GATEWAY_REF,
  SIDECAR_AMBIENT,
  TELEMETRY_WORKLOAD_SELECTOR,
  IMAGE_AUTO,
  GATEWAY_CERTIFICATE,
  INGRESS_SUBSET,
  AUTHORIZATION_POLICIES,
  GATEWAY_SECRET,
  VIRTUAL_SERVICE_UNREACHABLE,
  USE_WAYPOINT,
  SIDECAR_NO_EGRESS,
  SERVICE_ENTRY_CONFLICTS,
];

export const RULE_CATALOG: readonly FindingCatalogEntry[] = RULES.flatMap((r) => r.catalog.entries);

/** Each rule's claims with the istioctl analyzer they follow. */
export const RULE_CLAIMS: readonly (RuleClaim & { analyzer: string })[] = RULES.flatMap((r) =>
  r.analyzer === null ? [] : r.claims.map((c) => ({ ...c, analyzer: r.analyzer as string })),
);

/** Every kind some rule reads. */
export const RULE_KINDS: ReadonlySet<string> = new Set(RULES.flatMap((r) => r.reads));

/** Run every rule on the screened objects; a rule that throws is an MDX0003, the others run. */
export function ruleFindings(
  screened: Screened,
  rootNamespace: string,
  given: GivenMeshFiles = {},
): Finding[] {
  const { meshConfig } = given;
  const byKind = new Map<string, KubeObject[]>();
  for (const o of screened.objects) {
    const kind = o.kind ?? '';
    const list = byKind.get(kind);
    if (list === undefined) byKind.set(kind, [o]);
    else list.push(o);
  }
  /** RuleContext.derived's values, by the function that made each. */
  const derived = new Map<(c: RuleContext) => unknown, unknown>();
  const ctx: RuleContext = {
    input: given.input ?? 'cluster',
    screened,
    rootNamespace,
    meshConfig:
      meshConfig !== undefined
        ? meshConfig
        : meshConfigOfConfigMaps(byKind.get('ConfigMap') ?? [], rootNamespace),
    meshNetworksGiven: given.meshNetworks ?? null,
    objects: (kind) => byKind.get(kind) ?? [],
    derived<T>(make: (c: RuleContext) => T): T {
      if (!derived.has(make)) derived.set(make, make(ctx));
      return derived.get(make) as T;
    },
  };
  return RULES.flatMap((r) =>
    unreadInputs(r, screened).length > 0 ? [] : guarded(r.id, () => r.check(ctx)),
  );
}

/** The kinds a rule reads that could not be read (Screened.kindsUnknown), with why. */
function unreadInputs(rule: AnalyzerRule, screened: Screened): { kind: string; why: string }[] {
  if (rule.perObject === true) return [];
  return rule.reads.flatMap((kind) => {
    const why = screened.kindsUnknown[kind];
    return why === undefined ? [] : [{ kind, why }];
  });
}

/** The rules not run because a kind they read could not be read: said, never silently empty. */
export function rulesNotRun(
  screened: Screened,
): { rule: string; codes: string[]; unread: { kind: string; why: string }[] }[] {
  return RULES.flatMap((r) => {
    const unread = unreadInputs(r, screened);
    return unread.length === 0
      ? []
      : [{ rule: r.id, codes: r.catalog.entries.map((e) => e.code), unread }];
  });
}

/** The mesh config of the `istio` ConfigMap: the root namespace's, else the first one's. */
function meshConfigOfConfigMaps(
  configMaps: readonly KubeObject[],
  root: string,
): Record<string, unknown> | null {
  const istio = configMaps.filter((c) => c.metadata.name === 'istio');
  const cm = istio.find((c) => c.metadata.namespace === root) ?? istio[0];
  return cm === undefined ? null : (meshConfigOfValue(cm)?.mesh ?? null);
}
