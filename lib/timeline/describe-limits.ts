/**
 * What a timeline judged from `kubectl describe pod` text may claim: describe prints container
 * start and finish times to the second, but no condition times, no hooks and event ages only
 * relative to an unprinted moment, so the proxy's ready time is never better than medium, and
 * low when it rests on events placed to worse than a few seconds, or on nothing but a bound.
 */
import type { Confidence, PodTimeline } from './types';
import type { DescribedPod } from './describe';
import { podKey } from '../refs/pod-ref';

const RANK: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };
const lower = (a: Confidence, b: Confidence): Confidence => (RANK[a] <= RANK[b] ? a : b);

/** The most a describe-read timeline can be sure of. */
export function describeCeiling(t: PodTimeline, d: DescribedPod): Confidence {
  const source = t.proxyReady.source;
  if (source === 'unhealthy-events' && d.eventTimes !== 'medium') return 'low';
  if (source === 'probe-lower-bound' || source === 'none') return 'low';
  return 'medium';
}

/** The timeline with its confidences capped and what describe could not tell in its notes. */
export function limitByDescribe(t: PodTimeline, d: DescribedPod): PodTimeline {
  if (d.containersCut) return notJudged(t, d, d.containersCut);
  const ceiling = describeCeiling(t, d);
  return {
    ...t,
    proxyReady: { ...t.proxyReady, confidence: lower(t.proxyReady.confidence, ceiling) },
    verdicts: t.verdicts.map((v) => ({ ...v, confidence: lower(v.confidence, ceiling) })),
    notes: [
      ...t.notes,
      `read from \`kubectl describe pod\`: confidence at most ${ceiling}`,
      ...d.unknowns.map((u) => `not known from describe: ${u}`),
    ],
  };
}

/**
 * A pod whose paste ends inside its containers is not judged: the containers after the cut
 * (the app, or the proxy) decide the mode. istio-proxy known to be a regular container leaves
 * classic or hold (describe prints no hooks), said as such.
 */
function notJudged(
  t: PodTimeline,
  d: DescribedPod,
  cut: NonNullable<DescribedPod['containersCut']>,
): PodTimeline {
  const unsure = t.mode === 'gateway' || t.mode === 'none';
  return {
    ...t,
    ...(unsure && cut.proxyContainer
      ? {
          mode: 'classic' as const,
          modeReasons: [
            'istio-proxy is a regular container (shown, or named in sidecar.istio.io/status): classic, or hold if a postStart wait was injected (describe does not print hooks)',
          ],
        }
      : {}),
    excluded: `not judged: ${cut.why}`,
    verdicts: [],
    gapMs: null,
    proxyReady: { ...t.proxyReady, confidence: 'low' },
    notes: [
      // what the analysis said of containers it could not see is not known either
      ...t.notes.filter((n) => n !== 'no istio-proxy'),
      ...stuck(d),
      ...d.unknowns.map((u) => `not known from describe: ${u}`),
    ],
  };
}

/** Containers the paste shows waiting (CrashLoopBackOff...), with their last run's end. */
function stuck(d: DescribedPod): string[] {
  const s = d.pod.status;
  return [...(s?.initContainerStatuses ?? []), ...(s?.containerStatuses ?? [])]
    .filter((c) => c.state?.waiting?.reason)
    .map((c) => {
      const last = c.lastState?.terminated;
      const ended = last
        ? `; its last run ended ${last.reason ?? 'terminated'}, exit code ${last.exitCode}`
        : '';
      return `${c.name} is waiting (${c.state?.waiting?.reason})${ended}`;
    });
}

/** Each timeline limited by its described pod (matched by namespace and name). */
export function limitAllByDescribe(
  timelines: readonly PodTimeline[],
  described: readonly DescribedPod[],
): PodTimeline[] {
  const byKey = new Map(
    described.map((d) => [podKey(d.pod.metadata.namespace ?? '', d.pod.metadata.name), d]),
  );
  return timelines.map((t) => {
    const d = byKey.get(podKey(t.namespace, t.name));
    return d ? limitByDescribe(t, d) : t;
  });
}
