/**
 * IST0158 PodsIstioProxyImageMismatchInNamespace, as istioctl's injection.ImageAnalyzer reports
 * it: in a namespace injected by `istio-injection=enabled` or an `istio.io/rev` label, pods whose
 * istio-proxy container (or native sidecar init container) runs another image than the one the
 * injector of that revision would inject now (the `values` of its istio-sidecar-injector
 * ConfigMap: global.proxy.image, prefixed by global.hub and suffixed by global.tag unless it is a
 * full reference), with the pod's image type (`-distroless`, `-debug`) as the mesh config's
 * defaultConfig, a ProxyConfig (root, namespace, then workload) or the pod's
 * proxy.istio.io/config annotation sets it. One finding per namespace, naming its pods; pods
 * that pin their image (sidecar.istio.io/proxyImage) are left out.
 *
 * The mesh config is read from the `istio` ConfigMap. When none is among the objects, the mesh's
 * image type is unknown: a pod whose image type nothing else sets is then accepted with the
 * plain image or any of Istio's image types (a mesh default of distroless is not taken for a
 * stale proxy). An injector ConfigMap whose values cannot be read judges no pod.
 */
import { parseDocument } from 'yaml';
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { obj, str, specOf, dataOf, stringMap } from './raw';

const CATALOG = defineCatalog('config', {
  proxyImageMismatch: {
    code: 'IST0158',
    severity: 'warning',
    title: 'PodsIstioProxyImageMismatchInNamespace',
    description:
      'Pods of an injected namespace run an istio-proxy image other than the one the injector would inject now (often after an upgrade of the control plane): they run the old proxy until they are restarted.',
    istio: {
      since: '1.5',
      why: "The injector ConfigMap's values, which give the image injected now, are first in Istio 1.5.0's charts; istioctl analyze reports IST0158 since 1.18.",
    },
  },
});

const INJECTOR_PREFIX = 'istio-sidecar-injector';
const PROXY = 'istio-proxy';
/** The image types Istio publishes besides the default one. */
const IMAGE_TYPES = ['distroless', 'debug'] as const;

/** The proxy image an injector ConfigMap's values give, or null when they cannot be read. */
function injectorImage(cm: KubeObject): string | null {
  const values = str(dataOf(cm)?.values);
  if (values === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(values);
  } catch {
    return null;
  }
  const global = obj(obj(parsed)?.global);
  const image = str(obj(global?.proxy)?.image);
  if (image === undefined || image === '') return null;
  if (image.includes('/')) return image;
  const hub = str(global?.hub);
  const tag = str(global?.tag);
  return hub === undefined || tag === undefined ? null : `${hub}/${image}:${tag}`;
}

/** `image.imageType` of a ProxyConfig-shaped value; '' when unset. */
const imageTypeOf = (proxyConfig: unknown): string =>
  str(obj(obj(proxyConfig)?.image)?.imageType) ?? '';

function yamlValue(text: string): unknown {
  const doc = parseDocument(text);
  return doc.errors.length > 0 ? undefined : (doc.toJS() as unknown);
}

/** The mesh config's defaultConfig image type, from the `istio` ConfigMap; null when unknown. */
function meshImageType(configMaps: readonly KubeObject[], root: string): string | null {
  const istio = configMaps.filter((c) => c.metadata.name === 'istio');
  const cm = istio.find((c) => c.metadata.namespace === root) ?? istio[0];
  const mesh = str(cm === undefined ? undefined : dataOf(cm)?.mesh);
  if (mesh === undefined) return null;
  const value = yamlValue(mesh);
  if (value !== null && value !== undefined && obj(value) === null) return null;
  return imageTypeOf(obj(value)?.defaultConfig);
}

interface ProxyConfigs {
  root: string;
  namespace: Map<string, string>;
  workload: { namespace: string; matchLabels: Record<string, string>; imageType: string }[];
}

function proxyConfigs(objects: readonly KubeObject[], root: string): ProxyConfigs {
  const out: ProxyConfigs = { root: '', namespace: new Map(), workload: [] };
  for (const pc of objects) {
    const spec = specOf(pc);
    const ns = pc.metadata.namespace ?? '';
    const imageType = imageTypeOf(spec);
    if (ns === root) out.root = imageType;
    else if (spec?.selector === undefined || spec.selector === null) {
      out.namespace.set(ns, imageType);
    } else {
      const matchLabels = stringMap(obj(spec.selector)?.matchLabels);
      out.workload.push({ namespace: ns, matchLabels, imageType });
    }
  }
  return out;
}

