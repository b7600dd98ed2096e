/**
 * Every check that needs no live proxy, on objects as read from manifests or listed from the
 * API server: screened at the boundary (malformed objects are findings, not crashes), then
 * injection, protocol selection, Sidecar selection and the VirtualService / DestinationRule
 * references. Pure.
 */
import type { Pod } from '../kube/types';
import { protocolFindings } from '../protocol/analyze';
import type { ClientRecords } from '../protocol/external';
import { sidecarSelectionFindings } from '../scoping/checks';
import { guarded } from './guard';
import { hasProxy } from '../dataplane/proxy-container';
import { injectionFindings, namespaceInjection, podInjectionOverride } from './injection';
import { referenceFindings } from './references';
import { ruleFindings } from './rules';
import type { GivenMeshFiles } from './rules/rule';
import {
  ambientNamespaces,
  screenObjects,
  selectablePods,
  type ScreenOptions,
  type Screened,
} from './screen';
import { compareFindings, dedupeFindings, type Finding } from './types';

export interface ManifestOptions extends ScreenOptions {
  rootNamespace?: string;
  /** Mesh config and mesh networks files given beside the objects (GivenMeshFiles). */
  given?: GivenMeshFiles;
}

export interface ManifestResult {
  findings: Finding[];
  screened: Screened;
}

/**
 * A pod the injector meshes, or has meshed: it has istio-proxy, or it is in an injected
 * namespace (or asks for injection) and does not opt out.
 */
export function meshedPredicate(s: Screened, rootNamespace: string): (p: Pod) => boolean {
  const injected = new Set(
    s.namespaces
      .filter((n) => namespaceInjection(n, rootNamespace).injected)
      .map((n) => n.metadata.name),
  );
  return (p) => {
    if (hasProxy(p)) return true;
    // a pod that runs is meshed only with its proxy; a pod-to-be when the injector will add it
    if (p.status !== undefined) return false;
    const o = podInjectionOverride(p)?.toLowerCase();
    if (o === 'true') return true;
    if (o === 'false') return false;
    return injected.has(p.metadata.namespace ?? 'default');
  };
}

/** The checks on already-screened objects (the server screens what it lists itself). */
export function checkScreened(
  s: Screened,
  rootNamespace = 'istio-system',
  accessLogs: readonly ClientRecords[] = [],
  given: GivenMeshFiles = {},
): Finding[] {
  const workloads = [...s.pods, ...s.templates];
  return [
    ...s.findings,
    ...guarded('injection', () => injectionFindings(s.namespaces, s.pods, rootNamespace)),
    ...guarded('protocol', () =>
      protocolFindings({
        services: s.services,
        pods: workloads,
        meshed: meshedPredicate(s, rootNamespace),
        accessLogs,
      }),
    ),
    ...guarded('sidecar-selection', () =>
      sidecarSelectionFindings(s.sidecars, selectablePods(s), rootNamespace, ambientNamespaces(s)),
    ),
    ...guarded('references', () => referenceFindings(s)),
    ...ruleFindings(s, rootNamespace, given),
  ];
}

/** Screen `objects` and run every manifest check; findings worst first, each identity once. */
export function manifestFindings(
  objects: readonly unknown[],
  opts: ManifestOptions = {},
): ManifestResult {
  const screened = screenObjects(objects, { defaultNamespace: 'default', ...opts });
  const findings = dedupeFindings(
    checkScreened(screened, opts.rootNamespace, [], { input: 'files', ...opts.given }),
  ).sort(compareFindings);
  return { findings, screened };
}
