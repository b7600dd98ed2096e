/**
 * IST0171 NegativeConditionStatus, as istioctl's conditions.ConditionAnalyzer reports it: a
 * status condition that Istio (or the Gateway API) sets to say the object is not in effect:
 * - Service, ServiceEntry, WorkloadEntry: `istio.io/WaypointBound` False (the waypoint it names
 *   does not serve it);
 * - AuthorizationPolicy: `ZtunnelAccepted` or `WaypointAccepted` False, and `WaypointAccepted`
 *   with reason PartiallyInvalid whatever its status (some of its targetRefs are not applied);
 * - Gateway API's Gateway: `Accepted`, `Programmed` or `ResolvedRefs` False in status.conditions;
 *   HTTPRoute, GRPCRoute: the same in any status.parents[].conditions.
 * One finding per condition (identical type, reason and message once, as istioctl dedupes its
 * messages). Other condition types (Argo CD's...) and Istio's own Gateway are not judged.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { list, obj, objects, str, type Raw } from './raw';

const CATALOG = defineCatalog('config', {
  negativeConditionStatus: {
    code: 'IST0171',
    severity: 'warning',
    title: 'NegativeConditionStatus',
    description:
      'A status condition says the object is not in effect (not bound to its waypoint, not accepted by ztunnel or the waypoint, a Gateway or route not accepted, programmed or resolved): the traffic policy or route it holds is not applied.',
    istio: {
      since: '1.12',
      why: 'istiod writes the Gateway API conditions it reads (gateway.networking.k8s.io) since 1.12.0, the waypoint and ztunnel ones (istio.io/WaypointBound, ZtunnelAccepted, WaypointAccepted) since 1.24.0; istioctl analyze reports IST0171 since 1.25.',
    },
  },
});

const WAYPOINT_BOUND = ['istio.io/WaypointBound'];
const GATEWAY_API_TYPES = ['Accepted', 'Programmed', 'ResolvedRefs'];

interface Watched {
  /** The API group the kind must be of ('' for the core group). */
  group: string;
  /** Condition types that are negative when False. */
  types: readonly string[];
  /** Conditions under status.parents[] (routes) rather than status.conditions. */
  parents?: boolean;
}

const WATCHED: Readonly<Record<string, Watched>> = {
  Service: { group: '', types: WAYPOINT_BOUND },
  ServiceEntry: { group: 'networking.istio.io', types: WAYPOINT_BOUND },
  WorkloadEntry: { group: 'networking.istio.io', types: WAYPOINT_BOUND },
  AuthorizationPolicy: {
    group: 'security.istio.io',
    types: ['ZtunnelAccepted', 'WaypointAccepted'],
  },
  Gateway: { group: 'gateway.networking.k8s.io', types: GATEWAY_API_TYPES },
  HTTPRoute: { group: 'gateway.networking.k8s.io', types: GATEWAY_API_TYPES, parents: true },
  GRPCRoute: { group: 'gateway.networking.k8s.io', types: GATEWAY_API_TYPES, parents: true },
};

/** The API group of an apiVersion (`v1` is the core group ''); null when there is none. */
function groupOf(apiVersion: unknown): string | null {
  const v = str(apiVersion);
  if (v === undefined || v === '') return null;
  const slash = v.indexOf('/');
  return slash < 0 ? '' : v.slice(0, slash);
}

/** Each condition with where it is (`status.conditions[i]`, `status.parents[j].conditions[i]`). */
function conditions(o: KubeObject, parents: boolean): { at: string; c: Raw }[] {
  const status = obj((o as KubeObject & { status?: unknown }).status);
  const at = (prefix: string, v: unknown) =>
    list(v).flatMap((c, i) => {
      const cond = obj(c);
      return cond === null ? [] : [{ at: `${prefix}conditions[${i}]`, c: cond }];
    });
  if (!parents) return at('status.', status?.conditions);
  return objects(status?.parents).flatMap((p, j) => at(`status.parents[${j}].`, p.conditions));
}

function negative(kind: string, w: Watched, c: Raw): boolean {
  const type = str(c.type) ?? '';
  if (w.types.includes(type) && c.status === 'False') return true;
  return (
    kind === 'AuthorizationPolicy' && type === 'WaypointAccepted' && c.reason === 'PartiallyInvalid'
  );
}

const MAX_MESSAGE = 300;

function objectFindings(o: KubeObject, kind: string, w: Watched): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const { at, c } of conditions(o, w.parents === true)) {
    if (!negative(kind, w, c)) continue;
    const type = str(c.type) ?? '';
    const reason = str(c.reason) ?? '';
    const message = str(c.message) ?? '';
    const key = JSON.stringify([type, reason, message]);
    if (seen.has(key)) continue;
    seen.add(key);
    const subject: Finding['subject'] = { kind, name: o.metadata.name };
    if (o.metadata.namespace !== undefined) subject.namespace = o.metadata.namespace;
    out.push({
      code: CATALOG.code.negativeConditionStatus,
      severity: CATALOG.byKey.negativeConditionStatus.severity,
      subject,
      part: { kind: 'field', name: at },
      evidence: {
        conditionType: type,
        status: str(c.status) ?? null,
        reason,
        message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message,
      },
      fix: {
        why: `Fix what the ${type} condition's reason says (${reason || 'no reason given'}): the object is not in effect until its controller sets the condition back.`,
      },
    });
  }
  return out;
}

export const NEGATIVE_CONDITIONS = defineRule({
  id: 'negative-conditions',
  analyzer: 'conditions.ConditionAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0171', kinds: Object.keys(WATCHED) }],
  reads: Object.keys(WATCHED),
  perObject: true,
  check(ctx) {
    return Object.entries(WATCHED).flatMap(([kind, w]) =>
      ctx
        .objects(kind)
        .filter((o) => groupOf(o.apiVersion) === w.group)
        .flatMap((o) => objectFindings(o, kind, w)),
    );
  },
});