/** The pod's image type ('' for the default one); null when only the unknown mesh could set it. */
function podImageType(pod: KubeObject, mesh: string | null, pcs: ProxyConfigs): string | null {
  let variant: string | null = mesh;
  const set = (v: string) => {
    if (v !== '') variant = v;
  };
  set(pcs.root);
  set(pcs.namespace.get(pod.metadata.namespace ?? '') ?? '');
  const labels = stringMap(pod.metadata.labels);
  for (const w of pcs.workload) {
    if (w.namespace !== pod.metadata.namespace) continue;
    if (Object.entries(w.matchLabels).every(([k, v]) => labels[k] === v)) set(w.imageType);
  }
  const annotation = stringMap(pod.metadata.annotations)['proxy.istio.io/config'];
  if (annotation !== undefined) set(imageTypeOf(yamlValue(annotation)));
  return variant === 'default' ? '' : variant;
}

function proxyImages(pod: KubeObject): string[] {
  const spec = specOf(pod);
  const all = [spec?.containers, spec?.initContainers].flatMap((l) => (Array.isArray(l) ? l : []));
  return all.flatMap((c: unknown) => {
    const o = obj(c);
    return o?.name === PROXY ? [str(o.image) ?? ''] : [];
  });
}

function accepted(image: string, expected: string, variant: string | null): boolean {
  if (image === expected) return true;
  const types = variant === null ? IMAGE_TYPES : [variant];
  return types.some((t) => image === `${expected}-${t}`);
}

/** The injector ConfigMap of a revision ('default' and none are the default injector's). */
const injectorName = (revision: string): string =>
  revision === '' || revision === 'default' ? INJECTOR_PREFIX : `${INJECTOR_PREFIX}-${revision}`;

function injectedRevision(ns: KubeObject): string | null {
  const labels = stringMap(ns.metadata.labels);
  const rev = labels['istio.io/rev'];
  if (rev !== undefined) return rev;
  return labels['istio-injection'] === 'enabled' ? 'default' : null;
}

export const INJECTION_IMAGE = defineRule({
  id: 'injection-image',
  analyzer: 'injection.ImageAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0158', kinds: ['Namespace'] }],
  reads: ['Namespace', 'Pod', 'ConfigMap', 'ProxyConfig'],
  check(ctx) {
    const configMaps = ctx.objects('ConfigMap');
    const images = new Map<string, string | null>();
    for (const cm of configMaps) {
      if (cm.metadata.name.startsWith(INJECTOR_PREFIX)) {
        images.set(cm.metadata.name, injectorImage(cm));
      }
    }
    if (images.size === 0) return [];
    const injected = new Map<string, string>();
    for (const ns of ctx.objects('Namespace')) {
      const rev = injectedRevision(ns);
      if (rev !== null) injected.set(ns.metadata.name, rev);
    }
    const mesh = meshImageType(configMaps, ctx.rootNamespace);
    const pcs = proxyConfigs(ctx.objects('ProxyConfig'), ctx.rootNamespace);
    const mismatched = new Map<string, { pods: Set<string>; expected: string }>();
    for (const pod of ctx.objects('Pod')) {
      const ns = pod.metadata.namespace ?? 'default';
      const rev = injected.get(ns);
      if (rev === undefined) continue;
      if ((stringMap(pod.metadata.annotations)['sidecar.istio.io/proxyImage'] ?? '') !== '') {
        continue;
      }
      const expected = images.get(injectorName(rev));
      if (expected === undefined || expected === null) continue;
      const variant = podImageType(pod, mesh, pcs);
      if (proxyImages(pod).every((image) => accepted(image, expected, variant))) continue;
      const m = mismatched.get(ns) ?? { pods: new Set<string>(), expected };
      m.pods.add(pod.metadata.name);
      mismatched.set(ns, m);
    }
    return [...mismatched.entries()].map(([ns, m]): Finding => {
      const pods = [...m.pods].sort();
      return {
        code: CATALOG.code.proxyImageMismatch,
        severity: CATALOG.byKey.proxyImageMismatch.severity,
        subject: { kind: 'Namespace', name: ns },
        evidence: {
          injectorImage: m.expected,
          injector: injectorName(injected.get(ns) ?? ''),
          pods: pods.join(', '),
          meshImageType: mesh,
        },
        fix: {
          why: 'Restart the workloads of these pods so the injector gives them the current proxy image.',
          yaml: `kubectl -n ${ns} rollout restart deployment   # or restart the workloads of: ${pods.join(' ')}`,
        },
      };
    });
  },
});
