import type { Finding, FindingSubject } from '../findings/types';
import type { DestinationRule, OutlierDetection } from '../kube/types';
import { compareIstioMinors, parseIstioRelease } from '../findings/istio-version';
import { INCIDENT_CATALOG, type IncidentVerdict } from './codes';
import { parseServiceFqdn } from '../refs/service-host';
import { parseObjectKey } from '../refs/object-ref';
import type { ServiceResilience } from './resilience';
import { destinationRuleYaml, drainYaml, retriesYaml } from './yaml';

/** What the evidence says about one destination service. */
export interface ServiceEvidence {
  fqdn: string;
  subset: string | null;
  count: number;
  toTerminating: number;
  toTerminated: number;
  unknown: number;
  byFlag: Record<string, number>;
  /** Ready endpoints now (EndpointSlices), null when unknown. */
  replicas: number | null;
  /** Most pods of the server workloads holding an IP at once during the failures (history). */
  replicasDuring: number | null;
  concurrentTerminations: number;
  /** Median failures one client sent to one dead/dying pod. */
  failuresPerClientPod: number;
  /** Largest time after deletion start among failures to terminating pods (ms). */
  maxAfterDeletionMs: number | null;
  /** Largest time after deletion start among failures to pods already gone (ms). */
  maxAfterGoneMs: number | null;
  /** Server workloads ("ns/name") of the pods the failures went to. */
  serverWorkloads: string[];
  /** Largest terminationGracePeriodSeconds seen for those pods (null: unknown, 30 assumed). */
  graceSeconds: number | null;
  resilience: ServiceResilience;
  destinationRule: DestinationRule | null;
  /** The cluster's istiod version (its image tag), null when unknown. */
  istiodVersion?: string | null;
}

/**
 * What istiod does with a not-ready endpoint, by its version: before 1.31 it leaves it out of
 * EDS; from 1.31 it sends it (as unhealthy) unless the DestinationRule's outlierDetection sets
 * minHealthPercent (PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS=false on istiod restores the old way).
 */
export function unhealthyEndpointsNote(version: string | null | undefined): string {
  if (version === null || version === undefined)
    return "istiod's version is unknown: before 1.31 it leaves not-ready endpoints out of EDS; from 1.31 it sends them as unhealthy unless outlierDetection.minHealthPercent is set (PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS=false restores the old behaviour).";
  const release = parseIstioRelease(version);
  if (release === null)
    return `istiod's image tag (${version}) names no Istio release: before 1.31 it leaves not-ready endpoints out of EDS; from 1.31 it sends them as unhealthy unless outlierDetection.minHealthPercent is set.`;
  return compareIstioMinors(release.minor, '1.31') >= 0
    ? `This istiod (${version}) sends not-ready endpoints to the proxies as unhealthy unless outlierDetection.minHealthPercent is set; set it in this DestinationRule's outlierDetection, or PILOT_AUTO_SEND_UNHEALTHY_ENDPOINTS=false on istiod, for a deleted pod to leave EDS when it stops being ready.`
    : `This istiod (${version}) leaves not-ready endpoints out of EDS; from 1.31 it sends them as unhealthy unless outlierDetection.minHealthPercent is set: add it before upgrading.`;
}

function subjectOf(fqdn: string): FindingSubject {
  const s = parseServiceFqdn(fqdn);
  return s
    ? { kind: 'Service', namespace: s.namespace, name: s.name }
    : { kind: 'Service', name: fqdn };
}

function finding(
  v: IncidentVerdict,
  subject: FindingSubject,
  evidence: Finding['evidence'],
  fix?: Finding['fix'],
): Finding {
  const c = INCIDENT_CATALOG[v];
  return { code: c.code, severity: c.severity, subject, evidence, ...(fix ? { fix } : {}) };
}

/**
 * maxEjectionPercent that lets Envoy eject `hosts` of `replicas` at once, but never all of them
 * when there are several: with every host ejected Envoy has nowhere to send (UH, or panic mode
 * routing to all of them anyway).
 */
export function ejectionPercentFor(hosts: number, replicas: number | null): number {
  const n = replicas !== null && replicas > 0 ? replicas : hosts + 1;
  const wanted = Math.ceil((100 * Math.max(1, hosts)) / n);
  const cap = n > 1 ? Math.floor((100 * (n - 1)) / n) : 100;
  return Math.min(wanted, cap);
}

