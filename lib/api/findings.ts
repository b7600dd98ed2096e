import { z } from 'zod';
import { LatePartsSchema } from './late';
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

const SeveritySchema = z.enum(['error', 'warning', 'info']);
const SubjectSchema = z.object({
  kind: z.string(),
  namespace: z.string().optional(),
  name: z.string(),
});
const FixSchema = z.object({ why: z.string(), yaml: z.string().optional() });

/** One affected object of a group: what the single finding said about it. */
export const GroupObjectSchema = z.object({
  subject: SubjectSchema,
  part: z.object({ kind: z.enum(FINDING_PART_KINDS), name: z.string() }).optional(),
  severity: SeveritySchema,
  /** Harm seen on this object (restarts, failed probes, failed requests), not only exposure. */
  harmed: z.boolean(),
  evidence: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

/**
 * Findings of one code, as one group: the affected objects inside it, the fix
 * offered once at the scope that fixes them all (mesh, namespace, workload or object), and the
 * per-object fixes for those the scoped fix does not reach. Severity follows harm.
 */
export const FindingGroupSchema = z.object({
  key: z.string(),
  code: z.string(),
  title: z.string(),
  severity: SeveritySchema,
  /** 'observed' when at least one object shows harm; 'exposure' when none does yet. */
  harm: z.enum(['observed', 'exposure']),
  count: z.number(),
  harmed: z.number(),
  objects: z.array(GroupObjectSchema),
  fix: FixSchema.extend({ scope: z.enum(['mesh', 'namespace', 'workload', 'object']) }).optional(),
  rest: z.array(z.object({ fix: FixSchema, subjects: z.array(SubjectSchema) })),
});
export type FindingGroup = z.infer<typeof FindingGroupSchema>;
export type GroupObject = z.infer<typeof GroupObjectSchema>;

const AnalyzeMessageSchema = z.object({
  level: z.string(),
  code: z.string(),
  kind: z.string(),
  namespace: z.string().nullable(),
  name: z.string(),
  message: z.string(),
});

/** An archive's own `istioctl analyze` output beside meshdx's findings (lib/archive/analyze). */
export const IstioctlComparisonSchema = z.object({
  source: z.string(),
  agreed: z.array(AnalyzeMessageSchema),
  onlyIstioctl: z.array(AnalyzeMessageSchema),
  onlyMeshdx: z.array(
    z.object({
      code: z.string(),
      subject: z.object({ kind: z.string(), namespace: z.string().optional(), name: z.string() }),
    }),
  ),
  notClaimed: z.array(AnalyzeMessageSchema),
  unreadLines: z.number().int().nonnegative(),
});
export type IstioctlComparison = z.infer<typeof IstioctlComparisonSchema>;

const IstioApplicabilitySchema = z.object({
  since: z.string(),
  until: z.string().optional(),
  byDefault: z.string().optional(),
  why: z.string(),
});

/** One istiod (a revision) whose release its image tag names (lib/findings/istiod.ts). */
export const IstiodReleaseSchema = z.object({
  minor: z.string(),
  version: z.string(),
  preRelease: z.boolean(),
  revision: z.string(),
  from: z.string(),
});

export const IstiodJudgementSchema = z.object({
  /** The istiods whose release is known, newest first; empty: unknown. */
  releases: z.array(IstiodReleaseSchema),
  /** Why (part of) the version is unknown; null when every istiod seen says its release. */
  unknown: z.string().nullable(),
  /** Findings of codes whose Istio versions leave out every istiod of the cluster. */
  notApplicable: z.array(FindingSchema),
});
export type IstiodJudgement = z.infer<typeof IstiodJudgementSchema>;

export const FindingsReportSchema = z.object({
  generatedAt: z.string(),
  catalog: z.array(
    z.object({
      code: z.string(),
      severity: z.enum(['error', 'warning', 'info']),
      title: z.string(),
      description: z.string(),
      domain: z.string().optional(),
      /** The Istio versions the code applies to (lib/findings/types.ts IstioApplicability). */
      istio: IstioApplicabilitySchema,
    }),
  ),
  findings: z.array(FindingSchema),
  /** The same findings grouped by code and fix, worst first (lib/findings/group.ts). */
  groups: z.array(FindingGroupSchema).optional(),
  /** What was read to make the findings; a source that failed says why (never silently dropped). */
  sources: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string() })).optional(),
  /** Analyses not done by the view's deadline: their findings are missing, not absent. */
  late: LatePartsSchema,
  /** istioctl codes no check could judge (a rule's input kind unread: rulesNotRun). */
  notChecked: z.array(z.string()).optional(),
  /** On an archive with `analyze/` output: istioctl's messages beside meshdx's findings. */
  istioctl: IstioctlComparisonSchema.optional(),
  /**
   * The istiod version the findings were judged against (or why it is unknown), and the
   * findings of codes not for it: listed here apart, in no count (lib/findings/istiod.ts).
   */
  istiod: IstiodJudgementSchema.optional(),
  /**
   * Live reports: the revision of the configuration changes heard when the report was begun
   * (the browser asks for a new report when the revision it polls has moved past it), and the
   * kinds whose changes are not heard as they happen (the report's cache time covers them).
   */
  follow: z
    .object({
      revision: z.number().int().nonnegative(),
      unwatched: z.array(z.object({ kind: z.string(), why: z.string() })),
    })
    .optional(),
  /** Findings silenced (galley.istio.io/analyze-suppress, kiali.io/ignore-validations), how many and by what. */
  suppressed: z
    .object({
      count: z.number().int().nonnegative(),
      by: z.array(z.object({ by: z.string(), count: z.number().int().positive() })),
    })
    .optional(),
});
export type FindingsReport = z.infer<typeof FindingsReportSchema>;

/** How long a page following the findings waits before asking again after a failed ask (ms). */
export const FINDINGS_FOLLOW_POLL_MS = 1_000;

/** GET /api/findings/changes: the revision of the configuration changes heard, polled. */
export const FindingsChangesSchema = z.object({
  revision: z.number().int().nonnegative(),
  /** Kinds whose changes are heard as they happen. */
  watched: z.number().int().nonnegative(),
});
export type FindingsChanges = z.infer<typeof FindingsChangesSchema>;
