/**
 * What each Sidecar applied in the window did to the line: the average clusters per proxy at the
 * last step before it came into force, and at the last step before the next one (or the window's
 * end). Read off the same points the chart draws, so the words and the chart agree; a side with
 * no sample is null (unknown), never 0.
 */
export interface MarkerEffect {
  at: number;
  before: number | null;
  after: number | null;
}

export function markerEffects(
  points: readonly { t: number; avg: number | null }[],
  markers: readonly { at: number }[],
): MarkerEffect[] {
  const times = [...new Set(markers.map((m) => m.at))].sort((a, b) => a - b);
  const lastIn = (from: number, to: number) => {
    let v: number | null = null;
    for (const p of points) if (p.t >= from && p.t < to && p.avg !== null) v = p.avg;
    return v;
  };
  return times.map((at, i) => ({
    at,
    before: lastIn(-Infinity, at),
    after: lastIn(at, times[i + 1] ?? Infinity),
  }));
}