/** The replica count to size ejection by: the larger of now and during the failures. */
export function replicasFor(
  e: Pick<ServiceEvidence, 'replicas' | 'replicasDuring'>,
): number | null {
  const known = [e.replicas, e.replicasDuring].filter((n): n is number => n !== null && n > 0);
  return known.length ? Math.max(...known) : null;
}

/** How many hosts an outlier setting can eject: Envoy always ejects the first one (verified). */
export function ejectableHosts(maxEjectionPercent: number | null, replicas: number): number {
  return Math.max(1, Math.floor(((maxEjectionPercent ?? 10) * replicas) / 100));
}

const RETRY_FOR_FLAG: Record<string, string[]> = {
  UC: ['reset', '5xx', 'gateway-error'],
  UF: ['connect-failure', '5xx', 'gateway-error'],
  UR: ['reset', '5xx'],
  LR: ['reset', '5xx'],
};
const ADD_FOR_FLAG: Record<string, string> = {
  UC: 'reset',
  UF: 'connect-failure',
  UR: 'reset',
  LR: 'reset',
};

/** Flags seen that the retry policy's retryOn does not cover. */
export function uncoveredFlags(retryOn: string, byFlag: Record<string, number>): string[] {
  const on = new Set(retryOn.split(',').map((s) => s.trim()));
  return Object.keys(byFlag)
    .filter((f) => RETRY_FOR_FLAG[f] !== undefined)
    .filter((f) => !(RETRY_FOR_FLAG[f] ?? []).some((c) => on.has(c)))
    .sort();
}

function recommendedOutlier(e: ServiceEvidence): OutlierDetection {
  const current = e.resilience.outlier;
  const consecutive = Math.max(
    1,
    Math.min(current?.consecutive5xxErrors ?? 5, 3, e.failuresPerClientPod - 1),
  );
  const percent = Math.max(
    current?.maxEjectionPercent ?? 0,
    ejectionPercentFor(Math.max(1, e.concurrentTerminations), replicasFor(e)),
  );
  return {
    consecutive5xxErrors: consecutive,
    interval: '5s',
    baseEjectionTime: current?.baseEjectionTime ?? '30s',
    maxEjectionPercent: percent,
  };
}

/**
 * The retryOn to write: the current conditions plus `add`. Istio turns numbers in a
 * VirtualService retryOn into the retriable status codes and replaces its default ones (503)
 * with them, so a policy built from the default names 503 itself.
 */
export function retryOnWith(current: string, isDefault: boolean, add: readonly string[]): string {
  const parts = current
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (isDefault && !parts.some((p) => /^\d{3}$/.test(p))) parts.push('503');
  return [...parts, ...add].filter((v, i, a) => a.indexOf(v) === i).join(',');
}

