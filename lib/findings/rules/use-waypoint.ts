/**
 * MDX0609 (meshdx's own, beyond istioctl): an object that asks for a waypoint with
 * `istio.io/use-waypoint: NAME` (a Namespace, Service, ServiceEntry, Pod or WorkloadEntry) names
 * a Gateway that does not exist, or one that is not a waypoint (Gateway API's
 * gateway.networking.k8s.io Gateway of class `istio-waypoint`), in the namespace
 * `istio.io/use-waypoint-namespace` gives, else the object's own. Istio then has no waypoint to
 * send that traffic through: its L7 policies and routes are not applied, and an
 * AuthorizationPolicy bound to the waypoint denies nothing it was meant to deny. `none` opts out
 * and is no finding. When the Gateways could not be read, nothing is judged.
 */
import type { KubeObject } from '../../kube/types';
import { USE_WAYPOINT_LABEL, USE_WAYPOINT_NS_LABEL, WAYPOINT_CLASS } from '../../dataplane/mode';
import { objectKey } from '../../refs/object-ref';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { specOf, str, stringMap } from './raw';

const CATALOG = defineCatalog('ambient', {
  waypointMissing: {
    code: 'MDX0609',
    severity: 'error',
    title: 'use-waypoint names no waypoint',
    description:
      'istio.io/use-waypoint names a Gateway that does not exist or is not a waypoint (class istio-waypoint): the traffic it should carry goes through no waypoint, so its L7 policies and routes are not applied.',
    istio: { since: '1.22', why: 'istio.io/use-waypoint is first in Istio 1.22.0.' },
  },
});

const LABELLED = ['Namespace', 'Service', 'ServiceEntry', 'Pod', 'WorkloadEntry'] as const;
const GATEWAY_API = 'gateway.networking.k8s.io/';

function finding(o: KubeObject, waypoint: string, problem: string, cls: string | null): Finding {
  const subject: Finding['subject'] = { kind: o.kind ?? '', name: o.metadata.name };
  if (o.kind !== 'Namespace' && o.metadata.namespace !== undefined)
    subject.namespace = o.metadata.namespace;
  return {
    code: CATALOG.code.waypointMissing,
    severity: CATALOG.byKey.waypointMissing.severity,
    subject,
    evidence: { waypoint, problem, gatewayClassName: cls },
    fix: {
      why:
        problem === 'missing'
          ? `Create the waypoint (istioctl waypoint apply -n NAMESPACE --name NAME) or point ${USE_WAYPOINT_LABEL} at an existing one.`
          : `Point ${USE_WAYPOINT_LABEL} at a Gateway of class ${WAYPOINT_CLASS}, or give this Gateway that class.`,
    },
  };
}

export const USE_WAYPOINT = defineRule({
  id: 'use-waypoint',
  analyzer: null,
  catalog: CATALOG,
  claims: [],
  reads: [...LABELLED, 'Gateway'],
  perObject: true,
  check(ctx) {
    // without the Gateways no one can say a waypoint is missing
    if (ctx.screened.gatewaysUnknown !== null) return [];
    const gateways = new Map<string, string | null>();
    for (const g of ctx.objects('Gateway')) {
      const api = str((g as KubeObject & { apiVersion?: unknown }).apiVersion) ?? '';
      if (!api.startsWith(GATEWAY_API)) continue;
      const key = objectKey(g.metadata.namespace ?? 'default', g.metadata.name);
      gateways.set(key, str(specOf(g)?.gatewayClassName) ?? null);
    }
    const out: Finding[] = [];
    for (const kind of LABELLED) {
      for (const o of ctx.objects(kind)) {
        const labels = stringMap(o.metadata.labels);
        const name = labels[USE_WAYPOINT_LABEL];
        if (name === undefined || name === '' || name === 'none') continue;
        const home = kind === 'Namespace' ? o.metadata.name : (o.metadata.namespace ?? 'default');
        const waypoint = objectKey(labels[USE_WAYPOINT_NS_LABEL] || home, name);
        if (!gateways.has(waypoint)) out.push(finding(o, waypoint, 'missing', null));
        else {
          const cls = gateways.get(waypoint) ?? null;
          if (cls !== WAYPOINT_CLASS) out.push(finding(o, waypoint, 'not a waypoint', cls));
        }
      }
    }
    return out;
  },
});
