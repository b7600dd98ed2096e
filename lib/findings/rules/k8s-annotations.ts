/**
 * Istio annotations on Namespaces, Services, Pods and Deployments, as istioctl's
 * annotations.K8sAnalyzer judges them against Istio's annotation catalog
 * (./k8s-annotation-catalog.ts): IST0108 an annotation in Istio's namespace that Istio does not
 * know, IST0135 a deprecated one, IST0107 one on a kind it does not belong on (a Deployment's own
 * annotations never reach its pods), IST0125 a value the injector refuses
 * (./k8s-annotation-values.ts). Annotations Istio writes itself are left alone, and the deprecated
 * `sidecar.istio.io/inject` annotation is not reported beside the label that replaces it.
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
import { ISTIO_ANNOTATION_CHECKS } from './k8s-annotation-values';
import { defineRule } from './rule';

const CATALOG = defineCatalog('config', {
  misplacedAnnotation: {
    code: 'IST0107',
    severity: 'warning',
    title: 'MisplacedAnnotation',
    description:
      'An Istio annotation is on a kind of resource it does not apply to (a pod annotation on a Deployment, an Ingress annotation on a Pod): Istio ignores it there.',
    istio: {
      since: '1.4',
      why: "istioctl analyze reports IST0107 since 1.4; where an annotation belongs is judged by Istio 1.31's annotation catalog.",
    },
  },
  unknownAnnotation: {
    code: 'IST0108',
    severity: 'warning',
    title: 'UnknownAnnotation',
    description:
      "An annotation in Istio's namespace is not one Istio knows (often a misspelling): it has no effect.",
    istio: {
      since: '1.4',
      why: "istioctl analyze reports IST0108 since 1.4; which annotations exist is judged by Istio 1.31's catalog, so one an older istiod knew and 1.31 dropped is named unknown.",
    },
  },
  invalidAnnotation: {
    code: 'IST0125',
    severity: 'warning',
    title: 'InvalidAnnotation',
    description:
      'An Istio annotation has a value the sidecar injector refuses: injection of the pod fails or the setting is not applied.',
    istio: {
      since: '1.6',
      why: "istioctl analyze reports IST0125 since 1.6; the values are judged as Istio 1.31's injector reads them.",
    },
  },
  deprecatedAnnotation: {
    code: 'IST0135',
    severity: 'info',
    title: 'DeprecatedAnnotation',
    description:
      'A resource uses a deprecated Istio annotation, which may stop working in a future Istio version.',
    istio: {
      since: '1.9',
      why: "istioctl analyze reports IST0135 since 1.9; whether an annotation is deprecated is judged by Istio 1.31's catalog.",
    },
  },
});

type Key = keyof typeof CATALOG.byKey;

const INJECT = 'sidecar.istio.io/inject';

function labelled(o: KubeObject, key: string): boolean {
  const labels: unknown = o.metadata.labels;
  return labels !== null && typeof labels === 'object' && key in labels;
}

function make(
  key: Key,
  o: KubeObject,
  kind: string,
  annotation: string,
  evidence: Finding['evidence'],
  why: string,
): Finding {
  return {
    code: CATALOG.code[key],
    severity: CATALOG.byKey[key].severity,
    subject: annotatedSubject(o, kind),
    part: { kind: 'field', name: `metadata.annotations[${annotation}]` },
    evidence: { annotation, ...evidence },
    fix: { why },
  };
}

function misplacedWhy(kind: string, on: readonly string[]): string {
  if (kind === 'Deployment' && on.includes('Pod')) {
    return "Move it to the pod template (spec.template.metadata.annotations): a Deployment's own annotations are not copied to its pods.";
  }
  return `Put it on a ${on.join(' or ')}, where Istio reads it, and remove it here.`;
}

function check(o: KubeObject, kind: string): Finding[] {
  const out: Finding[] = [];
  for (const [ann, value] of annotationsOf(o)) {
    if (!isIstioAnnotationKey(ann) || ISTIO_WRITTEN_ANNOTATIONS.has(ann)) continue;
    const facts = ISTIO_ANNOTATIONS.get(ann);
    if (facts === undefined) {
      out.push(
        make(
          'unknownAnnotation',
          o,
          kind,
          ann,
          {},
          'Check the spelling against the annotations Istio documents, or remove it.',
        ),
      );
      continue;
    }
    if (facts.deprecated === true && !(ann === INJECT && labelled(o, INJECT))) {
      out.push(
        make(
          'deprecatedAnnotation',
          o,
          kind,
          ann,
          { deprecated: true },
          ann === INJECT
            ? 'Use the sidecar.istio.io/inject label instead of the annotation.'
            : "Move to the setting that replaces it (see the annotation in Istio's reference) before an upgrade drops it.",
        ),
      );
    }
    if (facts.on.includes('Any')) continue;
    if (!facts.on.includes(kind)) {
      out.push(
        make(
          'misplacedAnnotation',
          o,
          kind,
          ann,
          { kind, appliesTo: facts.on.join(', ') },
          misplacedWhy(kind, facts.on),
        ),
      );
      continue;
    }
    const problem = ISTIO_ANNOTATION_CHECKS.get(ann)?.(value) ?? null;
    if (problem !== null) {
      out.push(
        make(
          'invalidAnnotation',
          o,
          kind,
          ann,
          { value, problem },
          `Give ${ann} a value Istio accepts: ${problem}.`,
        ),
      );
    }
  }
  return out;
}

export const K8S_ANNOTATIONS = defineRule({
  id: 'k8s-annotations',
  analyzer: 'annotations.K8sAnalyzer',
  catalog: CATALOG,
  claims: [
    { code: 'IST0107', kinds: ANNOTATED_KINDS },
    { code: 'IST0108', kinds: ANNOTATED_KINDS },
    { code: 'IST0125', kinds: ANNOTATED_KINDS },
    { code: 'IST0135', kinds: ANNOTATED_KINDS },
  ],
  reads: ANNOTATED_KINDS,
  perObject: true,
  check(ctx) {
    return ANNOTATED_KINDS.flatMap((kind) =>
      perObject('k8s-annotations', ctx.objects(kind), (o) => check(o, kind)),
    );
  },
});