/** Findings with copyable fixes for one destination service, from the evidence. */
export function recommendForService(e: ServiceEvidence): Finding[] {
  const out: Finding[] = [];
  const subject = subjectOf(e.fqdn);
  const dying = e.toTerminating + e.toTerminated;
  const od = e.resilience.outlier;
  const drYaml = () =>
    destinationRuleYaml(e.fqdn, e.destinationRule, recommendedOutlier(e), od?.subset ?? null);
  if (e.toTerminated > 0) {
    out.push(
      finding(
        'sent-to-gone-pod',
        subject,
        {
          requests: e.toTerminated,
          maxAfterGoneMs: e.maxAfterGoneMs,
          servers: e.serverWorkloads.join(','),
        },
        {
          why: `Client proxies still routed to endpoints of deleted pods: eject them on the first failures (outlier detection) and retry on another host. ${unhealthyEndpointsNote(e.istiodVersion)}`,
          yaml: drYaml(),
        },
      ),
    );
  }
  if (e.toTerminating > 0) {
    out.push(
      finding('sent-to-terminating-pod', subject, {
        requests: e.toTerminating,
        maxAfterDeletionMs: e.maxAfterDeletionMs,
        servers: e.serverWorkloads.join(','),
      }),
    );
  }
  if (dying > 0 && !od) {
    out.push(
      finding(
        'no-outlier-detection',
        subject,
        {
          destinationRule: e.resilience.destinationRule,
          replicas: e.replicas,
          replicasDuringFailures: e.replicasDuring,
          concurrentTerminations: e.concurrentTerminations,
          failuresPerClientPod: e.failuresPerClientPod,
        },
        {
          why: `Eject a host after ${recommendedOutlier(e).consecutive5xxErrors} consecutive 5xx; maxEjectionPercent ${recommendedOutlier(e).maxEjectionPercent} lets ${ejectableHosts(recommendedOutlier(e).maxEjectionPercent ?? 10, replicasFor(e) ?? Math.max(1, e.concurrentTerminations) + 1)} of ${replicasFor(e) ?? '?'} hosts be ejected at once (${Math.max(1, e.concurrentTerminations)} were dying together), never all.`,
          yaml: drYaml(),
        },
      ),
    );
  } else if (dying > 0 && od) {
    const consecutive = od.consecutive5xxErrors ?? 5;
    const replicas = replicasFor(e) ?? Math.max(1, e.concurrentTerminations);
    const ejectable = ejectableHosts(od.maxEjectionPercent, replicas);
    const tooMany = consecutive >= e.failuresPerClientPod;
    const tooFew = ejectable < e.concurrentTerminations;
    if (tooMany || tooFew) {
      out.push(
        finding(
          'outlier-detection-weak',
          subject,
          {
            destinationRule: od.source,
            consecutive5xxErrors: consecutive,
            failuresPerClientPod: e.failuresPerClientPod,
            maxEjectionPercent: od.maxEjectionPercent ?? 10,
            ejectableHosts: ejectable,
            concurrentTerminations: e.concurrentTerminations,
          },
          {
            why: tooMany
              ? `A dying host gave each client about ${e.failuresPerClientPod} failures, fewer than consecutive5xxErrors ${consecutive}: it was never ejected.`
              : `Only ${ejectable} of ${replicas} hosts can be ejected but ${e.concurrentTerminations} were dying at once.`,
            yaml: drYaml(),
          },
        ),
      );
    }
  }
  const retries = e.resilience.retries;
  const missing = uncoveredFlags(retries.retryOn, e.byFlag);
  const exhausted = e.byFlag.URX ?? 0;
  if (missing.length > 0 || (exhausted > 0 && retries.attempts < 3)) {
    const add = [...new Set(missing.map((f) => ADD_FOR_FLAG[f] ?? ''))].filter((s) => s !== '');
    const retryOn = retryOnWith(retries.retryOn, retries.isDefault, add);
    const attempts = Math.max(3, retries.attempts);
    out.push(
      finding(
        'retries-miss-conditions',
        subject,
        {
          retries: retries.source ?? 'Istio default',
          attempts: retries.attempts,
          retryOn: retries.retryOn,
          uncoveredFlags: missing.join(',') || null,
          retryLimitExceeded: exhausted,
        },
        {
          why: `${missing.length ? `Retry on ${add.join(',')} too, so ${missing.join(',')} failures go to another host (previous_hosts)` : 'Retries ran out'}; ${attempts} attempts.${retries.isDefault ? " 503 is written out: a retryOn in a VirtualService replaces the status codes of Istio's default policy, which retries 503." : ''} Only for idempotent requests: \`reset\` retries a request the server may have started.`,
          yaml: retriesYaml(e.fqdn, retries.source, {
            attempts,
            retryOn,
            perTryTimeout: retries.perTryTimeout ?? '2s',
          }),
        },
      ),
    );
  }
  const clustered = e.count > 0 && e.toTerminating / e.count >= 0.5;
  const server = e.serverWorkloads[0];
  if (clustered && server) {
    const { namespace: ns, name } = parseObjectKey(server, 'workload reference');
    const afterS = Math.ceil((e.maxAfterDeletionMs ?? 0) / 1000);
    const drain = Math.max(15, Math.ceil((afterS + 5) / 5) * 5);
    const grace = Math.max(e.graceSeconds ?? 30, drain + 10);
    out.push(
      finding(
        'drain-too-short',
        { kind: 'Deployment', namespace: ns, name },
        {
          service: e.fqdn,
          requestsToTerminating: e.toTerminating,
          share: Math.round((100 * e.toTerminating) / e.count) / 100,
          lastFailureAfterDeletionS: afterS,
          recommendedDrainS: drain,
        },
        {
          why: `Keep the server proxy serving for ${drain}s after termination starts (clients saw failures up to ${afterS}s in); the grace period must exceed it.`,
          yaml: drainYaml(ns, name, drain, grace),
        },
      ),
    );
  }
  if (e.unknown > 0) {
    out.push(finding('unattributed', subject, { requests: e.unknown }));
  }
  return out;
}
