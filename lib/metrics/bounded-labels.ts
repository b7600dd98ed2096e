/**
 * Label values with a bounded count, for meshdx's own /api/metrics: a label that grows with the
 * cluster (the namespace) keeps its `max` largest values, the rest summed under OTHER_LABEL, so
 * a scrape's series stay bounded however many namespaces the cluster has.
 */

/** The value that stands for the values left out. */
export const OTHER_LABEL = '_other';
/** The value of a count that is in no namespace (a mesh-wide finding). */
export const NO_NAMESPACE_LABEL = '_none';
/** Namespaces a metric names before the rest go to OTHER_LABEL. */
export const MAX_NAMESPACE_LABELS = 50;

/**
 * `counts` by key kept to the `max` keys of the largest totals (ties by name), the others merged
 * into OTHER_LABEL. `key` picks the bounded label of a count's labels; the others are kept.
 */
export function boundLabel<L extends Record<string, string>>(
  counts: readonly { labels: L; value: number }[],
  key: keyof L & string,
  max: number,
): { labels: L; value: number }[] {
  const valueOf = (labels: L): string => labels[key] ?? '';
  const totals = new Map<string, number>();
  for (const c of counts)
    totals.set(valueOf(c.labels), (totals.get(valueOf(c.labels)) ?? 0) + c.value);
  const kept = new Set(
    [...totals]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, Math.max(0, max))
      .map(([k]) => k),
  );
  const out = new Map<string, { labels: L; value: number }>();
  for (const c of counts) {
    const labels = kept.has(valueOf(c.labels)) ? c.labels : { ...c.labels, [key]: OTHER_LABEL };
    const id = JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
    const e = out.get(id);
    if (e) e.value += c.value;
    else out.set(id, { labels, value: c.value });
  }
  return [...out.values()];
}
