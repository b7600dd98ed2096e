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
}

export interface SplitMeshConfigs<T> {
  /** The documents that are Kubernetes objects (the istio ConfigMap and IstioOperator stay). */
  objects: T[];
  origins: string[];
  /** Every mesh config found, in input order. */
  found: FoundMeshConfig[];
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
  const out: SplitMeshConfigs<T> = { objects: [], origins: [], found: [] };
  objects.forEach((o, i) => {
    const origin = origins[i] ?? `(object #${i + 1})`;
    const bare = isBareMeshConfig(o);
    if (bare || (isJsonObject(o) && holdsMeshConfig(o))) {
      const read = meshConfigOfValue(o);
      if (read) out.found.push({ origin, settings: read.settings, errors: read.errors });
    }
    if (bare) return;
    out.objects.push(o);
    out.origins.push(origin);
  });
  return out;
}
