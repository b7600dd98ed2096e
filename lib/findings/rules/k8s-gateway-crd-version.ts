/**
 * IST0176 GatewayAPICRDVersionBelowMinimum, as istioctl's k8sgateway.CRDVersionAnalyzer reports
 * it: a Gateway API CustomResourceDefinition whose gateway.networking.k8s.io/bundle-version
 * annotation, read as Masterminds semver reads it (a leading `v`, missing minor or patch taken
 * as 0) and without its pre-release, is below the minimum Istio requires for that CRD. A CRD
 * without the annotation, or with a version that does not parse, is not judged (istiod's CRD
 * watcher logs those itself).
 *
 * The minimums are Istio's (pkg/config/schema/gatewayapi/minimumversions.go at the commit named
 * in tests/data/istio-analyzer/PROVENANCE.md).
 */
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { stringMap } from './raw';

const CATALOG = defineCatalog('config', {
  crdBelowMinimum: {
    code: 'IST0176',
    severity: 'warning',
    title: 'GatewayAPICRDVersionBelowMinimum',
    description:
      'A Gateway API CRD is installed at a bundle version older than this Istio version requires: istiod does not watch it, so every resource of that kind (TLSRoute, TCPRoute...) is ignored: routes attach to nothing and the listeners they need are never programmed, with no error on the resources themselves.',
    istio: {
      since: '1.31',
      why: 'istiod ignores Gateway API CRDs below its minimum bundle versions (pkg/config/schema/gatewayapi/minimumversions.go) since 1.31.0, the minimums this check uses; istioctl analyze reports IST0176 since 1.31.',
    },
  },
});

const BUNDLE_VERSION = 'gateway.networking.k8s.io/bundle-version';

type Triple = readonly [number, number, number];

/** The minimum bundle version of each Gateway API CRD Istio checks. */
const MINIMUM: ReadonlyMap<string, Triple> = new Map<string, Triple>([
  ['grpcroutes.gateway.networking.k8s.io', [1, 1, 0]],
  ['backendtlspolicies.gateway.networking.k8s.io', [1, 4, 0]],
  ['tlsroutes.gateway.networking.k8s.io', [1, 5, 0]],
  ['tcproutes.gateway.networking.k8s.io', [1, 6, 0]],
]);

const LOOSE_SEMVER =
  /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** A version as Masterminds semver's NewVersion reads it, or null when it refuses it. */
function parseVersion(text: string): { triple: Triple; text: string } | null {
  const m = LOOSE_SEMVER.exec(text);
  if (m === null) return null;
  const [major, minor, patch] = [m[1], m[2], m[3]].map((s) => Number(s ?? '0'));
  const pre = m[4];
  // a numeric pre-release identifier with a leading zero is refused
  if (pre !== undefined && pre.split('.').some((p) => /^0\d+$/.test(p))) return null;
  const triple = [major ?? 0, minor ?? 0, patch ?? 0] as const;
  if (!triple.every(Number.isSafeInteger)) return null;
  const tail = `${pre === undefined ? '' : `-${pre}`}${m[5] === undefined ? '' : `+${m[5]}`}`;
  return { triple, text: `${triple.join('.')}${tail}` };
}

function below(a: Triple, b: Triple): boolean {
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  }
  return false;
}

export const K8S_GATEWAY_CRD_VERSION = defineRule({
  id: 'k8s-gateway-crd-version',
  analyzer: 'k8sgateway.CRDVersionAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0176', kinds: ['CustomResourceDefinition'] }],
  reads: ['CustomResourceDefinition'],
  perObject: true,
  check(ctx) {
    const out: Finding[] = [];
    for (const crd of ctx.objects('CustomResourceDefinition')) {
      const minimum = MINIMUM.get(crd.metadata.name);
      if (minimum === undefined) continue;
      const annotations = stringMap(crd.metadata.annotations);
      if (!Object.hasOwn(annotations, BUNDLE_VERSION)) continue;
      const installed = parseVersion(annotations[BUNDLE_VERSION] ?? '');
      if (installed === null || !below(installed.triple, minimum)) continue;
      out.push({
        code: CATALOG.code.crdBelowMinimum,
        severity: CATALOG.byKey.crdBelowMinimum.severity,
        subject: { kind: 'CustomResourceDefinition', name: crd.metadata.name },
        evidence: {
          crd: crd.metadata.name,
          installedVersion: installed.text,
          minimumVersion: minimum.join('.'),
        },
        fix: {
          why: `Upgrade the Gateway API CRDs to bundle version ${minimum.join('.')} or later (kubectl apply the release's standard or experimental install).`,
        },
      });
    }
    return out;
  },
});
