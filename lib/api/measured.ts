import { z } from 'zod';

/**
 * A figure is measured or it is unknown, with its reason; never 0 standing for "not read". A
 * figure that was read but cannot be (a negative count, 1e308 bytes) is unknown with the raw
 * value kept (lib/plausible/checks.ts decides).
 */
export const ImplausibleSchema = z.object({
  /** The figure as its source names it (`envoy_cluster_manager_active_clusters`). */
  figure: z.string(),
  /** What was read, as text (`-5`, `1e+308`). */
  raw: z.string(),
  /** Why it cannot be. */
  reason: z.string(),
});

/** One figure: its value, or unknown with the reason (and the raw value when implausible). */
export const MeasuredSchema = z.discriminatedUnion('known', [
  z.object({ known: z.literal(true), value: z.number() }),
  z.object({
    known: z.literal(false),
    reason: z.string(),
    raw: z.string().nullable(),
  }),
]);
export type Measured = z.infer<typeof MeasuredSchema>;

/**
 * A total over what was measured: the sum of the known figures (null when none is known), how
 * many it counts, and how many that should count are unknown.
 */
export const MeasuredSumSchema = z.object({
  value: z.number().nullable(),
  known: z.number(),
  unknown: z.number(),
});
export type MeasuredSum = z.infer<typeof MeasuredSumSchema>;

export const known = (value: number): Measured => ({ known: true, value });
export const unknownBecause = (reason: string, raw: string | null = null): Measured => ({
  known: false,
  reason,
  raw,
});

/** Adds figures into a total: known ones are summed, unknown ones counted. */
export function sumMeasured(figures: Iterable<number | null>): MeasuredSum {
  let value: number | null = null;
  let knownN = 0;
  let unknownN = 0;
  for (const f of figures) {
    if (f === null) unknownN++;
    else {
      value = (value ?? 0) + f;
      knownN++;
    }
  }
  return { value, known: knownN, unknown: unknownN };
}
