/**
 * IST0101 ReferencedResourceNotFound (selector) and IST0159 ConflictingTelemetryWorkloadSelectors,
 * as istioctl's telemetry.SelectorAnalyzer reports them on Telemetries with a
 * `selector.matchLabels`:
 * - IST0101 when the selector matches no pod of the Telemetry's namespace (the Telemetry
 *   configures nothing);
 * - IST0159 when a pod is selected by two or more Telemetries: istiod merges them in an order
 *   nobody chose. Once per Telemetry and pod it conflicts on, as istioctl reports it.
 * A Telemetry without a selector or with an empty matchLabels is left out (that is IST0160's,
 * ./telemetry-selector.ts); so is one whose spec, selector or matchLabels has another shape
 * (istioctl cannot read it). As istioctl, `targetRef(s)` is not looked at (validation refuses
 * it beside a selector).
 *
 * Pods are the inputs' pods, matched by label set in the Telemetry's namespace; on files,
 * istioctl's stand-in ingress gateway pod (./file-defaults.ts) is among them.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog, withSharedEntries } from '../catalog';
import { CONFIG } from '../codes';
import type { Finding } from '../types';
import { podKey } from '../../refs/pod-ref';
import { defineRule } from './rule';
import { obj, stringMap } from './raw';
import { assumedIngress, gatewayPods } from './file-defaults';
import { labelSetMatches, labelSetText } from './gateway-service-port';

const OWN = defineCatalog('config', {
  conflictingTelemetrySelectors: {
    code: 'IST0159',
    severity: 'error',
    title: 'ConflictingTelemetryWorkloadSelectors',
    description:
      'Several Telemetries select the same workload pod: istiod merges them in an undefined order, so the metrics, access logs or tracing that pod gets may be neither of them as written.',
    istio: {
      since: '1.10',
      why: "Telemetry (its CRD and istiod's Telemetries) is first in Istio 1.10.0; istioctl analyze reports IST0159 since 1.18.",
    },
  },
});
/** The rule's codes: its own IST0159 and the shared IST0101 entry (one object for both). */
const CATALOG = withSharedEntries(OWN, { referenceNotFound: CONFIG.byKey.referenceNotFound });

const absent = (v: unknown): boolean => v === undefined || v === null;

/** The Telemetry's matchLabels when it has some; null when none or unreadable. */
function matchLabelsOf(t: KubeObject): Record<string, string> | null {
  const spec = obj((t as KubeObject & { spec?: unknown }).spec);
  if (spec === null || absent(spec.selector)) return null;
  const labels = obj(obj(spec.selector)?.matchLabels);
  if (labels === null) return null;
  const map = stringMap(labels);
  const n = Object.keys(map).length;
  return n > 0 && n === Object.keys(labels).length ? map : null;
}

export const TELEMETRY_WORKLOAD_SELECTOR = defineRule({
  id: 'telemetry-workload-selector',
  analyzer: 'telemetry.SelectorAnalyzer',
  catalog: CATALOG,
  claims: [
    { code: 'IST0101', kinds: ['Telemetry'], reftypes: ['selector'] },
    { code: 'IST0159', kinds: ['Telemetry'] },
  ],
  reads: ['Telemetry', 'Pod'],
  check(ctx) {
    const pods = gatewayPods(ctx, assumedIngress(ctx));
    const out: Finding[] = [];
    /** Pod key -> the Telemetries selecting it. */
    const byPod = new Map<string, { ns: string; pod: string; names: string[] }>();
    for (const t of ctx.objects('Telemetry')) {
      const selector = matchLabelsOf(t);
      if (selector === null) continue;
      const ns = t.metadata.namespace ?? 'default';
      const subject = { kind: 'Telemetry', namespace: ns, name: t.metadata.name };
      const matched = pods.filter((p) => p.namespace === ns && labelSetMatches(selector, p.labels));
      if (matched.length === 0) {
        out.push({
          code: CATALOG.code.referenceNotFound,
          severity: CATALOG.byKey.referenceNotFound.severity,
          subject,
          evidence: { reftype: 'selector', selector: labelSetText(selector) },
          fix: {
            why: `No pod of namespace ${ns} has the labels ${labelSetText(selector)}: fix spec.selector.matchLabels, or move the Telemetry to the namespace of the workloads it is meant for.`,
          },
        });
      }
      for (const p of matched) {
        const key = podKey(p.namespace, p.name);
        const entry = byPod.get(key) ?? { ns, pod: p.name, names: [] };
        entry.names.push(t.metadata.name);
        byPod.set(key, entry);
      }
    }
    for (const { ns, pod, names } of byPod.values()) {
      if (names.length < 2) continue;
      const sorted = [...names].sort();
      for (const name of names) {
        out.push({
          code: CATALOG.code.conflictingTelemetrySelectors,
          severity: CATALOG.byKey.conflictingTelemetrySelectors.severity,
          subject: { kind: 'Telemetry', namespace: ns, name },
          part: { kind: 'pod', name: pod },
          evidence: { conflictingTelemetries: sorted.join(', '), namespace: ns, workloadPod: pod },
          fix: {
            why: `Give pod ${pod} one Telemetry: merge ${sorted.join(', ')} into one, or make their selectors disjoint.`,
          },
        });
      }
    }
    return out;
  },
});
