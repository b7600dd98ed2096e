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
