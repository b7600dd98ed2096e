import type { DestinationRule, OutlierDetection, VirtualService } from '../kube/types';
import { expandHost, hostMatchScore } from './hosts';
import { parseServiceFqdn } from '../refs/service-host';
import { objectKeyOf } from '../refs/object-ref';

/** Istio's default route retry policy (no VirtualService retries): FIELD-NOTES, verified. */
export const DEFAULT_RETRY_ON =
  'connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes';
export const DEFAULT_RETRY_ATTEMPTS = 2;

export interface OutlierSetting {
  /** The DestinationRule it comes from, "namespace/name". */
  source: string;
  /** The subset whose trafficPolicy set it, when not the top-level one. */
  subset: string | null;
  consecutive5xxErrors: number | null;
  consecutiveGatewayErrors: number | null;
  interval: string | null;
  baseEjectionTime: string | null;
  maxEjectionPercent: number | null;
}

export interface RetrySetting {
  /** "namespace/name" of the VirtualService, or null for Istio's default policy. */
  source: string | null;
  attempts: number;
  retryOn: string;
  perTryTimeout: string | null;
  /** True when no VirtualService route sets retries: Istio's default applies. */
  isDefault: boolean;
}

export interface ServiceResilience {
  fqdn: string;
  destinationRule: string | null;
  outlier: OutlierSetting | null;
  retries: RetrySetting;
}

const refOf = (o: { metadata: { namespace?: string; name: string } }) => objectKeyOf(o, '');

/** The DestinationRule that applies to a service FQDN (most specific host; the service's namespace wins ties). */
export function destinationRuleByHost(
  fqdn: string,
  rules: readonly DestinationRule[],
): DestinationRule | null {
  const svc = parseServiceFqdn(fqdn);
  const domain = svc?.domain ?? 'cluster.local';
  let best: { rule: DestinationRule; score: number } | null = null;
  for (const rule of rules) {
    const ns = rule.metadata.namespace ?? 'default';
    let score = hostMatchScore(expandHost(rule.spec.host, ns, domain), fqdn);
    if (score === 0) continue;
    if (svc && ns === svc.namespace) score += 0.5;
    if (!best || score > best.score) best = { rule, score };
  }
  return best?.rule ?? null;
}

function outlierOf(o: OutlierDetection, source: string, subset: string | null): OutlierSetting {
  return {
    source,
    subset,
    consecutive5xxErrors: o.consecutive5xxErrors ?? null,
    consecutiveGatewayErrors: o.consecutiveGatewayErrors ?? null,
    interval: o.interval ?? null,
    baseEjectionTime: o.baseEjectionTime ?? null,
    maxEjectionPercent: o.maxEjectionPercent ?? null,
  };
}

/** The retry policy of the first VirtualService http route to the service, or Istio's default. */
export function retriesFor(fqdn: string, services: readonly VirtualService[]): RetrySetting {
  const svc = parseServiceFqdn(fqdn);
  const domain = svc?.domain ?? 'cluster.local';
  const sorted = [...services].sort((a, b) => refOf(a).localeCompare(refOf(b)));
  for (const vs of sorted) {
    const ns = vs.metadata.namespace ?? 'default';
    const gateways = vs.spec.gateways ?? [];
    if (gateways.length > 0 && !gateways.includes('mesh')) continue;
    const hostMatch = (vs.spec.hosts ?? []).some(
      (h) => hostMatchScore(expandHost(h, ns, domain), fqdn) > 0,
    );
    for (const route of vs.spec.http ?? []) {
      const toService = (route.route ?? []).some(
        (r) =>
          r.destination !== undefined &&
          hostMatchScore(expandHost(r.destination.host, ns, domain), fqdn) > 0,
      );
      if (!hostMatch && !toService) continue;
      const r = route.retries;
      if (!r) continue;
      return {
        source: refOf(vs),
        attempts: r.attempts ?? DEFAULT_RETRY_ATTEMPTS,
        retryOn: r.retryOn ?? DEFAULT_RETRY_ON,
        perTryTimeout: r.perTryTimeout ?? null,
        isDefault: false,
      };
    }
  }
  return {
    source: null,
    attempts: DEFAULT_RETRY_ATTEMPTS,
    retryOn: DEFAULT_RETRY_ON,
    perTryTimeout: null,
    isDefault: true,
  };
}

/** Outlier detection and retries that apply to requests to `fqdn` (subset when the cluster had one). */
export function resilienceFor(
  fqdn: string,
  subset: string | null,
  rules: readonly DestinationRule[],
  services: readonly VirtualService[],
): ServiceResilience {
  const rule = destinationRuleByHost(fqdn, rules);
  let outlier: OutlierSetting | null = null;
  if (rule) {
    const source = refOf(rule);
    const sub = subset ? rule.spec.subsets?.find((s) => s.name === subset) : undefined;
    const subOd = sub?.trafficPolicy?.outlierDetection;
    const topOd = rule.spec.trafficPolicy?.outlierDetection;
    if (subOd) outlier = outlierOf(subOd, source, subset);
    else if (topOd) outlier = outlierOf(topOd, source, null);
  }
  return {
    fqdn,
    destinationRule: rule ? refOf(rule) : null,
    outlier,
    retries: retriesFor(fqdn, services),
  };
}
