/**
 * The parameters of a page's link that the page does not read (a misspelt filter, a parameter
 * of another view pasted along): the page still opens, and says which it ignored, with the
 * parameter it may have meant, instead of quietly showing an unfiltered view. API routes refuse
 * them (app/api/_lib/params.ts); a pasted incident link should still open.
 */
export interface IgnoredParam {
  name: string;
  /** The values given, in order (a parameter may come more than once). */
  values: string[];
  /** A parameter the page reads whose name is close to this one, or null. */
  meant: string | null;
}

/** At most this many ignored parameters are named one by one (all are counted). */
export const MAX_IGNORED_LISTED = 10;
/** Values are shown cut to this many characters. */
export const MAX_IGNORED_VALUE_CHARS = 80;

/**
 * The parameters of `given` that are neither in `reads` nor in `alsoRead` (read elsewhere, such
 * as `context`), in the order they first appear.
 */
export function ignoredParams(
  given: URLSearchParams,
  reads: readonly string[],
  alsoRead: readonly string[] = [],
): IgnoredParam[] {
  const known = new Set([...reads, ...alsoRead]);
  const out = new Map<string, IgnoredParam>();
  for (const [name, value] of given) {
    if (known.has(name)) continue;
    const had = out.get(name);
    if (had) had.values.push(value);
    else out.set(name, { name, values: [value], meant: closestName(name, reads) });
  }
  return [...out.values()];
}

/**
 * The name in `names` that `name` most likely stands for: equal but for case, or at most two
 * edits away (one for names of four characters or fewer); null when none or a tie.
 */
export function closestName(name: string, names: readonly string[]): string | null {
  const lower = name.toLowerCase();
  const sameCase = names.filter((n) => n.toLowerCase() === lower);
  if (sameCase.length === 1) return sameCase[0] as string;
  let best: string | null = null;
  let bestDistance = Infinity;
  let tie = false;
  for (const n of names) {
    const limit = Math.min(n.length, name.length) <= 4 ? 1 : 2;
    const d = editDistance(lower, n.toLowerCase(), limit);
    if (d > limit) continue;
    if (d < bestDistance) {
      best = n;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance) tie = true;
  }
  return tie ? null : best;
}

/**
 * Levenshtein distance with adjacent transpositions counted as one edit (optimal string
 * alignment), or limit + 1 once it is certain to be more than `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      cur[j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > limit) return limit + 1;
    prev2 = prev;
    prev = cur;
  }
  const d = prev[b.length] as number;
  return d > limit ? limit + 1 : d;
}

/** Values of one parameter shown (a link may repeat one hundreds of times). */
export const MAX_IGNORED_VALUES_SHOWN = 3;

/**
 * An ignored parameter as the page names it: `name=value&name=value`, its name and values cut
 * (shownValue), at most MAX_IGNORED_VALUES_SHOWN values, and how many more there were.
 */
export function ignoredText(p: IgnoredParam): string {
  const name = shownValue(p.name);
  const text = p.values
    .slice(0, MAX_IGNORED_VALUES_SHOWN)
    .map((v) => `${name}=${shownValue(v)}`)
    .join('&');
  const more = p.values.length - MAX_IGNORED_VALUES_SHOWN;
  return more > 0 ? `${text} (and ${more} more values)` : text;
}

/** A value as shown: cut to MAX_IGNORED_VALUE_CHARS characters, with an ellipsis when cut. */
export function shownValue(v: string): string {
  const chars = [...v];
  return chars.length <= MAX_IGNORED_VALUE_CHARS
    ? v
    : `${chars.slice(0, MAX_IGNORED_VALUE_CHARS).join('')}…`;
}
