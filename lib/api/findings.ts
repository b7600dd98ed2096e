import { z } from 'zod';
import { FINDING_PART_KINDS } from '../findings/types';

export const FindingSchema = z.object({
  code: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  subject: z.object({ kind: z.string(), namespace: z.string().optional(), name: z.string() }),
  /** The port, subset, destination... of the subject the finding is about (part of its identity). */
  part: z.object({ kind: z.enum(FINDING_PART_KINDS), name: z.string() }).optional(),
  evidence: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  fix: z.object({ why: z.string(), yaml: z.string().optional() }).optional(),
});

export const FindingsReportSchema = z.object({
  generatedAt: z.string(),
  catalog: z.array(
    z.object({
      code: z.string(),
      severity: z.enum(['error', 'warning', 'info']),
      title: z.string(),
      description: z.string(),
      domain: z.string().optional(),
    }),
  ),
  findings: z.array(FindingSchema),
  /** What was read to make the findings; a source that failed says why (never silently dropped). */
  sources: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string() })).optional(),
});
export type FindingsReport = z.infer<typeof FindingsReportSchema>;
