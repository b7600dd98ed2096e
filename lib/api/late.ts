import { z } from 'zod';

/** A part of a view that was not read by the view's deadline (MESHDX_VIEW_DEADLINE_MS). */
export const LatePartSchema = z.object({
  /** What is missing: "pods", "injection (nodes, istiod)", "scoping analysis"... */
  part: z.string(),
  /** Why and how far it got. */
  detail: z.string(),
});
export type LatePart = z.infer<typeof LatePartSchema>;

/** The late parts of a view's answer (absent or empty: everything was read). */
export const LatePartsSchema = z.array(LatePartSchema).optional();

/**
 * How often a screen asks again: soon while its last answer had a late part (a first pod list
 * still running fills the view within seconds), else every `steadyMs`.
 */
export function refetchWhileLate(
  data: { late?: readonly LatePart[] | undefined } | undefined,
  steadyMs: number,
): number {
  return data?.late && data.late.length > 0 ? 2_000 : steadyMs;
}
