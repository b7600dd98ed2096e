/**
 * What the bloat chart's time axis spans: the asked window, or from the first step any proxy
 * reported (or the first Sidecar marker, if earlier) to the window's end, so a namespace whose
 * series start late (a Prometheus installed ten minutes ago, pods created since) is not drawn as
 * a sliver at the right edge of an empty hour. The steps before are gaps, and the chart says so.
 */
export interface ChartExtent {
  /** epoch ms */
  start: number;
  end: number;
  /** The first step with a sample, when it is after the window's first step; else null. */
  firstSampleAt: number | null;
}

export function chartExtent(
  points: readonly { t: number; avg: number | null }[],
  markers: readonly { at: number }[],
): ChartExtent | null {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return null;
  const reported = points.find((p) => p.avg !== null);
  if (!reported) return null;
  const earliestMarker = Math.min(...markers.map((m) => m.at).filter((t) => t >= first.t));
  const start = Math.max(first.t, Math.min(reported.t, earliestMarker));
  return {
    start,
    end: last.t,
    firstSampleAt: reported.t > first.t ? reported.t : null,
  };
}
