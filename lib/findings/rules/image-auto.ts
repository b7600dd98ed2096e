/**
 * IST0147 ImageAutoWithoutInjectionError and IST0146 ImageAutoWithoutInjectionWarning, as
 * istioctl's injection.ImageAutoAnalyzer reports them. `image: auto` on an istio-proxy
 * container (the way gateway deployments ask for injection) is only replaced by the injector:
 * - a Pod that still has it was not injected: its istio-proxy container pulls an image named
 *   `auto`, which does not exist (ImagePullBackOff). Always an error, whatever the webhooks;
 * - a Deployment whose pod template has it while no Istio injector webhook (a webhook named
 *   `*istio.io` in a MutatingWebhookConfiguration) selects both its namespace's labels and the
 *   template's labels: its pods will be created uninjected, so broken. A warning.
 * A namespace absent from the inputs has no labels (a namespace selector needing one does not
 * match), as istioctl takes it.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { obj, objects, specOf, stringMap, type Raw } from './raw';
import { labelSelectorMatches } from './label-selector';

const CATALOG = defineCatalog('config', {
  imageAutoWarning: {
    code: 'IST0146',
    severity: 'warning',
    title: 'ImageAutoWithoutInjectionWarning',
    description:
      'A Deployment asks for sidecar injection with `image: auto` on its istio-proxy container, but no Istio injector webhook selects its namespace and pod labels: its pods will be created with an image named `auto`, which does not exist, and never start.',
    istio: {
      since: '1.9',
      why: "Injection with `image: auto` is first in Istio 1.9.0's injector; istioctl analyze reports IST0146 since 1.11.",
    },
  },
  imageAutoError: {
    code: 'IST0147',
    severity: 'error',
    title: 'ImageAutoWithoutInjectionError',
    description:
      'A Pod has `image: auto` on its istio-proxy container: the injector never replaced it (the pod was not injected), so the container pulls an image named `auto`, which does not exist, and the pod does not run.',
    istio: {
      since: '1.9',
      why: "Injection with `image: auto` is first in Istio 1.9.0's injector; istioctl analyze reports IST0147 since 1.11.",
    },
  },
});

/** Whether the pod spec has an istio-proxy container whose image is `auto`. */
function hasAutoImage(podSpec: Raw | null): boolean {
  return objects(podSpec?.containers).some((c) => c.name === 'istio-proxy' && c.image === 'auto');
}

/** The namespace and object selectors of every Istio injector webhook. */
function istioWebhooks(configs: readonly KubeObject[]): Raw[] {
  return configs.flatMap((c) =>
    objects((c as KubeObject & { webhooks?: unknown }).webhooks).filter(
      (w) => typeof w.name === 'string' && w.name.endsWith('istio.io'),
    ),
  );
}

const subjectOf = (o: KubeObject, kind: string): Finding['subject'] => ({
  kind,
  namespace: o.metadata.namespace ?? 'default',
  name: o.metadata.name,
});

export const IMAGE_AUTO = defineRule({
  id: 'image-auto',
  analyzer: 'injection.ImageAutoAnalyzer',
  catalog: CATALOG,
  claims: [
    { code: 'IST0146', kinds: ['Deployment'] },
    { code: 'IST0147', kinds: ['Pod'] },
  ],
  reads: ['Namespace', 'Pod', 'Deployment', 'MutatingWebhookConfiguration'],
  check(ctx) {
    const out: Finding[] = [];
    for (const pod of ctx.objects('Pod')) {
      if (!hasAutoImage(specOf(pod))) continue;
      out.push({
        code: CATALOG.code.imageAutoError,
        severity: CATALOG.byKey.imageAutoError.severity,
        subject: subjectOf(pod, 'Pod'),
        evidence: { container: 'istio-proxy', image: 'auto' },
        fix: {
          why: 'The pod was not injected: label its namespace for injection (istio-injection=enabled or istio.io/rev) or the pod sidecar.istio.io/inject="true", and recreate it.',
        },
      });
    }
    const webhooks = istioWebhooks(ctx.objects('MutatingWebhookConfiguration'));
    const namespaceLabels = new Map(
      ctx.objects('Namespace').map((n) => [n.metadata.name, stringMap(n.metadata.labels)]),
    );
    for (const d of ctx.objects('Deployment')) {
      const template = obj(specOf(d)?.template);
      if (!hasAutoImage(obj(template?.spec))) continue;
      const ns = d.metadata.namespace ?? 'default';
      const nsLabels = namespaceLabels.get(ns) ?? {};
      const podLabels = stringMap(obj(template?.metadata)?.labels);
      const injected = webhooks.some(
        (w) =>
          labelSelectorMatches(w.namespaceSelector, nsLabels) &&
          labelSelectorMatches(w.objectSelector, podLabels),
      );
      if (injected) continue;
      out.push({
        code: CATALOG.code.imageAutoWarning,
        severity: CATALOG.byKey.imageAutoWarning.severity,
        subject: subjectOf(d, 'Deployment'),
        evidence: {
          container: 'istio-proxy',
          image: 'auto',
          istioWebhooks: webhooks.length,
          namespaceFound: namespaceLabels.has(ns),
        },
        fix: {
          why: `No Istio injector webhook selects this Deployment's pods: label namespace ${ns} for injection (istio-injection=enabled or istio.io/rev=<revision>) or its pod template sidecar.istio.io/inject="true".`,
        },
      });
    }
    return out;
  },
});
