/**
 * Mesh configs among the documents `meshdx findings` reads: a bare mesh config (the file
 * `istioctl analyze --meshConfigFile` takes), the `istio` ConfigMap of a cluster dump, or an
 * IstioOperator. The checks take Istio's root namespace from one; a bare mesh config is no
 * Kubernetes object, so it leaves the objects the checks screen (it is no malformed object).
 */
import type { TimelineInputProblem } from '../timeline/position';
import { isBareMeshConfig, meshConfigOfValue, type MeshSettings } from '../timeline/meshconfig';
import { isJsonObject } from '../json-object';

export interface FoundMeshConfig {
  /** Where the document is (file:line). */
  origin: string;
  settings: MeshSettings;
  errors: TimelineInputProblem[];
  /** The mesh config itself, as parsed (RuleContext.meshConfig). */
  mesh?: Record<string, unknown>;
}

export interface SplitMeshConfigs<T> {
  /** The documents that are Kubernetes objects (the istio ConfigMap and IstioOperator stay). */
  objects: T[];
  origins: string[];
  /** Every mesh config found, in input order. */
  found: FoundMeshConfig[];
  /** Every mesh networks document (`networks` only: `--meshNetworksFile`), in input order. */
  networks: { origin: string; value: Record<string, unknown> }[];
}

/** A mesh networks document as `istioctl analyze --meshNetworksFile` takes it: `networks` only. */
function isBareMeshNetworks(o: unknown): o is Record<string, unknown> {
  return isJsonObject(o) && Object.keys(o).length === 1 && isJsonObject(o.networks);
}

/** The istio ConfigMap (`istio`, or `istio-REVISION` of a revisioned install) or an IstioOperator. */
function holdsMeshConfig(o: Record<string, unknown>): boolean {
  if (o.kind === 'IstioOperator') return true;
  if (o.kind !== 'ConfigMap') return false;
  const name = isJsonObject(o.metadata) ? o.metadata.name : undefined;
  return typeof name === 'string' && /^istio(-[a-z0-9-]+)?$/.test(name);
}

export function splitMeshConfigs<T>(
  objects: readonly T[],
  origins: readonly string[],
): SplitMeshConfigs<T> {
  const out: SplitMeshConfigs<T> = { objects: [], origins: [], found: [], networks: [] };
  objects.forEach((o, i) => {
    const origin = origins[i] ?? `(object #${i + 1})`;
    if (isBareMeshNetworks(o)) {
      out.networks.push({ origin, value: o });
      return;
    }
    const bare = isBareMeshConfig(o);
    if (bare || (isJsonObject(o) && holdsMeshConfig(o))) {
      const read = meshConfigOfValue(o);
      if (read)
        out.found.push({
          origin,
          settings: read.settings,
          errors: read.errors,
          ...(read.mesh ? { mesh: read.mesh } : {}),
        });
    }
    if (bare) return;
    out.objects.push(o);
    out.origins.push(origin);
  });
  return out;
}
