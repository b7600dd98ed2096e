/**
 * Generated Sidecar resources: the safe egress list (own namespace, the control plane, and the
 * namespaces actually called; never `~/*`), the object, and its YAML with stable key order.
 */
import { stringify } from 'yaml';
import type { Sidecar } from '../kube/types';
import { scopedHost } from '../refs/object-ref';

export const SIDECAR_API_VERSION = 'networking.istio.io/v1';

/** `./*`, `<istioNamespace>/*`, then every other called namespace as `<ns>/*`, sorted. */
export function standardHosts(
  namespace: string,
  calledNamespaces: Iterable<string>,
  istioNamespace: string,
): string[] {
  const out = ['./*'];
  if (namespace !== istioNamespace) out.push(scopedHost(istioNamespace, '*'));
  const rest = [...new Set(calledNamespaces)]
    .filter((n) => n !== namespace && n !== istioNamespace)
    .sort();
  for (const n of rest) out.push(`${n}/*`);
  return out;
}

export interface SidecarSpecOptions {
  name: string;
  namespace: string;
  hosts: readonly string[];
  selector?: Record<string, string> | null;
  /** The Sidecar being replaced: its other spec fields (ingress, outboundTrafficPolicy...) are kept. */
  replaces?: Sidecar;
}

/** A Sidecar object with one egress listener; a replaced Sidecar keeps everything but egress. */
export function buildSidecar(o: SidecarSpecOptions): Sidecar {
  const kept = { ...(o.replaces?.spec ?? {}) };
  delete kept.egress;
  delete kept.workloadSelector;
  const selector = o.selector ?? o.replaces?.spec?.workloadSelector?.labels;
  const spec: Sidecar['spec'] = {
    ...kept,
    ...(selector && Object.keys(selector).length > 0
      ? { workloadSelector: { labels: { ...selector } } }
      : {}),
    egress: [{ hosts: [...o.hosts] }],
  };
  return {
    apiVersion: o.replaces?.apiVersion ?? SIDECAR_API_VERSION,
    kind: 'Sidecar',
    metadata: {
      name: o.name,
      namespace: o.namespace,
      // Applying over an existing object keeps its age (it decides istiod's conflict winner).
      ...(o.replaces?.metadata.creationTimestamp
        ? { creationTimestamp: o.replaces.metadata.creationTimestamp }
        : {}),
    },
    spec,
  };
}

/** YAML to copy: only apiVersion, kind, metadata.{name,namespace} and spec; keys sorted. */
export function sidecarYaml(sidecar: Sidecar): string {
  const doc = {
    apiVersion: sidecar.apiVersion ?? SIDECAR_API_VERSION,
    kind: 'Sidecar',
    metadata: { name: sidecar.metadata.name, namespace: sidecar.metadata.namespace ?? 'default' },
    spec: sidecar.spec,
  };
  return stringify(doc, { sortMapEntries: true, lineWidth: 0 });
}
