/**
 * IST0160 MultipleTelemetriesWithoutWorkloadSelectors, as istioctl's
 * telemetry.DefaultSelectorAnalyzer reports it: two or more Telemetries of one namespace that
 * select no workload each apply to the whole namespace (to the whole mesh in the root
 * namespace), and istiod merges them in an order nobody chose. Every one of them is reported,
 * naming the others.
 *
 * A Telemetry is namespace-wide as istiod takes it (pilot/pkg/model/telemetry.go): no
 * `selector.matchLabels` and no `targetRef(s)`. istioctl looks at `selector` alone; it would
 * count a Telemetry bound to a gateway or waypoint by targetRefs (istiod applies it there only)
 * and miss one with `selector: {}` (istiod applies it namespace-wide): meshdx follows istiod in
 * both. A Telemetry whose spec, selector, matchLabels or targetRef(s) has another shape is left
 * out (istioctl cannot read it).
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { obj } from './raw';

const CATALOG = defineCatalog('config', {
  multipleTelemetriesWithoutSelectors: {
    code: 'IST0160',
    severity: 'error',
    title: 'MultipleTelemetriesWithoutWorkloadSelectors',
    description:
      'Several Telemetries of one namespace select no workload: each applies to the whole namespace (the whole mesh in the root namespace) and which one wins is undefined, so metrics, access logs or tracing may not be configured as either says.',
    istio: {
      since: '1.10',
      why: "Telemetry (its CRD and istiod's Telemetries) is first in Istio 1.10.0; istioctl analyze reports IST0160 since 1.18.",
    },
  },
});

const absent = (v: unknown): boolean => v === undefined || v === null;

/** Whether the Telemetry applies namespace-wide; null when istioctl cannot read its spec. */
function namespaceWide(t: KubeObject): boolean | null {
  const rawSpec = (t as KubeObject & { spec?: unknown }).spec;
  if (absent(rawSpec)) return true;
  const spec = obj(rawSpec);
  if (spec === null) return null;
  const selector = absent(spec.selector) ? {} : obj(spec.selector);
  if (selector === null) return null;
  const labels = absent(selector.matchLabels) ? {} : obj(selector.matchLabels);
  const refs = absent(spec.targetRefs) ? [] : spec.targetRefs;
  const ref = spec.targetRef;
  if (labels === null || !Array.isArray(refs) || !(absent(ref) || obj(ref) !== null)) return null;
  return Object.keys(labels).length === 0 && refs.length === 0 && absent(ref);
}

export const TELEMETRY_SELECTOR = defineRule({
  id: 'telemetry-selector',
  analyzer: 'telemetry.DefaultSelectorAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0160', kinds: ['Telemetry'] }],
  reads: ['Telemetry'],
  check(ctx) {
    const byNamespace = new Map<string, KubeObject[]>();
    for (const t of ctx.objects('Telemetry')) {
      if (namespaceWide(t) !== true) continue;
      const ns = t.metadata.namespace ?? 'default';
      byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), t]);
    }
    const out: Finding[] = [];
    for (const [ns, telemetries] of byNamespace) {
      if (telemetries.length < 2) continue;
      const names = telemetries.map((t) => t.metadata.name).sort();
      for (const t of telemetries) {
        out.push({
          code: CATALOG.code.multipleTelemetriesWithoutSelectors,
          severity: CATALOG.byKey.multipleTelemetriesWithoutSelectors.severity,
          subject: { kind: 'Telemetry', namespace: ns, name: t.metadata.name },
          evidence: {
            telemetries: names.join(', '),
            scope: ns === ctx.rootNamespace ? 'mesh (root namespace)' : 'namespace',
          },
          fix: {
            why: 'Keep one Telemetry without a selector per namespace: merge the others into it, or give them a selector.matchLabels for the workloads they are meant for.',
          },
        });
      }
    }
    return out;
  },
});
