/**
 * The namespace side of istioctl's injection.Analyzer (its pod side, IST0103, is
 * lib/findings/injection.ts): every Namespace but istio-system is judged by its injection labels.
 * - IST0123: more than one kind of injection label among `istio-injection`, `istio.io/rev` and
 *   `istio.io/dataplane-mode` (a revision or dataplane mode beside `istio-injection` counts only
 *   when that label is `enabled`: `disabled` opts the namespace out, which is no conflict).
 * - Ambient namespaces (`istio.io/dataplane-mode=ambient`) are not expected to be injected.
 * - A namespace with neither `istio-injection` nor `istio.io/rev`: IST0148 when the injector is
 *   installed with `sidecarInjectorWebhook.enableNamespacesByDefault` (the `values` of the
 *   istio-sidecar-injector ConfigMap), which injects it anyway; IST0102 otherwise.
 * istioctl carries the last ConfigMap it read from one namespace to the next; here each namespace
 * is judged by the default injector's ConfigMap alone, as it is the one that serves it.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import { perObject } from '../guard';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { obj } from './raw';
import { SYSTEM_NAMESPACES } from '../../protocol/select';

const CATALOG = defineCatalog('config', {
  namespaceNotInjected: {
    code: 'IST0102',
    severity: 'info',
    title: 'NamespaceNotInjected',
    description:
      'A namespace has no injection label (istio-injection or istio.io/rev): its pods get no sidecar, unless they ask for one.',
    istio: {
      since: '1.0',
      why: "The injection labels are Istio 1.0's; istioctl analyze reports IST0102 since 1.4.",
    },
  },
  multipleInjectionLabels: {
    code: 'IST0123',
    severity: 'warning',
    title: 'NamespaceMultipleInjectionLabels',
    description:
      'A namespace has more than one kind of injection label (istio-injection, istio.io/rev, istio.io/dataplane-mode): which injector or dataplane serves its pods is undefined.',
    istio: {
      since: '1.5',
      why: 'istio.io/rev, the second kind of injection label, is first in Istio 1.5.0 (istio.io/dataplane-mode in 1.18.0); istioctl analyze reports IST0123 since 1.6.',
    },
  },
  injectionEnabledByDefault: {
    code: 'IST0148',
    severity: 'info',
    title: 'NamespaceInjectionEnabledByDefault',
    description:
      'A namespace without injection labels is injected anyway, because Istio is installed with sidecarInjectorWebhook.enableNamespacesByDefault.',
    istio: {
      since: '1.0',
      why: "sidecarInjectorWebhook.enableNamespacesByDefault is in Istio 1.0's charts; istioctl analyze reports IST0148 since 1.12.",
    },
  },
});

type Key = keyof typeof CATALOG.byKey;

const LEGACY = 'istio-injection';
const REVISION = 'istio.io/rev';
const DATAPLANE_MODE = 'istio.io/dataplane-mode';
/** The injector's ConfigMap of the default revision. */
const INJECTOR_CONFIGMAP = 'istio-sidecar-injector';
/** istioctl skips istio's own namespace by this name, whatever the root namespace. */
const ISTIO_SYSTEM = 'istio-system';

function labelsOf(o: KubeObject): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(obj(o.metadata.labels) ?? {})) {
    if (typeof v === 'string') out.set(k, v);
  }
  return out;
}

/** sidecarInjectorWebhook.enableNamespacesByDefault of an injector ConfigMap's `values` JSON. */
function enablesNamespacesByDefault(cm: KubeObject): boolean {
  const values = obj((cm as KubeObject & { data?: unknown }).data)?.values;
  if (typeof values !== 'string') return false;
  try {
    const parsed: unknown = JSON.parse(values);
    return obj(obj(parsed)?.sidecarInjectorWebhook)?.enableNamespacesByDefault === true;
  } catch {
    return false;
  }
}

function finding(
  ns: KubeObject,
  key: Key,
  evidence: Finding['evidence'],
  fix: Finding['fix'],
): Finding {
  const f: Finding = {
    code: CATALOG.code[key],
    severity: CATALOG.byKey[key].severity,
    subject: { kind: 'Namespace', name: ns.metadata.name },
    evidence,
  };
  if (fix !== undefined) f.fix = fix;
  return f;
}

function check(ns: KubeObject, byDefault: boolean): Finding[] {
  const name = ns.metadata.name;
  // istioctl skips its own namespace and Kubernetes' (inject.IgnoredNamespaces)
  if (name === ISTIO_SYSTEM || SYSTEM_NAMESPACES.has(name)) return [];
  const labels = labelsOf(ns);
  const legacy = labels.get(LEGACY);
  const out: Finding[] = [];
  const injectionLabels: string[] = legacy === undefined ? [] : [`${LEGACY}=${legacy}`];
  for (const l of [REVISION, DATAPLANE_MODE]) {
    const v = labels.get(l);
    if (v !== undefined && (legacy === undefined || legacy === 'enabled')) {
      injectionLabels.push(`${l}=${v}`);
    }
  }
  if (injectionLabels.length > 1) {
    out.push(
      finding(
        ns,
        'multipleInjectionLabels',
        { labels: injectionLabels.join(', ') },
        {
          why: `Keep one injection label: istio.io/rev to pick a revision, istio-injection=enabled for the default one, or istio.io/dataplane-mode=ambient for ambient.`,
          yaml: `kubectl label namespace ${name} ${LEGACY}-   # or remove ${REVISION} / ${DATAPLANE_MODE}`,
        },
      ),
    );
  }
  if (labels.get(DATAPLANE_MODE) === 'ambient') return out;
  if ((legacy ?? '') === '' && !labels.has(REVISION)) {
    if (byDefault) {
      out.push(
        finding(
          ns,
          'injectionEnabledByDefault',
          { enableNamespacesByDefault: true, configMap: INJECTOR_CONFIGMAP },
          {
            why: `Label the namespace ${LEGACY}=disabled if its pods are not meant to get a sidecar.`,
          },
        ),
      );
    } else {
      out.push(
        finding(
          ns,
          'namespaceNotInjected',
          { [LEGACY]: legacy ?? null, [REVISION]: null },
          {
            why: 'Label the namespace for injection, or mark it as deliberately not injected.',
            yaml: `kubectl label namespace ${name} ${LEGACY}=enabled   # or ${LEGACY}=disabled`,
          },
        ),
      );
    }
  }
  return out;
}

export const INJECTION_NAMESPACES = defineRule({
  id: 'injection',
  analyzer: 'injection.Analyzer',
  catalog: CATALOG,
  claims: [
    { code: 'IST0102', kinds: ['Namespace'] },
    { code: 'IST0123', kinds: ['Namespace'] },
    { code: 'IST0148', kinds: ['Namespace'] },
  ],
  reads: ['Namespace', 'ConfigMap'],
  check(ctx) {
    const cm = ctx.objects('ConfigMap').find((c) => c.metadata.name === INJECTOR_CONFIGMAP);
    const byDefault = cm !== undefined && enablesNamespacesByDefault(cm);
    return perObject('injection', ctx.objects('Namespace'), (ns) => check(ns, byDefault));
  },
});
