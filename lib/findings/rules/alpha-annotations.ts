/**
 * IST0136 AlphaAnnotation, as istioctl's maturity.AlphaAnalyzer reports it: each annotation of
 * an alpha-phase Istio feature on a Namespace, Service, Pod or Deployment, once per annotation
 * (./k8s-annotation-catalog.ts says which are alpha). Annotations Istio writes itself are left
 * alone, and so are the capture settings the CNI plugin sets on every pod: on a pod without the
 * `istio-init` init container (its traffic is captured by the CNI plugin) they are not the user's.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import { perObject } from '../guard';
import type { Finding } from '../types';
import {
  ANNOTATED_KINDS,
  annotatedSubject,
  annotationsOf,
  ISTIO_ANNOTATIONS,
  ISTIO_WRITTEN_ANNOTATIONS,
  isIstioAnnotationKey,
} from './k8s-annotation-catalog';
import { defineRule } from './rule';

const CATALOG = defineCatalog('config', {
  alphaAnnotation: {
    code: 'IST0136',
    severity: 'info',
    title: 'AlphaAnnotation',
    description:
      'A resource uses an annotation of an alpha-phase Istio feature, which may be incompletely supported and change between releases.',
    istio: {
      since: '1.9',
      why: "istioctl analyze reports IST0136 since 1.9; an annotation's phase is judged by Istio 1.31's annotation catalog (k8s-annotation-catalog.ts), which an older istiod may not share.",
    },
  },
});

/** Capture annotations set on every pod whose traffic the CNI plugin captures. */
const CNI_SET_ANNOTATIONS: ReadonlySet<string> = new Set([
  'sidecar.istio.io/interceptionMode',
  'traffic.sidecar.istio.io/includeInboundPorts',
  'traffic.sidecar.istio.io/excludeInboundPorts',
  'traffic.sidecar.istio.io/includeOutboundIPRanges',
]);

/** A pod without the istio-init container: the CNI plugin, not the pod, sets up capture. */
function capturedByCni(o: KubeObject): boolean {
  const spec: unknown = (o as KubeObject & { spec?: unknown }).spec;
  const inits: unknown =
    spec !== null && typeof spec === 'object'
      ? (spec as { initContainers?: unknown }).initContainers
      : undefined;
  if (!Array.isArray(inits)) return true;
  return !inits.some(
    (c: unknown) =>
      c !== null && typeof c === 'object' && (c as { name?: unknown }).name === 'istio-init',
  );
}

function check(o: KubeObject, kind: string): Finding[] {
  const cni = kind === 'Pod' && capturedByCni(o);
  return annotationsOf(o).flatMap(([ann]): Finding[] => {
    if (!isIstioAnnotationKey(ann) || ISTIO_WRITTEN_ANNOTATIONS.has(ann)) return [];
    if (ISTIO_ANNOTATIONS.get(ann)?.status !== 'alpha') return [];
    if (cni && CNI_SET_ANNOTATIONS.has(ann)) return [];
    return [
      {
        code: CATALOG.code.alphaAnnotation,
        severity: CATALOG.byKey.alphaAnnotation.severity,
        subject: annotatedSubject(o, kind),
        part: { kind: 'field', name: `metadata.annotations[${ann}]` },
        evidence: { annotation: ann, featureStatus: 'alpha' },
        fix: {
          why: 'Alpha features may change or be removed between Istio releases: prefer a stable setting where one exists, or accept the risk.',
        },
      },
    ];
  });
}

export const ALPHA_ANNOTATIONS = defineRule({
  id: 'alpha-annotations',
  analyzer: 'maturity.AlphaAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0136', kinds: ANNOTATED_KINDS }],
  reads: ANNOTATED_KINDS,
  perObject: true,
  check(ctx) {
    return ANNOTATED_KINDS.flatMap((kind) =>
      perObject('alpha-annotations', ctx.objects(kind), (o) => check(o, kind)),
    );
  },
});
