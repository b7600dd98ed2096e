/**
 * IST0140 IngressRouteRulesNotAffected, as istioctl's virtualservice.DestinationHostAnalyzer
 * reports it: a VirtualService bound to gateways (spec.gateways not empty) routes HTTP to a host
 * without a subset, while another VirtualService, the mesh's for that host (one whose spec.hosts
 * holds the host), splits traffic to it by subset. At the gateway only the gateway-bound
 * VirtualService applies: the subset routing (canary, version pinning) of the mesh one is not
 * applied to traffic coming in through the gateway.
 *
 * As istioctl, hosts are compared as written (`ratings` and `ratings.default.svc.cluster.local`
 * are different), any VirtualService counts (the gateway-bound one too, when it routes to one
 * of its own hosts by subset), and it is reported once per route without subset and
 * destination with subset of the same host. The IST0101/IST0112 of the same analyzer are
 * lib/findings/references.ts's.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { objectKey } from '../../refs/object-ref';
import { defineRule } from './rule';
import { list, obj, objects, specOf, str, strings } from './raw';

const CATALOG = defineCatalog('config', {
  ingressSubsetIgnored: {
    code: 'IST0140',
    severity: 'warning',
    title: 'IngressRouteRulesNotAffected',
    description:
      "A gateway's VirtualService routes to a host without a subset while the mesh's VirtualService for that host routes by subset: requests coming in through the gateway skip that subset routing (a canary split or version pinning does not apply to them).",
    istio: {
      since: '1.0',
      why: "Gateway and mesh VirtualServices with subsets are Istio 1.0's; istioctl analyze reports IST0140 since 1.10.",
    },
  },
});

interface Route {
  rule: number;
  route: number;
  host: string;
  subset: string;
}

/** The HTTP route destinations of a VirtualService, with their place. */
function httpRoutes(vs: KubeObject): Route[] {
  return objects(specOf(vs)?.http).flatMap((http, rule) =>
    objects(http.route).flatMap((route, index) => {
      const d = obj(route.destination);
      return [
        {
          rule,
          route: index,
          host: str(d?.host) ?? '',
          subset: str(d?.subset) ?? '',
        },
      ];
    }),
  );
}

export const INGRESS_SUBSET = defineRule({
  id: 'ingress-subset',
  analyzer: 'virtualservice.DestinationHostAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0140', kinds: ['VirtualService'] }],
  reads: ['VirtualService'],
  check(ctx) {
    const virtualServices = ctx.objects('VirtualService');
    /** VirtualServices that route one of their own hosts by subset, with those destinations. */
    const bySubset = virtualServices.flatMap((vs) => {
      const hosts = strings(specOf(vs)?.hosts);
      const routes = httpRoutes(vs).filter((r) => r.subset !== '');
      // a destination counts once per host it equals, as istioctl counts it
      const destinations = routes.flatMap((r) => hosts.filter((h) => h === r.host).map(() => r));
      const key = objectKey(vs.metadata.namespace ?? 'default', vs.metadata.name);
      return destinations.length === 0 ? [] : [{ key, destinations }];
    });
    // those destinations by host, in bySubset's order (each with its VirtualService and index)
    const byHost = new Map<string, { key: string; d: Route; i: number }[]>();
    for (const other of bySubset) {
      other.destinations.forEach((d, i) => {
        const l = byHost.get(d.host);
        if (l === undefined) byHost.set(d.host, [{ key: other.key, d, i }]);
        else l.push({ key: other.key, d, i });
      });
    }
    const out: Finding[] = [];
    for (const vs of virtualServices) {
      if (list(specOf(vs)?.gateways).length === 0) continue;
      const ns = vs.metadata.namespace ?? 'default';
      const self = objectKey(ns, vs.metadata.name);
      for (const r of httpRoutes(vs)) {
        if (r.subset !== '') continue;
        for (const { key: otherKey, d, i } of byHost.get(r.host) ?? []) {
          out.push({
            code: CATALOG.code.ingressSubsetIgnored,
            severity: CATALOG.byKey.ingressSubsetIgnored.severity,
            subject: { kind: 'VirtualService', namespace: ns, name: vs.metadata.name },
            part: {
              kind: 'destination',
              name: `http[${r.rule}].route[${r.route}] ~ ${otherKey} #${i}`,
            },
            evidence: {
              host: r.host,
              subsetVirtualService: otherKey,
              subset: d.subset,
              gatewayVirtualService: self,
            },
            fix: {
              why: `Route to the subsets in this gateway VirtualService too (as ${otherKey} does for ${r.host}), or bind ${otherKey} to the gateway as well.`,
            },
          });
        }
      }
    }
    return out;
  },
});
