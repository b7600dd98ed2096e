import { z } from 'zod';

/**
 * lib/parse-problem's ParseProblem on the wire: every view that shows parse problems uses it
 * (extended with fields of its own). Its test holds the two to the same shape.
 */
export const ParseProblemSchema = z.object({
  line: z.number(),
  column: z.number().optional(),
  reason: z.string(),
  message: z.string(),
  excerpt: z.string().optional(),
});
