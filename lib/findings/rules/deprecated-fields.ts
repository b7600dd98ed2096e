/**
 * IST0002 Deprecated, as istioctl's deprecation.FieldAnalyzer reports it, once per object:
 * - a VirtualService with an HTTP route whose `fault.delay.percent` is above 0 (replaced by
 *   `fault.delay.percentage`);
 * - a Sidecar that sets `outboundTrafficPolicy.egressProxy` (istioctl: "ignored");
 * - a CustomResourceDefinition of a type Istio removed (rbac.istio.io's ClusterRbacConfig,
 *   RbacConfig, ServiceRole, ServiceRoleBinding): its objects do nothing any more.
 *
 * IST0002 is also what telemetry.LightstepAnalyzer reports (./telemetry-lightstep.ts): both
 * rules hold this one catalog entry (the same object, so the registry keeps it once), and
 * evidence.reftype tells their findings apart ('deprecated field', 'removed type' here).
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { EvidenceValue, Finding } from '../types';
import { defineRule } from './rule';
import { list, obj, specOf, str } from './raw';

/** IST0002's one entry, for every rule that reports it. */
export const DEPRECATED_CATALOG = defineCatalog('config', {
  deprecated: {
    code: 'IST0002',
    severity: 'warning',
    title: 'Deprecated',
    description:
      'The configuration depends on something Istio deprecated or removed (a replaced field, a removed resource type, the Lightstep tracing provider): it may stop working, or already does nothing, after an upgrade.',
    istio: {
      since: '1.4',
      why: 'istioctl analyze reports IST0002 since 1.4. Each deprecation it names has its own release (rbac.istio.io removed in 1.6, Sidecar egressProxy first in 1.6, the Lightstep provider later), which one range per code does not tell apart.',
    },
  },
});

/** Istio's CRDs removed from its charts: their objects configure nothing. */
const REMOVED_TYPES: Readonly<Record<string, readonly string[]>> = {
  'rbac.istio.io': ['ClusterRbacConfig', 'RbacConfig', 'ServiceRole', 'ServiceRoleBinding'],
};

interface Deprecation {
  reftype: 'deprecated field' | 'removed type';
  detail: Record<string, EvidenceValue>;
  why: string;
}

/** The HTTP routes `http[i]` whose fault.delay.percent is set above 0. */
function delayPercentRoutes(vs: KubeObject): string[] {
  return list(specOf(vs)?.http).flatMap((route, i) => {
    const percent = obj(obj(obj(route)?.fault)?.delay)?.percent;
    return typeof percent === 'number' && percent > 0 ? [`http[${i}]`] : [];
  });
}

function virtualService(vs: KubeObject): Deprecation | null {
  const routes = delayPercentRoutes(vs);
  if (routes.length === 0) return null;
  return {
    reftype: 'deprecated field',
    detail: {
      field: 'HTTPRoute.fault.delay.percent',
      replacement: 'HTTPRoute.fault.delay.percentage',
      routes: routes.join(', '),
    },
    why: 'Replace fault.delay.percent: N with fault.delay.percentage: {value: N}.',
  };
}

function sidecar(sc: KubeObject): Deprecation | null {
  const policy = obj(specOf(sc)?.outboundTrafficPolicy);
  const proxy = policy?.egressProxy;
  if (proxy === undefined || proxy === null) return null;
  return {
    reftype: 'deprecated field',
    detail: { field: 'OutboundTrafficPolicy.egressProxy', istioctl: 'ignored' },
    why: 'Remove outboundTrafficPolicy.egressProxy, which istioctl reports as ignored; to send external traffic through a proxy, route it to an egress gateway instead.',
  };
}

function crd(c: KubeObject): Deprecation | null {
  const spec = specOf(c);
  const group = str(spec?.group) ?? '';
  const kind = str(obj(spec?.names)?.kind) ?? '';
  if (!(REMOVED_TYPES[group] ?? []).includes(kind)) return null;
  return {
    reftype: 'removed type',
    detail: { group, type: kind },
    why: `Custom resource type ${group} ${kind} is removed: migrate its objects (rbac.istio.io to AuthorizationPolicy), then delete the CRD.`,
  };
}

const CHECKS: readonly [string, (o: KubeObject) => Deprecation | null][] = [
  ['VirtualService', virtualService],
  ['Sidecar', sidecar],
  ['CustomResourceDefinition', crd],
];

export const DEPRECATED_FIELDS = defineRule({
  id: 'deprecated-fields',
  analyzer: 'deprecation.FieldAnalyzer',
  catalog: DEPRECATED_CATALOG,
  claims: [
    {
      code: 'IST0002',
      kinds: ['VirtualService', 'Sidecar', 'CustomResourceDefinition'],
      reftypes: ['deprecated field', 'removed type'],
    },
  ],
  reads: ['VirtualService', 'Sidecar', 'CustomResourceDefinition'],
  perObject: true,
  check(ctx) {
    return CHECKS.flatMap(([kind, check]) =>
      ctx.objects(kind).flatMap((o): Finding[] => {
        const d = check(o);
        if (d === null) return [];
        const subject: Finding['subject'] = { kind, name: o.metadata.name };
        const ns = o.metadata.namespace;
        if (ns !== undefined && kind !== 'CustomResourceDefinition') subject.namespace = ns;
        return [
          {
            code: DEPRECATED_CATALOG.code.deprecated,
            severity: DEPRECATED_CATALOG.byKey.deprecated.severity,
            subject,
            evidence: { reftype: d.reftype, ...d.detail },
            fix: { why: d.why },
          },
        ];
      }),
    );
  },
});
